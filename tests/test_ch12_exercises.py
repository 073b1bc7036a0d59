"""第 12 章的三道练习（按 issue 21 的布局：检查器在 items/<id>/check.py，编目的错误写法在 items/<id>/mistakes.py）。

每条 MISTAKES / NOVEL 都必须恰好得到它写明的错误代码；参考答案通过，模板得到「○ 尚未作答」；
检查器能报出的每个代码都有一段犯了这个错误的代码。issue 21 的 tests/test_exercise_layout.py 合并以后，
它对所有文件夹做同样的检查，这个文件可以删去。
"""
import importlib

import pytest

import dsx_util.exercises as exercises
from dsx_util.exercises.catalog import get_exercise
from mutation import run_checker as _run_source

IDS = ("ch12-dyt-list", "ch12-zero-centered-rms-norm", "ch12-qk-norm-scores")


def _folder(ex_id, name):
    return importlib.import_module(f"dsx_util.exercises.items.{ex_id.replace('-', '_')}.{name}")


def run_checker(ex, attempt):
    """attempt 是一段代码（网页练习）或学习者的函数（PyTorch 练习）。"""
    if isinstance(attempt, str):
        return _run_source(ex, attempt)
    return getattr(exercises, ex.checker)(attempt, show=False)


CASES = [(ex_id, what, codes, src) for ex_id in IDS
         for what, codes, src in _folder(ex_id, "mistakes").MISTAKES + getattr(_folder(ex_id, "mistakes"), "NOVEL", [])]


@pytest.mark.parametrize("ex_id", IDS)
def test_solution_passes_template_not_done(ex_id):
    ex = get_exercise(ex_id)
    assert run_checker(ex, ex.solution).passed
    result = run_checker(ex, ex.template)
    assert result.codes == ["not_done"] and result.text().startswith("○"), result.text()


@pytest.mark.parametrize("ex_id,what,codes,src", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_catalogued_mistake_gets_its_codes(ex_id, what, codes, src):
    result = run_checker(get_exercise(ex_id), src)
    assert result.codes == codes, (what, result.text())
    assert not result.passed and result.text().startswith("✗")
    assert all(any("\u4e00" <= ch <= "\u9fff" for ch in m) for m in result.messages)
    assert not any(c in m for c in result.codes for m in result.messages)   # 说明里没有英文代码


@pytest.mark.parametrize("ex_id", IDS)
def test_every_code_of_the_checker_is_reached(ex_id):
    codes = set(_folder(ex_id, "check").CODES)
    reached = {c for e, _, cs, _ in CASES if e == ex_id for c in cs}
    assert codes - reached == set(), f"这些代码没有一段犯了这个错误的代码：{sorted(codes - reached)}"
