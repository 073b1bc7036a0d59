"""执行缓存不会留下过时的输出：改了 dsx_util（这里用一本小书和它自己的小包代替）之后，下一次构建重新执行章节。

jupyter-cache 只比较代码单元格；dsx_book/status.py 把包的内容也算进去。小书与本书用同一个扩展、同一个
jupyter-book，只是包换成一个一行的模块，这样三次构建只要几十秒。
"""
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from conftest import ROOT

JB = Path(sys.executable).with_name("jupyter-book")

CONFIG = """title: 缓存测试
only_build_toc_files: true
execute:
  execute_notebooks: cache
sphinx:
  extra_extensions: [dsx_book]
  config:
    dsx_execution_inputs: [tinypkg]
"""


def _build(book):
    done = subprocess.run([str(JB), "build", str(book)], capture_output=True, text=True, cwd=book)
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    # myst-nb 自己执行（DSX_JOBS=1）时记「Executing notebook」，读入之前同时执行（dsx_book/parallel.py）时记「执行完」
    executed = re.findall(r"Executing notebook|执行完 ", done.stdout + done.stderr)
    page = (book / "_build" / "html" / "chapter.html").read_text(encoding="utf-8")
    return len(executed), re.search(r"VALUE=(\w+)", page).group(1)


@pytest.fixture(scope="module")
def tiny_book(tmp_path_factory):
    book = tmp_path_factory.mktemp("tinybook")
    (book / "_config.yml").write_text(CONFIG, encoding="utf-8")
    (book / "_toc.yml").write_text("format: jb-book\nroot: chapter\n", encoding="utf-8")
    (book / "tinypkg").mkdir()
    (book / "tinypkg" / "__init__.py").write_text('VALUE = "first"\n', encoding="utf-8")
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# 一章"),
        nbformat.v4.new_code_cell('import tinypkg\nprint(f"VALUE={tinypkg.VALUE}")'),
    ])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, book / "chapter.ipynb")
    return book


@pytest.mark.slow  # 四次构建，约一分钟
def test_package_change_reexecutes_the_chapters(tiny_book):
    assert _build(tiny_book) == (1, "first")
    # 什么都没改：用缓存，不执行
    assert _build(tiny_book) == (0, "first")
    # 只改包里的文件（章节本身一个字没动）：重新执行，网页上是新的输出
    (tiny_book / "tinypkg" / "__init__.py").write_text('VALUE = "second"\n', encoding="utf-8")
    assert _build(tiny_book) == (1, "second")
    # 之后又回到用缓存
    assert _build(tiny_book) == (0, "second")


def test_digest_ignores_bytecode_but_sees_every_other_file(tmp_path):
    from dsx_book.status import inputs_digest
    (tmp_path / "a.py").write_text("x = 1\n")
    before = inputs_digest([tmp_path])
    (tmp_path / "__pycache__").mkdir()
    (tmp_path / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"\0\1")
    assert inputs_digest([tmp_path]) == before
    (tmp_path / "static").mkdir()
    (tmp_path / "static" / "explorer.js").write_text("// 探索器脚本\n")
    assert inputs_digest([tmp_path]) != before


def test_workflows_restore_only_an_exact_execution_cache():
    """发布与 CI 的工作流只恢复键完全相同的执行缓存：restore-keys 会把旧键的缓存（旧的输出）恢复到新的构建上。"""
    import yaml
    for path in sorted((ROOT / ".github" / "workflows").glob("*.yml")):
        for job in yaml.safe_load(path.read_text(encoding="utf-8"))["jobs"].values():
            for step in job.get("steps", []):
                spec = step.get("with", {})
                if step.get("uses", "").startswith("actions/cache") and "jupyter_cache" in spec.get("path", ""):
                    assert "restore-keys" not in spec, f"{path.name}：执行缓存不能用 restore-keys"
                    assert "dsx_util/**" in spec["key"], f"{path.name}：缓存键应包含 dsx_util 的内容"
