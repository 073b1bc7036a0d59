"""写明的要求与它的「邻居」：另一个维度、顺序、默认值、估计量……每道练习的 mistakes.py 在 NEIGHBOURS 里列出
参考答案的这些近邻写法；检查用的输入必须让每个邻居都得出不同的结果，所以把它交给检查器，必须不通过。

与 tests/test_stated_requirements.py 的区别：那里每条要求一个违反它的尝试，并核对说明的措辞；这里把每条要求
看起来也说得通的几种写法都列出来，只要求检查器把它们拦下（不拦下，说明检查用的输入分不开它与正确答案）。
"""
import importlib

import pytest

from dsx_util.exercises.catalog import EXERCISES, get_exercise
from mutation import run_checker


def _neighbours():
    out = {}
    for ex in EXERCISES:
        module = importlib.import_module(f"dsx_util.exercises.items.{ex.id.replace('-', '_')}.mistakes")
        out[ex.id] = getattr(module, "NEIGHBOURS", None)
    return out


NEIGHBOURS = _neighbours()
CASES = [(ex_id, *case) for ex_id, cases in NEIGHBOURS.items() for case in cases or []]


def test_every_exercise_lists_neighbours_of_its_requirements():
    missing = [ex_id for ex_id, cases in NEIGHBOURS.items() if not cases or len(cases) < 2]
    assert missing == [], f"这些练习的 mistakes.py 里没有列出（至少两个）NEIGHBOURS：{missing}"


@pytest.mark.parametrize("ex_id, requirement, old, new", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_a_neighbour_of_the_right_answer_does_not_pass(ex_id, requirement, old, new):
    source = get_exercise(ex_id).solution
    assert old in source, f"参考答案里没有要替换的片段：{old!r}"
    neighbour = source.replace(old, new, 1)
    assert neighbour != source
    result = run_checker(get_exercise(ex_id), neighbour)
    assert not result.passed, f"「{requirement}」的邻居写法通过了检查：检查用的输入分不开它与正确答案\n{neighbour}"
