"""浏览器测试：书里尚未作答的练习是中性的灰色状态——没有红色的框，也看不到 not_done 之类的英文代码。

书中所有练习都保持模板原样（读者自己作答），所以每一章的检查输出都应是“尚未作答”。
检查的是浏览器算出来的颜色（getComputedStyle），亮色与暗色都看。
网页练习的检查单元格上方有一行说明它是给 Jupyter、Colab 用的（手机与宽屏、亮色与暗色）。
"""
import re

import pytest

from conftest import html_dir
from dsx_book.inpage import CHECK_LABEL
from dsx_util.exercises.catalog import EXERCISES
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


IN_PAGE = [ex for ex in EXERCISES if ex.in_page]
LABEL_JS = """el => {
  let bar = el.previousElementSibling;
  while (bar && ["STYLE", "SCRIPT"].includes(bar.tagName)) { bar = bar.previousElementSibling; }
  const cell = el.nextElementSibling, box = el.getBoundingClientRect();
  return {bar: bar && bar.classList.contains("dsx-inpage") ? bar.dataset.exercise : null,
          cell: cell && cell.classList.contains("tag_exercise-check") ? cell.textContent : null,
          right: box.right, room: document.documentElement.clientWidth, size: parseFloat(getComputedStyle(el).fontSize)};
}"""


IN_PAGE_PATHS = sorted({f"book/{ex.chapter}.html" for ex in IN_PAGE})
# 每页在宽屏的亮色、暗色与手机的亮色下看（这三种访问与其他测试共用）；手机的暗色只看有两道网页练习的第 6 章（多开的页面少）
LABEL_VIEWS = ([(p, w, s) for p in IN_PAGE_PATHS for w, s in [(1280, "light"), (1280, "dark"), (390, "light")]]
               + [("book/ch06_biased_unbiased.html", 390, "dark")])


@pytest.mark.parametrize("path, width, scheme", LABEL_VIEWS)
def test_in_page_check_cells_say_they_are_for_jupyter(visited, path, width, scheme):
    """网页练习：编辑器与「运行并检查」下面是笔记本里运行检查的那一格；它上方有一行说明：这一格是给 Jupyter、Colab 用的，
    网页上不用运行（学习者评审 r39：手机上的读者把它当成了要在网页里运行的代码）。手机与宽屏、亮色与暗色下都看得见、读得清。"""
    page = visited
    for ex in (ex for ex in IN_PAGE if f"book/{ex.chapter}.html" == path):
        label = page.locator(f'.dsx-check-label[data-exercise="{ex.id}"]')
        assert label.count() == 1, f"{path}（{width} px，{scheme}）：练习 {ex.id} 的检查单元格上方没有说明"
        assert label.is_visible() and label.inner_text() == CHECK_LABEL, (ex.id, label.inner_text())
        where = label.evaluate(LABEL_JS)
        assert where["bar"] == ex.id, f"{ex.id}：说明不在这道练习的「运行并检查」下面（{where['bar']}）"
        assert where["cell"] and f"{ex.checker}({ex.entry})" in where["cell"], f"{ex.id}：说明下面不是它的检查单元格"
        assert where["right"] <= where["room"] and where["size"] >= 11, where
        mine = [r for r in label.evaluate("(el, js) => eval(js)(el.parentElement)", CONTRAST_JS)
                if r["text"] == CHECK_LABEL[:30]]
        assert mine and min(r["ratio"] for r in mine) >= 4.5, f"{path}（{width} px，{scheme}）说明的文字对比度不足 4.5:1：{mine}"
    assert page.locator(".dsx-check-label").count() == len([ex for ex in IN_PAGE if f"book/{ex.chapter}.html" == path])
