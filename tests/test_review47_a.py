"""评审 r47（网页练习 ch04-layer-norm-rows、ch06-mean-var-list、ch06-std-ratio、ch08-rms-norm-list、ch11-stable-var-list）：
说明说出真正错的那一步，不再只给症状。

- ch04、ch06：方差的单遍公式写成 mean(x²) − μ（μ 没有平方）：以前得到几条症状（ch04 还说除法、减均值错了）；
  按值认出，说出单遍公式是 mean(x²) − μ²。
- ch08：先乘 γ、再对 γ·x 求均方：以前说「γ 逐个特征相乘」（学习者正是逐个相乘的）；现在说 γ 乘早了。
- ch06-std-ratio：√((h + 1) / h)（分子写成 H+1）以前只重述公式；没开方的 (h + 1) / h 再加一条「也要开方」。
- ch11：Welford 的 M2 加了 (x − 更新后的均值)²：以前只说「应为 6，你的是 4.60556」；说出要乘更新前的偏差。

写对的代码（参考答案和另外的写法：正确的单遍公式、正确的 Welford、γ 最后乘）仍然通过。
评审的原样代码在各练习 mistakes.py 的 NOVEL 里（说明必须有的词在 WORDS 里，tests/test_review_messages.py 逐条核对）。
"""
import pytest

from review_cases import assert_named, run_attempt as _run, says as _says

# (练习 id, NOVEL 里的说明, 应得的代码, 说明里应有的词, 说明里不许有的词)
REVIEW47 = [
    ("ch04-layer-norm-rows", "评审 r47：单遍公式 mean(x²) − μ，μ 没有平方", ["mu_not_squared"],
     ["mean(x²) − μ²", "没有平方", "`- mu ** 2`"], ["均值是", "倍数会被抵消"]),
    ("ch06-mean-var-list", "评审 r47：单遍公式 mean(x²) − μ，μ 没有平方", ["mu_not_squared"],
     ["mean(x²) − μ²", "没有平方", "`- mu ** 2`"], ["应该不变"]),
    ("ch08-rms-norm-list", "评审 r47：先乘 γ，再对 γ·x 求均方", ["gamma_before_rms"],
     ["γ 乘早了", "mean((γ·x)²)", "原始的 x", "最后再逐个乘 γ"], ["倍："]),
    ("ch06-std-ratio", "评审 r47：分子写成了 H+1（√((h + 1) / h)）", ["plus_one_numerator"],
     ["√((H+1)/H)", "分子写成了 H+1", "应为 H−1", "math.sqrt((h - 1) / h)"], ["不对："]),
    ("ch06-std-ratio", "分子写成了 H+1，也没开方（(h + 1) / h）", ["plus_one_numerator", "missing_sqrt"],
     ["(H+1)/H", "分子写成了 H+1", "也要开方"], ["√((H+1)/H)"]),
    ("ch11-stable-var-list", "评审 r47：Welford 的 M2 加了 (x − 更新后的均值)²", ["welford_new_mean_only"],
     ["Welford", "(x − 更新前的均值)·(x − 更新后的均值)", "偏小", "m2 += d * (x - mean)"], ["你的是 4.60556"]),
]


@pytest.mark.parametrize("ex_id,what,codes,words,never", REVIEW47, ids=[f"{r[0]}-{r[2][0]}-{i}" for i, r in enumerate(REVIEW47)])
def test_review47_attempt_is_named(ex_id, what, codes, words, never):
    assert_named(ex_id, what, codes, words, never)


_LN = """import math


def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        h = len(row)
        mu = sum(row) / h
        var = {var}
        std = math.sqrt(var + eps)
        out.append([g * (v - mu) / std + b for v, g, b in zip(row, gamma, beta)])
    return out
"""

_MV = """def mean_var_list(values, unbiased=False):
    h = len(values)
    mu = sum(values) / h
    var = {var}
    if unbiased:
        var = var * h / (h - 1)
    return mu, var
"""

_RMS = """import math


def rms_norm_list(values, gamma, eps=1e-6):
{body}
"""

_WELFORD = """def stable_var(values):
    k, mean, m2 = 0, 0.0, 0.0
    for x in values:
        k += 1
{body}
    return m2 / k
"""

# ---------------------------------------------------------------- 同一种错误的别的写法
SLIPS = [
    ("ch04-layer-norm-rows", _LN.format(var="sum(v * v for v in row) / h - mu"), ["mu_not_squared"], ["没有平方"]),
    ("ch04-layer-norm-rows", _LN.format(var="sum(v * v for v in row) / len(row) - sum(row) / len(row)"),
     ["mu_not_squared"], ["mean(x²) − μ²"]),
    ("ch06-mean-var-list", _MV.format(var="sum(v * v for v in values) / h - mu"), ["mu_not_squared"], ["没有平方"]),
    # 无偏时不乘 H/(H−1)、而是另写一遍：unbiased=False 时已经认出
    ("ch06-mean-var-list", """def mean_var_list(values, unbiased=False):
    h = len(values)
    mu = sum(values) / h
    s = sum(v * v for v in values)
    return mu, (s / h - mu) * (h / (h - 1) if unbiased else 1)
""", ["mu_not_squared"], ["没有平方"]),
    ("ch08-rms-norm-list", _RMS.format(body="""    y = [g * v for v, g in zip(values, gamma)]
    rms = (sum(t ** 2 for t in y) / len(y) + eps) ** 0.5
    return [t / rms for t in y]"""), ["gamma_before_rms"], ["γ 乘早了"]),
    ("ch06-std-ratio", "def std_ratio(h):\n    return ((h + 1) / h) ** 0.5\n", ["plus_one_numerator"], ["分子写成了 H+1"]),
    ("ch06-std-ratio", "def std_ratio(h):\n    return 1 + 1 / h\n", ["plus_one_numerator", "missing_sqrt"], ["也要开方"]),
    # 以前的 H+1 写法（分母 H+1）仍是 plus_one
    ("ch06-std-ratio", "import math\ndef std_ratio(h):\n    return math.sqrt(h / (h + 1))\n", ["plus_one"], ["H+1"]),
    # Welford：只用更新后的均值（先存 d 也一样）
    ("ch11-stable-var-list", _WELFORD.format(body="""        d = x - mean
        mean += d / k
        m2 += (x - mean) * (x - mean)"""), ["welford_new_mean_only"], ["更新后的均值"]),
    # Welford：只用更新前的均值平方 (x − 更新前的均值)²（不存 d，先加 M2 再更新均值）：仍是 welford_update
    ("ch11-stable-var-list", _WELFORD.format(body="""        m2 += (x - mean) ** 2
        mean += (x - mean) / k"""), ["welford_update"], ["更新后的均值", "d²"]),
]


@pytest.mark.parametrize("ex_id,source,codes,words", SLIPS, ids=[f"{r[0]}-{i}" for i, r in enumerate(SLIPS)])
def test_other_spellings_are_named(ex_id, source, codes, words):
    _says(ex_id, source, codes, words)


# ---------------------------------------------------------------- 写对的代码仍然通过（新诊断不冤枉它们）
CORRECT = [
    ("ch04-layer-norm-rows", _LN.format(var="sum(v * v for v in row) / h - mu ** 2")),
    ("ch04-layer-norm-rows", _LN.format(var="sum((v - mu) ** 2 for v in row) / h")),
    ("ch06-mean-var-list", _MV.format(var="sum(v * v for v in values) / h - mu ** 2")),
    ("ch06-mean-var-list", _MV.format(var="sum((v - mu) ** 2 for v in values) / h")),
    ("ch08-rms-norm-list", _RMS.format(body="""    ms = sum(v * v for v in values) / len(values)
    return [g * (v / math.sqrt(ms + eps)) for v, g in zip(values, gamma)]""")),
    ("ch08-rms-norm-list", _RMS.format(body="""    rms = (sum(v ** 2 for v in values) / len(values) + eps) ** 0.5
    return [gamma[i] * values[i] / rms for i in range(len(values))]""")),
    ("ch06-std-ratio", "def std_ratio(h):\n    return ((h - 1) / h) ** 0.5\n"),
    ("ch06-std-ratio", "import math\ndef std_ratio(h):\n    return math.sqrt(1 - 1 / h)\n"),
    ("ch11-stable-var-list", _WELFORD.format(body="""        d = x - mean
        mean += d / k
        m2 += d * (x - mean)""")),
    ("ch11-stable-var-list", _WELFORD.format(body="""        old = mean
        mean = old + (x - old) / k
        m2 = m2 + (x - old) * (x - mean)""")),
]
_IDS = ("ch04-layer-norm-rows", "ch06-mean-var-list", "ch08-rms-norm-list", "ch06-std-ratio", "ch11-stable-var-list")


@pytest.mark.parametrize("ex_id,source", CORRECT + [(e, None) for e in _IDS],
                         ids=[f"{r[0]}-{i}" for i, r in enumerate(CORRECT)] + [f"{e}-solution" for e in _IDS])
def test_correct_code_still_passes(ex_id, source):
    if source is None:
        from dsx_util.exercises.catalog import get_exercise
        source = get_exercise(ex_id).solution
    result = _run(ex_id, source)
    assert result["passed"] and result["codes"] == [], result["messages"]
