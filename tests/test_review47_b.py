"""评审 r47（网页练习）：误导或含糊的四条说明改好之后，说出真正错的那一步。

- 共用（list_checks.run_source）：写对的函数后面留了一行会出错的测试调用（`print(layer_norm_rows(...))`），以前把错
  说在函数里写对的那一行；现在说出是第几行你自己写的调用出错、检查还没开始、删掉这一行（own_call_failed）；
- 共用（feedback.returned_none）：函数什么也没有返回（用 print 代替了 return、忘了 return），以前说「实际返回的是
  NoneType」；现在各练习检查返回类型时同一句：没有返回任何值（None）、没有 return 或只 print 了，加上 `return 名字`；
- ch01-count-norms：把默认配置的 n_layers=12 或 emb_dim=768 写死了：按值认出、说出写死的是哪一个（hard_coded）；
- ch02-relu：循环少走了一轮（`range(len(values) - 1)`）或从 1 开始：按值认出（last_skipped、first_skipped）。

评审的原样代码在 ch00、ch01、ch02 的 mistakes.py 的 NOVEL 里（说明必须有的词在 WORDS 里）；留下测试调用的两段
（ch04 的原样尝试、ch02 的同类写法）和用 print 代替 return 的那段在这里：笔记本里前者在单元格里就出错、到不了检查器，
后者会打印，都不能放进两处共用的 NOVEL。
"""
import pytest

from review_cases import assert_named, run_attempt, says as _says

ROWS, NORMS, RELU, LN = "ch00-table-rows", "ch01-count-norms", "ch02-relu", "ch04-layer-norm-rows"

# (练习 id, NOVEL 里的说明, 应得的代码, 说明里应有的词, 说明里不许有的词)
REVIEW47 = [
    (RELU, "评审 r47：忘了 return", ["not_list"], ["没有返回任何值", "None", "`return out`"], ["NoneType"]),
    (ROWS, "评审 r47：忘了 return rows", ["not_rows"], ["没有返回任何值", "`return rows`"], ["NoneType"]),
    (NORMS, "评审 r47：把 n_layers 写死成了 12", ["hard_coded"],
     ["n_layers 写死成了 12", 'cfg["n_layers"]'], ["emb_dim 写死", "每个块里有几个"]),
    (NORMS, "评审 r47：把 emb_dim 写死成了 768", ["hard_coded"],
     ["emb_dim 写死成了 768", 'cfg["emb_dim"]'], ["n_layers 写死", "多少个可学习参数"]),
    (RELU, "评审 r47：循环少走了一轮 range(len(values) - 1)", ["last_skipped"],
     ["应有 5 个数", "只有 4 个", "最后一个", "range(len(values) - 1)", "range(len(values))", "for v in values"], []),
]


@pytest.mark.parametrize("ex_id,what,codes,words,never", REVIEW47, ids=[f"{r[0]}-{r[2][0]}" for r in REVIEW47])
def test_review47_attempt_is_named(ex_id, what, codes, words, never):
    assert_named(ex_id, what, codes, words, never)



# ---------------------------------------------------------------- 共用：留下的测试调用出错
# 评审 r47 的原样尝试（ch04 的文件夹不归这次修改：原样代码放在这里）
_LN_LEFTOVER = '''import math


def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        H = len(row)
        mu = sum(row) / H
        var = sum((x - mu) ** 2 for x in row) / H
        d = math.sqrt(var + eps)
        out.append([gamma[i] * (row[i] - mu) / d + beta[i] for i in range(H)])
    return out
print(layer_norm_rows([[1, 2, 3]], [1, 1], [0, 0]))
'''


# 网页里的原样尝试（不放进 NOVEL：笔记本里这一行在单元格里就出错，到不了检查器；print 的那段会打印）
_RELU_LEFTOVER = "def relu_list(values):\n    return [v if v > 0 else 0.0 for v in values]\n\n\nprint(relu_list(5))\n"
_RELU_PRINT = """def relu_list(values):
    for v in values:
        print(max(0.0, v))
"""


def test_leftover_call_in_relu_is_named():
    _says(RELU, _RELU_LEFTOVER, ["own_call_failed"],
          ["第 5 行", "`print(relu_list(5))`", "还没有开始检查", "第 2 行", "删掉这一行", "TypeError"], ["NoneType"])


def test_print_instead_of_return_is_named(capsys):
    _says(RELU, _RELU_PRINT, ["not_list"], ["没有返回任何值", "None", "print", "return"], ["NoneType"])


def test_leftover_call_in_layer_norm_rows_is_named():
    text = _says(LN, _LN_LEFTOVER, ["own_call_failed"],
                 ["第 13 行", "`print(layer_norm_rows([[1, 2, 3]], [1, 1], [0, 0]))`", "还没有开始检查",
                  "第 11 行", "删掉这一行", "IndexError", "list index out of range"],
                 ["检查循环的范围"])
    assert text.startswith("运行你的整段代码时"), text


def test_without_the_leftover_call_it_passes():
    result = run_attempt(LN, _LN_LEFTOVER.replace("print(layer_norm_rows([[1, 2, 3]], [1, 1], [0, 0]))\n", ""))
    assert result["passed"], result["messages"]
    fixed = _LN_LEFTOVER.replace("[1, 1], [0, 0]", "[1, 1, 1], [0, 0, 0]")
    assert run_attempt(LN, fixed)["passed"]


def test_error_on_the_call_line_itself_does_not_name_a_second_line():
    """调用那一行本身出错（函数还没进去，例如参数个数不对）：不另说「函数第几行」。"""
    source = "def relu_list(values):\n    return [v if v > 0 else 0.0 for v in values]\n\n\nrelu_list()\n"
    text = _says(RELU, source, ["own_call_failed"], ["第 5 行", "`relu_list()`", "TypeError"], ["你的函数第"])
    assert text.count("第 ") == 1, text


def test_top_level_error_outside_a_call_keeps_the_old_wording():
    """顶层出错、却不是调用自己的函数（例如用了没定义的名字）：仍是原来的 raised。"""
    source = "def relu_list(values):\n    return [v if v > 0 else 0.0 for v in values]\n\n\nx = y + 1\n"
    _says(RELU, source, ["raised"], ["第 5 行", "NameError"], ["还没有开始检查"])


def test_error_inside_function_called_by_the_checker_keeps_the_old_wording():
    source = "def relu_list(values):\n    return [values[i + 1] for i in range(len(values))]\n"
    _says(RELU, source, ["raised"], ["第 2 行", "IndexError"], ["还没有开始检查", "删掉这一行"])


# ---------------------------------------------------------------- 共用：什么也没有返回
@pytest.mark.parametrize("source,words", [
    ("def relu_list(values):\n    out = []\n    for v in values:\n        out.append(max(0.0, v))\n",
     ["没有返回任何值", "`return out`"]),
    ("def relu_list(values):\n    res = [max(0.0, v) for v in values]\n    print(res)\n",
     ["没有返回任何值", "print", "`return res`"]),
])
def test_returning_nothing_is_named(source, words):
    _says(RELU, source, ["not_list"], words, ["NoneType"])


def test_returning_an_append_names_the_none_value():
    source = "def relu_list(values):\n    out = []\n    for v in values:\n        out.append(max(0.0, v))\n" \
             "    return out.append(0.0)\n"
    _says(RELU, source, ["not_list"], ["返回的是 None", "append"], ["NoneType", "没有 return"])


def test_count_norms_returning_nothing_uses_the_same_wording():
    source = 'def count_norms(cfg):\n    n = 2 * cfg["n_layers"] + 1\n    print(n, n * 2 * cfg["emb_dim"])\n'
    _says(NORMS, source, ["not_pair"], ["没有返回任何值", "print"], ["NoneType"])


def test_other_return_types_keep_their_wording():
    _says(RELU, "def relu_list(values):\n    return tuple(max(0.0, v) for v in values)\n", ["not_list"], ["tuple"])


def test_returning_nothing_without_source_is_generic():
    from dsx_util.exercises import list_checks
    from dsx_util.exercises.catalog import get_exercise
    namespace = {}
    exec(compile("def relu_list(values):\n    out = [max(0.0, v) for v in values]\n", "<没有登记>", "exec"), namespace)
    result = list_checks.load_checker(get_exercise(RELU).checker)(namespace["relu_list"], show=False)
    text = "\n".join(result.messages)
    assert result.codes == ["not_list"] and "没有返回任何值" in text and "NoneType" not in text, text


# ---------------------------------------------------------------- ch01：写死了默认配置的数
def test_both_hard_coded_names_both():
    source = "def count_norms(cfg):\n    return 25, 25 * 2 * 768\n"
    _says(NORMS, source, ["hard_coded"], ["n_layers 写死成了 12", "emb_dim 写死成了 768"])


# ---------------------------------------------------------------- ch02：循环少走了一轮
@pytest.mark.parametrize("source,code,words", [
    ("def relu_list(values):\n    out = []\n    for i in range(len(values) - 1):\n        out.append(max(0.0, values[i]))\n"
     "    return out\n", "last_skipped", ["最后一个", "range(len(values))"]),
    ("def relu_list(values):\n    out = []\n    for i in range(1, len(values)):\n        out.append(max(0.0, values[i]))\n"
     "    return out\n", "first_skipped", ["第 1 个", "下标从 0 开始"]),
])
def test_loop_one_short_is_named(source, code, words):
    _says(RELU, source, [code], words)


def test_other_short_output_is_still_wrong_length():
    source = "def relu_list(values):\n    return [max(0.0, v) for v in values][:2]\n"
    _says(RELU, source, ["wrong_length"], ["应有 5 个数"], ["最后一个"])
