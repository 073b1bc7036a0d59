"""评审 r42（网页练习，手机上）的三条含糊说明改好之后：说明说出真正错的那一步。

评审的原样代码在各练习 mistakes.py 的 NOVEL 里（说明必须有的词在 WORDS 里，tests/test_review_messages.py 逐条核对）；
这里核对这几条确实在目录里、得到新的代码，并核对同一种错误的别的写法、以及新诊断不冤枉写对的代码。
"""

import pytest

from review_cases import assert_named, run_attempt as _run

# (练习 id, NOVEL 里的说明, 应得的代码, 说明里应有的词)
REVIEW42 = [
    ("ch06-std-ratio", "评审 r42：H 写死成 768（不用参数 h）", ["h_ignored"],
     ["2、4、768 时你的结果都是 0.999349", "不随 h 变", "H=768 时的比值", "没有用参数 h"]),
    ("ch07-batch-norm-lists", "评审 r42：取一列时用了 range(H)（只取了前 H 行）", ["first_rows_only"],
     ["只用了前 3 行", "B = 4", "range(B)", "range(H)"]),
    ("ch07-batch-norm-lists", "跑特征用了 range(B)（下标越界）", ["raised", "rows_cols_swapped"],
     ["IndexError", "B = H = 3", "却出错了", "用反了"]),
    ("ch12-dyt-list", "评审 r42：tanh 拼成了 math.tan", ["tan_not_tanh"], ["不是 tanh", "γ·tan(α·x) + β", "math.tanh"]),
    ("ch12-dyt-list", "评审 r42：tanh(α)·x（α 单独进了 tanh）", ["tanh_alpha_times_x"],
     ["γ·tanh(α)·x + β", "α·x 要一起放进 tanh"]),
]


@pytest.mark.parametrize("ex_id,what,codes,words", REVIEW42, ids=[f"{r[0]}-{r[2][-1]}" for r in REVIEW42])
def test_review42_attempt_is_named(ex_id, what, codes, words):
    assert_named(ex_id, what, codes, words)


# ---------------------------------------------------------------- ch06：结果不随 h 变
_RATIO = "import math\n\n\ndef std_ratio(h):\n    return {}\n"


@pytest.mark.parametrize("body,which", [("math.sqrt(767 / 768)", "H=768 时的比值"), ("math.sqrt(1 / 2)", "H=2 时的比值"),
                                        ("0.9", None), ("math.sqrt(3 / 4) if h else 0.0", "H=4 时的比值")])
def test_std_ratio_constant_result_says_h_is_not_used(body, which):
    """写死的数（对某个 H 正确也好，哪个 H 都不对也好）：说出结果不随 h 变；正好是某个 H 的比值时说出是哪个。"""
    result = _run("ch06-std-ratio", _RATIO.format(body))
    assert result["codes"] == ["h_ignored"], result["messages"]
    text = result["messages"][0]
    assert "不随 h 变" in text and "没有用参数 h" in text, text
    assert (which in text) if which else ("时的比值" not in text), text


def test_std_ratio_integer_division_is_still_named_although_constant():
    """(H−1)//H 对每个 H 都是 0（也不随 h 变）：仍说整数除法，这是更具体的原因。"""
    result = _run("ch06-std-ratio", _RATIO.format("math.sqrt((h - 1) // h)"))
    assert result["codes"] == ["integer_division"], result["messages"]


# ---------------------------------------------------------------- ch07：B 与 H 用反
_BN = """import math
def batch_norm_lists(x, eps=1e-5):
    B, H = len(x), len(x[0])
    out = [[0.0] * H for _ in range(B)]
    for j in range({cols}):
        col = [x[i][j] for i in range({rows})]
        mu = sum(col) / {n}
        var = sum((c - mu) ** 2 for c in col) / {n}
        for i in range({out_rows}):
            out[i][j] = (x[i][j] - mu) / math.sqrt(var + eps)
    return out
"""


@pytest.mark.parametrize("fields,codes", [
    (dict(cols="H", rows="H", n="B", out_rows="B"), ["first_rows_only"]),        # 评审的写法：除以 B
    (dict(cols="H", rows="H", n="len(col)", out_rows="B"), ["first_rows_only"]),  # 同一处错误，除以 len(col)（= H）
    (dict(cols="B", rows="H", n="H", out_rows="H"), ["raised", "rows_cols_swapped"]),   # 整个用反：下标越界
    (dict(cols="H", rows="B", n="B", out_rows="H"), ["rows_cols_swapped"]),       # 只有写输出的循环用了 range(H)
])
def test_batch_norm_swapped_ranges_are_named(fields, codes):
    result = _run("ch07-batch-norm-lists", _BN.format(**fields))
    assert result["codes"] == codes, result["messages"]
    assert "range(B)" in "\n".join(result["messages"])


def test_batch_norm_correct_loops_still_pass():
    """同样的循环写法，范围都对时通过（新诊断不冤枉写对的代码）。"""
    result = _run("ch07-batch-norm-lists", _BN.format(cols="H", rows="B", n="B", out_rows="B"))
    assert result["codes"] == [], result["messages"]


def test_batch_norm_other_index_errors_are_not_called_swapped():
    """行数等于列数时也出错（或不对）的代码：不说 B 与 H 用反，只报原来的错。"""
    source = _BN.format(cols="H", rows="B + 1", n="B", out_rows="B")
    result = _run("ch07-batch-norm-lists", source)
    assert result["codes"] == ["raised"], result["messages"]


# ---------------------------------------------------------------- ch12：tan 与 tanh(α)·x
_DYT = "import math\n\n\ndef dyt_list(values, alpha, gamma, beta):\n    return [{} for x, g, b in zip(values, gamma, beta)]\n"


@pytest.mark.parametrize("expr,codes", [
    ("g * math.tan(alpha * x) + b", ["tan_not_tanh"]),
    ("math.tan(alpha * x) * g + b", ["tan_not_tanh"]),
    ("g * math.tanh(alpha) * x + b", ["tanh_alpha_times_x"]),
    ("g * x * math.tanh(alpha) + b", ["tanh_alpha_times_x"]),
    ("math.tan(alpha * x) + b", ["no_gamma", "tan_not_tanh"]),   # 两处错误一起说出
])
def test_dyt_tan_and_tanh_alpha_are_named(expr, codes):
    result = _run("ch12-dyt-list", _DYT.format(expr))
    assert result["codes"] == codes, result["messages"]
