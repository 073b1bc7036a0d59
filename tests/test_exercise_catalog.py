"""练习目录的承诺：每个参考答案都能通过自己的检查；每个未作答的模板都能运行，检查报告“还没有完成”；
每章 2–4 道练习；生成的单元格是合法的 nbformat 单元格，带约定的标签；参考答案可以显示出来。
"""
import ast
import re

import nbformat
import pytest

import dsx_util.exercises as exercises
from conftest import BOOK, chapter_paths
from dsx_util.exercises.catalog import EXERCISES, TODO, chapter_cells, exercises_for, show_solution

IDS = [ex.id for ex in EXERCISES]


def _run_check(ex, code):
    """在全新的命名空间里先运行 code（答案或模板），再运行检查单元格，返回 CheckResult。"""
    ns = {"__name__": "__main__"}
    exec(compile(code, f"<{ex.id}>", "exec"), ns)
    *setup, call = ex.check.splitlines()
    exec("\n".join(setup), ns)
    return eval(call.rstrip(";"), ns)


@pytest.mark.parametrize("ex", EXERCISES, ids=IDS)
def test_reference_solution_passes(ex, capsys):
    result = _run_check(ex, ex.solution)
    assert result.passed is True and result.codes == [], (result.codes, result.messages)


@pytest.mark.parametrize("ex", EXERCISES, ids=IDS)
def test_template_runs_and_reports_not_done(ex, capsys):
    result = _run_check(ex, ex.template)
    assert result.passed is False and result.codes == ["not_done"], (result.codes, result.messages)
    assert "NotImplementedError" in capsys.readouterr().out   # 终端里显示了“还没有完成”


def test_at_most_four_exercises_in_every_chapter():
    """每章最多 4 道练习；也可以没有（CONTRIBUTING.md「加一章（没有练习）」）或只有一道。"""
    stems = [p.stem for p in chapter_paths()]
    assert len(stems) >= 12
    for stem in stems:
        assert len(exercises_for(stem)) <= 4, stem
    assert {ex.chapter for ex in EXERCISES} <= set(stems), "有练习属于不存在的章节"


def test_ids_unique_and_stable_slugs():
    assert len(IDS) == len(set(IDS))
    for ex in EXERCISES:
        assert re.fullmatch(r"ch\d\d-[a-z0-9]+(-[a-z0-9]+)*", ex.id), ex.id
        assert ex.id[:4] == ex.chapter[:4], ex.id


def _top_level_names(code):
    return {node.name for node in ast.parse(code).body if isinstance(node, (ast.FunctionDef, ast.ClassDef))}


@pytest.mark.parametrize("ex", EXERCISES, ids=IDS)
def test_exercise_fields(ex):
    # 检查单元格：导入一个存在的检查函数并调用它
    lines = ex.check.splitlines()
    assert len(lines) == 2 and lines[0] == f"from dsx_util.exercises import {ex.checker}"
    assert ex.checker.startswith("check_") and callable(getattr(exercises, ex.checker))
    assert ex.checker in exercises.__all__
    # 模板与答案定义同样的名字，检查调用的正是这个名字
    names = _top_level_names(ex.template)
    assert names and names == _top_level_names(ex.solution)
    assert re.search(r"\((\w+)\)$", lines[1]).group(1) in names
    assert TODO in ex.template and "NotImplementedError" not in ex.solution
    # 文字是中文，题目说明了检查什么
    for text in (ex.title, ex.task, ex.hint):
        assert re.search(r"[\u4e00-\u9fff]", text) and text == text.strip()
    assert "检查" in ex.task


def test_every_checker_is_used_by_exactly_one_exercise():
    used = [ex.checker for ex in EXERCISES]
    assert len(used) == len(set(used))
    assert {n for n in exercises.__all__ if n.startswith("check_")} == set(used)


@pytest.mark.parametrize("stem", sorted({ex.chapter for ex in EXERCISES}))
def test_chapter_cells(stem):
    cells = chapter_cells(stem)
    exs = exercises_for(stem)
    assert len(cells) == 5 * len(exs)
    nb = nbformat.v4.new_notebook()
    nb.cells = cells
    nbformat.validate(nb)   # 合法的 nbformat 4 单元格（含单元格 id）
    for n, ex in enumerate(exs, start=1):
        task, template, check, hint, solution = cells[5 * (n - 1): 5 * n]
        assert task.cell_type == "markdown" and task.source.startswith(f"### 练习 {n}：{ex.title}\n")
        assert template.cell_type == "code" and template.source == ex.template
        assert template.metadata["tags"] == ["exercise-template"] + (["inpage-exercise"] if ex.in_page else [])
        assert check.cell_type == "code" and check.source == ex.check
        assert check.metadata["tags"] == ["exercise-check"] + (["remove-output"] if ex.in_page else [])
        assert hint.cell_type == "markdown"
        assert hint.source.startswith("<details><summary>提示</summary>\n\n") and hint.source.endswith("\n\n</details>")
        assert solution.cell_type == "code" and solution.metadata["tags"] == ["exercise-solution"]
        assert solution.source == f'from dsx_util.exercises import show_solution\nshow_solution("{ex.id}")'
        assert ex.solution not in solution.source   # 笔记本里看不到答案，运行后才显示
    # 重复生成的结果完全相同（重新运行生成器不会制造无意义的差异）
    assert [c.to_dict() if hasattr(c, "to_dict") else dict(c) for c in chapter_cells(stem)] == \
           [c.to_dict() if hasattr(c, "to_dict") else dict(c) for c in cells]


def test_chapter_cells_accepts_file_names_and_rejects_unknown():
    assert len(chapter_cells("book/ch05_implement_layernorm.ipynb")) == len(chapter_cells("ch05_implement_layernorm"))
    with pytest.raises(ValueError, match="ch99"):
        chapter_cells("ch99_nothing")


def test_show_solution_in_terminal(capsys):
    show_solution("ch05-layer-norm")
    out = capsys.readouterr().out
    assert out.startswith("参考答案：从零实现 LayerNorm")
    assert "class MyLayerNorm(nn.Module):" in out


def test_show_solution_is_folded_in_a_notebook():
    """「运行全部」不会摊开参考答案：笔记本里 show_solution 的输出是收起的 <details>（没有 open），
    纯文本的退路里有标题和代码。用真正的 Jupyter 内核运行一个小笔记本来看。"""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    cell = nbformat.v4.new_code_cell('from dsx_util.exercises import show_solution\nshow_solution("ch05-layer-norm")')
    nb = nbformat.v4.new_notebook(cells=[cell])
    nbclient.NotebookClient(nb, timeout=60, kernel_name="python3").execute()
    (out,) = nb.cells[0].outputs
    html = out["data"]["text/html"]
    assert html.startswith('<details class="dsx-solution">') and html.rstrip().endswith("</details>")
    assert "<details open" not in html and " open" not in html.split(">", 1)[0]
    summary, body = html.split("</summary>", 1)
    assert "参考答案：从零实现 LayerNorm" in summary and "class MyLayerNorm" not in summary
    assert "class MyLayerNorm(nn.Module):" in body and "def forward" in body
    assert "text/markdown" not in out["data"]            # 没有会被直接展开显示的 Markdown 版本
    plain = out["data"]["text/plain"]
    assert plain.startswith("参考答案：从零实现 LayerNorm") and "class MyLayerNorm" in plain


def test_show_solution_unknown_id_lists_valid_ids():
    with pytest.raises(ValueError) as err:
        show_solution("ch05-layernorm")
    assert "ch05-layernorm" in str(err.value) and "ch05-layer-norm" in str(err.value)


def test_import_is_light():
    import subprocess
    import sys
    code = ("import sys, dsx_util.exercises as e; e.EXERCISES; e.check_relu; "
            "print(sorted(m for m in ('torch', 'IPython', 'ipywidgets', 'matplotlib') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_exercise_cells_in_a_real_kernel(tmp_path):
    """在真正的内核里运行一章的练习单元格：模板不报错，检查显示中性的「○ 尚未作答」，参考答案收起在 <details> 里。"""
    from dsx_book.run_notebook import execute
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("## 练习")] + chapter_cells("ch05_implement_layernorm")
    path = tmp_path / "ex.ipynb"
    nbformat.write(nb, path)
    done, _ = execute(str(path), timeout=120)
    by_tag = {}
    for cell in done.cells:
        for tag in cell.metadata.get("tags", []):
            by_tag.setdefault(tag, []).append(cell)
    for cell in done.cells:
        assert all(o.output_type != "error" for o in cell.get("outputs", []))
    for cell in by_tag["exercise-template"]:
        assert cell.outputs == []
    for cell in by_tag["exercise-check"]:
        html = [o for o in cell.outputs if "text/html" in o.get("data", {})]
        assert len(html) == 1, "检查结果应只显示一次"
        assert 'data-state="not_done"' in html[0]["data"]["text/html"] and "○" in html[0]["data"]["text/html"]
        assert "✗" not in html[0]["data"]["text/html"]
    for cell, ex in zip(by_tag["exercise-solution"], exercises_for("ch05")):
        (out,) = cell.outputs
        folded = out["data"]["text/html"]
        assert folded.startswith('<details class="dsx-solution"><summary><strong>参考答案：' + ex.title)
        assert __import__("html").escape(ex.solution) in folded


def test_fill_exercises_into_a_chapter_skeleton(tmp_path):
    """dsx_book/new_chapter.py 的骨架 + fill_exercises：练习放在标记之后，可重复运行，nbsync 检查通过。"""
    from dsx_util.exercises.catalog import fill_exercises
    from dsx_book.nbsync import sync
    from dsx_book.new_chapter import new_chapter
    path = tmp_path / "ch08_rmsnorm.ipynb"
    new_chapter(path, "RMSNorm", exercises=True)
    nb = nbformat.read(path, as_version=4)
    before = len(nb.cells)
    assert fill_exercises(nb, path.stem) is True
    assert nb.cells[before - 1].metadata["tags"] == ["exercises"]
    assert nb.cells[before:] == chapter_cells("ch08_rmsnorm")
    nbformat.validate(nb)
    nbformat.write(nb, path)
    again = nbformat.read(path, as_version=4)
    assert fill_exercises(again, path.stem) is False   # 第二次运行没有改动
    assert sync(path, check=True) == []
    nb.cells.pop()                                      # 练习被改动（少了一个单元格）时会被修复
    assert fill_exercises(nb, path.stem) is True and nb.cells[before:] == chapter_cells("ch08_rmsnorm")
    nb.cells[1].metadata["tags"] = ["exercises"]        # 两个标记：报错
    with pytest.raises(ValueError, match="exercises"):
        fill_exercises(nb, path.stem)


@pytest.mark.parametrize("ex", EXERCISES, ids=IDS)
def test_solution_and_template_are_importable_modules(ex):
    """练习的模板和参考答案是真正的 .py 文件：能被导入，导入后定义了检查要调用的名字。"""
    import importlib
    package = f"dsx_util.exercises.items.{ex.id.replace('-', '_')}"
    for part in ("solution", "template"):
        module = importlib.import_module(f"{package}.{part}")
        assert callable(getattr(module, ex.entry)), (part, ex.entry)
    assert importlib.import_module(package).CHAPTER == ex.chapter


@pytest.mark.parametrize("stem", sorted({ex.chapter for ex in EXERCISES}))
def test_exercise_names_do_not_shadow_chapter_names(stem):
    """练习要写的函数名不能和本章正文里定义的名字相同：学习者运行模板时会覆盖正文的定义。"""
    nb = nbformat.read(BOOK / f"{stem}.ipynb", as_version=4)
    defined = set()
    for cell in nb.cells:
        if "exercises" in cell.metadata.get("tags", []):
            break
        if cell.cell_type == "code":
            for node in ast.walk(ast.parse("\n".join(line for line in cell.source.splitlines() if not line.startswith(("%", "!"))))):
                if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                    defined.add(node.name)
                elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                    defined.add(node.id)
    clashes = {ex.entry for ex in exercises_for(stem)} & defined
    assert not clashes, f"{stem}：练习的名字 {clashes} 与正文里的名字相同"
