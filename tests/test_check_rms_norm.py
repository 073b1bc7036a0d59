"""check_rms_norm：每种错误都被点名；不同写法的正确实现都通过。"""
import re

import pytest
import torch
import torch.nn as nn

from dsx_util.exercises.items.ch08_rms_norm.check import CODES as RMS_NORM_CODES, check_rms_norm


class GoodRMS(nn.Module):
    def __init__(self, emb_dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.scale = nn.Parameter(torch.ones(emb_dim))

    def denom(self, x):
        return torch.sqrt(x.pow(2).mean(dim=-1, keepdim=True) + self.eps)

    def forward(self, x):
        return self.scale * x / self.denom(x)


class RsqrtRMS(GoodRMS):
    def forward(self, x):
        return x * torch.rsqrt((x * x).mean(-1, keepdim=True) + self.eps) * self.scale


class NormRMS(GoodRMS):   # 用范数：‖x‖/√H 就是均方根
    def forward(self, x):
        rms = torch.sqrt(torch.linalg.vector_norm(x, dim=-1, keepdim=True) ** 2 / x.shape[-1] + self.eps)
        return self.scale * (x / rms)


def book_rms_norm(emb_dim):
    from dsx_util import RMSNorm
    return RMSNorm(emb_dim)


@pytest.mark.parametrize("impl", [GoodRMS, RsqrtRMS, NormRMS, __import__("dsx_util").RMSNorm])
def test_correct_implementations_pass(impl):
    r = check_rms_norm(impl, show=False)
    assert r.passed, r.text()


class UsesTorchRMSNorm(GoodRMS):
    def forward(self, x):
        return nn.functional.rms_norm(x, self.scale.shape, self.scale, self.eps)


@pytest.mark.parametrize("impl, name", [(book_rms_norm, "RMSNorm"), (UsesTorchRMSNorm, "rms_norm")])
def test_calling_a_ready_made_rms_norm_does_not_pass(impl, name):
    r = check_rms_norm(impl, show=False)
    assert r.codes == ["forbidden_call"] and f"`{name}`" in r.messages[0], r.text()


class EpsIgnored(GoodRMS):
    def denom(self, x):
        return torch.sqrt(x.pow(2).mean(dim=-1, keepdim=True) + 1e-6)


class WithShift(GoodRMS):
    """多了平移参数 β（初始全 0，默认情况下输出完全正确）。"""

    def __init__(self, emb_dim, eps=1e-6):
        super().__init__(emb_dim, eps)
        self.shift = nn.Parameter(torch.zeros(emb_dim))

    def forward(self, x):
        return super().forward(x) + self.shift


class SubtractsMean(GoodRMS):
    def forward(self, x):
        x = x - x.mean(dim=-1, keepdim=True)
        return self.scale * x / self.denom(x)


class EpsOutside(GoodRMS):
    def denom(self, x):
        return torch.sqrt(x.pow(2).mean(dim=-1, keepdim=True)) + self.eps


class EpsMissing(GoodRMS):
    def denom(self, x):
        return x.pow(2).mean(dim=-1, keepdim=True).sqrt()


class SumNotMean(GoodRMS):
    def denom(self, x):
        return torch.sqrt(x.pow(2).sum(dim=-1, keepdim=True) + self.eps)


class WrongDim(GoodRMS):
    def denom(self, x):
        return torch.sqrt(x.pow(2).mean(dim=0, keepdim=True) + self.eps)


class Plain(GoodRMS):
    def __init__(self, emb_dim, eps=1e-6):
        super().__init__(emb_dim, eps)
        del self.scale
        self.scale = torch.ones(emb_dim)


class ZeroInit(GoodRMS):
    def __init__(self, emb_dim, eps=1e-6):
        super().__init__(emb_dim, eps)
        self.scale = nn.Parameter(torch.zeros(emb_dim))


class ScalarScale(GoodRMS):
    def __init__(self, emb_dim, eps=1e-6):
        super().__init__(emb_dim, eps)
        self.scale = nn.Parameter(torch.tensor(1.0))


class ReturnsList(GoodRMS):
    def forward(self, x):
        return super().forward(x).tolist()


class EpsTooBig(GoodRMS):
    """ε 大了 100 倍：各条性质都还满足，只有均方根约 10⁻³ 的行上差别明显。"""

    def __init__(self, emb_dim, eps=1e-6):
        super().__init__(emb_dim, eps=1e-4)


class Raises(GoodRMS):
    def forward(self, x):
        return x @ self.scale.reshape(2, -1)


class Loops(GoodRMS):
    def forward(self, x):
        while True:
            pass


class Template(GoodRMS):
    def forward(self, x):
        raise NotImplementedError("请在这里写你的代码")


FAULTY = {
    "subtracts_mean": SubtractsMean,
    "eps_outside_sqrt": EpsOutside,
    "eps_missing": EpsMissing,
    "sum_not_mean": SumNotMean,
    "wrong_dim": WrongDim,
    "not_parameters": Plain,
    "wrong_init": ZeroInit,
    "wrong_param_shape": ScalarScale,
    "wrong_shape_or_dtype": ReturnsList,
    "wrong_output": EpsTooBig,
    "raised": Raises,
    "timeout": Loops,
    "not_done": Template,
    "eps_ignored": EpsIgnored,
    "extra_parameters": WithShift,
}


# 逐步诊断的代码由 tests/test_check_steps.py 用目录之外的错误演示
STEP_CODES = {"row_rms_not_one", "not_proportional", "not_scale_invariant", "gamma_not_featurewise", "rows_mixed"}


def test_every_code_has_a_faulty_implementation():
    # 通用代码（说明在 core.MESSAGES）也各有一个犯了它的实现
    assert set(FAULTY) | STEP_CODES == set(RMS_NORM_CODES) | {"not_done", "raised", "timeout", "wrong_output"} and not set(FAULTY) & STEP_CODES


@pytest.mark.parametrize("code", sorted(FAULTY))
def test_each_mistake_is_named(code):
    r = check_rms_norm(FAULTY[code], timeout=1.0, show=False)
    assert not r.passed and r.codes == [code], r.text()
    msg = r.messages[0]
    assert re.search(r"[\u4e00-\u9fff]", msg) and msg.count("\n") <= 1
    assert "keepdim=True" not in msg and "sqrt(" not in msg


def test_sum_not_mean_reports_the_ratio():
    r = check_rms_norm(SumNotMean, show=False)
    assert "0.3536" in r.messages[0]      # 1/√8，由数据量出的比值
