"""在无头 Chromium 里打开构建好的每一页：离线、无报错、公式已排版、图片已加载、中文用中文字体显示。

运行前需要先构建本书（make test 会先构建）。设 DSX_SCREENSHOTS=1 时，每页的截图和打印出的 PDF 存到 _build/screenshots/，
供人查看（不设时省去约 80 张整页截图和 20 次打印，约 3 分钟；检查本身不变）。
逐页的检查都用 visited 夹具（tests/conftest.py）：每页在每种 (视口宽度, 亮/暗色) 下只打开一次，这一次里跑完全部检查。
"""
import os
import re

import pytest
import yaml

from conftest import ROOT, chapter_paths, html_dir

SCREENSHOTS = ROOT / "_build" / "screenshots"
SAVE_SCREENSHOTS = os.environ.get("DSX_SCREENSHOTS") == "1"   # 截图只给人看，测试不读它们
RAW_MATH = re.compile(r"\$\$|\\frac|\\sqrt|\\begin\{|\\mu\b|\\sigma\b")


def all_pages():
    root = html_dir()
    return sorted(str(p.relative_to(root)) for p in root.rglob("*.html")
                  if not any(part.startswith((".", "_")) for part in p.relative_to(root).parts))


def fonts_used_for(page, selector):
    """Chromium 实际用来绘制该元素文字的字体（CDP 的 CSS.getPlatformFontsForNode）。"""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    doc = cdp.send("DOM.getDocument", {"depth": -1})
    node = cdp.send("DOM.querySelector", {"nodeId": doc["root"]["nodeId"], "selector": selector})
    fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node["nodeId"]})["fonts"]
    return {f["familyName"]: f["glyphCount"] for f in fonts}


def test_site_has_every_chapter():
    pages = set(all_pages())
    for nb in chapter_paths():
        assert f"book/{nb.stem}.html" in pages, f"{nb.stem} 没有生成网页"


@pytest.mark.parametrize("path", all_pages())
def test_page_offline_and_rendered(visited, path):
    page = visited
    assert page.external_requests == [], f"{path} 向站外发出了请求：{page.external_requests[:5]}"
    assert page.console_errors == [], f"{path} 的控制台有错误：{page.console_errors[:5]}"

    n_math = page.locator("div.math, span.math").count()
    if n_math:
        assert page.locator("mjx-container").count() >= n_math, f"{path} 有公式没有被 MathJax 排版"
    math_problems = page.evaluate("""() => [
        ...Array.from(document.querySelectorAll('mjx-merror')).map(e => 'MathJax 报错：' + e.textContent),
        // text 命令里的转义（如下划线写成反斜杠加下划线）会被原样画出：CHTML 中是 mjx-mtext 里的 mjx-c5C
        ...Array.from(document.querySelectorAll('mjx-mtext'))
            .filter(e => e.querySelector('mjx-c.mjx-c5C')).map(e => '公式的文字里有反斜杠')]""")
    assert math_problems == [], f"{path} 的公式没有正确排版：{math_problems[:5]}"
    visible = page.evaluate("""() => {   // 正文文字（不含代码和代码输出）
        const root = (document.querySelector('article') || document.body).cloneNode(true);
        root.querySelectorAll('pre, code, .highlight, .cell_output, mjx-container, script, style')
            .forEach(el => el.remove());
        return root.innerText;
    }""")
    leftover = RAW_MATH.findall(visible)
    assert not leftover, f"{path} 的正文里残留未排版的 LaTeX：{leftover[:5]}"

    broken = page.evaluate("""() => Array.from(document.images)
        .filter(img => !(img.complete && img.naturalWidth > 0)).map(img => img.src)""")
    assert broken == [], f"{path} 有图片没有加载：{broken[:5]}"

    if page.locator("article h1").count():
        title = page.inner_text("article h1")
        if re.search(r"[\u4e00-\u9fff]", title):
            fonts = fonts_used_for(page, "article h1")
            assert any(re.search(r"CJK|Han|Hei|Song|WenQuanYi", name) for name in fonts), \
                f"{path} 的标题「{title}」没有用中文字体绘制：{fonts}"


@pytest.mark.parametrize("path", [f"book/{nb.stem}.html" for nb in chapter_paths()])
def test_colab_and_download_buttons(visited, path):
    """每个章节页面都有指向本章 .ipynb 的 Colab 链接和下载按钮。

    Colab 打开的是 notebooks 分支上的读者版笔记本（发布流程从 _build/reader/ 推送；详见 tests/test_reader_edition.py）。
    """
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    repo = config["repository"]["url"].rstrip("/").replace("https://github.com/", "")
    branch = "notebooks"
    stem = path.removeprefix("book/").removesuffix(".html")
    page = visited
    hrefs = page.eval_on_selector_all("a[href*='colab.research.google.com']", "els => els.map(e => e.href)")
    expected = f"https://colab.research.google.com/github/{repo}/blob/{branch}/book/{stem}.ipynb"
    assert expected in hrefs, f"{stem} 缺少 Colab 链接 {expected}；找到的是 {hrefs}"
    assert page.locator(".btn-download-source-button, a[href$='.ipynb'][download], button[title*='.ipynb'], .dropdown-download-buttons").count() > 0, \
        f"{stem} 缺少下载笔记本的按钮"


@pytest.mark.parametrize("word", ["方差", "归一化"])
def test_chinese_search_finds_words(open_page, word):
    page = open_page(f"search.html?q={word}")
    page.wait_for_function("() => document.querySelectorAll('ul.search li').length > 0", timeout=20000)
    assert page.locator("ul.search li").count() > 0
    assert page.console_errors == []


@pytest.mark.changes_page                       # 点开了参考答案
@pytest.mark.parametrize("path", ["book/ch05_implement_layernorm.html"])
def test_solution_is_folded_until_opened(visited, path):
    """练习的参考答案在网页上默认折叠（show_solution 的输出本身是收起的 <details>）；点开之后才能看到参考代码。"""
    page = visited
    solution = page.locator("div.cell.tag_exercise-solution", has_text='"ch05-layer-norm"')
    output = solution.locator(".cell_output details.dsx-solution pre")
    assert output.count() == 1 and not output.is_visible(), "参考答案应当默认折叠"
    solution.locator("details.dsx-solution > summary").first.click()
    output.wait_for(state="visible")
    text = solution.locator(".cell_output").inner_text()
    assert "参考答案" in text and "class MyLayerNorm" in text and "def forward" in text, text[:200]
    assert page.console_errors == []


@pytest.mark.parametrize("path", ["book/ch00_environment.html"])
def test_print_table_is_a_real_html_table_in_the_book(visited, path):
    """print_table 在书中显示为 HTML 表格（中文表头、格式化后的数字），不是对不齐的文本表格。"""
    page = visited
    table = page.locator("table.dsx-table", has_text="每一行的均值与方差")
    assert table.count() == 1
    assert table.locator("th").all_inner_texts() == ["行", "数据", "均值", "方差（有偏）"]
    assert "[1.0000, 2.0000, 3.0000]" in table.locator("tbody tr").first.inner_text()


# ---------------------------------------------------------------- 读者看到的样子：宽屏、手机、暗色、打印
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
CJK_TEXT = re.compile(r"[\u4e00-\u9fff]")


def screenshot(page, path, kind):
    """整页截图存到 _build/screenshots/（只在 DSX_SCREENSHOTS=1 时）。"""
    if not SAVE_SCREENSHOTS:
        return
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{path.replace('/', '__')}.{kind}.png"), full_page=True)


# 正文栏里超出栏宽的元素（不算在可横向滚动的框里面的部分）
TOO_WIDE = """() => {
    const column = document.querySelector('article.bd-article') || document.querySelector('main') || document.body;
    const right = column.getBoundingClientRect().right + 1, left = column.getBoundingClientRect().left - 1;
    const scrollable = el => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX);
    const out = [];
    for (const el of column.querySelectorAll('*')) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0 || (r.right <= right && r.left >= left)) continue;
        if (el.closest('mjx-assistive-mml')) continue;   // 只给读屏软件的 MathML：裁成 1 px、不可见，也不撑宽页面（下面另查页面不横向滚动）
        let box = el.parentElement, inside = false;
        while (box && box !== column) {
            if (scrollable(box)) { inside = true; break; }
            box = box.parentElement;
        }
        if (!inside) out.push(`${el.tagName.toLowerCase()}.${el.className}（宽 ${Math.round(r.width)} px，` +
                              `超出 ${Math.round(Math.max(r.right - right, left - r.left))} px）`);
    }
    return out;
}"""


# 标题、表格标题、图注里，最后一个字单独落在新的一行（孤字）
ORPHANS = """() => Array.from(document.querySelectorAll(
        'article h1, article h2, article h3, article caption, article figcaption')).flatMap(el => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const chars = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode())
        for (let i = 0; i < n.length; i++) if (n.data[i].trim() && n.data[i] !== '#') chars.push([n, i]);
    if (chars.length < 3) return [];
    const top = ([n, i]) => { const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
                              return r.getBoundingClientRect().top; };
    const last = top(chars[chars.length - 1]), before = top(chars[chars.length - 2]);
    return last - before > 4 ? [el.textContent.trim().slice(0, 40)] : [];
})"""


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("path", all_pages())
def test_nothing_wider_than_the_column(visited, path, width):
    """1280 px 和 390 px 宽时，正文栏里没有比栏宽的元素（可横向滚动的框里面的除外）；代码在 1280 px 时不需要滚动。"""
    page = visited
    screenshot(page, path, str(width))
    assert page.console_errors == [], f"{path} 的控制台有错误：{page.console_errors[:5]}"
    wide = page.evaluate(TOO_WIDE)
    assert wide == [], f"{path} 在 {width} px 宽时有元素超出正文栏：{wide[:5]}"
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth"), f"{path} 在 {width} px 宽时页面能横向滚动"
    if width == 1280:
        scrolling = page.evaluate("""() => Array.from(document.querySelectorAll('article pre'))
            .filter(pre => pre.offsetParent && pre.scrollWidth > pre.clientWidth + 1)
            .map(pre => pre.textContent.split('\\n').reduce((a, b) => a.length > b.length ? a : b))""")
        assert scrolling == [], f"{path} 在 1280 px 宽时有代码或输出要横向滚动，最长的一行：{scrolling[:3]}"
        shrunk = page.evaluate("""() => Array.from(document.querySelectorAll('article div.cell_output img'))
            .filter(img => img.naturalWidth > img.clientWidth + 1).map(img => img.alt.slice(0, 30))""")
        assert shrunk == [], f"{path} 有图比正文栏宽、被缩小显示（图里的字随之变小）：{shrunk[:3]}"
    orphans = page.evaluate(ORPHANS)
    assert orphans == [], f"{path} 在 {width} px 宽时有标题或表格标题的最后一行只剩一个字：{orphans[:5]}"


@pytest.mark.parametrize("width", [390])
@pytest.mark.parametrize("path", ["book/bridge.html"])
def test_bridge_page_code_fits_a_phone(visited, path, width):
    """衔接页最常在手机上读：390 px 宽时它的代码块不需要横向滚动。"""
    page = visited
    blocks = page.evaluate("""() => Array.from(document.querySelectorAll('article pre')).filter(pre => pre.offsetParent)
        .map(pre => [pre.scrollWidth - pre.clientWidth,
                     pre.textContent.split('\\n').reduce((a, b) => a.length > b.length ? a : b)])""")
    assert len(blocks) >= 4, f"{path} 上应有衔接页的几段代码，只找到 {len(blocks)} 段"
    scrolling = [line for over, line in blocks if over > 1]
    assert scrolling == [], f"{path} 在 {width} px 宽时有代码要横向滚动，最长的一行：{scrolling}"


@pytest.mark.parametrize("width", [390])
@pytest.mark.parametrize("path", all_pages())
def test_display_equations_fully_visible_on_phone(visited, path, width):
    """390 px 宽时，每个行间公式都完整显示在正文栏里，编号不压在公式上。"""
    page = visited
    problems = page.evaluate("""() => Array.from(document.querySelectorAll('div.math')).flatMap(box => {
        const formula = box.querySelector('mjx-container, .katex-display, svg');
        if (!formula) return ['公式没有排版：' + box.textContent.slice(0, 40)];
        const f = (formula.firstElementChild || formula).getBoundingClientRect();
        const b = box.getBoundingClientRect();
        const out = [];
        if (f.left < b.left - 1 || f.right > b.right + 1 || box.scrollWidth > box.clientWidth + 1)
            out.push(`公式超出 ${Math.round(Math.max(f.right - b.right, b.left - f.left, box.scrollWidth - box.clientWidth))} px：` + box.id);
        const eqno = box.querySelector('.eqno');
        if (eqno) {
            const e = eqno.getBoundingClientRect();
            if (e.left < f.right && e.right > f.left && e.top < f.bottom && e.bottom > f.top)
                out.push('编号压在公式上：' + eqno.textContent);
        }
        return out;
    })""")
    assert problems == [], f"{path}：{problems[:5]}"


# 暗色模式下正文栏里背景是浅色的元素（如白底的输出、表格）：axe 在文字与背景对比度算不出来时不报错，所以单独查
LIGHT_SLABS = """() => {
    const luminance = ([r, g, b]) => [r, g, b].map(c => { c /= 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; })
        .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
    return Array.from(document.querySelectorAll('article.bd-article *')).filter(el => {
        const m = getComputedStyle(el).backgroundColor.match(/[\\d.]+/g);
        if (!m || (m.length === 4 && +m[3] < 0.5) || !el.getClientRects().length) return false;
        if (!el.textContent.trim()) return false;   // 没有文字的色块（如图例里的色点）不影响阅读
        return luminance(m.slice(0, 3).map(Number)) > 0.4;
    }).map(el => `${el.tagName.toLowerCase()}.${el.className}`);
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path", all_pages())
def test_text_contrast(visited, path, scheme):
    """axe-core（npm 包，从本地文件注入）检查文字对比度：亮色和暗色模式下都达到 WCAG AA（正文 4.5:1）。"""
    if not AXE.exists():
        pytest.fail(f"缺少 {AXE}：请运行 make node_modules/.installed（make test 会安装）。")
    page = visited
    if scheme == "dark":
        screenshot(page, path, "dark")
        slabs = page.evaluate(LIGHT_SLABS)
        assert slabs == [], f"{path} 暗色模式下有浅色底的块：{slabs[:5]}"
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("""() => axe.run(document.querySelector('main') || document,
        {runOnly: {type: 'rule', values: ['color-contrast']}})""")
    low = [f"「{node['target'][0]}」{node['any'][0]['message'][:80] if node['any'] else ''}"
           for v in result["violations"] for node in v["nodes"]]
    assert low == [], f"{path}（{scheme}）有 {len(low)} 处文字对比度不够：{low[:5]}"


@pytest.mark.parametrize("path", all_pages())
def test_images_have_chinese_alt_text(visited, path):
    page = visited
    images = page.evaluate("""() => Array.from(document.images)
        .map(img => [img.getAttribute('src'), img.getAttribute('alt') || ''])""")
    bad = [src for src, alt in images if not CJK_TEXT.search(alt) or re.search(r"\.(png|svg|jpe?g|gif)\b", alt)]
    assert bad == [], f"{path} 有图片缺少中文的替代文字：{bad[:5]}"


@pytest.mark.changes_page
@pytest.mark.parametrize("path", all_pages())
def test_print_layout(visited, path):
    """打印（存成 PDF）时：代码换行不截断，折叠的内容全部展开。DSX_SCREENSHOTS=1 时打印出的 PDF 存在 _build/screenshots/。"""
    page = visited
    page.emulate_media(media="print")
    problems = page.evaluate("""() => {
        const out = [];
        for (const pre of document.querySelectorAll('article pre'))
            if (pre.scrollWidth > pre.clientWidth + 1) out.push('代码被截断：' + pre.textContent.slice(0, 40));
        for (const d of document.querySelectorAll('article details')) {
            const body = Array.from(d.children).find(c => c.tagName !== 'SUMMARY');
            // 折叠着的 details 内容仍有尺寸，只是不绘制：用 checkVisibility 判断是否真的显示
            if (body && !body.checkVisibility()) out.push('折叠的内容没有展开：' + d.textContent.slice(0, 40));
        }
        return out;
    }""")
    if SAVE_SCREENSHOTS:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.pdf(path=str(SCREENSHOTS / (path.replace("/", "__") + ".pdf")), format="A4", print_background=True)
    assert problems == [], f"{path} 打印时：{problems[:5]}"


@pytest.mark.changes_page      # 改了视口宽度
@pytest.mark.parametrize("path", ["book/index.html"])
def test_front_page_download_links_resolve(visited, path):
    """首页的下载链接都能下载：dsx_util 的 wheel 与 sdist（与 make dist 构建的相同）、笔记本压缩包、网页版的压缩包
    （make book 打好包后复制进网站并显示链接，与 _build/dsx-book-web.zip 相同：中国大陆的读者打不开 GitHub Release）；
    PDF 的链接只在网站里有 PDF 时才显示（make pdf 把 PDF 复制进来并显示链接），显示出来的链接总能下载。
    两种链接在 1280 px 与手机的 390 px 宽时都这样（评审 r40 在手机上找 PDF）。"""
    from dsx_book.web_archive import ARCHIVE
    from dsx_book.nbsync import package_version, wheel_name
    dist = ROOT / "_build" / "dist"
    page = visited
    base = page.url.rsplit("/", 1)[0] + "/"
    for name in (wheel_name(), f"dsx_util-{package_version()}.tar.gz"):
        link = page.locator(f'article a[href$="/dist/{name}"]')
        assert link.count() == 1 and link.is_visible(), f"首页没有 {name} 的下载链接"
        response = page.request.get(base + link.get_attribute("href"))
        assert response.ok, f"{name} 的链接打不开：{response.status}"
        assert response.body() == (dist / name).read_bytes(), f"网站上的 {name} 与 make dist 构建的不同"
    archive = page.locator('article a[href$="dsx-notebooks.zip"]')
    assert archive.count() == 1 and page.request.get(base + archive.get_attribute("href")).ok
    web = page.locator(f'article a[href$="/{ARCHIVE.name}"]')
    assert web.count() == 1, f"首页没有 {ARCHIVE.name} 的下载链接"
    response = page.request.get(base + web.get_attribute("href"))
    assert response.ok and response.body() == ARCHIVE.read_bytes(), f"首页的 {ARCHIVE.name} 与 make book 打的压缩包不同"
    pdf = page.locator('article a[href$=".pdf"]')
    assert pdf.count() == 1
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        assert web.is_visible(), f"{width} px 宽时首页看不见 {ARCHIVE.name} 的下载链接"
        if not (html_dir() / "gpt-layernorm.pdf").exists():
            assert pdf.is_hidden(), f"网站里没有 PDF，首页在 {width} px 宽时却显示了下载 PDF 的链接"
        if pdf.is_visible():
            response = page.request.get(base + pdf.get_attribute("href"))
            assert response.ok and response.body()[:5] == b"%PDF-", "首页显示的 PDF 链接打不开"
    assert page.external_requests == []


def test_pdf_link_is_shown_once_the_pdf_is_copied(tmp_path):
    """make pdf 把 PDF 复制进网站后调用 show_pdf_link：构建时隐藏的链接变为可见；再运行一次也不出错。"""
    from dsx_book import build_pdf
    (tmp_path / "book").mkdir()
    page = (html_dir() / "book" / "index.html").read_text(encoding="utf-8")
    assert build_pdf.PDF_LINK_HIDDEN in page or build_pdf.PDF_LINK_SHOWN in page, "首页没有 PDF 链接的段落"
    hidden = page.replace(build_pdf.PDF_LINK_SHOWN, build_pdf.PDF_LINK_HIDDEN)
    (tmp_path / "book" / "index.html").write_text(hidden, encoding="utf-8")
    for _ in range(2):
        build_pdf.show_pdf_link(tmp_path)
        shown = (tmp_path / "book" / "index.html").read_text(encoding="utf-8")
        assert build_pdf.PDF_LINK_HIDDEN not in shown and build_pdf.PDF_LINK_SHOWN in shown
    assert shown == hidden.replace(build_pdf.PDF_LINK_HIDDEN, build_pdf.PDF_LINK_SHOWN)
