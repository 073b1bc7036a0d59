"""网页轻而即时：不加载公式排版脚本和图标脚本，源文件里的每个公式在网页上都有排版结果。

公式在构建时由 dsx_book/formulas.py 排版，图标字体由 dsx_book/icons.py 裁成子集。运行前需要先构建本书。
体积和速度的数字由 bench/bench_pages.py 测量，这里只检查「有没有」。
"""
import json
import re

import pytest

from conftest import ROOT, html_dir, load_all_images


MATH_SCRIPT = re.compile(r"mathjax|katex|tex-(?:mml-)?(?:chtml|svg)", re.I)
ICON_SCRIPT = re.compile(r"fontawesome[^/]*\.js", re.I)
FULL_ICON_FONT = re.compile(r"vendor/fontawesome/webfonts/")
MATH_KINDS = {"math_inline": "inline", "math_inline_double": "display", "math_block": "display",
              "math_block_label": "display", "amsmath": "display"}


def all_pages():
    root = html_dir()
    return sorted(str(p.relative_to(root)) for p in root.rglob("*.html")
                  if not any(part.startswith((".", "_")) for part in p.relative_to(root).parts))


def _parser():
    """与 _config.yml 的 myst_enable_extensions 相同的 Markdown 语法（dollarmath、amsmath、colon_fence）。"""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.amsmath import amsmath_plugin
    from mdit_py_plugins.colon_fence import colon_fence_plugin
    from mdit_py_plugins.dollarmath import dollarmath_plugin
    return (MarkdownIt("commonmark").use(dollarmath_plugin, allow_labels=True, allow_space=True,
                                         allow_digits=True, double_inline=False)
            .use(amsmath_plugin).use(colon_fence_plugin).enable("table"))


def _formulas_in_markdown(md, text):
    found = []

    def walk(tokens):
        for tok in tokens:
            if tok.type in MATH_KINDS:
                found.append((MATH_KINDS[tok.type], tok.content.strip()))
            elif tok.type in ("fence", "colon_fence") and tok.info.startswith("{"):
                # MyST 指令（如 {note}）的正文也是 Markdown；去掉开头的 :选项: 行再解析
                body = re.sub(r"\A(?:\s*:[\w-]+:.*\n)*", "", tok.content)
                walk(md.parse(body))
            if tok.children:
                walk(tok.children)

    walk(md.parse(text))
    return found


def source_formulas(page):
    """网页 page（如 book/ch04_formulas.html）的源文件里写的公式：[(inline|display, TeX)]。"""
    stem = ROOT / page[: -len(".html")]
    md = _parser()
    if stem.with_suffix(".ipynb").exists():
        nb = json.loads(stem.with_suffix(".ipynb").read_text(encoding="utf-8"))
        cells = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]
    elif stem.with_suffix(".md").exists():
        cells = [stem.with_suffix(".md").read_text(encoding="utf-8")]
    else:
        cells = []                           # 搜索页、索引页等由 Sphinx 生成，没有源文件
    return [f for cell in cells for f in _formulas_in_markdown(md, cell)]


# 正文（article）里的公式；侧栏目录里重复出现的标题公式另外检查
RENDERED = """() => Array.from(document.querySelectorAll('article div.math, article span.math')).map(el => {
    const box = el.querySelector('mjx-container');
    const rect = box ? box.getBoundingClientRect() : null;
    return {kind: el.tagName === 'DIV' ? 'display' : 'inline',
            drawn: !!rect && rect.width > 0 && rect.height > 0 && !box.querySelector('mjx-merror'),
            tex: el.querySelector('.dsx-math-tex') ? el.querySelector('.dsx-math-tex').textContent : null};
})"""


def test_source_counting_sees_the_books_formulas():
    """数公式的办法本身要可靠：第 4 章的四个编号公式和行内公式都能从源文件里数出来。"""
    found = source_formulas("book/ch04_formulas.html")
    assert sum(kind == "display" for kind, _ in found) >= 4
    assert ("inline", r"\varepsilon") in found
    assert _formulas_in_markdown(_parser(), "价格 `$5` 与 $x$ 和\n\n$$y$$ (lab)\n") == [("inline", "x"), ("display", "y")]


@pytest.mark.parametrize("path", all_pages())
def test_page_loads_no_math_or_icon_script_and_every_formula_is_rendered(visited, path):
    page = visited          # 已网络空闲、字体与插图都已加载（与 test_browser.py 的逐页检查共用这一次打开）
    loaded = page.evaluate("() => performance.getEntriesByType('resource').map(e => e.name)")
    scripts = page.evaluate("() => Array.from(document.scripts).map(s => s.src).filter(Boolean)")

    assert [u for u in loaded + scripts if MATH_SCRIPT.search(u) and ".js" in u] == [], f"{path} 加载了公式排版脚本"
    assert page.evaluate("() => typeof window.MathJax") == "undefined", f"{path} 里有 MathJax"
    assert [u for u in loaded + scripts if ICON_SCRIPT.search(u)] == [], f"{path} 加载了图标脚本 fontawesome.js"
    assert [u for u in loaded if FULL_ICON_FONT.search(u)] == [], f"{path} 加载了完整的图标字体：应只用子集"
    assert [u for u in loaded if "pydata-sphinx-theme.css" in u] == [], f"{path} 加载了未精简的主题 CSS"
    if path != "search.html":
        assert [u for u in loaded if u.split("?")[0].endswith("searchindex.js")] == [], \
            f"{path} 加载了只有搜索页才用得到的搜索索引"
    if page.locator("[class^='sd-'], [class*=' sd-']").count() == 0:
        assert [u for u in loaded if "sphinx-design" in u or "design-tabs" in u] == [], \
            f"{path} 没有用 sphinx-design 的组件，却加载了它的样式或脚本"

    expected = source_formulas(path)
    rendered = page.evaluate(RENDERED)
    assert [r["kind"] for r in rendered] == [kind for kind, _ in expected], \
        f"{path}：源文件里有 {len(expected)} 个公式，网页上有 {len(rendered)} 个"
    missing = [tex for (_, tex), r in zip(expected, rendered) if not r["drawn"]]
    missing += page.evaluate("""() => Array.from(document.querySelectorAll('div.math, span.math'))
        .filter(el => !el.querySelector('mjx-container')).map(el => el.textContent)""")
    assert missing == [], f"{path} 有公式没有排版结果：{missing[:5]}"
    copied = [r["tex"] for r in rendered]
    wanted = [f"${tex}$" if kind == "inline" else f"$${tex}$$" for kind, tex in expected]
    assert copied == wanted, f"{path} 的公式附带的 TeX 源码与源文件不一致"
    if rendered:
        assert any("dsx-math/math.css" in u for u in loaded), f"{path} 有公式却没有加载公式样式"
        fonts = [u for u in loaded if re.search(r"dsx-math/fonts/MathJax_[\w-]+\.woff$", u)]
        assert fonts, f"{path} 没有加载公式字体"


@pytest.mark.changes_page                      # 选中了一段文字，写了剪贴板
@pytest.mark.parametrize("path", ["book/ch04_formulas.html"])
def test_copying_a_paragraph_copies_its_formulas_as_tex(visited, site_url, path):
    """选中一段含公式的正文复制，剪贴板里的公式是 $...$ 形式的 TeX（看得见的排版结果本身复制不出文字）。"""
    page = visited
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site_url.rstrip("/"))
    paragraph = page.locator("article p:has(span.math)").first
    inline = paragraph.locator("span.math").count()
    paragraph.evaluate("""p => { const r = document.createRange(); r.selectNodeContents(p);
                                 const s = getSelection(); s.removeAllRanges(); s.addRange(r); }""")
    page.keyboard.press("Control+C")
    text = page.evaluate("() => navigator.clipboard.readText()")
    tex = [t for _, t in source_formulas(path)]
    pieces = re.findall(r"\$([^$]+)\$", text)
    assert len(pieces) == inline and all(p in tex for p in pieces), text


@pytest.mark.parametrize("path", ["book/ch04_formulas.html"])
def test_equation_numbers_and_references(visited, path):
    """编号公式显示编号；{eq} 引用指向存在的公式，引用文字就是那个编号。"""
    page = visited
    refs = page.evaluate("""() => Array.from(document.querySelectorAll('article a[href^="#equation-"]'))
        .filter(a => !a.classList.contains('headerlink'))
        .map(a => { const target = document.getElementById(a.getAttribute('href').slice(1));
                    const eqno = target && target.querySelector('.eqno');
                    return [a.textContent.trim(), eqno ? eqno.textContent.trim() : null,
                            !!(target && target.querySelector('mjx-container'))]; })""")
    assert len(refs) >= 4
    for text, eqno, typeset in refs:
        assert eqno and typeset and eqno.startswith(text), (text, eqno, typeset)


@pytest.mark.changes_page                      # 换成打印样式
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path, width", [("book/ch04_formulas.html", 390)])
def test_formulas_take_the_text_colour_and_print(visited, path, width, scheme):
    """公式用正文的颜色（暗色模式下也看得清），不设固定宽度；打印时公式照常显示，复制用的 TeX 不显示。"""
    page = visited
    colours = page.evaluate("""() => Array.from(document.querySelectorAll('span.math mjx-container'))
        .map(m => [getComputedStyle(m).color, getComputedStyle(m.closest('p, li, td, div')).color])""")
    assert colours and all(a == b for a, b in colours), colours[:3]
    fixed = page.evaluate("""() => Array.from(document.querySelectorAll('mjx-container'))
        .filter(m => /(^|;)\\s*width/.test(m.getAttribute('style') || '')).length""")
    assert fixed == 0
    page.emulate_media(media="print")
    sizes = page.evaluate("""() => Array.from(document.querySelectorAll('mjx-container')).map(m => {
        const box = m.getBoundingClientRect(), tex = m.querySelector('.dsx-math-tex').getBoundingClientRect();
        return [box.width, box.height, tex.width * tex.height]; })""")
    assert sizes and all(w > 0 and h > 0 and hidden <= 1 for w, h, hidden in sizes)


# ---------------------------------------------------------------- 页面变轻的几处改写（dsx_book/trim.py、dsx_math.py）
def _chapter_html(stem):
    return (html_dir() / "book" / f"{stem}.html").read_text(encoding="utf-8")


def test_pages_carry_no_widget_state():
    """myst-nb 会把笔记本里的 ipywidgets 状态（每页 20–40 KB）写进页面，本书不用它：探索器自带页面内版本。"""
    for path in html_dir().rglob("*.html"):
        assert "application/vnd.jupyter.widget-state+json" not in path.read_text(encoding="utf-8"), path
    assert "dsx-explorer" in _chapter_html("ch03_dim_keepdim"), "第 3 章应当有交互探索器"


def test_math_fonts_are_subsets_that_keep_every_character_the_book_uses():
    from fontTools.ttLib import TTFont
    from dsx_book.formulas import FONTS, css_characters

    static = html_dir() / "_static" / "dsx-math"
    chars = css_characters((static / "math.css").read_text(encoding="utf-8"))
    assert {ord("x"), ord("σ"), ord("∑"), ord("√")} <= chars, "公式样式里应当有全书用到的字符"
    subsets = sorted((static / "fonts").glob("*.woff"))
    assert subsets
    total_before = total_after = 0
    for subset in subsets:
        full = TTFont(FONTS / subset.name).getBestCmap() or {}
        kept = TTFont(subset).getBestCmap() or {}
        lost = {chr(c) for c in chars if c in full and c not in kept}
        assert not lost, f"{subset.name} 的子集里缺了全书用到的字符：{sorted(lost)}"
        assert {c: kept[c] for c in kept} == {c: full[c] for c in kept}, f"{subset.name} 的字形对应变了"
        total_before += (FONTS / subset.name).stat().st_size
        total_after += subset.stat().st_size
    assert total_after <= 0.6 * total_before, f"公式字体只从 {total_before} 字节减到 {total_after} 字节"


def _math_screenshots(browser, site_url, full_fonts):
    """第 10 章（公式最多的一章）全部行间公式与 20 个行内公式的截图；full_fonts 时换回 MathJax 的完整字体。"""
    from dsx_book.formulas import FONTS

    context = browser.new_context(viewport={"width": 1280, "height": 900}, device_scale_factor=2)
    try:
        page = context.new_page()
        if full_fonts:
            page.route(re.compile(r".*/dsx-math/fonts/[^/?]+\.woff(\?.*)?$"), lambda route, request: route.fulfill(
                body=(FONTS / request.url.split("?")[0].rsplit("/", 1)[1]).read_bytes(), content_type="font/woff"))
        page.goto(site_url + "book/ch10_backward.html", wait_until="load")
        page.evaluate("() => document.fonts.ready.then(() => true)")
        display, inline = page.locator("article div.math"), page.locator("article span.math")
        assert display.count() >= 5 and inline.count() >= 40
        shots = [display.nth(i).screenshot() for i in range(display.count())]
        shots += [inline.nth(i).screenshot() for i in range(0, 40, 2)]
        return shots
    finally:
        context.close()


def test_formulas_look_the_same_with_the_font_subsets(browser, site_url):
    subset = _math_screenshots(browser, site_url, full_fonts=False)
    full = _math_screenshots(browser, site_url, full_fonts=True)
    different = [i for i, (a, b) in enumerate(zip(subset, full)) if a != b]
    assert different == [], f"用子集字体和完整字体排出的公式截图不同：第 {different} 个"


@pytest.mark.parametrize("path", ["book/ch04_formulas.html"])
def test_formulas_keep_mathjax_scale(visited, path):
    """公式相对正文放大 127.3%（与浏览器里的 MathJax 相同），写在共用样式里而不是每个公式上。"""
    page = visited
    ratios = page.evaluate("""() => Array.from(document.querySelectorAll('article mjx-container')).map(m =>
        parseFloat(getComputedStyle(m).fontSize) / parseFloat(getComputedStyle(m.parentElement).fontSize))""")
    assert ratios and all(abs(r - 1.273) < 0.01 for r in ratios), sorted(set(round(r, 3) for r in ratios))[:5]
    assert 'style="font-size' not in _chapter_html("ch04_formulas").split("<mjx-container", 1)[1][:200]


PLAIN_PROBE = """classes => {
    const pre = document.querySelector('article div.cell_input .highlight pre');
    const look = el => { const s = getComputedStyle(el);
        return [s.color, s.fontWeight, s.fontStyle, s.textDecorationLine].join(' '); };
    return classes.map(c => { const span = document.createElement('span'); span.className = c;
        span.textContent = 'x'; pre.append(span);
        const same = look(span) === look(pre) && getComputedStyle(span).backgroundColor === 'rgba(0, 0, 0, 0)';
        span.remove();
        return [c, same]; });
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path", ["book/ch09_pre_post_ln.html"])
def test_dropped_code_spans_looked_like_plain_code_text(visited, path, scheme):
    """去掉的高亮 <span>（名字、标点、空白……）在亮色和暗色里都与代码块的文字一样，去掉它们看起来不变。"""
    from dsx_book.trim import plain_token_classes

    classes = sorted(plain_token_classes((html_dir() / "_static" / "pygments.css").read_text(encoding="utf-8")))
    assert {"n", "p", "w"} <= set(classes)
    page = visited
    assert page.evaluate("() => document.documentElement.dataset.theme") == scheme
    differs = [c for c, same in page.evaluate(PLAIN_PROBE, classes) if not same]
    assert differs == [], f"这些高亮类的样式与代码文字不同，不能去掉：{differs}"
    # 对照：有颜色的类（关键字 k）确实不同，上面的比较能看出差别
    assert page.evaluate(PLAIN_PROBE, ["k"]) == [["k", False]]


@pytest.mark.parametrize("stem", ["ch05_implement_layernorm", "ch09_pre_post_ln"])
def test_code_cells_show_exactly_their_source(stem):
    """去掉 <span> 之后，网页上每个代码单元格的文字仍与笔记本里的源代码一字不差。"""
    from bs4 import BeautifulSoup
    import nbformat
    soup = BeautifulSoup(_chapter_html(stem), "html.parser")
    shown = [pre.get_text().strip() for pre in soup.select("div.cell_input pre")]
    assert shown, stem
    assert not soup.select('pre span.n, pre span.p, pre span.w'), "代码块里还有不改变样式的 <span>"
    nb = nbformat.read(ROOT / "book" / f"{stem}.ipynb", as_version=4)
    sources = {c.source.strip() for c in nb.cells if c.cell_type == "code"}
    missing = [text[:60] for text in shown if text not in sources]
    assert missing == [], f"网页上的代码与笔记本的源代码不一致：{missing[:3]}"


@pytest.mark.parametrize("width", [390, 1280])
def test_figures_load_lazily_in_reserved_space(browser, site_url, width):
    """插图延迟加载，但位置预先留好：图到达前后，图框的大小和图下方正文的位置都不变。"""
    context = browser.new_context(viewport={"width": width, "height": 800})
    try:
        page = context.new_page()
        page.goto(site_url + "book/ch09_pre_post_ln.html", wait_until="load")
        figures = page.locator("article img[src*='_images/']")
        assert figures.count() >= 3
        attrs = figures.evaluate_all("els => els.map(i => [i.getAttribute('loading'), i.getAttribute('width'), "
                                     "i.getAttribute('height')])")
        assert all(a[0] == "lazy" and a[1] and a[2] for a in attrs), attrs
        boxes = lambda: figures.evaluate_all(  # noqa: E731
            "els => els.map(i => { const r = i.getBoundingClientRect(); return [Math.round(r.height), i.complete && i.naturalWidth > 0]; })")
        before = boxes()
        assert not all(loaded for _, loaded in before), "页尾的图不应在打开页面时就下载"
        last = page.evaluate("() => document.querySelector('article').lastElementChild.getBoundingClientRect().top")
        load_all_images(page)
        after = boxes()
        assert all(loaded for _, loaded in after)
        assert [h for h, _ in before] == [h for h, _ in after], (before, after)
        assert all(h > 100 for h, _ in after)
        assert page.evaluate("() => document.querySelector('article').lastElementChild.getBoundingClientRect().top") == last
    finally:
        context.close()


THEME_PAGE = "book/ch03_dim_keepdim.html"


@pytest.fixture(scope="module")
def theme_before_theme_script(browser, site_url):
    """probe(scheme, stored=None)：系统颜色为 scheme、localStorage 里存着 stored=(模式, 亮/暗) 时，主题脚本运行之前
    （首次绘制的时刻）页面的 data-theme。

    首次绘制之前运行的只有 <head> 里的脚本（主题脚本 pydata-sphinx-theme.js 在 <body> 末尾、defer，这里还拦下了它），
    所以页面换成第 3 章自己的 <head>（取自构建结果，一字不改）加一个空的 <body>：决定颜色的是同一段脚本，
    却不必每次都载入整章的探索器与插图。七种情形共用一个页面，每种改系统颜色与 localStorage 后重新载入。"""
    built = (html_dir() / THEME_PAGE).read_text(encoding="utf-8")
    head = built[:built.index("</head>")]
    assert "prefers-color-scheme" in head, "第 3 章的 <head> 里没有定颜色的脚本"
    url = site_url + THEME_PAGE
    context = browser.new_context()
    page = context.new_page()
    page.route(re.compile(r".*pydata-sphinx-theme\.js.*"), lambda route: route.abort())
    page.route(url, lambda route: route.fulfill(body=head + "</head><body></body></html>",
                                                content_type="text/html; charset=utf-8"))
    page.goto(url, wait_until="load")

    def probe(scheme, stored=None):
        page.emulate_media(color_scheme=scheme)
        page.evaluate("""s => { localStorage.clear();
            if (s) { localStorage.setItem('mode', s[0]); localStorage.setItem('theme', s[1]); } }""", stored)
        page.reload(wait_until="load")
        return page.evaluate("() => document.documentElement.dataset.theme")

    yield probe
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("stored", [None, "light", "dark"])
def test_colour_mode_is_decided_before_the_theme_script(theme_before_theme_script, scheme, stored):
    """没有主题脚本时（即它运行之前，首次绘制的时刻）页面已是跟随系统的亮/暗色，代码块的样式不会在加载后才生效。

    stored：主题上次存下的亮/暗（读者之前来过，之后系统换了颜色）。模式是「跟随系统」时应以系统为准。
    """
    assert theme_before_theme_script(scheme, stored and ("auto", stored)) == scheme


def test_colour_mode_chosen_by_the_reader_wins(theme_before_theme_script):
    """读者在页面上选了暗色（模式 dark）时，即使系统是亮色，首次绘制也是暗色。"""
    assert theme_before_theme_script("light", ("dark", "dark")) == "dark"


def test_figure_tags_given_a_size_by_the_author_are_left_alone(tmp_path):
    from dsx_book.trim import lazy_figures

    (tmp_path / "a.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="300pt" height="150pt"></svg>')
    plain = '<img alt="图" src="../_images/a.svg" />'
    sized = '<img alt="图" src="../_images/a.svg" style="height: 200px" />'
    missing = '<img alt="图" src="../_images/none.svg" />'
    out = lazy_figures(plain + sized + missing, tmp_path)
    assert out.startswith('<img alt="图" src="../_images/a.svg" width="400" height="200" '
                          'style="aspect-ratio: 400.00 / 200.00" loading="lazy"')
    assert out.endswith(sized + missing)


def test_printing_a_page_loads_its_lazy_figures(open_page):
    """读者在浏览器里打印一章时（beforeprint），没滚动到的插图也先下载，打印出来不缺图。"""
    page = open_page("book/ch09_pre_post_ln.html")
    pending = "() => Array.from(document.images).filter(i => !(i.complete && i.naturalWidth > 0)).length"
    assert page.evaluate(pending) > 0, "页尾的图不应在打开页面时就下载"
    page.evaluate("() => window.dispatchEvent(new Event('beforeprint'))")
    page.wait_for_function(pending.replace("=> Array", "=> 0 === Array"), timeout=10000)
