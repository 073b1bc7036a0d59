"""纯 Python 检查器（dsx_util/exercises/pure_checks.py）的承诺：不导入 torch、numpy；每个错误代码都能被识别；
笔记本的调用方式（先运行代码，再 check_x(函数)）和网页的调用方式（run_source）给出同样的代码。
"""
import ast
import subprocess
import sys

import pytest

from dsx_util.exercises import pure_checks
from dsx_util.exercises.catalog import EXERCISES, get_exercise
from inpage_cases import GENERIC, MISTAKES

IN_PAGE = [ex for ex in EXERCISES if ex.in_page]
CASES = [(ex_id, code, src) for ex_id, cases in MISTAKES.items() for code, src in cases.items()]


def test_module_imports_without_torch_and_numpy():
    """在一个 torch、numpy 都无法导入的解释器里导入它、运行一次检查。"""
    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('torch', 'numpy', 'IPython', 'matplotlib'):\n"
        "            raise ImportError('blocked ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "import importlib.util\n"
        f"spec = importlib.util.spec_from_file_location('pure_checks', {pure_checks.__file__!r})\n"
        "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
        "r = m.check_relu(lambda v: [x if x > 0 else 0.0 for x in v], show=False)\n"
        "print(r.passed, sorted(k for k in sys.modules if k.split('.')[0] in ('torch', 'numpy')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "True []"


def test_only_standard_library_imports():
    tree = ast.parse(open(pure_checks.__file__, encoding="utf-8").read())
    names = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    names |= {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    # IPython 只在它已经载入时（笔记本里）才用来显示结果；上面的测试里它被禁止导入，检查照样可用
    assert names - {"IPython"} <= set(sys.stdlib_module_names), names - set(sys.stdlib_module_names)


def test_in_page_exercises_cover_the_chapters_of_the_issue():
    chapters = {ex.chapter[:4] for ex in IN_PAGE}
    assert chapters >= {"ch02", "ch04", "ch06", "ch07", "ch08", "ch11"}
    for ex in IN_PAGE:
        checker = pure_checks.CHECKERS[ex.checker]
        assert checker.exercise_id == ex.id and checker.exercise == ex.title
        assert set(MISTAKES[ex.id]) == set(checker.codes) | ({"not_list", "wrong_length"} & set(MISTAKES[ex.id])), \
            "每个错误代码都要有一段犯了这个错误的代码"


@pytest.mark.parametrize("ex", IN_PAGE, ids=lambda ex: ex.id)
def test_solution_passes_and_template_is_not_done(ex):
    assert pure_checks.run_source(ex.solution, ex.checker, ex.entry)["codes"] == []
    assert pure_checks.run_source(ex.template, ex.checker, ex.entry)["codes"] == ["not_done"]


def _notebook_way(ex, source, capsys):
    """像笔记本那样：运行模板单元格里的代码，再运行检查单元格（检查结果在终端里打印出来）。"""
    ns = {"__name__": "__main__"}
    exec(compile(source, "<cell>", "exec"), ns)
    result = getattr(pure_checks, ex.checker)(ns[ex.entry])
    printed = capsys.readouterr().out
    assert printed.strip() == result.text()
    return result


@pytest.mark.parametrize("ex_id,code,source", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_named_mistake_same_code_both_ways(ex_id, code, source, capsys):
    ex = get_exercise(ex_id)
    page = pure_checks.run_source(source, ex.checker, ex.entry)
    assert page["codes"] == [code], page["messages"]
    assert any("\u4e00" <= ch <= "\u9fff" for ch in page["messages"][0])   # 一句中文说明
    notebook = _notebook_way(ex, source, capsys)
    assert (notebook.codes, notebook.messages) == (page["codes"], page["messages"])
    assert "[" + code + "]" in notebook.text()


@pytest.mark.parametrize("code", sorted(GENERIC))
def test_generic_failures(code, monkeypatch):
    monkeypatch.setattr(pure_checks, "TIME_LIMIT", 0.3)
    ex = get_exercise("ch04-layer-norm-rows")
    result = pure_checks.run_source(GENERIC[code].replace("{entry}", ex.entry), ex.checker, ex.entry)
    assert result["codes"] == [code] and result["passed"] is False
    assert all("\u4e00" <= ch <= "\u9fff" for ch in result["messages"][0] if ch.isalpha() and not ch.isascii())


def test_timeout_restores_tracing_and_catches_loops_that_swallow_exceptions(monkeypatch):
    monkeypatch.setattr(pure_checks, "TIME_LIMIT", 0.3)
    stubborn = "def stable_var(values):\n    while True:\n        try:\n            pass\n        except Exception:\n            pass\n"
    before = sys.gettrace()
    assert pure_checks.run_source(stubborn, "check_stable_var", "stable_var")["codes"] == ["timeout"]
    assert sys.gettrace() is before


def test_error_line_points_at_learner_code():
    source = "def relu_list(values):\n    x = 1\n    return values[99]\n"
    (message,) = pure_checks.run_source(source, "check_relu", "relu_list")["messages"]
    assert "IndexError" in message and "第 3 行" in message


def test_checker_never_raises_on_odd_return_values(capsys):
    class Weird(list):
        def __len__(self):
            raise RuntimeError("坏对象")
    assert pure_checks.check_relu(lambda v: Weird()).codes == ["check_failed"]
    assert pure_checks.check_relu(lambda v: [float("nan")] * len(v)).codes == ["wrong_output"]
    assert pure_checks.check_layer_norm_rows(lambda r, g, b, eps=1e-5: [["x"] * 4] * 3).codes == ["not_number"]
    assert pure_checks.check_stable_var(lambda v: None).codes == ["not_number"]
