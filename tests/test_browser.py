"""在无头 Chromium 里打开构建好的每一页：离线、无报错、公式已排版、图片已加载、中文用中文字体显示。

运行前需要先构建本书（make test 会先构建）。每页的截图保存在 _build/screenshots/。
"""
import re

import pytest
import yaml

from conftest import ROOT, chapter_paths, html_dir

SCREENSHOTS = ROOT / "_build" / "screenshots"
RAW_MATH = re.compile(r"\$\$|\\frac|\\sqrt|\\begin\{|\\mu\b|\\sigma\b")


def all_pages():
    root = html_dir()
    return sorted(str(p.relative_to(root)) for p in root.rglob("*.html") 
                  if not any(part.startswith((".", "_")) for part in p.relative_to(root).parts))


def wait_for_math(page):
    """公式在构建时已排版进网页（tools/dsx_math.py）；等公式用的字体加载完。页面上没有公式时立即返回。"""
    page.wait_for_function("""() => document.querySelectorAll('div.math, span.math').length === 0 ||
                                   document.fonts.status === 'loaded'""", timeout=20000)
    page.evaluate("() => document.fonts.ready.then(() => true)")


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
def test_page_offline_and_rendered(open_page, path):
    page = open_page(path)
    wait_for_math(page)
    page.wait_for_load_state("networkidle")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / (path.replace("/", "__") + ".png")), full_page=True)

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


def test_colab_and_download_buttons(open_page):
    """每个章节页面都有指向本章 .ipynb 的 Colab 链接和下载按钮。

    Colab 打开的是 notebooks 分支上的读者版笔记本（发布流程从 _build/reader/ 推送；详见 tests/test_reader_edition.py）。
    """
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    repo = config["repository"]["url"].rstrip("/").replace("https://github.com/", "")
    branch = "notebooks"
    for nb in chapter_paths():
        page = open_page(f"book/{nb.stem}.html")
        hrefs = page.eval_on_selector_all("a[href*='colab.research.google.com']", "els => els.map(e => e.href)")
        expected = f"https://colab.research.google.com/github/{repo}/blob/{branch}/book/{nb.name}"
        assert expected in hrefs, f"{nb.stem} 缺少 Colab 链接 {expected}；找到的是 {hrefs}"
        assert page.locator(".btn-download-source-button, a[href$='.ipynb'][download], button[title*='.ipynb'], .dropdown-download-buttons").count() > 0, \
            f"{nb.stem} 缺少下载笔记本的按钮"


@pytest.mark.parametrize("word", ["方差", "归一化"])
def test_chinese_search_finds_words(open_page, word):
    page = open_page(f"search.html?q={word}")
    page.wait_for_function("() => document.querySelectorAll('ul.search li').length > 0", timeout=20000)
    assert page.locator("ul.search li").count() > 0
    assert page.console_errors == []


def test_solution_is_folded_until_opened(open_page):
    """练习的参考答案在网页上默认折叠；点开之后才能看到参考代码。"""
    page = open_page("book/ch05_implement_layernorm.html")
    solution = page.locator("div.cell.tag_exercise-solution", has_text='"ch05-layer-norm"')
    output = solution.locator(".cell_output")
    assert output.count() == 1 and not output.is_visible(), "参考答案应当默认折叠"
    solution.locator("details.hide > summary").first.click()
    output.wait_for(state="visible")
    text = output.inner_text()
    assert "参考答案" in text and "class MyLayerNorm" in text and "def forward" in text, text[:200]
    assert page.console_errors == []


def test_print_table_is_a_real_html_table_in_the_book(open_page):
    """print_table 在书中显示为 HTML 表格（中文表头、格式化后的数字），不是对不齐的文本表格。"""
    page = open_page("book/ch00_environment.html")
    table = page.locator("table.dsx-table", has_text="每一行的均值与方差")
    assert table.count() == 1
    assert table.locator("th").all_inner_texts() == ["行", "数据", "均值", "方差（有偏）"]
    assert "[1.0000, 2.0000, 3.0000]" in table.locator("tbody tr").first.inner_text()
