"""check_layer_norm：每一种错误都能被准确点名；几种写法不同的正确实现都能通过。"""
import re

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

from dsx_util.exercises.items.ch05_layer_norm.check import CODES as LAYER_NORM_CODES, check_layer_norm
from dsx_util.exercises.items.ch05_layer_norm.mistakes import (MISTAKES, EpsIgnored, GoodLN, NoKeepdim, Raises,
                                                               SinglePass, Unbiased)


# ---- 正确实现：写法各不相同 ----
class VarMeanLN(GoodLN):
    def forward(self, x):
        var, mean = torch.var_mean(x, dim=-1, keepdim=True, unbiased=False)
        return (x - mean) * torch.rsqrt(var + self.eps) * self.scale + self.shift


class SumsLN(GoodLN):
    def forward(self, x):
        n = x.shape[-1]
        mean = x.sum(dim=-1, keepdim=True) / n
        centered = x - mean
        var = (centered * centered).sum(dim=-1, keepdim=True) / n
        return self.shift + self.scale * centered / (var + self.eps) ** 0.5


class FunctionalLN(GoodLN):
    def forward(self, x):
        return F.layer_norm(x, self.scale.shape, self.scale, self.shift, self.eps)


def book_layer_norm(emb_dim):
    from dsx_util import LayerNorm
    return LayerNorm(emb_dim)


@pytest.mark.parametrize("impl", [GoodLN, VarMeanLN, SumsLN, __import__("dsx_util").LayerNorm])
def test_correct_implementations_pass(impl):
    result = check_layer_norm(impl, show=False)
    assert result.passed, result.text()
    assert result.codes == [] and bool(result)


@pytest.mark.parametrize("impl, name", [(FunctionalLN, "layer_norm"), (book_layer_norm, "LayerNorm")])
def test_calling_a_ready_made_layer_norm_does_not_pass(impl, name):
    """题目：不要调用 PyTorch 现成的层归一化。输出虽然对，也不通过，说明里点出用到的名字。"""
    result = check_layer_norm(impl, show=False)
    assert result.codes == ["forbidden_call"], result.text()
    assert f"`{name}`" in result.messages[0] and "现成的层归一化" in result.messages[0]


class NoEpsParameter(GoodLN):
    def __init__(self, emb_dim):
        super().__init__(emb_dim)


def test_constructor_eps_is_used_and_is_in_the_signature():
    r = check_layer_norm(EpsIgnored, show=False)
    assert r.codes == ["eps_ignored"] and "eps=0.5" in r.messages[0] and "self.eps" in r.messages[0], r.text()
    r = check_layer_norm(NoEpsParameter, show=False)
    assert r.codes == ["wrong_signature"] and "eps=1e-05" in r.messages[0], r.text()


# ---- 有错的实现：每个只犯一种错误 ----


FAULTY = {codes[0]: attempt for _, codes, attempt in MISTAKES}   # 错误写法在练习文件夹的 mistakes.py 里


# 逐步诊断的代码由 tests/test_check_steps.py 用目录之外的错误逐个演示
STEP_CODES = {"row_mean_not_zero", "row_variance_not_one", "not_shift_invariant", "not_scale_invariant",
              "gamma_not_featurewise", "beta_not_featurewise", "rows_mixed"}


def test_every_code_has_a_faulty_implementation():
    # 通用代码（说明在 feedback.MESSAGES）也各有一个犯了它的实现
    assert set(FAULTY) | STEP_CODES == set(LAYER_NORM_CODES) | {"not_done", "raised", "timeout", "wrong_output"} and not set(FAULTY) & STEP_CODES


SOLUTION_SNIPPETS = ["unbiased=False", "keepdim=True", "sqrt(var + ", "mean(dim=-1", "var(dim=-1"]


@pytest.mark.parametrize("code", sorted(FAULTY))
def test_each_mistake_is_named(code):
    result = check_layer_norm(FAULTY[code], timeout=1.0, show=False)
    assert not result.passed
    assert result.codes == [code], result.text()   # 只报这一个最具体的错误，不连带其他
    (msg,) = result.messages
    assert re.search(r"[\u4e00-\u9fff]", msg) and msg.count("\n") <= 1
    assert not any(s in msg for s in SOLUTION_SNIPPETS), msg


def test_messages_cite_evidence():
    r = check_layer_norm(SinglePass, show=False)
    assert "均值约 10⁴" in r.messages[0] and "最大相差" in r.messages[0]
    r = check_layer_norm(Unbiased, show=False)
    assert "0.935" in r.messages[0]          # √(7/8) = 0.9354，由数据量出来的比值
    r = check_layer_norm(NoKeepdim, show=False)
    assert "(8, 8)" in r.messages[0] and "报错" in r.messages[0]
    r = check_layer_norm(Raises, show=False)
    assert "AttributeError" in r.messages[0] and "missing_attribute" in r.messages[0]
    assert "layernorm_check" not in r.messages[0] and "_core" not in r.messages[0]


def test_two_independent_mistakes_are_both_reported():
    class UnbiasedSwapped(Unbiased):
        def forward(self, x):
            mean, var = self.stats(x)
            return self.shift * self.normalize(x, mean, var) + self.scale

    r = check_layer_norm(UnbiasedSwapped, show=False)
    assert set(r.codes) == {"unbiased_variance", "scale_shift_swapped"}


def test_factory_functions_and_other_dims_are_accepted():
    r = check_layer_norm(lambda d: GoodLN(d, eps=1e-5), show=False)
    assert r.passed

    class Dim1(GoodLN):   # dim=1 在二维输入上碰巧对，三维输入会暴露
        def stats(self, x):
            return x.mean(dim=1, keepdim=True), x.var(dim=1, keepdim=True, unbiased=False)

    assert check_layer_norm(Dim1, show=False).codes == ["wrong_dim"]


# ---- 同一种错误的其他写法，也应得到同一个代码 ----
class ShiftOnes(GoodLN):
    def __init__(self, emb_dim, eps=1e-5):
        super().__init__(emb_dim, eps)
        self.shift = nn.Parameter(torch.ones(emb_dim))


class FrozenScale(GoodLN):
    def __init__(self, emb_dim, eps=1e-5):
        super().__init__(emb_dim, eps)
        self.scale.requires_grad_(False)


class DetachedMean(GoodLN):
    def stats(self, x):
        return x.mean(dim=-1, keepdim=True).detach(), x.var(dim=-1, keepdim=True, unbiased=False)


class AllElements(GoodLN):
    def stats(self, x):
        return x.mean(), x.var(unbiased=False)


class VarNoKeepdim(GoodLN):
    def stats(self, x):
        return x.mean(dim=-1, keepdim=True), x.var(dim=-1, unbiased=False)


class SqrtNoEps(GoodLN):
    def normalize(self, x, mean, var):
        return (x - mean) / var.sqrt()


class IgnoresParams(GoodLN):
    def forward(self, x):
        mean, var = self.stats(x)
        return self.normalize(x, mean, var)


@pytest.mark.parametrize("impl, code", [
    (ShiftOnes, "wrong_init"), (FrozenScale, "not_parameters"), (DetachedMean, "not_differentiable"),
    (AllElements, "wrong_dim"), (VarNoKeepdim, "missing_keepdim"), (SqrtNoEps, "eps_missing"),
    (IgnoresParams, "wrong_output"),
])
def test_variants_of_the_same_mistake(impl, code):
    r = check_layer_norm(impl, show=False)
    assert r.codes == [code], r.text()


@pytest.mark.parametrize("hard", [0.1, 1e-3, 1e-4, 1e-8])
def test_hard_coded_eps_is_named_not_step_three(hard):
    """ε 写死成另一个数（不是构造函数的参数）时，说明点名 ε，不说「第三步要除以 √(σ²+ε)」这一步错了。"""

    class HardEps(GoodLN):                 # 与正确的实现只差一处：不管传进来的 eps
        def __init__(self, emb_dim, eps=1e-5):
            super().__init__(emb_dim)
            self.eps = hard

    r = check_layer_norm(HardEps, show=False)
    assert r.codes == ["eps_wrong_value"], r.text()
    assert "ε" in r.messages[0] and "第三步" not in r.messages[0]
    assert f"{hard:.0e}".split("e")[0] in r.messages[0].replace("×10", "e")   # 说出它的 ε 大约是多少
