"""check_batch_norm：每种错误都被点名；nn.BatchNorm1d 和几种手写的正确实现都通过。"""
import re

import pytest
import torch
import torch.nn as nn

from dsx_util.exercises.batchnorm_check import BATCH_NORM_CODES, check_batch_norm


class GoodBN(nn.Module):
    def __init__(self, num_features, eps=1e-5, momentum=0.1):
        super().__init__()
        self.eps, self.momentum = eps, momentum
        self.register_buffer("running_mean", torch.zeros(num_features))
        self.register_buffer("running_var", torch.ones(num_features))

    def batch_stats(self, x):
        return x.mean(dim=0), x.var(dim=0, unbiased=False)

    def update(self, mean, x):
        m = self.momentum
        with torch.no_grad():
            self.running_mean.mul_(1 - m).add_(m * mean)
            self.running_var.mul_(1 - m).add_(m * x.var(dim=0, unbiased=True))

    def forward(self, x):
        if self.training:
            mean, var = self.batch_stats(x)
            self.update(mean, x)
        else:
            mean, var = self.running_mean, self.running_var
        return (x - mean) / torch.sqrt(var + self.eps)


class ReassignBN(GoodBN):   # 每次重新赋值缓冲区，用 torch.var_mean
    def forward(self, x):
        if self.training:
            var, mean = torch.var_mean(x, dim=0, correction=0)
            n = x.shape[0]
            m = self.momentum
            self.running_mean = (1 - m) * self.running_mean + m * mean.detach()
            self.running_var = (1 - m) * self.running_var + m * var.detach() * n / (n - 1)
        else:
            mean, var = self.running_mean, self.running_var
        return (x - mean) * torch.rsqrt(var + self.eps)


class FunctionalBN(GoodBN):
    def forward(self, x):
        return nn.functional.batch_norm(x, self.running_mean, self.running_var, training=self.training,
                                        momentum=self.momentum, eps=self.eps)


@pytest.mark.parametrize("impl", [GoodBN, ReassignBN, FunctionalBN, nn.BatchNorm1d])
def test_correct_implementations_pass(impl):
    r = check_batch_norm(impl, show=False)
    assert r.passed, r.text()


class WrongAxis(GoodBN):
    def batch_stats(self, x):
        return x.mean(dim=1, keepdim=True), x.var(dim=1, keepdim=True, unbiased=False)

    def update(self, mean, x):
        super().update(x.mean(dim=0), x)


class UnbiasedNormalize(GoodBN):
    def batch_stats(self, x):
        return x.mean(dim=0), x.var(dim=0)


class RunningVarBiased(GoodBN):
    def update(self, mean, x):
        m = self.momentum
        with torch.no_grad():
            self.running_mean.mul_(1 - m).add_(m * mean)
            self.running_var.mul_(1 - m).add_(m * x.var(dim=0, unbiased=False))


class NoUpdate(GoodBN):
    def update(self, mean, x):
        pass


class WrongMomentum(GoodBN):
    def update(self, mean, x):
        m = 1 - self.momentum
        with torch.no_grad():
            self.running_mean.mul_(1 - m).add_(m * mean)
            self.running_var.mul_(1 - m).add_(m * x.var(dim=0, unbiased=True))


class EvalBatch(GoodBN):
    def forward(self, x):
        mean, var = self.batch_stats(x)
        if self.training:
            self.update(mean, x)
        return (x - mean) / torch.sqrt(var + self.eps)


class ReturnsNone(GoodBN):
    def forward(self, x):
        super().forward(x)


class EpsTooBig(GoodBN):
    """ε 大了 10 倍：各条性质都还满足，数值却与 nn.BatchNorm1d 不同。"""

    def __init__(self, num_features, eps=1e-5, momentum=0.1):
        super().__init__(num_features, eps=1e-4, momentum=momentum)


class Raises(GoodBN):
    def forward(self, x):
        return super().forward(x.T)


class Loops(GoodBN):
    def forward(self, x):
        while True:
            pass


class Template(GoodBN):
    def forward(self, x):
        raise NotImplementedError("请在这里写你的代码")


FAULTY = {
    "wrong_axis": WrongAxis,
    "unbiased_normalize": UnbiasedNormalize,
    "running_var_biased": RunningVarBiased,
    "no_running_update": NoUpdate,
    "wrong_momentum": WrongMomentum,
    "eval_uses_batch_stats": EvalBatch,
    "wrong_shape_or_dtype": ReturnsNone,
    "wrong_output": EpsTooBig,
    "raised": Raises,
    "timeout": Loops,
    "not_done": Template,
}


# 逐步诊断的代码由 tests/test_check_steps.py 用目录之外的错误演示
STEP_CODES = {"feature_mean_not_zero", "feature_variance_not_one", "not_shift_invariant", "features_mixed"}


def test_every_code_has_a_faulty_implementation():
    assert set(FAULTY) | STEP_CODES == set(BATCH_NORM_CODES) and not set(FAULTY) & STEP_CODES


@pytest.mark.parametrize("code", sorted(FAULTY))
def test_each_mistake_is_named(code):
    r = check_batch_norm(FAULTY[code], timeout=1.0, show=False)
    assert not r.passed and r.codes == [code], r.text()
    msg = r.messages[0]
    assert re.search(r"[\u4e00-\u9fff]", msg) and msg.count("\n") <= 1
    assert "unbiased=" not in msg and "dim=0" not in msg


def test_missing_buffers_are_reported():
    class NoBuffers(nn.Module):
        def forward(self, x):
            return x

    r = check_batch_norm(lambda c: NoBuffers(), show=False)
    assert r.codes == ["no_running_update"] and "running_mean" in r.messages[0]


class AffineBN(GoodBN):
    """带可学习 weight、bias 的版本（与 nn.BatchNorm1d 一样）；检查器会把它们设成别的值。"""

    def __init__(self, num_features, eps=1e-5, momentum=0.1):
        super().__init__(num_features, eps, momentum)
        self.weight = nn.Parameter(torch.ones(num_features))
        self.bias = nn.Parameter(torch.zeros(num_features))

    def forward(self, x):
        return self.weight * super().forward(x) + self.bias


class AffineUnused(AffineBN):
    def forward(self, x):
        return GoodBN.forward(self, x)


class AffineUnbiased(AffineBN, UnbiasedNormalize):
    pass


def test_weight_and_bias_are_checked_when_present():
    assert check_batch_norm(AffineBN, show=False).passed
    r = check_batch_norm(AffineUnused, show=False)
    assert r.codes == ["wrong_output"] and "weight" in r.messages[0]
    r = check_batch_norm(AffineUnbiased, show=False)
    assert r.codes == ["unbiased_normalize"] and "0.9129" in r.messages[0]
