"""每道练习的 task.md 写明的每条要求，都有一个只违反这一条的尝试，检查器不让它通过，说明里点出这条要求。

尝试由参考答案改一处得来（edit 在 solution.py 上做一次字符串替换），这样“只错这一条”是看得见的。
每道练习的要求写在它文件夹 mistakes.py 的 REQUIREMENTS 里：(要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)。
"""
import pytest

from dsx_util.exercises.catalog import EXERCISES, get_exercise
from mutation import run_checker


def _requirements():
    """练习 id -> 写明的要求与违反它的尝试：从各练习文件夹 mistakes.py 的 REQUIREMENTS 读出。"""
    import importlib
    folders = {ex.id: f"dsx_util.exercises.items.{ex.id.replace('-', '_')}.mistakes" for ex in EXERCISES}
    return {ex_id: getattr(importlib.import_module(name), "REQUIREMENTS", []) for ex_id, name in folders.items()}


REQUIREMENTS = _requirements()
CASES = [(ex_id, *case) for ex_id, cases in REQUIREMENTS.items() for case in cases]


def test_every_exercise_lists_its_stated_requirements():
    few = [ex_id for ex_id, cases in REQUIREMENTS.items() if len(cases) < 2]
    assert len(REQUIREMENTS) == len(EXERCISES) and few == [], f"这些练习的 mistakes.py 里写明的要求不到两条：{few}"


@pytest.mark.parametrize("ex_id, requirement, old, new, code, word", CASES,
                         ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_breaking_a_stated_requirement_does_not_pass(ex_id, requirement, old, new, code, word):
    ex = get_exercise(ex_id)
    source = ex.solution
    for a, b in zip(*((old, new) if isinstance(old, tuple) else ((old,), (new,)))):
        assert a in source, f"参考答案里没有要替换的片段：{a!r}"
        source = source.replace(a, b, 1)
    result = run_checker(ex, source)
    assert not result.passed, f"违反了「{requirement}」却通过了检查"
    assert code in result.codes, (requirement, result.text())
    if True:
        message = result.messages[result.codes.index(code)]
        assert word in message, (requirement, message)
        assert code not in result.text()   # 说明里没有英文错误代码
