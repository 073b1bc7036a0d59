"""评审 r46（网页练习）：含糊或嘈杂的四条说明改好之后，说出真正错的那一步。

- ch11-stable-var-list：return 缩进到了循环里，方差只算了第一个数（两遍的写法得到 (x₁ − μ)²/H，Welford 得到 0）；
- ch12-dyt-list：return 缩进到了循环里，输出只有 1 个数，正是第 1 个输入的结果（list_checks.as_floats 的 want、fn，
  1 维输出的练习都能用）；
- ch04-layer-norm-rows：均值和方差用所有行一起算（以前 4 条症状），现在一条 normalized_all；
- ch06-mean-var-list：`unbiased == "True"`（和字符串比较，永远不成立）说出原因；`if unbiased = True:`（语法错误）
  说出 = 是赋值、比较要写 ==（list_checks.syntax_finding，CPython 3.11–3.13 与 Pyodide 的报错相同）。

评审的原样代码在各练习 mistakes.py 的 NOVEL 里（说明必须有的词在 WORDS 里，tests/test_review_messages.py 逐条核对）；
这里核对它们得到新的代码、同一种错误的别的写法也得到它、写对的几种写法（其中有循环里合理地提前 return 的）仍然通过，
且从不得到新的说法；看不到源码时（笔记本里由没有登记的代码生成的函数）不断言 return 在循环里。
"""
import pytest

from dsx_util.exercises.catalog import get_exercise
from review_cases import assert_named, run_attempt, says as _says

VAR, DYT, LN, MV = "ch11-stable-var-list", "ch12-dyt-list", "ch04-layer-norm-rows", "ch06-mean-var-list"

# (练习 id, NOVEL 里的说明, 应得的代码, 说明里应有的词, 说明里不许有的词)
REVIEW46 = [
    (VAR, "评审 r46：return 缩进到了 for 循环里（只加了第一个数）", ["first_round_only"],
     ["方差应为 6", "你的是 1.8", "(x₁ − μ)²/H", "return 缩进到了 for 循环里面", "与 for 对齐"], ["要么"]),
    (DYT, "评审 r46：return 缩进到了 for 循环里（只有 1 个输出）", ["wrong_length"],
     ["应有 4 个数", "只有 1 个", "第 1 个输入的结果", "return 缩进到了 for 循环里面", "与 for 对齐"], ["要么"]),
    (LN, "评审 r46：均值和方差用所有行一起算", ["normalized_all"],
     ["所有行一起算", "每一行里算", "H 个数"], ["σ²/(σ² + ε)", "最大变化"]),
    (MV, '评审 r46：unbiased == "True"（和字符串比较）', ["unbiased_string"],
     ['"True"', "字符串", "永远不成立", "`if unbiased:`"], []),
    (MV, "评审 r46：if unbiased = True:（= 写成了赋值）", ["assign_not_compare"],
     ["第 5 行", "= 是赋值", "==", "`if unbiased:`", "Maybe you meant"], ["逗号、括号或冒号"]),
]

NEW_WORDING = ("for 循环里面", "所有行一起算", "字符串", "是赋值", "(x₁ − μ)²")


@pytest.mark.parametrize("ex_id,what,codes,words,never", REVIEW46, ids=[f"{r[0]}-{r[2][0]}" for r in REVIEW46])
def test_review46_attempt_is_named(ex_id, what, codes, words, never):
    assert_named(ex_id, what, codes, words, never)



# ---------------------------------------------------------------- ch11：方差只算了第一个数
_VAR_LOOP = """def stable_var(values):
    h = len(values)
    mean = sum(values) / h
    acc = 0.0
    for i in range(h):
        acc = acc + (values[i] - mean) ** 2
        return acc / len(values)
"""
_WELFORD_IN_LOOP = """def stable_var(values):
    count = 0
    mean = 0.0
    m2 = 0.0
    for x in values:
        count += 1
        d = x - mean
        mean += d / count
        m2 += d * (x - mean)
        return m2 / count
"""
_WELFORD_LEN_IN_LOOP = _WELFORD_IN_LOOP.replace("return m2 / count", "return m2 / len(values)")
_VAR_WHILE = """def stable_var(values):
    mu = sum(values) / len(values)
    total, i = 0.0, 0
    while i < len(values):
        total += (values[i] - mu) ** 2
        i += 1
        return total / len(values)
"""


@pytest.mark.parametrize("source,words", [
    (_VAR_LOOP, ["(x₁ − μ)²/H", "return 缩进到了 for 循环里面"]),
    (_VAR_WHILE, ["(x₁ − μ)²/H", "return 缩进到了"]),
    (_WELFORD_IN_LOOP, ["你的是 0", "一个数的方差是 0", "return 缩进到了 for 循环里面"]),
    (_WELFORD_LEN_IN_LOOP, ["你的是 0", "return 缩进到了 for 循环里面"]),
])
def test_variance_of_the_first_round_is_named(source, words):
    _says(VAR, source, ["first_round_only"], words, ["先把偏差", "都是 0"])


def test_first_term_without_return_in_loop_does_not_blame_the_indent():
    """结果同样只有第一项，return 却不在循环里（循环里 break 了）：说只跑了一轮，不说 return 缩进。"""
    source = """def stable_var(values):
    mu = sum(values) / len(values)
    total = 0.0
    for v in values:
        total += (v - mu) ** 2
        break
    return total / len(values)
"""
    _says(VAR, source, ["first_round_only"], ["(x₁ − μ)²/H", "只跑了一轮"], ["return 缩进"])


def test_sum_of_deviations_is_still_always_zero():
    """先把偏差加起来再平方（结果也总是 0，但 return 不在循环里）：仍是原来的 variance_always_zero。"""
    source = "def stable_var(values):\n    mu = sum(values) / len(values)\n" \
             "    return sum(v - mu for v in values) ** 2 / len(values)\n"
    _says(VAR, source, ["variance_always_zero"], ["先把每个偏差平方"], ["for 循环里面"])


# ---------------------------------------------------------------- ch12：输出只有 1 个数
_DYT_LOOP = """import math


def dyt_list(values, alpha, gamma, beta):
    out = []
    for v, g, b in zip(values, gamma, beta):
        out.append(g * math.tanh(alpha * v) + b)
        return out
"""


@pytest.mark.parametrize("source,words,never", [
    (_DYT_LOOP, ["只有 1 个", "第 1 个输入的结果", "return 缩进到了 for 循环里面"], ["要么"]),
    (_DYT_LOOP.replace("        return out", "    return out[:1]"), ["`return out[:1]`", "`return out`"], ["缩进"]),
    ("import math\n\n\ndef dyt_list(values, alpha, gamma, beta):\n    i = 0\n    res = []\n    while i < len(values):\n"
     "        res.append(gamma[i] * math.tanh(alpha * values[i]) + beta[i])\n        i += 1\n        return res\n",
     ["第 1 个输入的结果", "return 缩进到了"], ["要么"]),
])
def test_dyt_one_output_is_named(source, words, never):
    _says(DYT, source, ["wrong_length"], words, never)


def test_dyt_one_wrong_output_is_not_called_the_first_result():
    """只有 1 个数、却不是第 1 个输入的正确结果：只说个数不对，不说缩进。"""
    source = _DYT_LOOP.replace("g * math.tanh(alpha * v) + b", "g * math.tanh(v) + b")
    _says(DYT, source, ["wrong_length"], ["实际有 1 个"], ["for 循环里面", "第 1 个输入的结果"])


def test_one_output_without_source_names_both_possibilities():
    """看不到源码（笔记本里由没有登记的代码生成的函数）：不断言 return 在循环里，两种可能都说。"""
    from dsx_util.exercises import list_checks
    namespace = {}
    exec(compile(_DYT_LOOP, "<没有登记>", "exec"), namespace)
    result = list_checks.load_checker(get_exercise(DYT).checker)(namespace["dyt_list"], show=False)
    text = "\n".join(result.messages)
    assert result.codes == ["wrong_length"], text
    assert "第 1 个输入的结果" in text and "要么" in text and "for 循环里面" in text, text


def test_first_round_variance_without_source_does_not_assert_the_indent():
    from dsx_util.exercises import list_checks
    namespace = {}
    exec(compile(novel_source(VAR, REVIEW46[0][1]), "<没有登记>", "exec"), namespace)
    result = list_checks.load_checker(get_exercise(VAR).checker)(namespace["stable_var"], show=False)
    text = "\n".join(result.messages)
    assert result.codes == ["first_round_only"], text
    assert "(x₁ − μ)²/H" in text and "像是" in text, text


def novel_source(ex_id, what):
    from review_cases import novel
    return novel(ex_id)[what][1]


# ---------------------------------------------------------------- ch04：所有行一起算
_LN_ALL = [
    """import math
def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    mu = sum(map(sum, rows)) / (len(rows) * len(rows[0]))
    var = sum((v - mu) ** 2 for row in rows for v in row) / (len(rows) * len(rows[0]))
    return [[g * (v - mu) / math.sqrt(var + eps) + b for v, g, b in zip(row, gamma, beta)] for row in rows]
""",
    """import math
def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    values = [v for row in rows for v in row]
    m = sum(values) / len(values)
    s = math.sqrt(sum((v - m) ** 2 for v in values) / len(values) + eps)
    out = []
    for row in rows:
        out.append([gamma[i] * (row[i] - m) / s + beta[i] for i in range(len(row))])
    return out
""",
]


@pytest.mark.parametrize("source", _LN_ALL)
def test_all_rows_together_is_one_finding(source):
    _says(LN, source, ["normalized_all"], ["所有行一起算", "每一行里算"], ["最大变化", "σ²/(σ² + ε)"])


def test_all_rows_with_unbiased_variance_is_a_pair():
    source = _LN_ALL[1].replace("/ len(values) + eps", "/ (len(values) - 1) + eps")
    _says(LN, source, ["unbiased_var", "normalized_all"], ["所有行一起算", "H−1"])


# ---------------------------------------------------------------- ch06：和字符串比较、= 写成了赋值
_MV = """def mean_var_list(values, unbiased=False):
    n = len(values)
    mu = sum(values) / n
    ss = sum((v - mu) ** 2 for v in values)
    {cond}
        return mu, ss / (n - 1)
    return mu, ss / n
"""


@pytest.mark.parametrize("cond,said", [
    ("if unbiased == 'True':", '"True"'),
    ("if unbiased == \"true\":", '"true"'),
    ("if str(unbiased) == 'true':", '"true"'),
])
def test_comparing_with_a_string_is_named(cond, said):
    _says(MV, _MV.format(cond=cond), ["unbiased_string"], [said, "永远不成立", "`if unbiased:`"])


@pytest.mark.parametrize("cond,words", [
    ("if unbiased = True:", ["`if unbiased == True:`", "`if unbiased:`"]),
    ("if unbiased = False:", ["`if unbiased == False:`", "`if not unbiased:`"]),
    ("if len(values) = 1:", ["`if len(values) == 1:`"]),
    ("while unbiased = True:", ["`while unbiased == True:`"]),
])
def test_assignment_in_a_condition_is_named(cond, words):
    text = _says(MV, _MV.format(cond=cond), ["assign_not_compare"], ["第 5 行", "= 是赋值", "=="] + words,
                 ["逗号、括号或冒号"])
    if "True" not in cond and "False" not in cond:
        assert "`if unbiased:`" not in text and "不必" not in text, text


def test_other_syntax_errors_keep_the_general_text():
    _says(MV, _MV.format(cond="if unbiased"), ["syntax_error"], ["逗号、括号或冒号"], ["是赋值"])


# ---------------------------------------------------------------- 写对的代码仍然通过，从不得到新的说法
CORRECT = [
    (VAR, """def stable_var(values):
    n, mean, m2 = 0, 0.0, 0.0
    for x in values:
        n += 1
        d = x - mean
        mean += d / n
        m2 += d * (x - mean)
    return m2 / n
"""),
    (VAR, """def stable_var(values):
    mu = sum(values) / len(values)
    total = 0.0
    for v in values:
        total += (v - mu) ** 2
    return total / len(values)
"""),
    # 循环里合理地提前 return：所有数都相同时方差是 0
    (VAR, """def stable_var(values):
    for v in values:
        if v != values[0]:
            break
    else:
        return 0.0
    mu = sum(values) / len(values)
    return sum((v - mu) ** 2 for v in values) / len(values)
"""),
    (DYT, """import math


def dyt_list(values, alpha, gamma, beta):
    out = []
    for i in range(len(values)):
        out.append(gamma[i] * math.tanh(alpha * values[i]) + beta[i])
    return out
"""),
    # 循环里合理地提前 return：最后一个数算完就返回
    (DYT, """import math


def dyt_list(values, alpha, gamma, beta):
    out = []
    for i, v in enumerate(values):
        out.append(gamma[i] * math.tanh(alpha * v) + beta[i])
        if i == len(values) - 1:
            return out
    return out
"""),
    (LN, """import math
def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        m = sum(row) / len(row)
        s = math.sqrt(sum((v - m) ** 2 for v in row) / len(row) + eps)
        out.append([gamma[i] * (row[i] - m) / s + beta[i] for i in range(len(row))])
    return out
"""),
    (LN, """import math
def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    mus = [sum(r) / len(r) for r in rows]
    vs = [sum((v - m) ** 2 for v in r) / len(r) for r, m in zip(rows, mus)]
    return [[g * (v - m) / (s + eps) ** 0.5 + b for v, g, b in zip(r, gamma, beta)] for r, m, s in zip(rows, mus, vs)]
"""),
    (MV, _MV.format(cond="if unbiased:")),
    (MV, _MV.format(cond="if unbiased == True:")),
    (MV, _MV.format(cond="if unbiased is True:")),
]


@pytest.mark.parametrize("ex_id,source", CORRECT + [(e, None) for e in (VAR, DYT, LN, MV)],
                         ids=lambda v: v if isinstance(v, str) and len(v) < 40 else None)
def test_correct_code_still_passes(ex_id, source):
    if source is None:
        source = get_exercise(ex_id).solution
    result = run_attempt(ex_id, source)
    assert result["passed"] and result["codes"] == [], result["messages"]
    assert not any(w in m for w in NEW_WORDING for m in result["messages"])
