"""表格、输出与行间公式在手机（390 px）和 PDF（打印样式、正文栏 650 px）上读得清：

- 表格里的数和元组（如 (2, 3, 4)）不在中间折行，表头不拆成一字一行；
- 表格比栏宽时在自己的框里横向滚动，框上方有一行看得见的提示；放得下时不显示提示；
- 代码块比自己的框宽时（横向滚动），代码上方同样有一行看得见的提示（手机上滚动条常常看不见）；放得下时没有；
- 输出（print 的结果）里的数不在中间折行（如「0.00」不拆成「0.0」和「0」）；
- 行间公式里最小的字（上下标）不小于 MIN_GLYPH_PX（dsx.js 把太宽的公式缩小时也一样）；
- 窄屏上式号单独占一行时，紧挨着公式的下方（离公式不超过 MAX_EQNO_GAP_PX），不像属于下一段。
"""
import pytest

from conftest import ROOT, chapter_paths
from test_browser import all_pages

MIN_GLYPH_PX = 9.0
MAX_EQNO_GAP_PX = 12.0
PDF_TEXT_WIDTH = 650   # dsx_book/build_pdf.py 的 TEXT_WIDTH_PX
PRINT_CSS = (ROOT / "dsx_book" / "pdf" / "print.css").read_text(encoding="utf-8")

FIT_JS = r"""() => {
  const linesOf = (node, from = 0, to = Infinity) => {
    const tops = [], walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    let k = 0;
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      for (let i = 0; i < t.textContent.length; i++, k++) {
        if (k < from || k >= to || !t.textContent[i].trim()) continue;
        const r = document.createRange(); r.setStart(t, i); r.setEnd(t, i + 1);
        const rect = r.getClientRects()[0];
        if (rect && rect.width > 0) tops.push(rect.top + rect.height / 2);
      }
    }
    tops.sort((a, b) => a - b);
    return tops.filter((v, i) => i === 0 || v - tops[i - 1] > 4).length;
  };
  const visible = el => el.getClientRects().length > 0;
  const hinted = hint => !!hint && hint.classList.contains('dsx-scroll-hint') && !hint.hidden && visible(hint)
                         && getComputedStyle(hint).display !== 'none';
  const out = {tables: 0, wideCode: 0, cells: [], heads: [], hints: [], numbers: [], formulas: [], smallest: Infinity, eqno: []};
  for (const t of document.querySelectorAll('article table')) {
    if (!visible(t)) continue;
    out.tables++;
    for (const c of t.querySelectorAll('td, th')) {
      const text = c.textContent.trim();
      if (/^[-+−]?[\d(（][\d\s.,()+\-−e×%]*$/.test(text) && linesOf(c) > 1) out.cells.push(text);
      if (c.tagName === 'TH' && text.length > 1 && linesOf(c) > 1) out.heads.push(text);
    }
    const box = t.closest('.dsx-table-scroll');
    const caption = (t.querySelector('caption') || t).textContent.trim().slice(0, 24);
    if (!box) { out.hints.push('没有滚动框：' + caption); continue; }
    const wide = Math.max(t.scrollWidth, t.getBoundingClientRect().width) > box.clientWidth + 1;
    const shown = hinted(box.previousElementSibling);
    if (wide && !shown && matchMedia('screen').matches) out.hints.push('要滚动却没有提示：' + caption);
    if (!wide && shown) out.hints.push('不用滚动却有提示：' + caption);
  }
  for (const pre of document.querySelectorAll('article div.highlight > pre')) {
    if (!visible(pre)) continue;
    const wide = pre.scrollWidth > pre.clientWidth + 1, shown = hinted(pre.previousElementSibling);
    const line = pre.textContent.trim().split('\n')[0].slice(0, 30);
    out.wideCode += wide;
    if (wide && !shown && matchMedia('screen').matches) out.hints.push('代码要滚动却没有提示：' + line);
    if (!wide && shown) out.hints.push('代码不用滚动却有提示：' + line);
  }
  for (const pre of document.querySelectorAll('article div.cell_output pre')) {
    if (!visible(pre)) continue;
    const text = pre.textContent;
    for (const m of text.matchAll(/-?\d+(?:\.\d+)+(?:e[+-]?\d+)?|\d{3,}/g)) {
      if (linesOf(pre, m.index, m.index + m[0].length) > 1) out.numbers.push(m[0]);
    }
  }
  for (const box of document.querySelectorAll('article div.math')) {
    const sizes = Array.from(box.querySelectorAll('mjx-c')).filter(visible).map(c => parseFloat(getComputedStyle(c).fontSize));
    if (!sizes.length) continue;
    const least = Math.min(...sizes);
    out.smallest = Math.min(out.smallest, least);
    out.formulas.push([box.id, least]);
    const no = box.querySelector('span.eqno'), f = box.querySelector('mjx-container, .katex-display, svg');
    if (no && f && visible(no)) {
      const a = f.getBoundingClientRect(), b = no.getBoundingClientRect();
      if (b.top >= a.bottom - 1) out.eqno.push([box.id, b.top - a.bottom]);   // 式号在公式下方（窄屏）
    }
  }
  return out;
}"""


def _problems(found, path, where):
    problems = []
    if found["cells"]:
        problems.append(f"{path}（{where}）表格里的数或元组折行了：{found['cells'][:5]}")
    if found["heads"]:
        problems.append(f"{path}（{where}）表头折成了几行：{found['heads'][:5]}")
    if found["hints"]:
        problems.append(f"{path}（{where}）{found['hints'][:5]}")
    if found["numbers"]:
        problems.append(f"{path}（{where}）输出里的数在中间折行：{found['numbers'][:5]}")
    small = [(i, round(s, 1)) for i, s in found["formulas"] if s < MIN_GLYPH_PX]
    if small:
        problems.append(f"{path}（{where}）公式里最小的字小于 {MIN_GLYPH_PX} px：{small[:5]}")
    far = [(i, round(g)) for i, g in found["eqno"] if g > MAX_EQNO_GAP_PX]
    if far:
        problems.append(f"{path}（{where}）式号离公式太远（px）：{far[:5]}")
    return problems


@pytest.mark.parametrize("width", [390])
@pytest.mark.parametrize("path", all_pages())
def test_tables_outputs_and_formulas_fit_a_phone(visited, path, width):
    page = visited
    page.evaluate("window.dispatchEvent(new Event('resize'))")
    page.wait_for_timeout(100)
    found = page.evaluate(FIT_JS)
    assert _problems(found, path, "390 px") == []


def test_the_phone_check_measures_something(browser, site_url):
    """对照：量到了表格、公式和会滚动的表格（第 3、11 章），并且去掉本书的表格样式后，第 3 章的形状表又会断行；
    首页的安装命令块在手机上要横向滚动，去掉提示就被查出（学习者评审 r39：它滚动却没有任何提示）。"""
    context = browser.new_context(viewport={"width": 390, "height": 900}, locale="zh-CN")
    page = context.new_page()
    page.goto(f"{site_url}book/index.html")
    page.wait_for_load_state("load")
    found = page.evaluate(FIT_JS)
    assert found["wideCode"] >= 1 and found["hints"] == [], found
    page.evaluate("document.querySelectorAll('.dsx-scroll-hint').forEach(h => h.remove())")
    hidden = page.evaluate(FIT_JS)["hints"]
    assert "代码要滚动却没有提示：python -m venv .venv" in hidden, hidden
    page.goto(f"{site_url}book/ch03_dim_keepdim.html")
    page.wait_for_load_state("load")
    found = page.evaluate(FIT_JS)
    assert found["tables"] >= 1 and found["cells"] == [] and found["heads"] == []
    page.add_style_tag(content=".bd-article table th, .bd-article table th p, .bd-article table td.dsx-nowrap "
                               "{ white-space: normal !important; }")
    broken = page.evaluate(FIT_JS)
    assert broken["cells"] and any("(2, 3, 4)" == c for c in broken["cells"]), broken
    page.goto(f"{site_url}book/ch12_modern_variants.html")
    page.wait_for_load_state("load")
    found = page.evaluate(FIT_JS)
    assert found["formulas"], "第 12 章有行间公式，应当量到"
    assert found["eqno"] and all(g <= MAX_EQNO_GAP_PX for _, g in found["eqno"]), found["eqno"]   # 式 (12.1) 在公式下方
    # 与 dsx.css 里去掉下边距的规则同一个选择器、写在它后面（!important 之间比特异性，再比先后）：恢复 MathJax 原来的 25 px
    page.add_style_tag(content='.bd-article div.math > mjx-container[display="true"] { margin-bottom: 25px !important; }')
    page.wait_for_timeout(100)
    assert any(g > MAX_EQNO_GAP_PX for _, g in page.evaluate(FIT_JS)["eqno"]), "对照：MathJax 原来的下边距应被查出"
    context.close()


@pytest.mark.parametrize("path", [f"book/{p.stem}.html" for p in chapter_paths()])
def test_tables_and_outputs_fit_the_pdf_column(browser, site_url, path):
    """打印样式（PDF 用的就是它）、正文栏宽 650 px：表格里的数、输出里的数都不在中间折行，表头不折行。"""
    context = browser.new_context(viewport={"width": PDF_TEXT_WIDTH, "height": 900}, locale="zh-CN")
    page = context.new_page()
    page.emulate_media(media="print")
    page.goto(f"{site_url}{path}")
    page.wait_for_load_state("load")
    # 与 dsx_book/build_pdf.py 相同：PDF 专用的打印样式，正文在 .dsx-print 里
    page.add_style_tag(content=PRINT_CSS)
    page.evaluate("document.querySelector('article.bd-article').classList.add('dsx-print')")
    problems = []
    for width in range(PDF_TEXT_WIDTH - 90, PDF_TEXT_WIDTH + 41, 10):   # 折行的位置随栏宽变：在一段宽度上都量
        page.set_viewport_size({"width": width, "height": 900})
        page.evaluate("window.dispatchEvent(new Event('resize'))")
        page.wait_for_timeout(50)
        problems += _problems(page.evaluate(FIT_JS), path, f"PDF，栏宽 {width} px")
    context.close()
    assert problems == []


def test_the_pdf_check_catches_numbers_split_by_break_all(browser, site_url):
    """对照：换回原来的 word-break: break-all，第 12 章 DyT 那段输出里的数就在某些栏宽下被拆开。"""
    context = browser.new_context(viewport={"width": PDF_TEXT_WIDTH, "height": 900}, locale="zh-CN")
    page = context.new_page()
    page.emulate_media(media="print")
    page.goto(f"{site_url}book/ch12_modern_variants.html")
    page.wait_for_load_state("load")
    page.add_style_tag(content=PRINT_CSS + ".dsx-print pre { word-break: break-all; }")
    page.evaluate("document.querySelector('article.bd-article').classList.add('dsx-print')")
    split = []
    for width in range(PDF_TEXT_WIDTH - 90, PDF_TEXT_WIDTH + 41, 10):
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(50)
        split += page.evaluate(FIT_JS)["numbers"]
    context.close()
    assert split, "break-all 时应当量到被拆开的数"
