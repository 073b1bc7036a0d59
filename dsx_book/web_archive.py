"""把构建好的网页版（_build/html）打成一个可以离线打开的压缩包：_build/dsx-book-web.zip。

解压后直接用浏览器打开 dsx-book-web/index.html 即可阅读（file://，不需要服务器）：页面之间是相对链接，
搜索索引用 <script> 加载，探索器的脚本内联在页面里。浏览器不允许 file:// 页面用 @font-face 加载
本地字体文件（跨源限制，控制台报错），所以压缩包里的样式表把字体写成 data: 网址。

读者在网站上下载它：打好包后复制一份到网页版的根目录（_build/html/dsx-book-web.zip，随网页版发布到 GitHub Pages；
发布工作流也把它附在 GitHub Release 上，但中国大陆常常打不开 GitHub），再显示首页上原本隐藏的下载链接
（book/index.md 里写着 hidden，与 PDF 的链接同样做法），所以首页上看得见的链接总能下载。
压缩包里不含它自己（那一份复制品不打包），它的首页上这条链接仍是隐藏的。
文件按名字排序、时间戳固定，同样的网页得到同样的压缩包；网页一个字节都没变时（网页的摘要记在压缩包旁的
.site-digest 文件里；它不是压缩包本身的校验和，所以不叫 .sha256）不再重新打包。显示链接不算变化：摘要按隐藏链接的写法计算。
"""
import base64
import hashlib
import re
import shutil
import sys
import zipfile
from pathlib import Path

from .install import WEB_ARCHIVE

ROOT = Path(__file__).resolve().parent.parent
HTML = ROOT / "_build" / "html"
ARCHIVE = ROOT / "_build" / WEB_ARCHIVE
TOP = "dsx-book-web"
FIXED_TIME = (2020, 1, 1, 0, 0, 0)
# 首页上下载本压缩包的段落：构建网页时隐藏，复制进网站之后才显示
LINK_HIDDEN, LINK_SHOWN = '<p class="dsx-web-archive-link" hidden>', '<p class="dsx-web-archive-link">'


def site_files(html=HTML):
    """网页版里要打包的文件（不含 Sphinx 的构建记录 .buildinfo 之类的隐藏文件，也不含复制进网站的压缩包自己）。"""
    return sorted(p for p in html.rglob("*")
                  if p.is_file() and not any(part.startswith(".") for part in p.relative_to(html).parts)
                  and p != html / ARCHIVE.name)


FONT_URL = re.compile(r"""url\((["']?)([^"')]+\.(woff2?|ttf|otf))\1\)""")


def inline_fonts(css_path):
    """样式表的文字，其中引用的本地字体文件换成 data: 网址（从磁盘打开时才能加载）。"""
    def data_url(match):
        font = css_path.parent / match.group(2)
        if not font.is_file():
            return match.group(0)
        encoded = base64.b64encode(font.read_bytes()).decode("ascii")
        return f'url("data:font/{match.group(3)};base64,{encoded}")'
    return FONT_URL.sub(data_url, css_path.read_text(encoding="utf-8")).encode("utf-8")


FONT_PRELOAD = re.compile(r'<link rel="preload"[^>]*as="font"[^>]*>\n?')


def with_link_hidden(data):
    """页面的字节，下载本压缩包的链接写成隐藏的：压缩包里没有它自己，链接在那里打不开。"""
    return data.replace(LINK_SHOWN.encode(), LINK_HIDDEN.encode())


def without_font_preloads(html_path):
    """页面的文字，去掉预加载字体的 <link>：字体已在样式表里（data: 网址），从磁盘预加载只会被浏览器拦下并报错；
    下载本压缩包的链接隐藏。"""
    return with_link_hidden(FONT_PRELOAD.sub("", html_path.read_text(encoding="utf-8")).encode("utf-8"))


def content(path):
    if path.suffix == ".css":
        return inline_fonts(path)
    if path.suffix == ".html":
        return without_font_preloads(path)
    return path.read_bytes()


def site_digest(html=HTML):
    """网页版全部文件的路径与内容的 SHA-256（再加上本脚本自己：打包方式变了也要重新打包）。
    页面按隐藏下载链接的写法计算：publish() 显示链接之后再运行，不会重新打包。"""
    digest = hashlib.sha256(Path(__file__).read_bytes())
    for path in site_files(html):
        data = path.read_bytes()
        if path.suffix == ".html":
            data = with_link_hidden(data)
        digest.update(path.relative_to(html).as_posix().encode() + b"\0" + data + b"\0")
    return digest.hexdigest()


def build(html=HTML, archive=ARCHIVE):
    """打包；返回 (压缩包路径, 这次是否真的重新打了包)。"""
    if not (html / "index.html").exists():
        sys.exit(f"没有找到构建好的网页 {html}/index.html：请先运行 make book。")
    stamp = archive.with_name(archive.name + ".site-digest")
    digest = site_digest(html)
    if archive.exists() and stamp.exists() and stamp.read_text().strip() == digest:
        return archive, False
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in site_files(html):
            info = zipfile.ZipInfo(f"{TOP}/{path.relative_to(html).as_posix()}", FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, content(path))
    stamp.write_text(digest + "\n")
    return archive, True


def publish(archive=ARCHIVE, html=HTML):
    """把压缩包复制到网页版的根目录（内容相同时不复制），再显示首页上下载它的链接；返回网站里那一份的路径。"""
    copy = html / archive.name
    if not copy.is_file() or copy.read_bytes() != archive.read_bytes():
        shutil.copyfile(archive, copy)
    index = html / "book" / "index.html"
    text = index.read_text(encoding="utf-8")
    if LINK_HIDDEN in text:
        index.write_text(text.replace(LINK_HIDDEN, LINK_SHOWN), encoding="utf-8")
    elif LINK_SHOWN not in text:
        sys.exit(f"{index} 里没有下载网页版压缩包的段落 {LINK_HIDDEN}：book/index.md 的写法变了吗？")
    return copy


if __name__ == "__main__":
    out, rebuilt = build()
    state = "" if rebuilt else "，网页没有变化，沿用上次的"
    copy = publish(out)
    print(f"网页版压缩包：{out.relative_to(ROOT)}（{out.stat().st_size / 1e6:.1f} MB{state}），"
          f"网站里的下载：{copy.relative_to(ROOT)}")
