"""check_rms_norm：每种错误都被点名；不同写法的正确实现都通过。"""

import pytest
import torch
import torch.nn as nn

from dsx_util.exercises.items.ch08_rms_norm.check import check_rms_norm
from dsx_util.exercises.items.ch08_rms_norm.mistakes import GoodRMS, SumNotMean


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


def test_sum_not_mean_reports_the_ratio():
    r = check_rms_norm(SumNotMean, show=False)
    assert "0.3536" in r.messages[0]      # 1/√8，由数据量出的比值
