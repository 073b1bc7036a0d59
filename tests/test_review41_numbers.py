"""评审 r41（网页练习）的数值类发现：错的代码不能得到 ✓，ε 放错的位置要说出来。

评审的原样代码在各练习 mistakes.py 的 NOVEL 里（说明必须有的词在 WORDS 里，由 tests/test_review_messages.py 逐条核对）；
这里核对这几条确实在目录里，并核对检查用的数据本身：任何正的门槛、取绝对值的 α 都过不了。
"""
import importlib

import pytest

from review_cases import assert_named, run_attempt as _run

# (练习 id, NOVEL 里的说明, 应得的代码, 说明里应有的词)
REVIEW41 = [
    ("ch02-relu", "评审 r41：门槛 v > 0.01 而不是 0", ["threshold_cut"], ["分界点是 0", "0.001"]),
    ("ch12-dyt-list", "评审 r41：α 取了绝对值 abs(alpha)", ["alpha_abs"], ["|α|", "α 可以是负数"]),
    ("ch07-batch-norm-lists", "评审 r41：ε 加到平方和上再除以 B（ε/B）", ["eps_divided"], ["ε/B", "先除以 B"]),
    ("ch04-layer-norm-rows", "评审 r41：√max(σ², ε) 代替 √(σ² + ε)", ["eps_max"], ["max(σ², ε)", "√(σ² + ε)", "第 3 行"]),
    ("ch04-layer-norm-rows", "评审 r41：ε 加到偏差平方和上再除以 H（ε/H）", ["eps_divided"], ["ε/H", "先除以 H", "第 3 行"]),
    ("ch08-rms-norm-list", "评审 r41：ε 加到平方和上再除以 H（ε/H）", ["eps_divided"], ["ε/H", "先除以 H", "ε 放错了位置"]),
]


@pytest.mark.parametrize("ex_id,what,codes,words", REVIEW41, ids=[f"{r[0]}-{r[2][0]}" for r in REVIEW41])
def test_review41_attempt_is_named(ex_id, what, codes, words):
    assert_named(ex_id, what, codes, words)


@pytest.mark.parametrize("cut", ["0.01", "1e-3", "1e-6", "1e-9"])
def test_relu_with_any_small_positive_threshold_fails(cut):
    """检查数据里有很小的正数：v > 门槛（门槛 ≥ 1e-9）都不通过，说明说出分界点是 0。"""
    for op in (">", ">="):
        result = _run("ch02-relu", f"def relu_list(values):\n    return [v if v {op} {cut} else 0.0 for v in values]\n")
        assert result["codes"] == ["threshold_cut"], (cut, op, result["messages"])


def test_relu_zeroing_every_positive_is_not_called_a_threshold():
    """所有正数都变 0（没有正数原样通过）不是「门槛」，仍说正数应原样通过。"""
    result = _run("ch02-relu", "def relu_list(values):\n    return [0.0 for v in values]\n")
    assert result["codes"] == ["positive_changed"], result["messages"]


@pytest.mark.parametrize("body", ["a = abs(alpha)", "a = -alpha if alpha < 0 else alpha", "a = max(alpha, 0.0)"])
def test_dyt_alpha_must_keep_its_sign(body):
    """α 是学出来的参数，可以是负数：不用 α 本身的写法都不通过。"""
    src = (f"import math\n\n\ndef dyt_list(values, alpha, gamma, beta):\n    {body}\n"
           "    return [g * math.tanh(a * v) + b for v, g, b in zip(values, gamma, beta)]\n")
    assert _run("ch12-dyt-list", src)["codes"], body


@pytest.mark.parametrize("ex_id", ["ch07-batch-norm-lists", "ch08-rms-norm-list", "ch04-layer-norm-rows"])
def test_a_missing_eps_is_still_called_missing(ex_id):
    """「少了 ε」只给真的没有 ε 的代码（ε/B、ε/H 有了自己的说明之后，没有 ε 的写法仍是 no_eps）。"""
    m = importlib.import_module(f"dsx_util.exercises.items.{ex_id.replace('-', '_')}.mistakes")
    sources = [src for what, codes, src in list(m.MISTAKES) + list(m.NOVEL) if codes == ["no_eps"]]
    assert sources
    for src in sources:
        assert _run(ex_id, src)["codes"] == ["no_eps"]


def test_relu_truncated_to_int_is_not_called_a_threshold():
    """评审 r41 的 02-W16（正数截成整数：0.5 → 0.0，3.0 不变）：不是门槛，仍说正数应原样通过。"""
    result = _run("ch02-relu", "def relu_list(values):\n    return [float(int(v)) if v > 0 else 0.0 for v in values]\n")
    assert result["codes"] == ["positive_changed"], result["messages"]
