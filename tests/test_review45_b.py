"""评审 r45（网页练习）说含糊的几条说明改好之后：ch08-rms-norm-list、ch12-dyt-list 的说明说出真正错的那一步。

评审的原样代码在各练习 mistakes.py 的 NOVEL 里（说明必须有的词在 WORDS 里，tests/test_review_messages.py 逐条核对）；
这里核对它们得到新的代码、同一种错误的别的写法也得到它、写对的几种写法仍然通过，
以及列表当成一个数来运算时的 TypeError 提示（feedback.explain_error）不落到无关的 TypeError 上。
"""
import linecache

import pytest

from dsx_util.exercises.catalog import get_exercise
from dsx_util.exercises.feedback import explain_error, learner_source
from review_cases import assert_named, run_attempt

RMS, DYT = "ch08-rms-norm-list", "ch12-dyt-list"

# (练习 id, NOVEL 里的说明, 应得的代码, 说明里应有的词)
REVIEW45 = [
    (RMS, "评审 r45：和的平方 (Σx)²/H（不是平方的平均）", ["square_of_sum"],
     ["(Σx)²/H", "和的平方", "Σx²/H", "`sum(v * v for v in values) / len(values)`"]),
    (RMS, "评审 r45：γ 当成一个数来乘（gamma * v）", ["raised"],
     ["gamma 是列表", "gamma[i]", "zip", "第 5 行"]),
    (DYT, "评审 r45：β 减掉了（γ·tanh(α·x) − β）", ["beta_subtracted"],
     ["β 是减掉的", "γ·tanh(α·x) + β"]),
]


@pytest.mark.parametrize("ex_id,what,codes,words", REVIEW45, ids=[r[1] for r in REVIEW45])
def test_review45_attempt_is_named(ex_id, what, codes, words):
    assert_named(ex_id, what, codes, words)


# ---------------------------------------------------------------- ch08：均方算错了哪一步
_RMS = """import math


def rms_norm_list(values, gamma, eps=1e-6):
    ms = {ms}
    return [{y} for v, g in zip(values, gamma)]
"""
_RMS_Y = "g * v / math.sqrt(ms + eps)"


@pytest.mark.parametrize("ms,code,words", [
    ("sum(values) ** 2 / len(values)", "square_of_sum", ["(Σx)²/H", "和的平方"]),
    ("(sum(values)) ** 2 / len(values)", "square_of_sum", ["(Σx)²/H"]),
    ("sum(v for v in values) * sum(v for v in values) / len(values)", "square_of_sum", ["(Σx)²/H"]),
    ("sum(values) ** 2", "square_of_sum_total", ["(Σx)²", "和的平方", "再除以 H"]),
    ("(sum(values) / len(values)) ** 2", "row_rms_not_one", ["(x 的平均)²", "先平方、再平均"]),
])
def test_rms_mean_square_slips_are_named(ms, code, words):
    result = run_attempt(RMS, _RMS.format(ms=ms, y=_RMS_Y))
    assert result["codes"] == [code], result["messages"]
    for word in words:
        assert word in result["messages"][0], (word, result["messages"])


@pytest.mark.parametrize("y,name", [
    ("gamma * v / math.sqrt(ms + eps)", "gamma"),
    ("v * gamma / math.sqrt(ms + eps)", "gamma"),
    ("gamma * (v / math.sqrt(ms + eps))", "gamma"),
    ("v / math.sqrt(ms + eps) * gamma", "gamma"),
])
def test_rms_gamma_used_as_a_number_is_named(y, name):
    result = run_attempt(RMS, _RMS.format(ms="sum(v * v for v in values) / len(values)", y=y))
    assert result["codes"] == ["raised"], result
    text = result["messages"][0]
    for word in (f"{name} 是列表", f"{name}[i]", "zip", "Python 的报错是 TypeError"):
        assert word in text, (word, text)


@pytest.mark.parametrize("source", [
    get_exercise(RMS).solution,
    _RMS.format(ms="sum(v ** 2 for v in values) / len(values)", y="g * v / (ms + eps) ** 0.5"),
    """import math


def rms_norm_list(values, gamma, eps=1e-6):
    h = len(values)
    ms = 0.0
    for v in values:
        ms += v * v
    r = math.sqrt(ms / h + eps)
    return [gamma[i] * values[i] / r for i in range(h)]
""",
])
def test_rms_correct_variants_still_pass(source):
    result = run_attempt(RMS, source)
    assert result["passed"], result["messages"]


# ---------------------------------------------------------------- ch12：β、γ、α 放错了地方
_DYT = """import math


def dyt_list(values, alpha, gamma, beta):
    return [{y} for x, g, b in zip(values, gamma, beta)]
"""


@pytest.mark.parametrize("y,code,words", [
    ("g * math.tanh(alpha * x) - b", "beta_subtracted", ["β 是减掉的", "γ·tanh(α·x) + β"]),
    ("math.tanh(alpha * x) * g - b", "beta_subtracted", ["β 是减掉的"]),
    ("-b + g * math.tanh(alpha * x)", "beta_subtracted", ["β 是减掉的"]),
    ("g + math.tanh(alpha * x) + b", "gamma_added", ["γ 是加上去的", "γ 要乘"]),
    ("math.tanh(alpha * x) + g + b", "gamma_added", ["γ 是加上去的"]),
    ("g * math.tanh(alpha * x) * b", "beta_multiplied", ["β 是乘上去的", "β 要加"]),
    ("g * (math.tanh(alpha * x) + b)", "beta_times_gamma", ["γ·(tanh(α·x) + β)", "β 加在乘完 γ 之后"]),
    ("-g * math.tanh(alpha * x) + b", "negated", ["−γ·tanh(α·x) + β", "符号"]),
    ("b - g * math.tanh(alpha * x)", "negated", ["符号"]),
    ("g * math.tanh(-alpha * x) + b", "negated", ["符号"]),
    ("g * math.tanh(alpha + x) + b", "alpha_added", ["tanh(α + x)", "α 要乘"]),
])
def test_dyt_sign_and_placement_slips_are_named(y, code, words):
    result = run_attempt(DYT, _DYT.format(y=y))
    assert result["codes"] == [code], result["messages"]
    for word in words:
        assert word in result["messages"][0], (word, result["messages"])


@pytest.mark.parametrize("y,name", [
    ("gamma * math.tanh(alpha * x) + b", "gamma"),
    ("g * math.tanh(alpha * x) + beta", "beta"),
    ("math.tanh(alpha * x) * gamma + b", "gamma"),
])
def test_dyt_list_parameter_used_as_a_number_is_named(y, name):
    result = run_attempt(DYT, _DYT.format(y=y))
    assert result["codes"] == ["raised"], result
    text = result["messages"][0]
    for word in (f"{name} 是列表", f"{name}[i]", "zip"):
        assert word in text, (word, text)


@pytest.mark.parametrize("source", [
    get_exercise(DYT).solution,
    _DYT.format(y="b + g * math.tanh(x * alpha)"),
    """import math


def dyt_list(values, alpha, gamma, beta):
    out = []
    for i in range(len(values)):
        t = math.tanh(alpha * values[i])
        out.append(gamma[i] * t + beta[i])
    return out
""",
])
def test_dyt_correct_variants_still_pass(source):
    result = run_attempt(DYT, source)
    assert result["passed"], result["messages"]


# ---------------------------------------------------------------- 列表当成一个数：只在真是这样时说
def _explain(code):
    """像网页那样运行 code（登记到 linecache，出错的那一行找得到），返回 TypeError 的中文解释（没有时 ""）。"""
    linecache.cache["<你的代码>"] = (len(code), None, code.splitlines(True), "<你的代码>")
    try:
        exec(compile(code, "<你的代码>", "exec"), {})
    except TypeError as exc:
        return explain_error(exc, *learner_source(exc)) or ""
    raise AssertionError(code)


@pytest.mark.parametrize("code", [
    "gamma = [1.0, 2.0]\ny = gamma * 0.5",
    "beta = [1.0, 2.0]\ny = 0.5 + beta",
    "beta = [1.0, 2.0]\ny = beta - 0.5",
    "gamma = [1.0, 2.0]\ny = gamma / 2.0",
    "beta = [1.0, 2.0]\ny = beta + 0.5",
])
def test_list_used_as_a_number_gets_the_hint(code):
    text = _explain(code)
    assert "列表" in text and "zip" in text, (code, text)


def test_the_hint_names_only_a_list_next_to_the_operator():
    """[v] * 0.5：没有哪个名字是那个列表，不点名（也不猜 gamma）。"""
    text = _explain("v = 1.0\nvalues = [1.0]\ny = [v] * 0.5 + sum(values)")
    assert "列表" in text
    assert "v 是列表" not in text and "values 是列表" not in text and "gamma 是列表" not in text, text


@pytest.mark.parametrize("code", [
    "s = 'ab'\ny = s * 0.5",          # 字符串，不是列表
    "y = None + 1.0",
    "y = 'a' + 1",
    "y = len(3)",
    "def f(a):\n    return a\ny = f(1, 2)",
    "y = {'a': 1} * 2.0",
])
def test_unrelated_type_errors_get_no_list_hint(code):
    text = _explain(code)
    assert "是列表" not in text and "zip" not in text, (code, text)
