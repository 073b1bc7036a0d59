"""网页练习的承诺（在离线的浏览器里，每个有网页练习的页面）：

- 只读不练：页面加载时不请求编辑器、Pyodide 或检查器的任何文件；整个过程不访问本站以外的地址；
- 写对 -> 通过；原样的模板 -> 中性的「○ 尚未作答」；犯了某个错误（目录里的、新的、两处的组合） -> 反馈里的说明
  与 CPython 里同一段代码得到的完全相同，错误代码也相同（在 data-codes 里，不显示给读者）；
- `while True: pass` -> 在时间限制内出现超时提示，页面照常滚动，之后还能再运行（限制属于页面的 Worker，测一道练习）；
- 写过的代码刷新后还在；「重置」先询问，取消就不丢代码。

每章的页面只打开一次（chapter_page），同一章的测试共用它和它的 Worker（一次 Pyodide 启动）。写对的代码与原样的模板
照读者的做法在编辑器里输入、按「运行并检查」；其余每段代码（错误写法）一次交给页面的 checkAll（inpage.js），
它与按钮经过同一个 judge，只是不经过编辑器，所以结论和显示与按钮的相同（测试也比较了模板在两条路上的显示）。
"""
import time
from urllib.parse import urlparse

import pytest

from dsx_util.exercises.catalog import EXERCISES
from dsx_util.exercises.list_checks import run_source
from inpage_cases import FIRST_ERRORS, FULLWIDTH_ALLOWED, MISTAKES, NAME_ERRORS, NOVEL, PAGE_ONLY

IN_PAGE = [ex for ex in EXERCISES if ex.in_page]
LIMIT_S = 5.0
FEATURE_FILES = ("/_static/dsx_inpage/", "/_static/pyodide/", "/_static/codemirror/")


def _offline_context(browser, site_url):
    """一个新的浏览器上下文：本站以外的请求（包括 Worker 发出的）一律拦截并记进 context.external；
    页面异常记进 context.errors。"""
    local = urlparse(site_url).netloc
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
    context.external, context.errors = [], []

    def on_route(route):
        url = route.request.url
        if urlparse(url).netloc == local or url.startswith(("data:", "blob:")):
            route.continue_()
        else:
            context.external.append(url)
            route.abort()
    context.route("**/*", on_route)
    return context


def _new_page(context):
    """context 里的新页面：它的请求记进 page.requests，页面异常记进 context.errors。"""
    page = context.new_page()
    page.requests = []
    page.on("request", lambda request: page.requests.append(request.url))
    page.on("pageerror", lambda err: context.errors.append(str(err)))
    return page


@pytest.fixture
def offline_page(browser, site_url):
    """这个测试自己的页面，在新的上下文里（见 _offline_context）：要刷新页面、依赖 localStorage 里没有保存的代码的测试用它。"""
    context = _offline_context(browser, site_url)
    yield _new_page(context)
    context.close()


@pytest.fixture(scope="module")
def chapter_page(browser, site_url):
    """chapter_page(chapter) -> 这一章的页面。同一章的测试共用一次打开，也就共用页面上唯一的 Worker（一次 Pyodide
    启动）；这些测试只改编辑器里的代码和反馈区，不刷新页面，互不妨碍。各章的页面在同一个上下文里（见 _offline_context），
    共用浏览器的缓存，就像读者一章章读下去：Pyodide 的文件只下载一次。

    打开后、任何测试动它之前，记下页面已请求过的网页练习文件（page.feature_requests，只读的页面应当没有）。"""
    context = _offline_context(browser, site_url)
    pages = {}

    def open_chapter(chapter):
        if chapter not in pages:
            page = _new_page(context)
            page.goto(f"{site_url}book/{chapter}.html")
            page.feature_requests = [u for u in page.requests if any(f in u for f in FEATURE_FILES)]
            pages[chapter] = page
        return pages[chapter]

    yield open_chapter
    context.close()


def _feedback(page, n):
    return page.locator(".dsx-inpage-feedback").nth(n)


def _set_code(page, n, code):
    page.locator(".dsx-inpage-code").nth(n).click()
    page.wait_for_function(f"document.querySelectorAll('.dsx-inpage-code')[{n}].querySelector('.CodeMirror')")
    page.evaluate(f"c => document.querySelectorAll('.dsx-inpage-code')[{n}].querySelector('.CodeMirror')"
                  ".CodeMirror.setValue(c)", code)


def _run(page, n, timeout=90_000):
    """按「运行并检查」，等到有结论（通过或失败），返回反馈的文字。"""
    box = page.locator(".dsx-inpage").nth(n)
    box.locator(".dsx-inpage-feedback").evaluate("el => el.className = 'dsx-inpage-feedback'")
    box.locator("button[data-action=run]").click()
    page.wait_for_function(
        f"document.querySelectorAll('.dsx-inpage-feedback')[{n}].className.match(/pass|fail|todo/)", timeout=timeout)
    return _feedback(page, n).inner_text()


def _box_of(page, ex_id):
    boxes = page.locator(".dsx-inpage")
    return [boxes.nth(i).get_attribute("data-exercise") for i in range(boxes.count())].index(ex_id)


def _shown_as_in_cpython(text, codes, ex, source):
    """反馈区的文字 text 与代码 codes（data-codes）与 CPython 里 run_source 的结果一致：同样的代码、同样的标题行和
    每条说明，没有英文代码。返回 CPython 的结果。"""
    expected = run_source(source, ex.checker, ex.entry)
    assert codes == expected["codes"], (codes, expected)
    assert text.startswith(expected["head"]), (text, expected["head"])
    if expected["state"] == "failed":
        assert all(m in text for m in expected["messages"]), (text, expected["messages"])
    assert not any(c in text for c in codes), text
    return expected


def _same_as_cpython(page, n, ex, source):
    """编辑器里的代码（已由 _set_code 放进去）按「运行并检查」：页面上的反馈与 CPython 的结果一致（见 _shown_as_in_cpython）。"""
    text = _run(page, n)
    return _shown_as_in_cpython(text, _feedback(page, n).get_attribute("data-codes").split(), ex, source)


VERDICT = ("state", "head", "messages", "codes")
CHECK_ALL = "([n, sources]) => window.dsxInpage.checkAll(document.querySelectorAll('.dsx-inpage')[n], sources)"


def _check_all(page, n, sources):
    """把 sources 一次交给页面的 checkAll（inpage.js）：每段代码都经过与「运行并检查」相同的 judge（同一个 Worker、
    同一个检查器、同一段显示代码），只是不经过编辑器。返回每段的结论与反馈区显示的样子。"""
    if not page.evaluate("() => !!window.dsxInpage"):     # inpage.js 在读者第一次点代码或按钮时才载入
        page.locator(".dsx-inpage-code").nth(n).click()
        page.wait_for_function("() => !!window.dsxInpage")
    verdicts = page.evaluate(CHECK_ALL, [n, list(sources)])
    assert len(verdicts) == len(sources) and not any(v["timeout"] for v in verdicts), verdicts
    return verdicts


def _batch_same_as_cpython(page, n, ex, sources):
    """sources 一次交给 checkAll：每段在页面上的反馈与 CPython 一致（_shown_as_in_cpython），页面的结论
    （state、head、messages、codes）与 CPython 的逐字相同。返回 [(页面的结论, CPython 的结果)]，顺序同 sources。"""
    pairs = []
    for verdict, source in zip(_check_all(page, n, sources), sources):
        expected = _shown_as_in_cpython(verdict["shown"], verdict["dataCodes"].split(), ex, source)
        assert {k: verdict[k] for k in VERDICT} == {k: expected[k] for k in VERDICT}, source
        pairs.append((verdict, expected))
    return pairs


@pytest.mark.parametrize("ex", IN_PAGE, ids=lambda ex: ex.id)
def test_in_page_exercise(ex, chapter_page):
    page = chapter_page(ex.chapter)
    n = _box_of(page, ex.id)
    assert "不需要安装" in _feedback(page, n).inner_text()    # 没试过之前：中性的说明，不是红色的失败
    assert _feedback(page, n).get_attribute("class") == "dsx-inpage-feedback"
    assert page.feature_requests == [], f"只读的页面不应加载网页练习的文件：{page.feature_requests}"

    # 写对 -> 通过（页面上第一次运行时加载 Pyodide）：在编辑器里输入，按「运行并检查」
    _set_code(page, n, ex.solution)
    assert _run(page, n).startswith("✓"), _feedback(page, n).inner_text()
    assert "pass" in _feedback(page, n).get_attribute("class")

    # 原样的模板：中性的「○ 尚未作答」，不是红色的失败（同样经过编辑器与按钮）
    _set_code(page, n, ex.template)
    assert _same_as_cpython(page, n, ex, ex.template)["codes"] == ["not_done"]
    assert "○" in _feedback(page, n).inner_text() and "尚未作答" in _feedback(page, n).inner_text()
    assert "todo" in _feedback(page, n).get_attribute("class") and "fail" not in _feedback(page, n).get_attribute("class")
    by_button = _feedback(page, n).evaluate("el => [el.innerHTML, el.className, el.dataset.codes]")

    # 每个有名字的错误、每个新错误（逐步诊断或两处错误的组合）、只在网页里是错的写法（如题目没有禁止的 numpy）：
    # 一次交给页面的 checkAll，每段的代码与说明 == CPython 里同一段代码的结果。
    # 打头的是模板：checkAll 显示的反馈与按钮显示的一字不差（两者是同一条路）
    cases = [(source, [code], code) for code, source in MISTAKES[ex.id].items()]
    cases += [(source, codes, what) for ex_id, what, source, codes in NOVEL if ex_id == ex.id]
    cases += [(source, [code], code) for ex_id, source, code, _ in PAGE_ONLY if ex_id == ex.id]
    (first, _), *found = _batch_same_as_cpython(page, n, ex, [ex.template] + [source for source, _, _ in cases])
    assert [first["html"], first["className"], first["dataCodes"]] == by_button, (first, by_button)
    for (_, expected), (_, codes, what) in zip(found, cases):
        assert expected["codes"] == codes, what

    assert page.context.external == [] and page.context.errors == []


def test_first_errors_read_the_same_in_the_page(chapter_page):
    """全角标点、缩进、导入 torch/numpy：页面（Pyodide）里的代码与说明和 CPython 里完全相同。"""
    ex = next(ex for ex in IN_PAGE if ex.id == "ch02-relu")
    page = chapter_page(ex.chapter)
    n = _box_of(page, ex.id)
    cases = [(source, code) for code, sources in FIRST_ERRORS.items() for source in sources]
    found = _batch_same_as_cpython(page, n, ex, [source for source, _ in cases] +
                                   [source for source, _ in NAME_ERRORS] + [FULLWIDTH_ALLOWED])
    for (_, expected), (source, code) in zip(found, cases):
        assert expected["codes"] == [code], source
    # 缺名字的报错：中文说明与相近的名字在 Pyodide 里也一样（说明逐字相同）
    for (_, expected), (_, words) in zip(found[len(cases):], NAME_ERRORS):
        assert expected["codes"] == ["raised"] and all(w in expected["messages"][0] for w in words), expected
    assert found[-1][0]["shown"].startswith("✓")     # 字符串和注释里的全角标点不算错
    assert page.context.external == [] and page.context.errors == []


def test_printed_lines_are_labelled_and_none_is_explained(chapter_page):
    """评审 r47：print 代替了 return 时，说明不说「NoneType」而说函数没有返回值（与 CPython 逐字相同）；打印的几行
    前面有一句「检查时你的代码打印了：」，不会被当成检查结果的一部分。"""
    ex = next(ex for ex in IN_PAGE if ex.id == "ch02-relu")
    page = chapter_page(ex.chapter)
    n = _box_of(page, ex.id)
    source = "def relu_list(values):\n    for v in values:\n        print(max(0.0, v))\n"
    [(verdict, expected)] = _batch_same_as_cpython(page, n, ex, [source])
    assert "NoneType" not in verdict["shown"] and "没有返回" in verdict["shown"], verdict["shown"]
    label = verdict["shown"].index("检查时你的代码打印了：")
    assert verdict["shown"].index("0.0", label) > label, verdict["shown"]


def test_endless_loop_stops_and_the_page_recovers(chapter_page):
    """死循环：在时间限制内给出超时提示；页面照常滚动；之后还能再运行。

    时间限制属于页面上唯一的那个 Worker（inpage.js 的 check：超时就结束 Worker，下次运行换新的），与是哪道练习无关，
    所以只在一道练习上测（每道都测要多等约 80 秒）。编辑器里的代码走「运行并检查」，与读者的操作相同。"""
    ex = next(ex for ex in IN_PAGE if ex.id == "ch04-layer-norm-rows")
    page = chapter_page(ex.chapter)
    n = _box_of(page, ex.id)
    _set_code(page, n, ex.solution)
    assert _run(page, n).startswith("✓")                      # Worker 已启动
    # 死循环在模块顶层（def 行在，missing_def 不先回答；函数体里的死循环由检查器自己的 2 秒限制拦下，测不到 Worker 的限制）
    _set_code(page, n, "def layer_norm_rows(rows, gamma, beta, eps=1e-5):\n    return rows\n\n\nwhile True:\n    pass\n")
    start = time.monotonic()
    text = _run(page, n)
    elapsed = time.monotonic() - start
    assert "超过 5 秒" in text and elapsed < LIMIT_S + 3, (text, elapsed)
    before = page.evaluate("window.scrollY")
    page.mouse.wheel(0, -400)
    page.wait_for_function(f"window.scrollY !== {before}", timeout=3000)
    _set_code(page, n, ex.solution)
    assert _run(page, n).startswith("✓")
    assert page.context.external == [] and page.context.errors == []


def test_typed_code_survives_reload_and_reset_asks_first(offline_page, site_url):
    ex = IN_PAGE[0]
    page = offline_page
    page.goto(f"{site_url}book/{ex.chapter}.html")
    page.locator(".dsx-inpage-code").first.click()
    page.wait_for_selector(".dsx-inpage-code .CodeMirror")
    page.keyboard.press("Control+End")
    page.keyboard.press("Enter")
    page.keyboard.insert_text("# 我的笔记：负数变成 0.0")          # 输入法提交的中文（没有逐键事件）
    page.keyboard.press("Enter")
    page.keyboard.type("x = 1")
    typed = page.evaluate("document.querySelector('.dsx-inpage-code .CodeMirror').CodeMirror.getValue()")
    assert "# 我的笔记：负数变成 0.0\n" in typed and typed.endswith("x = 1")   # 自动缩进保留了函数体的缩进

    page.reload()
    page.wait_for_selector(".dsx-inpage-code .CodeMirror")   # 有保存的代码：不用点击，编辑器自动恢复
    value = "document.querySelector('.dsx-inpage-code .CodeMirror').CodeMirror.getValue()"
    assert page.evaluate(value) == typed

    page.once("dialog", lambda dialog: dialog.dismiss())     # 取消：代码不丢
    page.locator(".dsx-inpage button[data-action=reset]").first.click()
    page.wait_for_timeout(300)
    assert page.evaluate(value) == typed
    page.once("dialog", lambda dialog: dialog.accept())      # 确定：恢复模板
    page.locator(".dsx-inpage button[data-action=reset]").first.click()
    page.wait_for_function(f"{value}.includes('NotImplementedError')")
    assert page.evaluate(value).strip() == ex.template.strip()
    page.reload()
    page.wait_for_timeout(500)
    assert page.locator(".dsx-inpage-code .CodeMirror").count() == 0   # 重置后没有保存的代码，页面回到只读状态
    assert page.context.external == [] and page.context.errors == []


def test_tab_indents_in_the_editor(chapter_page):
    page = chapter_page(IN_PAGE[0].chapter)
    _set_code(page, 0, "")
    page.locator(".dsx-inpage-code .CodeMirror").click()
    page.keyboard.press("Tab")
    page.keyboard.type("pass")
    assert page.evaluate("document.querySelector('.dsx-inpage-code .CodeMirror').CodeMirror.getValue()") == "    pass"
    assert page.evaluate("document.activeElement.closest('.CodeMirror') !== null")   # 焦点还在编辑器里
    # 不困住键盘（WCAG 2.1.2）：先按 Esc 再按 Tab，焦点离开编辑器，代码不变；说明写在编辑器的标签与工具栏里
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('.CodeMirror') === null")
    assert page.evaluate("document.querySelector('.dsx-inpage-code .CodeMirror').CodeMirror.getValue()") == "    pass"
    label = page.evaluate("document.querySelector('.dsx-inpage-code .CodeMirror textarea').getAttribute('aria-label')")
    assert "Esc" in label and "Tab" in label
    assert "先按 Esc 再按 Tab" in page.locator(".dsx-inpage-keys").first.inner_text()
    # 回到编辑器后 Tab 又是缩进
    page.locator(".dsx-inpage-code .CodeMirror").click()
    page.keyboard.press("End")
    page.keyboard.press("Tab")
    assert page.evaluate("document.querySelector('.dsx-inpage-code .CodeMirror').CodeMirror.getValue()") == "    pass    "


def test_site_ships_the_same_checker_and_the_pinned_runtime():
    """网页载入的检查器就是 dsx_util 里的那一份；Pyodide 是 package.json 里钉住的版本，文件在本站。"""
    import json

    from conftest import ROOT, html_dir
    from dsx_book.inpage import PAGE_LIST, page_files
    static = html_dir() / "_static"
    listed = json.loads((static / "dsx_inpage" / PAGE_LIST).read_text())
    assert "feedback.py" in listed and "list_checks.py" in listed and "items/ch02_relu/check.py" in listed
    for rel, path in page_files():   # 网页里的检查器与 dsx_util 里的是同一份（包括每道网页练习的 check.py）
        assert rel in listed and (static / "dsx_inpage" / rel).read_bytes() == path.read_bytes(), rel
    pinned = json.loads((ROOT / "package.json").read_text())["dependencies"]["pyodide"]
    # 0.28 起锁文件不再写 Pyodide 的版本；加载器 pyodide.js 里写着（版本不符时它拒绝启动）
    assert f'"{pinned}"' in (static / "pyodide" / "pyodide.js").read_text()
    lock = json.loads((static / "pyodide" / "pyodide-lock.json").read_text())
    assert lock["info"]["python"].startswith("3.")
    assert (static / "pyodide" / "pyodide.asm.wasm").stat().st_size > 1_000_000


# Pyodide 0.27.7 运行一道练习要下载的量（pyodide.js、asm.js、asm.wasm、标准库、锁文件，按 gzip 压缩后）。
# 换版本的条件之一是这个量不增加：314.0.8 是 6.05 MiB（多一成），所以停在 0.29.5（5.22 MiB）。
RUNTIME_BUDGET_MIB = 5.48


def test_runtime_download_is_no_heavier_than_before():
    """网站里的 Pyodide 只有 PYODIDE_FILES 这几个文件，压缩后的下载量不超过换版本前（0.27.7）。"""
    import gzip

    from conftest import html_dir
    from dsx_book.inpage import PYODIDE_FILES
    folder = html_dir() / "_static" / "pyodide"
    assert sorted(p.name for p in folder.iterdir()) == sorted(PYODIDE_FILES)
    mib = sum(len(gzip.compress((folder / f).read_bytes(), 6)) for f in PYODIDE_FILES) / 2**20
    assert mib <= RUNTIME_BUDGET_MIB, f"Pyodide 压缩后 {mib:.2f} MiB，超过换版本前的 {RUNTIME_BUDGET_MIB} MiB"


def test_generic_failures_same_in_page_and_cpython(chapter_page):
    """语法错误、函数名不对、抛出异常、函数里的死循环（检查器自己的时间限制）：页面与 CPython 的代码和说明相同。"""
    from inpage_cases import GENERIC
    ex = next(ex for ex in IN_PAGE if ex.id == "ch04-layer-norm-rows")
    page = chapter_page(ex.chapter)
    sources = [template.replace("{entry}", ex.entry) for template in GENERIC.values()]
    for (_, expected), code in zip(_batch_same_as_cpython(page, _box_of(page, ex.id), ex, sources), GENERIC):
        assert expected["codes"] == [code]
    assert page.context.external == [] and page.context.errors == []


@pytest.mark.parametrize("path", ["book/ch05_implement_layernorm.html"])
def test_torch_exercises_on_the_web_say_where_to_run_them(visited, site_url, path):
    """网页上不能运行的练习（要 PyTorch）：检查单元格下不说「换成你的实现后再运行这个单元格」，而是说去 Colab、
    本地 Jupyter 或下载的压缩包里运行，并链接到本章的读者版笔记本；链接能打开。"""
    from conftest import html_dir
    torch_exercises = [ex for ex in EXERCISES if not ex.in_page]
    for chapter in sorted({ex.chapter for ex in EXERCISES}):
        html = (html_dir() / "book" / f"{chapter}.html").read_text(encoding="utf-8")
        assert "换成你的实现后再运行" not in html and 'data-state="not_done"' not in html, chapter
        for ex in (e for e in torch_exercises if e.chapter == chapter):
            assert f'data-exercise="{ex.id}"' in html and "不能在网页里运行" in html, ex.id
            assert f'href="../notebooks/{chapter}.ipynb"' in html, ex.id
    ex = next(ex for ex in torch_exercises if ex.id == "ch05-layer-norm")
    page = visited                      # 第 5 章的只读访问（与逐页检查共用）
    assert path == f"book/{ex.chapter}.html"
    note = page.locator(f'.dsx-check-elsewhere[data-exercise="{ex.id}"]')
    assert note.count() == 1 and note.is_visible()
    text = note.inner_text()
    assert "Colab" in text and "Jupyter" in text and "压缩包" in text and "换成你的实现后再运行" not in text
    href = note.locator("a").get_attribute("href")
    response = page.request.get(f"{site_url}book/{href}")
    assert response.ok and '"cells"' in response.text()
    assert page.external_requests == [] and page.console_errors == []


def test_phone_editor_wraps_and_speaks_touch(browser, site_url, chapter_page):
    """手机（390 px、触屏）：按键说明不提 Esc、Tab、Ctrl（触屏键盘没有），而是触屏的说法；编辑器里长的行折行显示，
    每一行都完整地落在编辑器里（不需要横向滚动才看得到行尾），也就不再有「代码较宽」的提示；续行多缩进 4 格，行首的退格一次
    退回一层。有实体键盘的宽屏仍说 Esc 与 Tab。"""
    ex = next(ex for ex in IN_PAGE if ex.id == "ch04-layer-norm-rows")
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                device_scale_factor=2, locale="zh-CN")
    page = phone.new_page()
    page.goto(f"{site_url}book/{ex.chapter}.html")
    n = _box_of(page, ex.id)
    keys = page.locator(".dsx-inpage-keys").nth(n).inner_text()
    assert "Esc" not in keys and "Ctrl" not in keys and "Tab" not in keys and "点一下代码" in keys, keys
    assert "自动缩进" in keys and "每层 4 个" not in keys, keys   # 评审 r40：不再叫人自己打空格（编辑器已缩进）
    # 编辑器出现之前，静态的模板比框宽：代码上方有「代码较宽」的提示（dsx.js）；编辑器折行显示，提示随静态代码一起去掉
    cell = page.locator(".dsx-inpage-code").nth(n)
    assert cell.locator(".dsx-scroll-hint:visible").count() == 1
    long_line = "    return [[gamma[j] * (row[j] - sum(row) / len(row)) + beta[j] for j in range(len(row))] for row in rows]"
    _set_code(page, n, ex.template + "\n" + long_line + "\n")
    assert cell.locator(".dsx-scroll-hint").count() == 0, "编辑器折行显示，不该再有横向滚动的提示"
    fits = page.evaluate("""n => {
        const cm = document.querySelectorAll('.dsx-inpage-code')[n].querySelector('.CodeMirror');
        const scroller = cm.querySelector('.CodeMirror-scroll');
        const box = cm.getBoundingClientRect();
        const lines = [...cm.querySelectorAll('.CodeMirror-line')].map(l => l.getBoundingClientRect());
        return {wrap: cm.classList.contains('CodeMirror-wrap'), scroll: scroller.scrollWidth - scroller.clientWidth,
                right: Math.max(...lines.map(r => r.right)) - box.right, tall: Math.max(...lines.map(r => r.height))};
    }""", n)
    assert fits["wrap"] and fits["scroll"] <= 1 and fits["right"] <= 1, fits
    assert fits["tall"] > 30, "最长的那一行应折成几行显示"
    # 评审 r46：续行从这一行代码的开头再往右 4 格起，不会从第 0 列起、看起来像一个没有缩进的新行
    rows = page.evaluate("""n => {
        const cm = document.querySelectorAll('.dsx-inpage-code')[n].querySelector('.CodeMirror').CodeMirror;
        const line = cm.lastLine() - 1, text = cm.getLine(line), code = text.length - text.trimStart().length;
        const start = cm.charCoords({line, ch: code}, 'local');
        const wrapped = [...Array(text.length).keys()].map(ch => cm.charCoords({line, ch}, 'local'))
            .filter(c => c.top > start.top + 1);
        return {code: start.left, next: Math.min(...wrapped.map(c => c.left)), rows: new Set(wrapped.map(c => c.top)).size,
                char: cm.defaultCharWidth()};
    }""", n)
    assert rows["rows"] >= 1, rows
    assert abs(rows["next"] - (rows["code"] + 4 * rows["char"])) <= 1, rows
    _set_code(page, n, "")   # 说明里的「回车后编辑器会自动缩进」是真的：敲完 def 行回车，下一行已有 4 个空格
    page.locator(".dsx-inpage-code").nth(n).locator(".CodeMirror-lines").tap()
    page.keyboard.type("def f(values):")
    page.keyboard.press("Enter")
    assert page.evaluate(f"() => document.querySelectorAll('.dsx-inpage-code')[{n}].querySelector('.CodeMirror')"
                         ".CodeMirror.getValue()") == "def f(values):\n    "
    # 评审 r46：行首的空格里按一次退格退回一层（4 个空格），不是一个；代码中间的退格仍只删一个字符
    page.keyboard.type("for v in values:")
    page.keyboard.press("Enter")
    page.keyboard.type("total = v")
    page.keyboard.press("Enter")
    page.keyboard.press("Backspace")
    page.keyboard.type("return total")
    page.keyboard.press("Backspace")
    assert page.evaluate(f"() => document.querySelectorAll('.dsx-inpage-code')[{n}].querySelector('.CodeMirror')"
                         ".CodeMirror.getValue()") == ("def f(values):\n    for v in values:\n        total = v\n"
                                                       "    return tota")
    phone.close()
    desk = chapter_page(ex.chapter)     # 宽屏：与本章其他测试共用的那一页
    assert "先按 Esc 再按 Tab" in desk.locator(".dsx-inpage-keys").nth(n).inner_text()


ANDROID_CHROME = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
                  "Chrome/126.0.0.0 Mobile Safari/537.36")


@pytest.mark.parametrize("agent", ["phone", "desktop"])
def test_every_key_a_learner_types_reaches_the_editor(browser, site_url, chapter_page, agent):
    """在编辑器里打字，每个键都进代码。手机的用户代理下 CodeMirror 用 contenteditable 输入，Sphinx 的「/ 打开搜索」
    快捷键只放过 input、textarea，曾把 / 吞掉：(h - 1) / h 变成 (h - 1)  h，正确的代码得到语法错误（学习者评审 r39）。
    手机要自己的上下文（用户代理、触屏）；宽屏用与本章其他测试共用的那一页。"""
    phone = agent == "phone"
    ex = next(ex for ex in IN_PAGE if ex.id == "ch06-std-ratio")
    if phone:
        context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                      locale="zh-CN", user_agent=ANDROID_CHROME)
        page = context.new_page()
        page.goto(f"{site_url}book/{ex.chapter}.html")
    else:
        context, page = None, chapter_page(ex.chapter)
    n = _box_of(page, ex.id)
    _set_code(page, n, "")
    code = page.locator(".dsx-inpage-code").nth(n).locator(".CodeMirror")
    code.locator(".CodeMirror-lines").tap() if phone else code.locator(".CodeMirror-lines").click()
    typed = "r = (h - 1) / h  # a/b, ?"
    page.keyboard.type(typed)
    value = page.evaluate(f"() => document.querySelectorAll('.dsx-inpage-code')[{n}].querySelector('.CodeMirror')"
                          ".CodeMirror.getValue()")
    assert value == typed, (agent, value)
    assert not page.evaluate("() => document.activeElement.closest('.bd-search, form[role=search]') !== null")
    if context:
        context.close()
