"""check_batch_norm：每种错误都被点名；nn.BatchNorm1d 和几种手写的正确实现都通过。"""
import re

import pytest
import torch
import torch.nn as nn

from dsx_util.exercises.items.ch07_batch_norm.check import CODES as BATCH_NORM_CODES, check_batch_norm


class GoodBN(nn.Module):
    """正确的基准实现（题目要求的 weight、bias 与两个缓冲区）；有错的版本改写 core、batch_stats 或 update。"""

    def __init__(self, num_features, eps=1e-5, momentum=0.1):
        super().__init__()
        self.eps, self.momentum = eps, momentum
        self.weight = nn.Parameter(torch.ones(num_features))
        self.bias = nn.Parameter(torch.zeros(num_features))
        self.register_buffer("running_mean", torch.zeros(num_features))
        self.register_buffer("running_var", torch.ones(num_features))

    def forward(self, x):
        return self.weight * self.core(x) + self.bias

    def batch_stats(self, x):
        return x.mean(dim=0), x.var(dim=0, unbiased=False)

    def update(self, mean, x):
        m = self.momentum
        with torch.no_grad():
            self.running_mean.mul_(1 - m).add_(m * mean)
            self.running_var.mul_(1 - m).add_(m * x.var(dim=0, unbiased=True))

    def core(self, x):
        if self.training:
            mean, var = self.batch_stats(x)
            self.update(mean, x)
        else:
            mean, var = self.running_mean, self.running_var
        return (x - mean) / torch.sqrt(var + self.eps)


class ReassignBN(GoodBN):   # 每次重新赋值缓冲区，用 torch.var_mean
    def core(self, x):
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
    def core(self, x):
        return nn.functional.batch_norm(x, self.running_mean, self.running_var, training=self.training,
                                        momentum=self.momentum, eps=self.eps)


@pytest.mark.parametrize("impl", [GoodBN, ReassignBN, nn.BatchNorm1d])
def test_correct_implementations_pass(impl):
    r = check_batch_norm(impl, show=False)
    assert r.passed, r.text()


def test_calling_the_ready_made_batch_norm_does_not_pass():
    r = check_batch_norm(FunctionalBN, show=False)
    assert r.codes == ["forbidden_call"] and "`batch_norm`" in r.messages[0], r.text()


class ScaleShiftNames(GoodBN):
    """本书层归一化的名字 scale / shift：题目要求 weight / bias（state_dict 要能与 nn.BatchNorm1d 互相加载）。"""

    def __init__(self, num_features, eps=1e-5, momentum=0.1):
        super().__init__(num_features, eps, momentum)
        self.scale, self.shift = self.weight, self.bias
        del self.weight, self.bias

    def forward(self, x):
        return self.scale * self.core(x) + self.shift


class PlainBuffers(GoodBN):
    def __init__(self, num_features, eps=1e-5, momentum=0.1):
        super().__init__(num_features, eps, momentum)
        del self.running_mean, self.running_var
        self.running_mean, self.running_var = torch.zeros(num_features), torch.ones(num_features)


class EvalUpdates(GoodBN):
    def core(self, x):
        mean, var = self.batch_stats(x)
        self.update(mean, x)
        if not self.training:
            mean, var = self.running_mean, self.running_var
        return (x - mean) / torch.sqrt(var + self.eps)


class EpsIgnored(GoodBN):
    def core(self, x):
        self.eps = 1e-5
        return super().core(x)


class MomentumIgnored(GoodBN):
    def update(self, mean, x):
        self.momentum = 0.1
        super().update(mean, x)


class InGraph(GoodBN):
    def update(self, mean, x):
        m = self.momentum
        self.running_mean = (1 - m) * self.running_mean + m * mean
        self.running_var = (1 - m) * self.running_var + m * x.var(dim=0, unbiased=True)


class BadInitBias(GoodBN):
    def __init__(self, num_features, eps=1e-5, momentum=0.1):
        super().__init__(num_features, eps, momentum)
        self.bias = nn.Parameter(torch.ones(num_features))


class PlainWeight(GoodBN):
    def __init__(self, num_features, eps=1e-5, momentum=0.1):
        super().__init__(num_features, eps, momentum)
        del self.weight
        self.weight = torch.ones(num_features)


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
    def core(self, x):
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
    def core(self, x):
        return super().core(x.T)


class Loops(GoodBN):
    def core(self, x):
        while True:
            pass


class Template(GoodBN):
    def core(self, x):
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
    "wrong_param_names": ScaleShiftNames,
    "buffers_not_registered": PlainBuffers,
    "eval_updates_running": EvalUpdates,
    "eps_ignored": EpsIgnored,
    "momentum_ignored": MomentumIgnored,
    "running_stats_in_graph": InGraph,
    "wrong_init": BadInitBias,
    "not_parameters": PlainWeight,
}


# 逐步诊断的代码由 tests/test_check_steps.py 用目录之外的错误演示
STEP_CODES = {"feature_mean_not_zero", "feature_variance_not_one", "not_shift_invariant", "features_mixed"}


def test_every_code_has_a_faulty_implementation():
    # 通用代码（说明在 core.MESSAGES）也各有一个犯了它的实现
    assert set(FAULTY) | STEP_CODES == set(BATCH_NORM_CODES) | {"not_done", "raised", "timeout", "wrong_output"} and not set(FAULTY) & STEP_CODES


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


AffineBN = GoodBN   # 题目要求 weight、bias：基准实现本身就带着它们；检查器会把它们设成别的值


class AffineUnused(AffineBN):
    def forward(self, x):
        return self.core(x)


AffineUnbiased = UnbiasedNormalize


def test_weight_and_bias_are_checked_when_present():
    assert check_batch_norm(AffineBN, show=False).passed
    r = check_batch_norm(AffineUnused, show=False)
    assert r.codes == ["wrong_output"] and "weight" in r.messages[0]
    r = check_batch_norm(AffineUnbiased, show=False)
    assert r.codes == ["unbiased_normalize"] and "0.9129" in r.messages[0]
