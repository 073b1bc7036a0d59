"""复现（慢层）：按发布的配方重跑参考模型训练的前 N 步，日志里的损失与随包发布的训练日志一致。

训练脚本 dsx_book/train_reference.py 固定了种子、单线程和步数；同一台机器上结果逐位相同，
换一台 CPU（不同的向量指令）时浮点运算的顺序可能不同，所以损失按 2×10⁻³ 的绝对误差比较。
"""
import pytest
import torch

from dsx_book.train_reference import train_reference
from dsx_util import reference_model as rm

N = 100   # 日志里第 1、50、100 步的记录


@pytest.fixture(scope="module")
def rerun():
    old = torch.get_num_threads()
    try:
        _, log, _ = train_reference(steps=N, quiet=True)
    finally:
        torch.set_num_threads(old)
    return log


def test_first_steps_match_the_shipped_log(rerun):
    shipped = {e["step"]: e for e in rm.training_log()["log"]}
    assert [e["step"] for e in rerun] == [1, 50, 100]
    for entry in rerun:
        ref = shipped[entry["step"]]
        assert entry["lr"] == pytest.approx(ref["lr"])
        assert entry["train_loss"] == pytest.approx(ref["train_loss"], abs=2e-3), (entry, ref)
        assert entry["val_loss"] == pytest.approx(ref["val_loss"], abs=2e-3), (entry, ref)


def test_the_rerun_learns(rerun):
    assert rerun[-1]["val_loss"] < rerun[0]["val_loss"] - 1.0
