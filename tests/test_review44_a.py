"""评审 r44（网页练习，手机上）：写死了大小的代码不再通过，三条误导或含糊的说明说出真正错的那一步。

每道网页练习检查用的输入以前都一样大（每行 4 个数、3 行……），把 4 写死（/ 4、range(4)）的代码得到 ✓。现在检查通过之后
再用另一种大小的输入算一次，不对时说出写死的是哪个数。评审的原样代码在各练习 mistakes.py 的 NOVEL 里（说明必须有的词
在 WORDS 里，tests/test_review_messages.py 逐条核对）；这里核对它们得到新的代码，同一种错误的别的写法，以及写对的代码
（参考答案和另外两种写法）仍然通过、新诊断不冤枉它们。
"""
from pathlib import Path

import pytest

from review_cases import assert_named, novel as _novel, run_attempt as _run

ITEMS = Path(__file__).resolve().parents[1] / "dsx_util" / "exercises" / "items"

# (练习 id, NOVEL 里的说明, 应得的代码, 说明里应有的词)
REVIEW44 = [
    ("ch04-layer-norm-rows", "评审 r44：H 写死成 4（均值、方差都除以 4）", ["h_hard_coded"],
     ["H = 6", "均值和方差都除以了 4", "写死", "len(row)"]),
    ("ch07-batch-norm-lists", "评审 r44：B 写死成 4（均值、方差都除以 4）", ["b_hard_coded"],
     ["B = 6", "均值和方差都除以了 4", "写死", "len(x)"]),
    ("ch07-batch-norm-lists", "评审 r44：跑特征用了 range(H - 1)（最后一列没有算）", ["column_not_computed"],
     ["第 3 列全是 0.0", "没有算", "range(H − 1)", "range(H)"]),
    ("ch08-rms-norm-list", "评审 r44：H 写死成 4（均方除以 4）", ["h_hard_coded"],
     ["H = 6", "均方除以了 4", "写死", "len(values)"]),
    ("ch13-frozen-sigma-norm", "评审 r44：H 写死成 4（均值除以 4）", ["h_hard_coded"],
     ["H = 6", "均值除以了 4", "写死", "len(row)"]),
    ("ch02-relu", "评审 r44：return 缩进到了 for 循环里", ["return_in_loop"],
     ["只有 1 个", "return 缩进到了 for 循环里面", "写在循环之后"]),
    ("ch11-stable-var-list", "评审 r44：`/ n - 1`（少了括号，结果减了 1）", ["minus_one"],
     ["正好比方差小 1", "/ n - 1", "/ (n - 1)", "除以 H"]),
]


@pytest.mark.parametrize("ex_id,what,codes,words", REVIEW44, ids=[f"{r[0]}-{r[2][-1]}" for r in REVIEW44])
def test_review44_attempt_is_named(ex_id, what, codes, words):
    assert_named(ex_id, what, codes, words)


def test_ch07_skipped_column_does_not_blame_the_division_or_cite_chapter_4():
    """range(H − 1) 的写法：不再说「要除以 √(σ² + ε)」，也不引第 4 章的式子。"""
    _, source = _novel("ch07-batch-norm-lists")["评审 r44：跑特征用了 range(H - 1)（最后一列没有算）"]
    text = "\n".join(_run("ch07-batch-norm-lists", source)["messages"])
    assert "式 (4." not in text and "要除以" not in text, text


# ---------------------------------------------------------------- 写死大小的各种写法（审计：12 道网页练习）
_LN = """import math
def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for {loop}:
        mu = sum(row) / {mean_n}
        var = sum((v - mu) ** 2 for v in row) / {var_n}
        out.append([gamma[i] * (row[i] - mu) / math.sqrt(var + eps) + beta[i] for i in range({feat})])
    return out
"""
_LN_OK = dict(loop="row in rows", mean_n="len(row)", var_n="len(row)", feat="len(row)")

_BN = """import math
def batch_norm_lists(x, eps=1e-5):
    B, H = {b}, {h}
    out = [[0.0] * H for _ in range(B)]
    for j in range(H):
        mu = sum(x[i][j] for i in range(B)) / {mean_n}
        var = sum((x[i][j] - mu) ** 2 for i in range(B)) / B
        for i in range(B):
            out[i][j] = (x[i][j] - mu) / math.sqrt(var + eps)
    return out
"""
_BN_OK = dict(b="len(x)", h="len(x[0])", mean_n="B")

_RMS = """import math
def rms_norm_list(values, gamma, eps=1e-6):
    ms = sum(v * v for v in values) / {n}
    return [gamma[i] * values[i] / math.sqrt(ms + eps) for i in range({feat})]
"""

_FROZEN = """def frozen_sigma_norm(rows, sigma, gamma, beta):
    out = []
    for row in rows:
        mu = sum(row) / {n}
        out.append([gamma[i] * (row[i] - mu) / sigma + beta[i] for i in range({feat})])
    return out
"""

_DYT = """import math
def dyt_list(values, alpha, gamma, beta):
    out = [0.0] * {n}
    for i in range({m}):
        out[i] = gamma[i] * math.tanh(alpha * values[i]) + beta[i]
    return out
"""

HARD_CODED = [
    ("ch04-layer-norm-rows", _LN.format(**dict(_LN_OK, mean_n="4", var_n="4")), ["h_hard_coded"], "均值和方差都除以了 4"),
    ("ch04-layer-norm-rows", _LN.format(**dict(_LN_OK, mean_n="4")), ["h_hard_coded"], "均值除以了 4"),
    ("ch04-layer-norm-rows", _LN.format(**dict(_LN_OK, var_n="4")), ["h_hard_coded"], "方差除以了 4"),
    ("ch04-layer-norm-rows", _LN.format(**dict(_LN_OK, feat="4")), ["h_hard_coded"], "第 1 行却有 4 个数"),
    ("ch04-layer-norm-rows", _LN.format(**dict(_LN_OK, loop="row in rows[:3]")), ["rows_hard_coded"], "却有 3 行"),
    ("ch07-batch-norm-lists", _BN.format(**dict(_BN_OK, b="4")), ["b_hard_coded"], "却有 4 行"),
    ("ch07-batch-norm-lists", _BN.format(**dict(_BN_OK, mean_n="4")), ["b_hard_coded"], "均值除以了 4"),
    ("ch07-batch-norm-lists", _BN.format(**dict(_BN_OK, h="3")), ["h_hard_coded"], "H = 3 写死了"),
    ("ch08-rms-norm-list", _RMS.format(n="4", feat="len(values)"), ["h_hard_coded"], "均方除以了 4"),
    ("ch08-rms-norm-list", _RMS.format(n="len(values)", feat="4"), ["h_hard_coded"], "却只有 4 个数"),
    ("ch13-frozen-sigma-norm", _FROZEN.format(n="4", feat="len(row)"), ["h_hard_coded"], "均值除以了 4"),
    ("ch13-frozen-sigma-norm", _FROZEN.format(n="len(row)", feat="4"), ["h_hard_coded"], "第 1 行却有 4 个数"),
    ("ch12-dyt-list", _DYT.format(n="4", m="4"), ["h_hard_coded"], "却有 4 个数"),
    ("ch12-dyt-list", _DYT.format(n="4", m="len(values)"), ["h_hard_coded", "raised"], "IndexError"),
    ("ch02-relu", "def relu_list(values):\n    out = [0.0] * 5\n    for i, v in enumerate(values):\n"
                  "        out[i] = v if v > 0 else 0.0\n    return out\n", ["length_hard_coded"], "写死了"),
    ("ch11-stable-var-list", "def stable_var(values):\n    mu = sum(values) / 5\n    return sum((v - mu) ** 2 for v in values) / 5\n",
     ["size_hard_coded"], "均值和方差都除以了 5"),
    ("ch11-stable-var-list", "def stable_var(values):\n    mu = sum(values) / 5\n"
                             "    return sum((v - mu) ** 2 for v in values) / len(values)\n", ["size_hard_coded"], "均值除以了 5"),
]


@pytest.mark.parametrize("ex_id,source,codes,word", HARD_CODED, ids=[f"{h[0]}-{h[3]}" for h in HARD_CODED])
def test_hard_coded_size_fails_and_says_so(ex_id, source, codes, word):
    result = _run(ex_id, source)
    assert result["codes"] == codes, result["messages"]
    text = "\n".join(result["messages"])
    assert word in text, text
    if codes[0] != "return_in_loop":
        assert "写死" in text, text


# ---------------------------------------------------------------- 同一种错误的别的写法
@pytest.mark.parametrize("source", [
    "def relu_list(values):\n    out = []\n    for v in values:\n        out.append(max(0.0, v))\n        return out\n",
    "def relu_list(values):\n    for v in values:\n        return [v if v > 0 else 0.0]\n",
])
def test_relu_return_in_loop_variants(source):
    result = _run("ch02-relu", source)
    assert result["codes"] == ["return_in_loop"], result["messages"]


@pytest.mark.parametrize("body", [
    "    n = len(values)\n    mu = sum(values) / n\n    return sum((v - mu) ** 2 for v in values) / n - 1\n",
    "    mu = sum(values) / len(values)\n    t = 0.0\n    for v in values:\n        t += (v - mu) ** 2\n    return t / len(values) - 1\n",
])
def test_stable_var_minus_one_variants(body):
    result = _run("ch11-stable-var-list", "def stable_var(values):\n" + body)
    assert result["codes"] == ["minus_one"], result["messages"]


@pytest.mark.parametrize("old,new,cols,hint", [
    ("range(H)", "range(H - 1)", "第 3 列", "range(H − 1)"),
    ("range(H)", "range(1, H)", "第 1 列", "range(1, H)"),
])
def test_batch_norm_skipped_column_variants(old, new, cols, hint):
    source = _BN.format(**_BN_OK).replace("for j in " + old, "for j in " + new)
    result = _run("ch07-batch-norm-lists", source)
    assert result["codes"] == ["column_not_computed"], result["messages"]
    assert cols in result["messages"][0] and hint in result["messages"][0]


# ---------------------------------------------------------------- 写对的代码仍然通过
CORRECT = {
    "ch02-relu": ["def relu_list(values):\n    out = []\n    for v in values:\n        out.append(max(0.0, v))\n    return out\n",
                  "def relu_list(values):\n    return [v * (v > 0) for v in values]\n"],
    "ch04-layer-norm-rows": [_LN.format(**_LN_OK),
                             "import math\ndef layer_norm_rows(rows, gamma, beta, eps=1e-5):\n    out = []\n    for row in rows:\n"
                             "        H = len(gamma)\n        mu = sum(row) / H\n        var = sum(v * v for v in row) / H - mu * mu\n"
                             "        out.append([g * (v - mu) / (var + eps) ** 0.5 + b for v, g, b in zip(row, gamma, beta)])\n"
                             "    return out\n"],
    "ch07-batch-norm-lists": [_BN.format(**_BN_OK),
                              "import math\ndef batch_norm_lists(x, eps=1e-5):\n    B = len(x)\n    out = [list(r) for r in x]\n"
                              "    for j in range(len(x[0])):\n        col = [r[j] for r in x]\n        mu = sum(col) / B\n"
                              "        var = sum((c - mu) ** 2 for c in col) / B\n        for i in range(B):\n"
                              "            out[i][j] = (x[i][j] - mu) / math.sqrt(var + eps)\n    return out\n"],
    "ch08-rms-norm-list": [_RMS.format(n="len(values)", feat="len(values)"),
                           "def rms_norm_list(values, gamma, eps=1e-6):\n    ms = 0.0\n    for v in values:\n        ms += v * v\n"
                           "    ms /= len(gamma)\n    return [g * v / (ms + eps) ** 0.5 for v, g in zip(values, gamma)]\n"],
    "ch11-stable-var-list": ["def stable_var(values):\n    mean, m2, k = 0.0, 0.0, 0\n    for x in values:\n        k += 1\n"
                             "        d = x - mean\n        mean += d / k\n        m2 += d * (x - mean)\n    return m2 / k\n",
                             "def stable_var(values):\n    n = len(values)\n    mu = sum(values) / n\n"
                             "    return sum((v - mu) ** 2 for v in values) / (n)\n"],
    "ch12-dyt-list": [_DYT.format(n="len(values)", m="len(values)"),
                      "import math\ndef dyt_list(values, alpha, gamma, beta):\n"
                      "    return [g * math.tanh(alpha * v) + b for v, g, b in zip(values, gamma, beta)]\n"],
    "ch13-frozen-sigma-norm": [_FROZEN.format(n="len(row)", feat="len(row)"),
                               "def frozen_sigma_norm(rows, sigma, gamma, beta):\n    H = len(gamma)\n"
                               "    return [[gamma[i] * (r[i] - sum(r) / H) / sigma + beta[i] for i in range(H)] for r in rows]\n"],
}


@pytest.mark.parametrize("ex_id,source", [(k, s) for k, v in CORRECT.items() for s in v]
                         + [(k, (ITEMS / k.replace("-", "_") / "solution.py").read_text(encoding="utf-8")) for k in CORRECT],
                         ids=[f"{k}-{i}" for k, v in CORRECT.items() for i in range(len(v))] + [f"{k}-solution" for k in CORRECT])
def test_correct_solutions_still_pass(ex_id, source):
    result = _run(ex_id, source)
    assert result["codes"] == [], result["messages"]
    assert result["passed"]
