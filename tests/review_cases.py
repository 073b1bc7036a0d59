"""评审测试共用的两件小事：把一段学习者代码按网页的办法检查一次，取出练习 mistakes.py 里 NOVEL 的原样代码。

tests/test_review*.py 都从这里导入（以前每个文件各写一份）。
"""
import importlib

from dsx_util.exercises import list_checks
from dsx_util.exercises.catalog import get_exercise


def run_attempt(ex_id, source):
    """像网页那样运行并检查 source（练习 ex_id）：list_checks.run_source 的 dict（codes、messages、passed）。"""
    ex = get_exercise(ex_id)
    return list_checks.run_source(source, ex.checker, ex.entry)


def novel(ex_id):
    """练习 ex_id 的 mistakes.NOVEL：{说明: (应得的代码, 原样代码)}。"""
    m = importlib.import_module(f"dsx_util.exercises.items.{ex_id.replace('-', '_')}.mistakes")
    return {what: (codes, src) for what, codes, src in m.NOVEL}


def says(ex_id, source, codes, words, absent=()):
    """检查 source 得到的正是 codes，说明里有 words 的每个词、没有 absent 的词；返回说明的全文。"""
    result = run_attempt(ex_id, source)
    assert result["codes"] == codes, result["messages"]
    text = "\n".join(result["messages"])
    for word in words:
        assert word in text, (word, text)
    for word in absent:
        assert word not in text, (word, text)
    return text


def assert_named(ex_id, what, codes, words, absent=()):
    """NOVEL 里的评审原样代码 what：编目写的代码是 codes，检查得到的也正是 codes，说明里有 words 的每个词、没有 absent 的词。"""
    listed, source = novel(ex_id)[what]
    assert listed == codes
    says(ex_id, source, codes, words, absent)
