"""读者版笔记本（构建时由 dsx_book/reader_edition.py 生成）：在 Jupyter / Colab 里读起来和网页一样。

- 转成 Markdown 后没有任何 MyST 语法；
- glue 的数、式号与网页上显示的完全相同（从构建好的 HTML 里读）；
- 代码单元格与源笔记本逐字相同、没有输出，只少了给正文供数的 glue 单元格（所以仿 Colab 测试运行读者版，也就证明了源笔记本能运行）；
- 网页上的 Colab 按钮、下载按钮指向本章的读者版，全部章节的压缩包能下载；
- 在 JupyterLab 里打开第 4 章，看到的是带数字的正文（截图存到 _build/screenshots/）。
"""
import html
import io
import itertools
import json
import re
import zipfile
from pathlib import Path

import nbformat
import pytest
import yaml

from conftest import ROOT, chapter_paths, html_dir
from dsx_book.reader_edition import is_glue_cell

CHAPTERS = chapter_paths()
READER = ROOT / "_build" / "reader" / "book"
IDS = [p.stem for p in CHAPTERS]
MYST_MARKS = ["{glue", "{eq}", "{doc}", "{ref}", "{numref}", "{math}", "```{", ":::"]
GLUE_ROLE = re.compile(r"\{glue:text\}`([^`]+)`")


def reader_nb(path):
    target = READER / path.name
    if not target.exists():
        pytest.fail(f"没有找到读者版笔记本 {target}。请先运行 make book（构建时生成）。")
    return nbformat.read(target, as_version=4)


def page_html(path):
    return (html_dir() / "book" / f"{path.stem}.html").read_text(encoding="utf-8")


def to_markdown(nb):
    from nbconvert import MarkdownExporter
    body, _ = MarkdownExporter().from_notebook_node(nb)
    return body


def repo_owner_and_name():
    url = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))["repository"]["url"]
    owner, repo = url.rstrip("/").split("/")[-2:]
    return owner, repo


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_markdown_has_no_myst_syntax(path):
    text = to_markdown(reader_nb(path))
    for mark in MYST_MARKS:
        assert mark not in text, f"{path.stem} 的读者版里还有 MyST 语法 {mark!r}：…{text[text.find(mark) - 80:text.find(mark) + 80]}…"
    assert not re.search(r"^\([\w-]+\)=\s*$", text, re.M), f"{path.stem} 的读者版里还有标签行 (name)="
    assert not re.search(r"\$\$\s*\([\w-]+\)", text), f"{path.stem} 的读者版里还有带标签的公式 $$ (name)"


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_glued_values_read_as_on_the_web_page(path):
    """源笔记本里每个 {glue:text}，在读者版的同一个单元格里，按同样顺序出现网页上显示的那段文字。"""
    source = nbformat.read(path, as_version=4)
    reader = {cell.get("id"): cell for cell in reader_nb(path).cells}
    shown = [html.unescape(t) for t in re.findall(r'<span class="pasted-text">([^<]*)</span>', page_html(path))]
    roles = [(cell, GLUE_ROLE.findall(cell.source)) for cell in source.cells if cell.cell_type == "markdown"]
    assert sum(len(r) for _, r in roles) == len(shown), f"{path.stem}：正文的 glue 数与网页上的数对不上"
    checked = 0
    for cell, keys in roles:
        if not keys:
            continue
        text, pos = reader[cell.get("id")].source, 0
        for key in keys:
            value = shown[checked]
            found = text.find(value, pos)
            assert found >= 0, f"{path.stem}：{key} 在网页上显示为 {value!r}，读者版的这个单元格里没有：\n{text[:500]}"
            pos = found + len(value)
            checked += 1
    if GLUE_ROLE.search("".join(c.source for c in source.cells)):
        assert checked > 0


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_equation_numbers_match_the_web_page(path):
    """带标签的公式在读者版里的 \\tag{...} 就是网页上的式号，{eq} 引用处写的也是它。"""
    page = page_html(path)
    web = dict((label, number) for number, label in
               re.findall(r'<span class="eqno">\(([^)]+)\)<a class="headerlink" href="#equation-([^"]+)"', page))
    source = "\n".join(c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "markdown")
    labels = re.findall(r"\$\$[ \t]*\(([\w-]+)\)", source)
    reader = "\n".join(c.source for c in reader_nb(path).cells if c.cell_type == "markdown")
    tags = re.findall(r"\\tag\{([^}]+)\}", reader)
    assert tags == [web[label] for label in labels], f"{path.stem}：读者版的式号 {tags} 与网页不同"
    for label in re.findall(r"\{eq\}`([\w-]+)`", source):
        if label in web:
            assert f"({web[label]})" in reader


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_headings_carry_the_web_section_numbers(path):
    """读者版的标题与网页上的标题（连同节号，如「4.1. 四个公式」）逐个相同。"""
    def plain(title):  # 只比文字：去掉 HTML 标签、Markdown 标记和公式定界符（$…$ 与 \(…\)）
        title = re.sub(r"<mjx-assistive-mml.*?</mjx-assistive-mml>", "", title)  # 构建时排版的公式：只留 TeX 源码
        return re.sub(r"<[^>]+>|[`*$]|\\[()]", "", html.unescape(title))

    web = [plain(h) for h in re.findall(r"<h[1-6][^>]*>(.*?)<a class=\"headerlink\"", page_html(path))]
    reader = [plain(h) for c in reader_nb(path).cells if c.cell_type == "markdown"
              for h in re.findall(r"^#{1,6} (.+)$", c.source, re.M)]
    assert reader == web, f"{path.stem}：读者版的标题与网页不同"


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_links_point_at_existing_web_pages(path):
    owner, repo = repo_owner_and_name()
    base = f"https://{owner.lower()}.github.io/{repo}/"
    reader = "\n".join(c.source for c in reader_nb(path).cells if c.cell_type == "markdown")
    links = re.findall(r"\]\((" + re.escape(base) + r"[^)#]*)", reader)
    source = "\n".join(c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "markdown")
    # {doc}/{ref}/{numref} 都变成链接；{eq} 只有引用别的章节的公式时才是链接（本章的公式就在眼前）
    own_labels = set(re.findall(r"\$\$[ \t]*\(([^()\s]+)\)", source))
    n_refs = len(re.findall(r"\{(?:doc|ref|numref)\}`", source))
    n_refs += sum(1 for label in re.findall(r"\{eq\}`([^`]+)`", source) if label not in own_labels)
    assert len(links) == n_refs, f"{path.stem}：{n_refs} 处交叉引用应变成 {n_refs} 个网页链接，实际 {len(links)} 个"
    for link in links:
        assert (html_dir() / link[len(base):]).exists(), f"{path.stem}：链接 {link} 在网页版里没有对应的页面"


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_code_cells_are_the_source_cells_without_outputs(path):
    """读者版的代码单元格就是源笔记本里除 glue 单元格以外的代码单元格，逐字相同、顺序相同。"""
    cells_in_source = [c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]
    source = [c.source for c in cells_in_source if not is_glue_cell(c)]
    assert len(source) < len(cells_in_source) or "glue(" not in "".join(c.source for c in cells_in_source)
    reader = reader_nb(path)
    nbformat.validate(reader)
    cells = [c for c in reader.cells if c.cell_type == "code"]
    assert [c.source for c in cells] == source
    assert all(not c.outputs and c.execution_count is None for c in cells)
    assert "setup" in cells[0].metadata.get("tags", []), "设置单元格必须保留（学习者在 Colab 里要运行它）"
    assert reader.metadata.get("kernelspec", {}).get("name") == "python3"


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_rerun_hint_once_before_the_first_explorer(path):
    """执行过的章节里有交互部件输出（探索器）时，读者版在第一个这样的单元格之前提示一次：重新打开后要重新运行。"""
    from jupyter_cache import get_cache
    source = nbformat.read(path, as_version=4)
    _, executed = get_cache(ROOT / "_build" / ".jupyter_cache").merge_match_into_notebook(source)
    widget_ids = [c.get("id") for c in executed.cells if c.cell_type == "code" and any(
        "application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in c.outputs)]
    cells = reader_nb(path).cells
    hints = [i for i, c in enumerate(cells) if "Error displaying widget: model not found" in c.source]
    if not widget_ids:
        assert hints == []
        return
    assert len(hints) == 1, f"{path.stem}：重新运行的提示应出现一次，实际 {len(hints)} 次"
    first = next(i for i, c in enumerate(cells) if c.get("id") == widget_ids[0])
    assert hints[0] == first - 1, f"{path.stem}：提示应紧挨在第一个探索器单元格之前"


def test_jupyter_check_label_is_on_the_web_page_only():
    """网页练习的检查单元格上方那行说明（这一格是给 Jupyter、Colab 用的）只在网页上，每道网页练习一行；
    读者版笔记本（就在 Jupyter、Colab 里读）没有它，检查单元格照旧。"""
    from dsx_book.inpage import CHECK_LABEL
    from dsx_util.exercises.catalog import EXERCISES
    for path in CHAPTERS:
        in_page = [ex for ex in EXERCISES if ex.chapter == path.stem and ex.in_page]
        assert page_html(path).count(CHECK_LABEL) == len(in_page), path.stem
        reader = (READER / path.name).read_text(encoding="utf-8")
        assert "给 Jupyter、Colab 用的" not in reader, path.stem
        assert all(f"{ex.checker}({ex.entry})" in reader for ex in in_page), path.stem
    assert any(ex.in_page for ex in EXERCISES)


def test_some_chapter_has_an_explorer_hint():
    """上一个测试对没有探索器的章节只检查「没有提示」；这里确认至少有一章真的带了提示。"""
    assert any("Error displaying widget" in (READER / p.name).read_text(encoding="utf-8") for p in CHAPTERS)


LOCAL_LINK = re.compile(r"\[([^\]]*)\]\(([\w.-]+\.ipynb)\)<sup>\[网页\]\(([^)]+)\)</sup>")


def test_download_copies_and_archive_are_the_reader_edition():
    """下载按钮给的就是读者版；压缩包里的章节也是读者版，只是交叉引用打开旁边的笔记本（网页地址跟在后面作后备）。"""
    folder = html_dir() / "notebooks"
    n_local = 0
    with zipfile.ZipFile(folder / "dsx-notebooks.zip") as archive:
        names = set(archive.namelist())
        notes = archive.read("dsx-notebooks/本地运行说明.md").decode("utf-8")
        for path in CHAPTERS:
            assert (READER / path.name).read_bytes() == (folder / path.name).read_bytes()
            packed = nbformat.reads(archive.read(f"dsx-notebooks/{path.name}").decode("utf-8"), as_version=4)
            reader = reader_nb(path)
            assert [c.source for c in packed.cells if c.cell_type == "code"] == \
                [c.source for c in reader.cells if c.cell_type == "code"]
            for mine, web in zip(packed.cells, reader.cells):
                for _, target, url in LOCAL_LINK.findall(mine.source):
                    assert f"dsx-notebooks/{target}" in names, f"{path.stem}：链接 {target} 在压缩包里没有"
                    assert Path(target).stem in url, (target, url)   # 后备的网页地址是同一个文档
                    n_local += 1
                assert LOCAL_LINK.sub(r"[\1](\3)", mine.source) == web.source
        glossary = archive.read("dsx-notebooks/glossary.ipynb").decode("utf-8")
        assert "术语表" in glossary and "层归一化" in glossary and "{ref}" not in glossary
        assert LOCAL_LINK.search(nbformat.reads(glossary, as_version=4).cells[0].source), "术语表的条目应链接到旁边的章节"
    assert n_local >= 20, f"压缩包里只有 {n_local} 个打开旁边笔记本的链接"
    from dsx_book.nbsync import package_version, wheel_name   # 版本号只写在 dsx_util/__init__.py
    version, wheel = package_version(), wheel_name()
    assert names == {f"dsx-notebooks/{p.name}" for p in CHAPTERS} | {"dsx-notebooks/本地运行说明.md",
                                                                     f"dsx-notebooks/{wheel}", "dsx-notebooks/glossary.ipynb"}
    with zipfile.ZipFile(folder / "dsx-notebooks.zip") as archive:   # wheel 就在笔记本旁边，与 make dist 构建的相同
        assert archive.read(f"dsx-notebooks/{wheel}") == (ROOT / "_build" / "dist" / wheel).read_bytes()
    # 先写不需要 PyPI 和 GitHub 的做法：从旁边的 wheel 安装；软件包索引和版本标签是之后的「其他安装来源」
    assert notes.index("pip config --site set global.index-url https://") < notes.index(f"pip install ./{wheel} jupyterlab")
    # 「完全没有网络时」说的网页版压缩包：说明里有它在网站上的下载地址（网站根目录，make book 放进去）
    from dsx_book.install import WEB_ARCHIVE, mirror_note
    assert mirror_note() in notes
    from dsx_book.nbsync import web_url
    assert f"网页版的压缩包（下载后不联网也能读，见下面「完全没有网络时」）：{web_url()}{WEB_ARCHIVE}\n" in notes
    assert (html_dir() / WEB_ARCHIVE).is_file()
    local = notes.index(f"pip install ./{wheel} jupyterlab")
    assert local < notes.index(f"pip install dsx_util=={version} jupyterlab") < notes.index(f"@v{version}")
    assert "发布到 PyPI 之后" in notes and "Windows" in notes and "不需要 make" in notes and "jupyter lab" in notes


# ---------------------------------------------------------------- 浏览器
@pytest.mark.parametrize("path", [f"book/{p.stem}.html" for p in CHAPTERS], ids=IDS)
def test_colab_and_download_buttons_open_the_reader_edition(visited, path):
    """（与 test_browser.py 的逐页检查共用这一页的那次访问，见 tests/conftest.py 的 visited。）"""
    owner, repo = repo_owner_and_name()
    page = visited
    path = READER / Path(path).with_suffix(".ipynb").name
    colab = page.locator('a[href*="colab.research.google.com"]')
    assert colab.count() == 1
    assert colab.get_attribute("href") == (
        f"https://colab.research.google.com/github/{owner}/{repo}/blob/notebooks/book/{path.name}")
    download = page.locator("a.btn-download-source-button")
    assert download.count() == 1
    response = page.request.get(page.url.rsplit("/", 1)[0] + "/" + download.get_attribute("href"))
    assert response.ok
    assert response.body() == (READER / path.name).read_bytes()
    assert page.external_requests == []


def test_front_page_archive_downloads_with_all_chapters(open_page):
    page = open_page("book/index.html")
    link = page.locator('a[href$="dsx-notebooks.zip"]')
    assert link.count() == 1
    with page.expect_download() as info:
        link.click()
    with zipfile.ZipFile(io.BytesIO(Path(info.value.path()).read_bytes())) as archive:
        names = archive.namelist()
    for path in CHAPTERS:
        assert f"dsx-notebooks/{path.name}" in names
    assert "dsx-notebooks/本地运行说明.md" in names


# ---------------------------------------------------------------- JupyterLab
@pytest.fixture(scope="module")
def jupyter_lab(tmp_path_factory):
    """在 127.0.0.1 上启动 JupyterLab（无令牌），根目录是读者版笔记本的一份副本。"""
    import shutil
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    root = tmp_path_factory.mktemp("lab")
    for path in CHAPTERS:
        shutil.copy(READER / path.name, root / path.name)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    home = tmp_path_factory.mktemp("home")
    # 一次渲染全部单元格（JupyterLab 4 默认只渲染看得见的单元格）
    settings = home / "settings" / "@jupyterlab" / "notebook-extension"
    settings.mkdir(parents=True)
    (settings / "tracker.jupyterlab-settings").write_text(json.dumps({"windowingMode": "none"}))
    # 不弹出「是否接收 Jupyter 新闻」的询问（它会挡住截图）
    notices = home / "settings" / "@jupyterlab" / "apputils-extension"
    notices.mkdir(parents=True)
    (notices / "notification.jupyterlab-settings").write_text(json.dumps({"fetchNews": "false"}))
    env = {"HOME": str(home), "JUPYTER_CONFIG_DIR": str(home / "cfg"), "JUPYTER_RUNTIME_DIR": str(home / "rt"),
           "JUPYTERLAB_SETTINGS_DIR": str(home / "settings"), "PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin"}
    log = home / "lab.log"
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root", "--ip=127.0.0.1", f"--port={port}",
         "--IdentityProvider.token=", "--ServerApp.password=", f"--ServerApp.root_dir={root}",
         "--LabApp.extension_manager=readonly", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"],
        env=env, stdout=subprocess.DEVNULL, stderr=log.open("w"))
    url = f"http://127.0.0.1:{port}/"
    for _ in range(120):
        try:
            urllib.request.urlopen(url + "api/status", timeout=1)
            break
        except OSError:
            if server.poll() is not None:
                pytest.fail(f"JupyterLab 没能启动：{log.read_text()[-2000:]}")
            time.sleep(0.5)
    yield url
    server.terminate()
    server.wait(timeout=30)


def lab_page(browser, jupyter_lab, notebook):
    """在新的浏览器上下文里用 JupyterLab 打开 notebook（只放行 JupyterLab 自己的请求）；返回 (上下文, 页面)。"""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
    page = context.new_page()
    local = jupyter_lab.rstrip("/")
    page.route("**/*", lambda route: route.continue_() if route.request.url.startswith((local, "data:", "blob:"))
               else route.abort())
    # 每个页面用一个新的工作区：JupyterLab 会恢复同名工作区里上一个测试打开的笔记本，
    # 那样当前标签页可能是别的章，要找的单元格藏在看不见的标签页里
    workspace = f"t{next(_workspaces)}"
    page.goto(jupyter_lab + f"lab/workspaces/{workspace}/tree/{notebook}?reset")
    page.wait_for_selector(f"#jp-main-dock-panel .lm-TabBar-tab.lm-mod-current .lm-TabBar-tabLabel:text-is('{notebook}')", timeout=60_000)
    return context, page


_workspaces = itertools.count()


def test_ch04_in_jupyterlab_shows_numbers_not_markup(browser, jupyter_lab):
    path = next(p for p in CHAPTERS if p.stem.startswith("ch04"))
    context, page = lab_page(browser, jupyter_lab, path.name)
    page.wait_for_selector(".jp-MarkdownCell .jp-RenderedMarkdown h1", timeout=60_000)
    page.wait_for_timeout(2000)          # 等 MathJax 排好公式
    rendered = page.locator(".jp-MarkdownCell .jp-RenderedMarkdown").all_inner_texts()
    text = "\n".join(rendered)
    for mark in MYST_MARKS:
        assert mark not in text
    shown = [html.unescape(t) for t in re.findall(r'<span class="pasted-text">([^<]*)</span>', page_html(path))]
    assert shown[0] in text and shown[-1] in text, "JupyterLab 里看不到网页上的 glue 数"
    assert "(4.1)" in text
    out = ROOT / "_build" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    formulas = page.locator(".jp-MarkdownCell:has(mjx-container[display])")
    assert formulas.count() > 0, "JupyterLab 没有把公式排版出来"
    formulas.first.scroll_into_view_if_needed()
    page.screenshot(path=str(out / "reader-ch04-jupyterlab-formulas.png"))
    page.locator(".jp-MarkdownCell", has_text=shown[6]).first.scroll_into_view_if_needed()
    page.screenshot(path=str(out / "reader-ch04-jupyterlab-numbers.png"))
    context.close()


@pytest.mark.unit
def test_reader_edition_is_rewritten_only_when_something_was_read(tmp_path):
    """什么都没改的重新构建不重写读者版；有一章重新读入、压缩包不在、或生成它的代码更新了，就重写。"""
    import os
    import types

    from dsx_book import reader_edition
    archive = tmp_path / "dsx-notebooks.zip"
    app = types.SimpleNamespace(dsx_read_docs=[])
    assert not reader_edition.up_to_date(app, archive)            # 还没有压缩包
    archive.write_bytes(b"zip")
    assert reader_edition.up_to_date(app, archive)
    assert not reader_edition.up_to_date(types.SimpleNamespace(dsx_read_docs=["book/ch04_formulas"]), archive)
    assert not reader_edition.up_to_date(types.SimpleNamespace(), archive)   # 没经过 env-before-read-docs
    os.utime(archive, (0, 0))                                      # 比 reader_edition.py 旧
    assert not reader_edition.up_to_date(app, archive)

def test_setup_cell_is_folded_in_jupyterlab(browser, jupyter_lab):
    """读者版在 JupyterLab 里打开：设置单元格的代码折叠着（元数据 jupyter.source_hidden），只占一行。"""
    path = next(p for p in CHAPTERS if p.stem.startswith("ch00"))
    context, page = lab_page(browser, jupyter_lab, path.name)
    page.wait_for_selector(".jp-MarkdownCell .jp-RenderedMarkdown h1", timeout=60_000)
    first = page.locator(".jp-Notebook .jp-Cell").first
    assert "jp-CodeCell" in first.get_attribute("class")
    assert first.locator(".jp-InputPlaceholder").count() == 1, "设置单元格的代码没有折叠"
    assert first.locator(".jp-InputArea-editor").is_hidden()
    assert first.bounding_box()["height"] < 80, first.bounding_box()
    out = ROOT / "_build" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(out / "reader-ch00-jupyterlab-setup-folded.png"))
    context.close()
