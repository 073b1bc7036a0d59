"""check_batch_norm：每种错误都被点名；nn.BatchNorm1d 和几种手写的正确实现都通过。"""

import pytest
import torch
import torch.nn as nn

from dsx_util.exercises.items.ch07_batch_norm.check import check_batch_norm
from dsx_util.exercises.items.ch07_batch_norm.mistakes import GoodBN, UnbiasedNormalize


class ReassignBN(GoodBN):   # 每次重新赋值缓冲区，用 torch.var_mean
    def core(self, x):
        if self.training:
            var, mean = torch.var_mean(x, dim=0, correction=0)
            n = x.shape[0]
            self.num_batches_tracked = self.num_batches_tracked + 1   # 重新赋值也行：仍是同一个注册过的缓冲区名
            m = self.momentum if self.momentum is not None else 1 / self.num_batches_tracked.item()
            self.running_mean = (1 - m) * self.running_mean + m * mean.detach()
            self.running_var = (1 - m) * self.running_var + m * var.detach() * n / (n - 1)
        else:
            mean, var = self.running_mean, self.running_var
        return (x - mean) * torch.rsqrt(var + self.eps)


class FunctionalBN(GoodBN):
    def core(self, x):
        if self.training:
            self.count()
        return nn.functional.batch_norm(x, self.running_mean, self.running_var, training=self.training,
                                        momentum=self.factor(), eps=self.eps)


@pytest.mark.parametrize("impl", [GoodBN, ReassignBN, nn.BatchNorm1d])
def test_correct_implementations_pass(impl):
    r = check_batch_norm(impl, show=False)
    assert r.passed, r.text()


def test_calling_the_ready_made_batch_norm_does_not_pass():
    r = check_batch_norm(FunctionalBN, show=False)
    assert r.codes == ["forbidden_call"] and "`batch_norm`" in r.messages[0], r.text()


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


def _state_dicts_load(a, b):
    b.load_state_dict(a.state_dict())
    return all(torch.equal(b.state_dict()[k], v) for k, v in a.state_dict().items())


@pytest.mark.parametrize("wrap", [False, True], ids=["alone", "in_sequential"])
def test_reference_solution_loads_state_dict_both_ways(wrap):
    """题目：MyBatchNorm1d 与 nn.BatchNorm1d 的 state_dict 互相加载（单独、放在 nn.Sequential 里）。"""
    from dsx_util.exercises.catalog import get_exercise
    ns = {}
    exec(get_exercise("ch07-batch-norm").solution, ns)
    mine, ref = ns["MyBatchNorm1d"](4), nn.BatchNorm1d(4)
    for m in (mine, ref):   # 各自训练几步，让缓冲区有不同的值
        m(torch.randn(8, 4) * 2 + 1)
    if wrap:
        mine, ref = nn.Sequential(nn.Linear(4, 4), mine), nn.Sequential(nn.Linear(4, 4), ref)
    assert _state_dicts_load(ref, mine) and _state_dicts_load(mine, ref)


def test_without_the_counter_loading_from_torch_fails():
    """正文与题目说的报错：少了 num_batches_tracked，从 nn.BatchNorm1d 加载报 Unexpected key(s)。"""
    from dsx_util.exercises.items.ch07_batch_norm.mistakes import NoBatchesTracked
    with pytest.raises(RuntimeError, match="Unexpected key.*num_batches_tracked"):
        NoBatchesTracked(4).load_state_dict(nn.BatchNorm1d(4).state_dict())
    r = check_batch_norm(NoBatchesTracked, show=False)
    assert r.codes == ["no_batches_tracked"], r.text()


def test_momentum_none_matches_torch():
    """参考答案 momentum=None 时与 nn.BatchNorm1d(momentum=None) 的累计平均一致。"""
    from dsx_util.exercises.catalog import get_exercise
    ns = {}
    exec(get_exercise("ch07-batch-norm").solution, ns)
    mine, ref = ns["MyBatchNorm1d"](4, momentum=None), nn.BatchNorm1d(4, momentum=None)
    for _ in range(5):
        x = torch.randn(8, 4) * 2 + 1
        mine(x), ref(x)
    for k in ("running_mean", "running_var", "num_batches_tracked"):
        assert torch.allclose(getattr(mine, k).double(), getattr(ref, k).double(), atol=1e-6), k
