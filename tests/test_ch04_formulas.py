"""第 4 章《层归一化的公式》：逐步计算的每个值与测试中重新调用 F.layer_norm 的结果一致；不加 ε 得到 NaN。"""
import pytest
import torch
import torch.nn.functional as F

from conftest import glued_value

CHAPTER = "ch04_formulas"


@pytest.fixture(scope="module")
def chapter(run_chapter):
    return run_chapter(CHAPTER)


def glued(chapter, name):
    return glued_value(chapter[1], name)


def value(chapter, name):
    return float(glued(chapter, name))


@pytest.fixture(scope="module")
def inputs(chapter):
    """章节里用的向量、γ、β、ε（从 glue 读出），以及在测试里独立算出的参考值。"""
    x = torch.tensor(glued(chapter, "ch04_x"), dtype=torch.float64)
    gamma = torch.tensor(glued(chapter, "ch04_gamma"), dtype=torch.float64)
    beta = torch.tensor(glued(chapter, "ch04_beta"), dtype=torch.float64)
    eps = value(chapter, "ch04_eps")
    return x, gamma, beta, eps


def test_vector_is_small_and_not_trivial(chapter, inputs):
    x, gamma, beta, eps = inputs
    assert 4 <= len(x) <= 6 and int(value(chapter, "ch04_H")) == len(x)
    assert x.var() > 0 and not torch.all(gamma == 1) and not torch.all(beta == 0)
    assert eps == pytest.approx(1e-5)


def test_mean_and_biased_variance(chapter, inputs):
    x, _, _, _ = inputs
    assert value(chapter, "ch04_mu") == pytest.approx(x.mean().item(), abs=1e-6)
    assert value(chapter, "ch04_var") == pytest.approx(x.var(unbiased=False).item(), abs=1e-6)
    assert value(chapter, "ch04_std") == pytest.approx(torch.sqrt(x.var(unbiased=False) + inputs[3]).item(), abs=1e-6)


def test_steps_match_functional_layer_norm(chapter, inputs):
    x, gamma, beta, eps = inputs
    x_hat = F.layer_norm(x, (len(x),), eps=eps)
    y = F.layer_norm(x, (len(x),), weight=gamma, bias=beta, eps=eps)
    for i in range(len(x)):
        assert value(chapter, f"ch04_xhat_{i}") == pytest.approx(x_hat[i].item(), abs=1e-5), i
        assert value(chapter, f"ch04_y_{i}") == pytest.approx(y[i].item(), abs=1e-5), i
    assert glued(chapter, "ch04_match_F") == "一致"


def test_eps_prevents_nan(chapter):
    assert glued(chapter, "ch04_nan_without_eps") == "结果全是 NaN"
    assert glued(chapter, "ch04_zeros_with_eps") == "结果全是 0"
    # 独立确认：常数向量不加 ε 得到 NaN，加 ε 得到 0
    c = torch.full((4,), 3.0)
    assert torch.isnan((c - c.mean()) / torch.sqrt(c.var(unbiased=False))).all()
    assert torch.equal(F.layer_norm(c, (4,), eps=1e-5), torch.zeros(4))


def test_gamma_beta_can_undo_normalization(chapter):
    assert glued(chapter, "ch04_recovered") == "相同"


def test_shared_gamma_beta_cannot_undo_another_token(chapter):
    # 正文：同一组 γ、β 用在 x' = 2x + 5 上，输出与 x' 不一致，反而等于 x
    assert glued(chapter, "ch04_recovered_other") == "不一致"
    assert glued(chapter, "ch04_other_is_x") == "一致"


def test_unbiased_variance_pitfall(chapter, inputs):
    x, _, _, eps = inputs
    wrong = (x - x.mean()) / torch.sqrt(x.var() + eps)
    right = F.layer_norm(x, (len(x),), eps=eps)
    assert value(chapter, "ch04_unbiased_gap") == pytest.approx((wrong - right).abs().max().item(), abs=1e-5)
    assert value(chapter, "ch04_unbiased_gap") > 0.01


def test_linear_layer_after_layernorm_absorbs_gamma_and_beta():
    """正文：「W(γ⊙x̂ + β) = (W·diag γ)x̂ + Wβ」：层归一化后接线性层时，γ、β 可以并进线性层的权重与偏置。"""
    import torch
    import torch.nn as nn
    torch.manual_seed(0)
    ln, lin = nn.LayerNorm(8), nn.Linear(8, 5)
    with torch.no_grad():
        ln.weight.uniform_(0.5, 2.0)
        ln.bias.normal_()
    plain, merged = nn.LayerNorm(8, elementwise_affine=False), nn.Linear(8, 5)
    with torch.no_grad():
        merged.weight.copy_(lin.weight * ln.weight)              # W·diag(γ)
        merged.bias.copy_(lin.bias + lin.weight @ ln.bias)       # 原偏置 + Wβ
    x = torch.randn(4, 8) * 3 + 1
    with torch.no_grad():
        assert torch.allclose(lin(ln(x)), merged(plain(x)), atol=1e-5)


def test_masked_fill_removes_nan_but_the_value_product_brings_it_back():
    """正文：「masked_fill 能把 NaN 去掉……但权重还要乘以每个位置的值向量，0 乘 NaN 仍是 NaN」。"""
    import torch
    scores = torch.tensor([[0.5, float("nan")]])
    masked = scores.masked_fill(torch.tensor([[False, True]]), float("-inf"))
    weights = torch.softmax(masked, dim=-1)
    assert not torch.isnan(weights).any() and weights[0, 1] == 0
    values = torch.tensor([[1.0], [float("nan")]])
    assert torch.isnan(weights @ values).all()
