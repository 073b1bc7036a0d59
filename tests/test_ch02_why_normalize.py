"""第 2 章《为什么需要归一化》：复现已发表的激活值、均值、方差与标准化结果；深层网络中层归一化稳住激活值与梯度。

已发表数值来自 Raschka《Build a Large Language Model (From Scratch)》第 4 章（torch.manual_seed(123)）。
"""
import re

import pytest

from conftest import glued_value

CHAPTER = "ch02_why_normalize"

PUBLISHED_OUT = [[0.2260, 0.3470, 0.0000, 0.2216, 0.0000, 0.0000],
                 [0.2133, 0.2394, 0.0000, 0.5198, 0.3297, 0.0000]]
PUBLISHED_MEAN = [0.1324, 0.2170]
PUBLISHED_VAR = [0.0231, 0.0398]  # torch.var 默认的无偏估计
PUBLISHED_NORMED = [[0.6159, 1.4126, -0.8719, 0.5872, -0.8719, -0.8719],
                    [-0.0189, 0.1121, -1.0876, 1.5173, 0.5647, -1.0876]]
TOL = 5e-5  # 已发表的数值保留 4 位小数


@pytest.fixture(scope="module")
def chapter(run_chapter):
    return run_chapter(CHAPTER)


def value(chapter, name):
    return float(glued_value(chapter[1], name))


def printed_tensor(chapter, statement):
    """读出执行 statement（如 print(out)）的那个单元格打印的张量：读者在书里看到的正是这些数。"""
    cells = [c for c in chapter[0].cells if c.cell_type == "code" and statement in c.source.splitlines()]
    assert len(cells) == 1, f"第 2 章应当恰好有一个单元格执行 {statement}"
    text = "".join(o.get("text", "") for o in cells[0].outputs if o.output_type == "stream")
    body = text[text.index("tensor("):text.index("]]") + 2]
    return [[float(v) for v in re.findall(r"-?\d+\.\d+", row)] for row in body.split("],")]


def test_published_activations(chapter):
    assert printed_tensor(chapter, "print(out)") == PUBLISHED_OUT   # 打印的 4 位小数与发表的逐位相同


def test_published_mean_and_unbiased_var(chapter):
    for i in range(2):
        assert value(chapter, f"ch02_mean_{i}") == pytest.approx(PUBLISHED_MEAN[i], abs=TOL)
        assert value(chapter, f"ch02_var_{i}") == pytest.approx(PUBLISHED_VAR[i], abs=TOL)


def test_published_normalized_values(chapter):
    assert printed_tensor(chapter, "print(normed)") == PUBLISHED_NORMED
    assert value(chapter, "ch02_normed_0_2") == pytest.approx(PUBLISHED_NORMED[0][2], abs=TOL)
    assert value(chapter, "ch02_normed_1_3") == pytest.approx(PUBLISHED_NORMED[1][3], abs=TOL)
    assert PUBLISHED_NORMED[1][3] == max(max(row) for row in PUBLISHED_NORMED)   # 正文说它是最大的一个


def test_zero_counts_match_published_output(chapter):
    for i, row in enumerate(PUBLISHED_OUT):
        assert int(value(chapter, f"ch02_zeros_row{i}")) == row.count(0.0)


def test_relu_and_normalized_mean_checks(chapter):
    # 只断言“均值足够小”这一判断为真，从不断言浮点零头本身的值
    assert glued_value(chapter[1], "ch02_relu_same") == "相同"
    assert glued_value(chapter[1], "ch02_mean_is_zero") == "都小于"
    assert value(chapter, "ch02_tol") <= 1e-6
    assert value(chapter, "ch02_normed_var_0") == pytest.approx(1.0, abs=1e-4)


def test_layernorm_keeps_activations_alive(chapter):
    # 无层归一化：样本间标准差逐层指数衰减；有层归一化：保持在 1 附近
    assert value(chapter, "ch02_across_last_plain") < 1e-4 * value(chapter, "ch02_across_first_plain")
    assert value(chapter, "ch02_across_last_ln") > 0.3
    assert value(chapter, "ch02_std_last_plain") < value(chapter, "ch02_std_first_plain")


def test_layernorm_keeps_gradients_balanced(chapter):
    plain_ratio = value(chapter, "ch02_grad_ratio_plain")
    ln_ratio = value(chapter, "ch02_grad_ratio_ln")
    assert plain_ratio == pytest.approx(value(chapter, "ch02_grad_last_plain") / value(chapter, "ch02_grad_first_plain"))
    assert plain_ratio > 1e3          # 无层归一化：第一层的梯度小了几个数量级（梯度消失）
    assert 0.1 < ln_ratio < 10        # 有层归一化：首尾两层的梯度在同一数量级
    assert value(chapter, "ch02_grad_first_ln") > 1e3 * value(chapter, "ch02_grad_first_plain")


def test_every_block_with_layernorm_has_unit_scale(chapter):
    # 正文说每块的标准差「都是 x」或「在 a 到 b 之间」（span 取全部块的最小、最大值）：说到的数都要接近 1
    span = glued_value(chapter[1], "ch02_std_ln_span")
    ends = [float(v) for v in re.findall(r"\d+\.\d+", span)]
    assert ends and all(v == pytest.approx(1.0, abs=0.02) for v in ends), span


def test_xavier_control_and_what_layernorm_guarantees(chapter):
    # 对照组（Xavier 初始化、偏置为 0、不加层归一化）：信号和梯度都没有消失
    assert value(chapter, "ch02_across_last_xavier") > 0.3
    assert value(chapter, "ch02_grad_first_xavier") > 1e5 * value(chapter, "ch02_grad_first_plain")
    # 权重乘以系数：不加层归一化时最后一块的尺度跟着变，加了就不变
    assert value(chapter, "ch02_scaled_no_ln_max") > 10 * value(chapter, "ch02_scaled_no_ln_min")
    scaled = [float(v) for v in re.findall(r"\d+\.\d+", glued_value(chapter[1], "ch02_scaled_ln_span"))]
    assert scaled and all(abs(v - 1) < 0.01 for v in scaled)
    # Pre-LN 的 GPT：残差流随深度增大，每个子层的输入保持单位尺度
    assert value(chapter, "ch02_res_growth") > 2
    # GPT-2 初始化（位置嵌入 0.01、残差分支 1/√(2N)）：仍增大，但远小于标准差 0.02 的初始化
    lo, hi = value(chapter, "ch02_res_growth_gpt2_min"), value(chapter, "ch02_res_growth_gpt2_max")
    assert 1 < lo <= hi < value(chapter, "ch02_res_growth") / 1.5
    assert value(chapter, "ch02_res_last") > value(chapter, "ch02_res_first")
    ends = [float(v) for v in re.findall(r"\d+\.\d+", glued_value(chapter[1], "ch02_gpt_ln_span"))]
    assert ends and all(0.98 < v < 1.01 for v in ends)
