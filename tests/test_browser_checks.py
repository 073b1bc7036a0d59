"""浏览器测试：书里尚未作答的练习是中性的灰色状态——没有红色的框，也看不到 not_done 之类的英文代码。

书中所有练习都保持模板原样（读者自己作答），所以每一章的检查输出都应是“尚未作答”。
检查的是浏览器算出来的颜色（getComputedStyle），亮色与暗色都看。
"""
import re

import pytest

from conftest import html_dir
from test_browser_explorers import CONTRAST_JS

RED_JS = """(el) => {
  function parse(s) { const m = s.match(/rgba?\\(([^)]+)\\)/); return m ? m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number) : null; }
  function red(s) { const c = parse(s); return !!c && (c.length < 4 || c[3] > 0) && c[0] - Math.max(c[1], c[2]) > 60; }
  const out = [];
  for (const e of [el].concat(Array.from(el.querySelectorAll("*")))) {
    const st = getComputedStyle(e);
    for (const prop of ["color", "borderLeftColor", "borderTopColor", "backgroundColor"]) {
      if (prop.startsWith("border") && parseFloat(st[prop.replace("Color", "Width")]) === 0) { continue; }
      if (red(st[prop])) { out.push(prop + "=" + st[prop] + " on " + e.tagName + "." + e.className); }
    }
  }
  return out;
}"""


def chapter_pages():
    return sorted(p.relative_to(html_dir()).as_posix() for p in (html_dir() / "book").glob("ch*.html"))


def test_book_has_exercise_checks():
    """对照：书里一共至少有 20 个练习检查输出（下面逐页的检查没有找到检查框时不会失败）。"""
    pages = chapter_pages()
    assert len(pages) >= 10, pages
    seen = sum(len(re.findall(r'class="dsx-check[ "]', (html_dir() / path).read_text(encoding="utf-8"))) for path in pages)
    assert seen >= 20, f"书里只找到 {seen} 个练习检查输出"


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path", chapter_pages())
def test_unanswered_exercises_show_no_red_box(visited, path, scheme):
    page = visited
    checks = page.locator(".dsx-check")
    for i in range(checks.count()):
        check = checks.nth(i)
        # 网页里能运行的练习：「尚未作答」；要用 PyTorch 的练习：说明去哪里运行（同样是灰色的 ○）
        state = check.get_attribute("data-state")
        assert state in ("not_done", "elsewhere"), f"{path}：{check.inner_text()}"
        text = check.inner_text()
        expected = "尚未作答" if state == "not_done" else "不能在网页里运行"
        assert text.startswith("○") and expected in text, text
        assert not re.search(r"not_done|✗|发现 \d+ 个问题", text), text
        reds = check.evaluate(RED_JS)
        assert not reds, f"{path}（{scheme}）里“尚未作答”的框是红色的：{reds}"
        low = [r for r in check.evaluate(CONTRAST_JS) if r["ratio"] < 4.5]
        assert not low, f"{path}（{scheme}）里检查输出的文字对比度不足 4.5:1：{low}"
    assert "not_done" not in page.locator("main").inner_text(), path
