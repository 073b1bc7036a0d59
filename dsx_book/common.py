"""测试、bench/ 与构建脚本共用的小工具：按阅读顺序列出章节、在本地端口上提供构建好的网页、chromium 的启动参数。"""
import functools
import http.server
import os
import threading
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent

# 浏览器测试、bench/ 与 PDF 版都用 Debian 的 chromium（Playwright 不下载自带的浏览器）
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync",
                 "--disable-quic", "--disable-default-apps", "--disable-extensions"]


def chapter_paths(root=ROOT):
    """_toc.yml 里按阅读顺序列出的全部 .ipynb 章节。"""
    toc = yaml.safe_load((root / "_toc.yml").read_text(encoding="utf-8"))
    files = []

    def walk(node):
        if isinstance(node, dict):
            if "file" in node or "root" in node:
                files.append(node.get("file") or node.get("root"))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(toc)
    paths = []
    for f in files:
        p = root / f
        if p.suffix == "":
            p = p.with_suffix(".ipynb") if p.with_suffix(".ipynb").exists() else p.with_suffix(".md")
        if p.suffix == ".ipynb":
            paths.append(p)
    return paths


def html_dir():
    """构建好的网页版所在的目录（环境变量 DSX_HTML_DIR 可改，默认 _build/html）。"""
    return Path(os.environ.get("DSX_HTML_DIR", ROOT / "_build" / "html"))


def serve_directory(root):
    """在 127.0.0.1 的随机端口上（后台线程）提供 root 目录；返回 (服务器, 形如 http://127.0.0.1:PORT/ 的地址)。"""
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"
