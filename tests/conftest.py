"""测试共用的工具：执行章节笔记本（每次测试会话只执行一次）、读出 glue 的值。"""
import ast
import os
import re
from functools import cache
from pathlib import Path

import pytest

import shards
from dsx_book.common import CHROMIUM, CHROMIUM_ARGS, chapter_paths, html_dir, serve_directory  # noqa: F401  测试文件从这里导入

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "book"
CACHE = ROOT / "_build" / ".jupyter_cache"


def _from_build_cache(path):
    """构建（make book / make test）执行过这一章、且代码没变时：从它的执行缓存取出执行后的笔记本与耗时。

    缓存随 dsx_util 的内容失效（dsx_book/status.py），所以取到的一定是当前代码的输出；取不到时返回 None。
    """
    import os
    if os.environ.get("DSX_EXECUTE") == "1" or not (CACHE / "global.db").exists():
        return None
    import nbformat

    from dsx_book.executed import merge_with_cache
    return merge_with_cache(nbformat.read(path, as_version=4), CACHE)


@cache
def _execute(name):
    """章节执行后的笔记本与秒数：优先用构建自己的执行结果，没有时（或 DSX_EXECUTE=1）才在这里执行一次。"""
    path = BOOK / (name if str(name).endswith(".ipynb") else f"{name}.ipynb")
    cached = _from_build_cache(path)
    if cached is not None:
        return cached
    from dsx_book.run_notebook import execute
    return execute(str(path), timeout=300)


def glued_bundles(nb):
    """{名字: mime 字典}：执行后的笔记本里每个 glue 的值，保留每种格式（text/plain、text/markdown）。"""
    bundles = {}
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            meta = out.get("metadata", {}).get("scrapbook")
            if meta and "name" in meta:
                prefix = meta.get("mime_prefix", "")
                bundles[meta["name"]] = {k[len(prefix):]: v for k, v in out.get("data", {}).items()
                                         if k.startswith(prefix)}
    return bundles


def glued_values(nb):
    """从执行后的笔记本里取出所有 glue 的值：{名字: text/plain 字符串}。"""
    return {name: bundle.get("text/plain") for name, bundle in glued_bundles(nb).items()}


def glued_value(glued, name):
    """glue 字典里 name 的值：能按 Python 字面量解析（数、True/False、元组、列表、带引号的字符串）就返回解析结果，否则返回原字符串。

    名字不存在时抛出 KeyError，指明章节与名字，并列出这一章已有的 glue 名字。
    """
    text = glued.get(name)
    if text is None:
        match = re.match(r"ch\d+", name)
        chapter = f"第 {int(match.group()[2:])} 章" if match else "章节"
        raise KeyError(f"{chapter}没有 glue 名为 {name!r} 的值；已有的名字：{sorted(glued)}")
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


@pytest.fixture(scope="session")
def run_chapter():
    """run_chapter("ch02_why_normalize") -> (执行后的笔记本, glue 值字典, 秒数)。同一章只执行一次。"""
    def run(name):
        nb, seconds = _execute(name)
        return nb, glued_values(nb), seconds
    return run


# ---------------------------------------------------------------- 测试分层
# make test-fast 只跑 unit；make test 依次跑 unit、book、browser、slow，并打印每层的用时。
# 一个测试的层：自己写了 @pytest.mark.<层> 就用它；否则文件在 SLOW_MODULES 里或要开 JupyterLab 是 slow，用到浏览器夹具是 browser，
# 文件在 BOOK_MODULES 里或用到 run_chapter 是 book，其余是 unit。新文件要读构建结果时，在这里登记。
TIERS = ("unit", "book", "browser", "slow")
SLOW_MODULES = {"test_colab.py", "test_pdf.py", "test_release.py", "test_figures.py", "test_seed_robustness.py",
                "test_python_versions.py", "test_reference_reproducible.py"}
BOOK_MODULES = {"test_book_build.py", "test_consistency.py", "test_notebooks.py", "test_typography.py",
                "test_svg_slim.py", "test_page_weight.py", "test_reader_edition.py", "test_web_archive.py",
                "test_inpage_browser.py", "test_browser.py", "test_browser_checks.py", "test_browser_explorers.py"}
BROWSER_FIXTURES = {"browser", "open_page", "site_url", "visited"}


def tier_of(item):
    for marker in item.iter_markers():
        if marker.name in TIERS:
            return marker.name
    module = item.path.name
    if module in SLOW_MODULES or "jupyter_lab" in item.fixturenames:
        return "slow"
    if BROWSER_FIXTURES & set(item.fixturenames):
        return "browser"
    if module in BOOK_MODULES or "run_chapter" in item.fixturenames or re.match(r"test_ch\d\d_", module):
        return "book"
    return "unit"


def pytest_configure(config):
    # 没装 pytest-xdist 的环境（如 .venv-colab）里也认得这个标记
    config.addinivalue_line("markers", "xdist_group(name): 同组的测试在同一个进程里运行（tests/shards.py 把它们并成一组）")
    if getattr(config.option, "dist", "no") == "loadgroup" and not hasattr(config, "workerinput"):
        import tempfile
        os.environ[shards.GROUPS_ENV] = tempfile.mkstemp(prefix="dsx-groups-", suffix=".json")[1]


def pytest_unconfigure(config):
    if os.environ.get(shards.GROUPS_ENV) and not hasattr(config, "workerinput"):
        Path(os.environ.pop(shards.GROUPS_ENV)).unlink(missing_ok=True)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """--dist loadgroup：按 tests/shards.py 的组分配（pytest-xdist 自带的 loadgroup 在 pytest 9 上不起作用：
    它改的 item._nodeid 已不是 nodeid 的来源）。"""
    if config.getoption("dist") == "loadgroup":
        return shards.group_scheduler(config, log)
    return None


def pytest_addoption(parser):
    parser.addoption("--shard", default=None, metavar="i/N",
                     help="只运行每一层的第 i 份（共 N 份，按组与 tests/durations.json 的秒数分配；见 tests/shards.py）")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    for item in items:
        tier = tier_of(item)
        if not item.get_closest_marker(tier):
            item.add_marker(getattr(pytest.mark, tier))
    group_visits(items)
    by_tier = {}
    for item in items:
        by_tier.setdefault(tier_of(item), []).append(item)
    # 共用昂贵准备的测试是一组：两个进程并行（--dist loadgroup）时留在同一个进程。
    # 进程把 {nodeid: 组名} 写进主进程指定的文件，主进程的调度器（pytest_xdist_make_scheduler）按它分配
    if os.environ.get(shards.GROUPS_ENV) and hasattr(config, "workerinput"):
        shards.write_groups(os.environ[shards.GROUPS_ENV], by_tier, visit_key)
    config.stash[ALL_ITEMS] = by_tier
    if os.environ.get("DSX_SHARD_PLAN"):       # tests/test_shards.py：把每一层分成 1..4 份的结果写出来
        shards.write_plan(os.environ["DSX_SHARD_PLAN"], by_tier, visit_key)
    if config.getoption("shard"):
        try:
            i, n = shards.parse_shard(config.getoption("shard"))
        except ValueError as e:
            raise pytest.UsageError(str(e)) from None
        plan = shard_plan(by_tier, n)
        kept = [item for item in items if plan[item.nodeid] == i]
        config.hook.pytest_deselected(items=[item for item in items if plan[item.nodeid] != i])
        items[:] = kept


ALL_ITEMS = pytest.StashKey()


def shard_plan(by_tier, n):
    """{nodeid: 第几份}：每一层各自分成 n 份。"""
    durations = shards.load_durations()
    plan = {}
    for tier_items in by_tier.values():
        plan.update(shards.plan_shards(tier_items, n, visit_key, durations))
    return plan


RECORDER = shards.DurationRecorder()


def pytest_runtest_logreport(report):
    if os.environ.get("DSX_RECORD_DURATIONS") == "1":
        RECORDER.add(report)


def pytest_sessionfinish(session):
    if os.environ.get("DSX_RECORD_DURATIONS") == "1" and not hasattr(session.config, "workerinput"):
        RECORDER.save()


# ---------------------------------------------------------------- 浏览器测试（Playwright + Debian chromium）
LOAD_ALL_IMAGES = """async () => {
  // 网页版的插图延迟加载（loading="lazy"，滚动到附近才下载）：检查图片的测试先让它们全部加载
  const images = Array.from(document.images);
  images.forEach(img => { if (img.loading === 'lazy') img.loading = 'eager'; });
  await Promise.all(images.map(img => img.decode().catch(() => null)));
}"""


def load_all_images(page):
    page.evaluate(LOAD_ALL_IMAGES)


@pytest.fixture(scope="session")
def site_url():
    """在 127.0.0.1 的随机端口上提供构建好的 HTML，返回形如 http://127.0.0.1:PORT/ 的地址。"""
    root = html_dir()
    if not (root / "index.html").exists():
        pytest.fail(f"没有找到构建好的书：{root}/index.html。请先运行 make book。")
    server, url = serve_directory(root)
    yield url
    server.shutdown()


class PageLoads:
    """数浏览器层一共打开了多少次网页（每次导航或重新载入算一次；about:blank 与 set_content 不算），
    以及启动了几个网页练习的 Worker（每个 Worker 启动一次 Pyodide）。"""
    def __init__(self):
        import collections
        self.total, self.by_url, self.workers = 0, collections.Counter(), 0

    def watch(self, page):
        def loaded(page=page):
            url = page.url
            if url.startswith(("http://", "https://", "file://")):
                self.total += 1
                self.by_url[url.split("?")[0]] += 1

        def started(worker):
            if "/dsx_inpage/" in worker.url:
                self.workers += 1
        page.on("load", lambda _: loaded())
        page.on("worker", started)


PAGE_LOADS = PageLoads()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        new_context = b.new_context

        def counted_context(*args, **kwargs):      # 测试自己建的上下文也计数
            context = new_context(*args, **kwargs)
            context.on("page", PAGE_LOADS.watch)
            return context

        b.new_context = counted_context
        yield b
        VISITS.close()
        b.close()


def pytest_terminal_summary(terminalreporter):
    if PAGE_LOADS.total:
        pages = len(PAGE_LOADS.by_url)
        terminalreporter.write_line(f"浏览器层：打开网页 {PAGE_LOADS.total} 次（{pages} 个不同的地址；"
                                    f"其中 visited 夹具打开 {VISITS.loads} 次）；启动 Pyodide {PAGE_LOADS.workers} 次")


def guarded_page(context, local, allowed):
    """context 里的新页面：只放行主机为 local 或以 allowed 开头的请求，其余拦下并记进 page.external_requests；
    控制台错误与页面异常记进 page.console_errors。"""
    from urllib.parse import urlparse
    page = context.new_page()
    page.console_errors, page.external_requests = [], []

    def on_route(route):
        url = route.request.url
        if urlparse(url).netloc == local or url.startswith(allowed):
            route.continue_()
        else:
            page.external_requests.append(url)
            route.abort()

    page.route("**/*", on_route)
    page.on("console", lambda msg: page.console_errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda err: page.console_errors.append(f"pageerror: {err}"))
    return page


@pytest.fixture
def open_page(browser, site_url):
    """open_page("book/ch04_formulas.html") -> Playwright 页面；页面上附有 console_errors 与 external_requests 两个列表。

    除本地服务器之外的任何请求都会被拦截并记录下来（书必须离线可用）。
    """
    from urllib.parse import urlparse
    local = urlparse(site_url).netloc
    contexts = []

    def _open(path, wait_until="load"):
        context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
        contexts.append(context)
        page = guarded_page(context, local, ("data:", "blob:", "about:"))
        page.goto(site_url + path, wait_until=wait_until)
        return page

    yield _open
    for context in contexts:
        context.close()


# ---------------------------------------------------------------- 每个 (页面, 视口宽度, 亮/暗色) 只打开一次
# 用 visited 夹具的测试按参数 path、width（缺省 1280）、scheme（缺省 light）得到一个已打开、公式已排版、
# 网络空闲、插图全部加载的页面；同一组参数的测试共用这一次访问。收集测试时把它们按 (页面, 宽度, 配色) 排在一起，
# 于是任何时候只开着一个页面。改变页面的测试（如切换到打印样式）标上 @pytest.mark.changes_page：排在同组最后，
# 用完就关掉这一页，后面的测试会重新打开。
VISIT_DEFAULTS = {"width": 1280, "scheme": "light"}


def visit_key(item):
    """(页面, 宽度, 配色)；不用 visited 夹具的测试返回 None。"""
    if "visited" not in getattr(item, "fixturenames", ()):
        return None
    params = item.callspec.params if hasattr(item, "callspec") else {}
    if "path" not in params:
        raise pytest.UsageError(f"{item.nodeid} 用了 visited 夹具，却没有 path 参数")
    return (params["path"], params.get("width", VISIT_DEFAULTS["width"]), params.get("scheme", VISIT_DEFAULTS["scheme"]))


def group_visits(items):
    """同一 (页面, 宽度, 配色) 的测试排在一起（跨文件），改变页面的排在组尾。

    自己覆盖了 site_url 的文件（如 test_web_archive.py 的 file:// 地址）只在本文件之内重排：它们的模块级夹具不必反复建立。"""
    def order(i):
        return visit_key(i), i.get_closest_marker("changes_page") is not None

    own = {}
    for n, item in enumerate(items):
        if visit_key(item) and "site_url" in vars(item.module):
            own.setdefault(item.module.__name__, []).append(n)
    for places in own.values():
        for n, item in zip(places, sorted((items[n] for n in places), key=order)):
            items[n] = item
    shared = [i for i in items if visit_key(i) and "site_url" not in vars(i.module)]
    if not shared:
        return
    first = items.index(shared[0])
    chosen = set(map(id, shared))
    rest = [i for i in items if id(i) not in chosen]
    shared.sort(key=order)
    items[:] = rest[:first] + shared + rest[first:]


SETTLE_MATH = """() => document.querySelectorAll('div.math, span.math').length === 0 ||
                       document.fonts.status === 'loaded'"""


# 等两帧：排进 requestAnimationFrame 的调整（dsx.js 的 later()）已经运行，布局也已更新
NEXT_FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))"


class Visits:
    """会话里唯一的页面缓存：只留最近一次访问的页面（测试已按访问排好序）。"""
    def __init__(self):
        self.current, self.loads = None, 0

    def page(self, browser, site_url, key):
        from urllib.parse import urlparse
        if self.current and self.current[0] == (site_url, key):
            return self.current[2]
        self.close()
        path, width, scheme = key
        context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme, locale="zh-CN")
        page = guarded_page(context, urlparse(site_url).netloc, ("data:", "blob:", "about:", "file:"))
        self.current = ((site_url, key), context, page)
        page.goto(site_url + path)                                   # 等到 load 事件：脚本、样式、非延迟的图都已载入
        self.loads += 1
        page.wait_for_function(SETTLE_MATH, timeout=20000)          # 公式用的字体加载完
        page.evaluate("() => document.fonts.ready.then(() => true)")
        load_all_images(page)                                        # 延迟加载的插图：等每一张解码完
        page.evaluate(NEXT_FRAMES)                                   # dsx.js 在 load 与 resize 后的下一帧调整公式大小
        return page

    def close(self):
        if self.current:
            self.current[1].close()
            self.current = None


VISITS = Visits()


@pytest.fixture
def visited(request, browser, site_url):
    """这个测试的 (path, width, scheme) 对应的页面；同组的测试共用一次打开（见 Visits）。

    页面上附有 console_errors（控制台错误）与 external_requests（被拦下的站外请求，书必须离线可用）。"""
    page = VISITS.page(browser, site_url, visit_key(request.node))
    yield page
    if request.node.get_closest_marker("changes_page"):
        VISITS.close()
