"""网页版压缩包（_build/dsx-book-web.zip；make book 把它复制到网站根目录，首页有下载链接；发布时也附在 Release 上）
解压后直接从磁盘（file://）打开，每一页都通过与 test_browser.py 相同的离线检查，搜索和探索器照常工作。

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
from dsx_book.web_archive import (ARCHIVE, FONT_PRELOAD, FONT_URL, LINK_HIDDEN, LINK_SHOWN, TOP, build, publish,
                                  site_files)


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
    """压缩包里正好是构建好的网页（同样的文件、同样的内容），都在一个顶层文件夹里，不含复制进网站的压缩包自己；
    只有三处改动：样式表里的字体写成 data: 网址，页面去掉预加载字体的 <link>（两处都为从磁盘打开），
    首页上下载压缩包的链接是隐藏的（压缩包里没有它自己）。"""
    html = html_dir()
    want = {f"{TOP}/{p.relative_to(html).as_posix()}": p for p in site_files(html)}
    assert sorted(archive.namelist()) == sorted(want), "压缩包与 _build/html 不一致：请重新运行 make book"
    assert archive.read(f"{TOP}/searchindex.js") == want[f"{TOP}/searchindex.js"].read_bytes()
    assert f"{TOP}/{ARCHIVE.name}" not in want and (html / ARCHIVE.name).exists(), "网站里应有压缩包，压缩包里不应有"
    for name in (f"{TOP}/index.html", f"{TOP}/search.html", f"{TOP}/book/index.html"):
        page = archive.read(name).decode("utf-8")
        assert 'as="font"' not in page, f"{name} 仍在预加载字体（从磁盘打开时被浏览器拦下）"
        site = FONT_PRELOAD.sub("", want[name].read_text(encoding="utf-8"))
        assert page == site.replace(LINK_SHOWN, LINK_HIDDEN), name
    front = archive.read(f"{TOP}/book/index.html").decode("utf-8")
    assert LINK_HIDDEN in front and LINK_SHOWN not in front, "压缩包的首页显示着下载压缩包自己的链接"
    assert LINK_SHOWN in want[f"{TOP}/book/index.html"].read_text(encoding="utf-8"), "网站首页没有显示下载压缩包的链接"
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
    assert "手机上" in feedback.inner_text()     # 手机上没法运行命令：说去电脑上或在线的网页版（学习者评审 r41）
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


@pytest.mark.unit
def test_publishing_puts_the_archive_on_the_site_without_repacking(tmp_path):
    """publish：压缩包复制到网站根目录、首页的链接由隐藏变为显示；之后再打包，网页不算变了（不重新打包），
    压缩包里也没有它自己（不把压缩包打进压缩包），首页的链接在压缩包里仍是隐藏的。
    首页的源文件里链接是隐藏的：网站里还没有压缩包时（make book 的 Sphinx 那一步刚结束）看不见它。"""
    assert LINK_HIDDEN in (ROOT / "book" / "index.md").read_text(encoding="utf-8")
    site = tmp_path / "html"
    (site / "book").mkdir(parents=True)
    (site / "index.html").write_text("<p>转到首页</p>", encoding="utf-8")
    (site / "book" / "index.html").write_text(f"{LINK_HIDDEN}<a href=\"../{ARCHIVE.name}\">下载</a></p>", encoding="utf-8")
    archive = tmp_path / ARCHIVE.name
    assert build(html=site, archive=archive)[1] is True
    for _ in range(2):
        copy = publish(archive, site)
        assert copy == site / ARCHIVE.name and copy.read_bytes() == archive.read_bytes()
        front = (site / "book" / "index.html").read_text(encoding="utf-8")
        assert LINK_SHOWN in front and LINK_HIDDEN not in front
        assert build(html=site, archive=archive)[1] is False, "显示链接、复制压缩包之后又重新打了包"
    (site / "book" / "index.html").write_text(front + "<p>新的一段</p>", encoding="utf-8")
    assert build(html=site, archive=archive)[1] is True
    with zipfile.ZipFile(archive) as zf:
        assert zf.namelist() == [f"{TOP}/book/index.html", f"{TOP}/index.html"], zf.namelist()
        assert LINK_HIDDEN in zf.read(f"{TOP}/book/index.html").decode("utf-8")
    publish(archive, site)
    assert (site / ARCHIVE.name).read_bytes() == archive.read_bytes(), "重新打包后网站上的还是旧的压缩包"


@pytest.mark.unit
def test_publishing_without_the_link_paragraph_says_so(tmp_path):
    site = tmp_path / "html"
    (site / "book").mkdir(parents=True)
    for page in ("index.html", "book/index.html"):
        (site / page).write_text("<p>首页</p>", encoding="utf-8")
    archive = build(html=site, archive=tmp_path / ARCHIVE.name)[0]
    with pytest.raises(SystemExit, match="没有下载网页版压缩包的段落"):
        publish(archive, site)
