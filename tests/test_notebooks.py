"""每个章节笔记本：结构符合章节模板，存储时没有输出，并且能从头到尾运行、图中没有缺字（豆腐块）。"""
import ast
import re
import sys

import nbformat
import pytest

from conftest import chapter_paths

CHAPTERS = chapter_paths()
IDS = [p.stem for p in CHAPTERS]


def test_toc_lists_chapters_in_reading_order():
    stems = [p.stem for p in CHAPTERS]
    assert stems == sorted(stems), "章节文件名的编号应与 _toc.yml 的阅读顺序一致"
    assert len(stems) == len(set(stems)) >= 12


def test_chapters_are_in_sync_with_nbsync():
    """设置单元格与 _config.yml / pyproject.toml 一致，且没有提交输出（dsx_book/nbsync.py --check）。"""
    from dsx_book.nbsync import sync
    problems = {p.stem: sync(p, check=True) for p in CHAPTERS}
    assert {k: v for k, v in problems.items() if v} == {}


def imports_outside_try(source):
    """一段代码里不在 try 里的 import 的顶层模块名（try 里的导入缺了也能运行，如第 11 章的 numba）。"""
    tree = ast.parse("\n".join(line for line in source.splitlines() if not line.lstrip().startswith(("%", "!"))))
    guarded = {id(n) for t in ast.walk(tree) if isinstance(t, ast.Try) for part in t.body for n in ast.walk(part)}
    names = set()
    for node in ast.walk(tree):
        if id(node) in guarded:
            continue
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names.add(node.module.split(".")[0])
    return names


def test_setup_cell_checks_every_package_a_chapter_imports():
    """设置单元格在内核里逐个导入 dsx_util 和它在 pyproject.toml 里声明的每个依赖，都导入得了才说就绪。这句话要覆盖
    章节真正导入的东西：每章（设置单元格以外）不在 try 里的 import，要么是标准库，要么是 dsx_util 或它的依赖。"""
    import tomllib
    from conftest import ROOT
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    checked = {"dsx_util"} | {re.split(r"[ ;<>=!~\[(]", r)[0].replace("-", "_") for r in project["dependencies"]}
    found, extra = set(), {}
    for path in CHAPTERS:
        for cell in nbformat.read(path, as_version=4).cells[1:]:
            if cell.cell_type == "code":
                names = imports_outside_try(cell.source) - set(sys.stdlib_module_names)
                found |= names
                if names - checked:
                    extra.setdefault(path.stem, set()).update(names - checked)
    assert extra == {}, f"章节导入了设置单元格不检查的包（加进 pyproject.toml 的依赖，或放进 try）：{extra}"
    assert {"dsx_util", "torch"} <= found, found   # 对照：确实读到了章节的导入


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_chapter_follows_template(path):
    nb = nbformat.read(path, as_version=4)
    first = nb.cells[0]
    assert first.cell_type == "code" and "setup" in first.metadata.get("tags", []), "第一个单元格必须是设置单元格"
    assert "google.colab" in first.source and "DSX_UTIL_SOURCE" in first.source
    title = nb.cells[1]
    assert title.cell_type == "markdown" and title.source.startswith("# ") and "学习目标" in title.source
    md = [c.source for c in nb.cells if c.cell_type == "markdown"]
    assert any(s.startswith("## 小结") for s in md), "缺少「## 小结」"
    marker = [i for i, c in enumerate(nb.cells) if "exercises" in c.metadata.get("tags", [])]
    from dsx_util.exercises.catalog import exercises_for
    if exercises_for(path.stem):   # 有练习的章节恰好有一个「## 练习」标记单元格；没有练习的章节没有它
        assert len(marker) == 1 and nb.cells[marker[0]].source.startswith("## 练习"), "缺少「## 练习」标记单元格"
    else:
        assert marker == [], "这一章没有练习，不要「## 练习」标记单元格"
    assert sum(1 for s in md if re.match(r"^# ", s)) == 1, "每章只能有一个一级标题"
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert not cell.outputs and cell.execution_count is None, "章节存储时不能带输出"
            assert "from myst_nb import" not in cell.source, "请用 dsx_util.glue，Colab 里没有 myst_nb"


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_chapter_executes_without_errors_or_tofu(run_chapter, path):
    nb, _, seconds = run_chapter(path.stem)
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            assert out.output_type != "error", f"单元格报错：{out.get('ename')}: {out.get('evalue')}"
            text = out.get("text", "") if out.output_type == "stream" else ""
            assert not re.search(r"Glyph \d+ .*missing from font", text), f"图中有缺字：{text[:200]}"
            assert "没有找到中文字体" not in text
