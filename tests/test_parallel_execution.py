"""章节同时执行（dsx_book/parallel.py）：结果与 myst-nb 自己执行时一样，出错的章节照样让构建失败。

小书有三章：一章在子文件夹里（打印内核的工作目录），一章故意出错，一章正常（首页）。先构建一次（失败），
改好出错的一章再构建一次（成功）。
"""
import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

JB = Path(sys.executable).with_name("jupyter-book")

CONFIG = """title: 并行执行测试
only_build_toc_files: true
execute:
  execute_notebooks: cache
  raise_on_error: true
sphinx:
  extra_extensions: [dsx_book]
  config:
    dsx_execution_inputs: []
"""
TOC = """format: jb-book
root: intro
chapters:
  - file: sub/where
  - file: broken
"""


def _chapter(path, title, code):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(f"# {title}"),
                                         nbformat.v4.new_code_cell(code)])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)


def _build(book):
    done = subprocess.run([str(JB), "build", str(book)], capture_output=True, text=True, cwd=book,
                          env={**os.environ, "DSX_JOBS": "2"})
    return done.returncode, done.stdout + done.stderr


def _cached(book):
    from jupyter_cache import get_cache
    return {Path(r.uri).name: r.data for r in get_cache(book / "_build" / ".jupyter_cache").list_cache_records()}


@pytest.mark.slow  # 两次构建小书，约半分钟
def test_chapters_run_before_reading_and_a_failing_one_stops_the_build(tmp_path):
    book = tmp_path / "book"
    book.mkdir()
    (book / "_config.yml").write_text(CONFIG, encoding="utf-8")
    (book / "_toc.yml").write_text(TOC, encoding="utf-8")
    # 代码最短的一章最后开始（没执行过的章节按代码长短排）：让出错的一章最短，另外两章都已开始执行
    _chapter(book / "intro.ipynb", "首页", 'print("VALUE=intro")  # 比出错的一章长')
    _chapter(book / "sub" / "where.ipynb", "工作目录", 'import os\nprint(f"CWD={os.getcwd()}")')
    _chapter(book / "broken.ipynb", "出错的一章", 'raise ValueError("故意出错的单元格")')

    code, log = _build(book)
    assert code != 0, log[-3000:]
    assert "章节执行失败" in log and "broken" in log and "ValueError" in log and "故意出错的单元格" in log, log[-3000:]
    assert "Executing notebook" not in log, "myst-nb 不应再自己执行章节"
    cached = _cached(book)
    assert sorted(cached) == ["intro.ipynb", "where.ipynb"], cached     # 没出错的两章存进了缓存
    assert all(data["execution_seconds"] > 0 for data in cached.values())

    _chapter(book / "broken.ipynb", "出错的一章", 'print("VALUE=fixed")')
    code, log = _build(book)
    assert code == 0, log[-3000:]
    assert re.findall(r"执行完 (\S+)：", log) == ["broken"], log[-3000:]   # 只执行改过的一章
    assert "Executing notebook" not in log
    html = book / "_build" / "html"
    assert f"CWD={book / 'sub'}" in (html / "sub" / "where.html").read_text(encoding="utf-8")  # 在章节所在的文件夹里执行
    assert "VALUE=fixed" in (html / "broken.html").read_text(encoding="utf-8")
    assert sorted(_cached(book)) == ["broken.ipynb", "intro.ipynb", "where.ipynb"]
    # 每章都取了缓存；_build/jupyter_execute 里的笔记本仍带输出（myst-nb 1.4 取缓存时写的是不带输出的源笔记本）
    assert _printed(book, "intro") == "VALUE=intro" and _printed(book, "broken") == "VALUE=fixed"
    assert _printed(book, "sub/where") == f"CWD={book / 'sub'}"

    # 只改正文（代码不变，取缓存）的一章：重读后写出的笔记本也带输出
    nb = nbformat.read(book / "intro.ipynb", as_version=4)
    nb.cells[0].source = "# 首页（改了一句）"
    nbformat.write(nb, book / "intro.ipynb")
    code, log = _build(book)
    assert code == 0 and "执行完" not in log and "Executing notebook" not in log, log[-3000:]
    assert _printed(book, "intro") == "VALUE=intro"


def _printed(book, docname):
    nb = nbformat.read(book / "_build" / "jupyter_execute" / f"{docname}.ipynb", as_version=4)
    return "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs).strip()


def test_longest_chapters_first_and_unknown_ones_before_them():
    from dsx_book.parallel import longest_first

    def chapter(name, code_length):
        return Path(name), nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x" * code_length)]), None

    chapters = [chapter("ch01", 10), chapter("ch09", 10), chapter("new_short", 5), chapter("new_long", 50),
                chapter("ch12", 10)]
    previous = {Path("ch01"): 5.0, Path("ch09"): 34.0, Path("ch12"): 23.0}
    assert [str(c[0]) for c in longest_first(chapters, previous)] == ["new_long", "new_short", "ch09", "ch12", "ch01"]


@pytest.mark.parametrize("value", ["0", "two", "-1", ""])
def test_dsx_jobs_must_be_a_positive_integer(monkeypatch, value):
    from dsx_book.parallel import ChapterExecutionError, jobs
    monkeypatch.setenv("DSX_JOBS", value)
    with pytest.raises(ChapterExecutionError, match="DSX_JOBS"):
        jobs()
    monkeypatch.setenv("DSX_JOBS", "3")
    assert jobs() == 3


def test_the_pdf_build_notices_chapters_run_by_either_path():
    """make pdf 与 tests/test_pdf.py 从构建日志里找出执行过的章节：myst-nb 自己执行的，和本步骤执行的都算。"""
    from dsx_book.build_pdf import executed_chapters
    log = ("/x/book/ch01_gpt_architecture.ipynb: Executing notebook using local CWD [mystnb]\n"
           "同时执行 2 章（2 个内核，DSX_JOBS）：book/ch09_pre_post_ln、book/ch04_formulas\n"
           "执行完 book/ch09_pre_post_ln：41.0 秒\n"
           "/x/book/ch02_why_normalize.ipynb: Using cached notebook: ID=3 [mystnb]\n")
    assert executed_chapters(log) == ["/x/book/ch01_gpt_architecture.ipynb", "book/ch09_pre_post_ln"]
    assert executed_chapters("/x/book/ch02.ipynb: Using cached notebook: ID=3 [mystnb]\n") == []
