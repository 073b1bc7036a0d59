"""评审 r39 找到的误导（M）或含糊（V）的说明改好之后：说明说出真正错的那一步，不冤枉写对的那一步。

每道网页练习的 mistakes.py 里，WORDS 为 MISTAKES / NOVEL 里的尝试写明说明里必须有的词；代码由
tests/test_exercise_layout.py、test_inpage_checks.py 核对，网页里的说明与 CPython 相同由 test_inpage_browser.py 核对。
"""
import importlib
import re

import pytest

from dsx_util.exercises import list_checks
from dsx_util.exercises.catalog import EXERCISES, get_exercise

IN_PAGE = [ex for ex in EXERCISES if ex.in_page]


def _mistakes(ex):
    return importlib.import_module(f"dsx_util.exercises.items.{ex.id.replace('-', '_')}.mistakes")


def _attempts(ex):
    m = _mistakes(ex)
    return list(m.MISTAKES) + list(getattr(m, "NOVEL", []))


CASES = [(ex.id, what, codes, source, _mistakes(ex).WORDS[what])
         for ex in IN_PAGE for what, codes, source in _attempts(ex) if what in getattr(_mistakes(ex), "WORDS", {})]


def _run(ex_id, source):
    ex = get_exercise(ex_id)
    return list_checks.run_source(source, ex.checker, ex.entry)


@pytest.mark.parametrize("ex_id,what,codes,source,words", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_the_message_names_the_actual_mistake(ex_id, what, codes, source, words):
    result = _run(ex_id, source)
    assert result["codes"] == codes, (what, result["messages"])
    text = "\n".join(result["messages"])
    for word in words:
        assert word in text, (what, word, text)


def test_every_words_entry_belongs_to_an_attempt():
    assert len(CASES) >= 25
    for ex in IN_PAGE:
        described = {what for what, _, _ in _attempts(ex)}
        assert set(getattr(_mistakes(ex), "WORDS", {})) <= described, ex.id


def test_an_equivalent_denominator_is_a_positive_whole_number():
    """「相当于除以 X」只在分子（偏差平方和）真的对了时出现：X 总是正整数（以前出现过 −1、5.936、7.143）。"""
    seen = 0
    for ex in IN_PAGE:
        for what, _, source in _attempts(ex):
            for message in _run(ex.id, source)["messages"]:
                for x in re.findall(r"相当于除以 ([^。，；（]+)", message):
                    seen += 1
                    assert x.isdigit() and int(x) > 0, (ex.id, what, message)
    assert seen >= 2


# 返回值类型的规则（评审 r40：以前 ch00 的元组行、ch01 的浮点数个数、ch03 的列表形状通过了检查，而 ch07 拒绝元组行、
# ch03 拒绝浮点数）：题目写明的类型都要查，说明说出应是什么类型；题目没写、另一种同样能用的不算错。
# 题目写明返回元组 (…, …) 的 ch01、ch06 以前让列表通过；评审 r42 之后列表不通过（tests/test_review42_a.py）
# 题目写明的类型：(练习 id, 原文片段, 换成（值不变、只换类型）, 说明里应有的词)
STATED_TYPES = [("ch00-table-rows", "[name, len(values), sum(values) / len(values)]",
                 "(name, len(values), sum(values) / len(values))", "列表"),
                ("ch00-table-rows", "[name, len(values),", "[name, float(len(values)),", "整数"),
                ("ch01-count-norms", "n_norms * 2 * cfg", "n_norms * 2.0 * cfg", "整数"),
                ("ch03-predict-shapes", '"x.sum(dim=0)": (3, 4),', '"x.sum(dim=0)": [3, 4],', "元组"),
                ("ch03-predict-shapes", '"x.sum(dim=0)": (3, 4),', '"x.sum(dim=0)": (3.0, 4.0),', "整数"),
                ("ch06-std-ratio", "return math.sqrt((h - 1) / h)", "return str(math.sqrt((h - 1) / h))", "浮点数"),
                ("ch07-batch-norm-lists", "return [list(row) for row in zip(*columns)]", "return list(zip(*columns))", "列表")]


@pytest.mark.parametrize("ex_id,old,new,word", STATED_TYPES, ids=[f"{t[0]}-{t[3]}" for t in STATED_TYPES])
def test_a_stated_type_is_checked_and_named(ex_id, old, new, word):
    ex = get_exercise(ex_id)
    assert old in ex.solution, old
    result = _run(ex_id, ex.solution.replace(old, new, 1))
    assert not result["passed"] and word in result["messages"][0], result
