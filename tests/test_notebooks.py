"""每个章节笔记本：结构符合章节模板，存储时没有输出，并且能从头到尾运行、图中没有缺字（豆腐块）。"""
import re

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
