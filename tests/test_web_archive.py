"""网页版压缩包（_build/dsx-book-web.zip，发布时附在 Release 上）解压后直接从磁盘（file://）打开，
每一页都通过与 test_browser.py 相同的离线检查，搜索和探索器照常工作。

做法：本文件把 site_url 换成解压目录的 file:// 地址，再从 test_browser.py 与 test_browser_explorers.py
导入那些检查，pytest 在这里用 file:// 地址把它们再运行一遍。压缩包由 make book / make test 生成。
"""
import zipfile

import pytest

from conftest import ROOT, html_dir
from test_browser import test_chinese_search_finds_words, test_page_offline_and_rendered  # noqa: F401
from test_browser_explorers import (  # noqa: F401
    test_dim_keepdim_in_book_page,
    test_gamma_beta_sliders_in_book_page,
    test_per_feature_gamma_in_book_page,
)
from dsx_book.web_archive import ARCHIVE, FONT_PRELOAD, FONT_URL, TOP, build, site_files


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    """按 make book 同样的做法，把现在的网页打成压缩包（别的测试可能往网页里加了文件，例如 PDF 版）。"""
    if not ARCHIVE.exists():
        pytest.fail(f"没有找到网页版压缩包 {ARCHIVE.relative_to(ROOT)}：请先运行 make book。")
    return zipfile.ZipFile(build(archive=tmp_path_factory.mktemp("zip") / ARCHIVE.name)[0])


@pytest.fixture(scope="module")
def site_url(archive, tmp_path_factory):
    """覆盖 conftest 的同名夹具：不启动服务器，而是解压后用 file:// 打开。"""
    out = tmp_path_factory.mktemp("web")
    archive.extractall(out)
    return (out / TOP).as_uri() + "/"


def test_archive_is_the_built_site(archive):
    """压缩包里正好是构建好的网页（同样的文件、同样的内容），都在一个顶层文件夹里；
    只有两处为从磁盘打开而改：样式表里的字体写成 data: 网址，页面去掉预加载字体的 <link>。"""
    html = html_dir()
    want = {f"{TOP}/{p.relative_to(html).as_posix()}": p for p in site_files(html)}
    assert sorted(archive.namelist()) == sorted(want), "压缩包与 _build/html 不一致：请重新运行 make book"
    assert archive.read(f"{TOP}/searchindex.js") == want[f"{TOP}/searchindex.js"].read_bytes()
    for name in (f"{TOP}/index.html", f"{TOP}/search.html"):
        page = archive.read(name).decode("utf-8")
        assert 'as="font"' not in page, f"{name} 仍在预加载字体（从磁盘打开时被浏览器拦下）"
        assert page == FONT_PRELOAD.sub("", want[name].read_text(encoding="utf-8")), name
    css = [n for n in archive.namelist() if n.endswith(".css")]
    for name in css:
        text = archive.read(name).decode("utf-8")
        assert not FONT_URL.search(text), f"{name} 仍引用字体文件（从磁盘打开时加载不了）"
    assert any("data:font/woff" in archive.read(n).decode("utf-8") for n in css), "样式表里没有内联的字体"


def test_archive_carries_the_package(archive):
    """离线网页版也带着 dsx_util 的 wheel 与 sdist（首页的下载链接指向它们），与 make dist 构建的相同。"""
    from dsx_book.nbsync import package_version, wheel_name
    for name in (wheel_name(), f"dsx_util-{package_version()}.tar.gz"):
        assert archive.read(f"{TOP}/dist/{name}") == (ROOT / "_build" / "dist" / name).read_bytes(), name


def test_site_url_is_a_file_url(site_url):
    assert site_url.startswith("file:///")


def test_inpage_exercise_explains_itself_from_disk(open_page):
    """网页里的练习要用 Web Worker，file:// 页面不能启动它：点「运行」时说明怎么办，而不是报错或一直转圈。"""
    page = open_page("book/ch02_why_normalize.html")
    run = page.locator(".dsx-inpage button[data-action=run]").first
    run.click()
    feedback = page.locator(".dsx-inpage-feedback").first
    feedback.filter(has_text="http.server").wait_for(timeout=20000)
    assert "Colab" in feedback.inner_text()
    assert page.console_errors == [] and page.external_requests == []


@pytest.mark.unit
def test_unchanged_site_is_not_packed_again(tmp_path):
    """网页一个字节都没变：不重新打包；改了一个文件：重新打包，压缩包里是新内容。"""
    site = tmp_path / "html"
    site.mkdir()
    (site / "index.html").write_text("<p>第一版</p>", encoding="utf-8")
    archive = tmp_path / "web.zip"
    assert build(html=site, archive=archive)[1] is True
    assert build(html=site, archive=archive)[1] is False
    (site / "index.html").write_text("<p>第二版</p>", encoding="utf-8")
    assert build(html=site, archive=archive)[1] is True
    with zipfile.ZipFile(archive) as zf:
        assert "第二版" in zf.read(f"{TOP}/index.html").decode("utf-8")
