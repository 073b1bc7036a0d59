"""把构建好的网页版（_build/html）打成一个可以离线打开的压缩包：_build/dsx-book-web.zip。

解压后直接用浏览器打开 dsx-book-web/index.html 即可阅读（file://，不需要服务器）：页面之间是相对链接，
搜索索引用 <script> 加载，探索器的脚本内联在页面里。发布工作流把它附在 GitHub Release 上。
文件按名字排序、时间戳固定，同样的网页得到同样的压缩包。
"""
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HTML = ROOT / "_build" / "html"
ARCHIVE = ROOT / "_build" / "dsx-book-web.zip"
TOP = "dsx-book-web"
FIXED_TIME = (2020, 1, 1, 0, 0, 0)


def site_files(html=HTML):
    """网页版里要打包的文件（不含 Sphinx 的构建记录 .buildinfo 之类的隐藏文件）。"""
    return sorted(p for p in html.rglob("*")
                  if p.is_file() and not any(part.startswith(".") for part in p.relative_to(html).parts))


def build(html=HTML, archive=ARCHIVE):
    if not (html / "index.html").exists():
        sys.exit(f"没有找到构建好的网页 {html}/index.html：请先运行 make book。")
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in site_files(html):
            info = zipfile.ZipInfo(f"{TOP}/{path.relative_to(html).as_posix()}", FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, path.read_bytes())
    return archive


if __name__ == "__main__":
    out = build()
    print(f"网页版压缩包：{out.relative_to(ROOT)}（{out.stat().st_size / 1e6:.1f} MB）")
