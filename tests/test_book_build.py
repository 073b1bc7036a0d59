"""本书以 -W -n（警告即错误、严格交叉引用）构建成功，没有任何 Sphinx 警告；网页不引用站外资源。"""
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, chapter_paths, html_dir

JB = Path(sys.executable).with_name("jupyter-book")


LOG = ROOT / "_build" / "build.log"
INPUTS = ("book", "dsx_util", "dsx_book", "_static", "_extra", "_config.yml", "_toc.yml")


def _log_is_current():
    """make book 写下的构建日志比所有源文件都新：它说的就是现在这份源码的构建。"""
    if not LOG.exists() or not (html_dir() / "index.html").exists():
        return False
    newest = max(p.stat().st_mtime for name in INPUTS for p in [ROOT / name, *(ROOT / name).rglob("*")]
                 if p.is_file() and "__pycache__" not in p.parts)
    return LOG.stat().st_mtime >= newest


@pytest.fixture(scope="module")
def build_log():
    """构建的退出码与日志：make book（make test 的第一步）刚构建过就读它的日志，否则在这里构建一次。"""
    if _log_is_current():
        text = LOG.read_text(encoding="utf-8")
        return (0 if "build succeeded" in text else 1), text
    done = subprocess.run([str(JB), "build", str(ROOT), "-W", "-n", "--keep-going"],
                          capture_output=True, text=True, cwd=ROOT)
    return done.returncode, done.stdout + done.stderr


def test_build_succeeds_without_warnings(build_log):
    code, log = build_log
    sphinx_warnings = [line for line in log.splitlines()
                       if re.search(r"WARNING|ERROR", line) and "IPKernelApp" not in line]
    assert code == 0 and sphinx_warnings == [], "\n".join(sphinx_warnings[:20]) or log[-3000:]
    assert (html_dir() / "index.html").exists()


def test_every_chapter_page_built(build_log):
    for nb in chapter_paths():
        assert (html_dir() / "book" / f"{nb.stem}.html").exists()


def test_pages_reference_no_external_scripts_styles_or_fonts(build_log):
    pattern = re.compile(r'<(?:script|link|img|iframe)[^>]+(?:src|href)="(https?:)?//', re.I)
    offenders = {}
    for page in html_dir().rglob("*.html"):
        if any(part.startswith((".", "_")) for part in page.relative_to(html_dir()).parts):
            continue
        for tag in pattern.finditer(page.read_text(encoding="utf-8")):
            snippet = page.read_text(encoding="utf-8")[tag.start():tag.start() + 160]
            if "rel=\"canonical\"" not in snippet:
                offenders.setdefault(page.name, []).append(snippet)
    assert offenders == {}


def test_math_is_typeset_at_build_time(build_log):
    """公式在构建时排版（dsx_book/formulas.py）：网页里已是 MathJax 的排版结果，不加载任何 MathJax 脚本。"""
    pages_with_math = [p for p in (html_dir() / "book").glob("*.html") if 'class="math' in p.read_text("utf-8")]
    assert pages_with_math, "书中应当有公式"
    for page in pages_with_math:
        text = page.read_text(encoding="utf-8")
        assert "<mjx-container" in text, f"{page.name} 的公式没有在构建时排版"
        assert not re.search(r'<script[^>]+src="[^"]*mathjax', text, re.I), f"{page.name} 仍在加载 MathJax 脚本"


def test_config_basics():
    import yaml
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    assert config["repository"]["branch"] == "main"
    assert config["execute"]["execute_notebooks"] == "cache"
    assert config["sphinx"]["config"]["language"] == "zh_CN"
    assert "2026" in config["copyright"] and config["title"]


def _make_dry_run(*extra):
    """make -n book（只打印要运行的命令，不运行）；extra 如 "-W", 文件：假装那个文件刚改过。"""
    done = subprocess.run(["make", "-n", *extra, "book"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.mark.parametrize("changed", ["book/ch03_dim_keepdim.ipynb", "dsx_util/layernorm.py", "_static/dsx.css",
                                     "dsx_book/formulas.py", "_toc.yml"])
def test_make_book_skips_an_up_to_date_build_and_rebuilds_after_a_change(changed):
    """make book 刚构建过、什么都没改：不再运行 jupyter-book（无改动的 make book 只剩检查前提的时间）；
    对照：章节、dsx_util、样式、构建包或目录里任何一个文件改了，就又会构建。"""
    assert _log_is_current(), "构建不是最新的：请先运行 make book"
    assert "jupyter-book build" not in _make_dry_run(), "什么都没改，make book 却还要重新构建"
    assert "jupyter-book build" in _make_dry_run("-W", changed), f"改了 {changed}，make book 却不重新构建"
