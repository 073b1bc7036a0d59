"""评审 r42 的尝试（逐字）改好之后的说明：ch03 的列表形状只报一次、用学习者自己的数；题目写明元组的练习不让列表通过；
ch00 的 return 缩进到循环里、ch02 把负数删掉了都说出是哪一步。尝试也写进了各练习 mistakes.py 的 NOVEL / WORDS。
"""
import pytest

from dsx_util.exercises import list_checks
from dsx_util.exercises.catalog import EXERCISES, get_exercise


def _run(ex_id, source):
    ex = get_exercise(ex_id)
    return list_checks.run_source(source, ex.checker, ex.entry)


SHAPES_AS_LISTS = '''def predict_shapes():
    return {
        "x.mean(dim=-1)": [2, 3],
        "x.mean(dim=-1, keepdim=True)": [2, 3, 1],
        "x.sum(dim=0)": [3, 4],
        "x.var(dim=1, keepdim=True)": [2, 1, 4],
        "x - x.mean(dim=-1, keepdim=True)": [2, 3, 4],
    }
'''


def test_shapes_written_as_lists_are_reported_once_with_the_learners_own_numbers():
    result = _run("ch03-predict-shapes", SHAPES_AS_LISTS)
    assert result["codes"] == ["shape_as_list"], result
    text = result["messages"][0]
    for own in ("(2, 3)", "(2, 3, 1)", "(3, 4)", "(2, 1, 4)", "(2, 3, 4)", "5 个值"):
        assert own in text, (own, text)
    assert text.count("元组和列表比较时并不相等") == 1, text
    assert "例如 (2, 3)" not in text, text   # 不再给一个固定的例子（读起来像答案）


def test_one_shape_as_a_list_names_its_key_and_echoes_its_numbers():
    source = SHAPES_AS_LISTS.replace("[2, 3],", "(2, 3),").replace("[2, 3, 1]", "(2, 3, 1)").replace(
        "[2, 1, 4]", "(2, 1, 4)").replace("[2, 3, 4]", "(2, 3, 4)")
    result = _run("ch03-predict-shapes", source)
    assert result["codes"] == ["shape_as_list"], result
    text = result["messages"][0]
    assert "'x.sum(dim=0)'" in text and "[3, 4]" in text and "(3, 4)" in text and "(2, 3)" not in text, text


# 题目写明返回元组 (…, …) 的网页练习：列表不通过，说明说出规则和改法（与 ch03 同一句规则）
LIST_PAIRS = [
    ("ch01-count-norms", '''def count_norms(cfg):
    n = 2 * cfg["n_layers"] + 1
    return [n, n * 2 * cfg["emb_dim"]]
''', "(25, 38400)"),
    ("ch06-mean-var-list", '''def mean_var_list(values, unbiased=False):
    n = len(values)
    mean = sum(values) / n
    ss = sum((v - mean) ** 2 for v in values)
    var = ss / (n - 1) if unbiased else ss / n
    return [mean, var]
''', "(5.25, "),
]


@pytest.mark.parametrize("ex_id,source,own", LIST_PAIRS, ids=[p[0] for p in LIST_PAIRS])
def test_a_stated_tuple_is_not_passed_by_a_list(ex_id, source, own):
    result = _run(ex_id, source)
    assert result["codes"] == ["list_not_tuple"], result
    text = result["messages"][0]
    for word in ("元组", "列表", "元组和列表比较时并不相等", "return ", own):
        assert word in text, (word, text)
    # 写成元组（逗号或圆括号）就通过：题目写明的形式得到的结论不变
    assert _run(ex_id, source.replace("return [", "return (").replace("]\n", ")\n"))["passed"]


def test_every_in_page_task_that_states_a_tuple_return_rejects_a_list():
    """题目里写「返回 (…, …)」的网页练习恰好是这两道（ch03 的值是元组，另有测试）；它们的参考答案确实返回元组。"""
    stated = sorted(ex.id for ex in EXERCISES if ex.in_page and "返回" in ex.task and "`(" in ex.task)
    assert stated == sorted(p[0] for p in LIST_PAIRS)


def test_return_inside_the_loop_in_table_rows_is_named():
    result = _run("ch00-table-rows", '''def stats_rows(data):
    rows = []
    for name, values in data.items():
        rows.append([name, len(values), sum(values) / len(values)])
        return rows
''')
    assert result["codes"] == ["wrong_row_count"], result
    text = result["messages"][0]
    for word in ("应有 3 行", "实际有 1 行", "return 缩进到了 for 循环里面"):
        assert word in text, (word, text)


def test_relu_that_drops_the_negatives_says_so():
    result = _run("ch02-relu", "def relu_list(values):\n    return [v for v in values if v > 0]\n")
    assert result["codes"] == ["negatives_dropped"], result
    text = result["messages"][0]
    for word in ("删掉", "0.0", "5 个", "2 个"):
        assert word in text, (word, text)
    # 只删负数、留下 0.0：同样说出来
    kept_zero = _run("ch02-relu", "def relu_list(values):\n    return [v for v in values if v >= 0]\n")
    assert kept_zero["codes"] == ["negatives_dropped"], kept_zero
