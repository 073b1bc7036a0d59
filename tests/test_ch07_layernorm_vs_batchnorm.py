"""第 7 章《LayerNorm 与 BatchNorm》的承诺：从零实现的批量归一化在训练、评估模式下都与 nn.BatchNorm1d 一致，
running_var 用无偏方差更新，训练模式下批量大小为 1 会报错。"""
import nbformat
import pytest
import torch
import torch.nn as nn

from conftest import BOOK, glued_value

STEM = "ch07_layernorm_vs_batchnorm"


@pytest.fixture(scope="module")
def chapter(run_chapter):
    """执行本章（每次测试会话一次），返回 (笔记本, glue 值字典, 秒数)。"""
    return run_chapter(STEM)


def scratch_class():
    """从笔记本里取出 SimpleBatchNorm1d 的定义并执行，测试的就是书上的那份代码。"""
    nb = nbformat.read(BOOK / f"{STEM}.ipynb", as_version=4)
    cells = [c.source for c in nb.cells if c.cell_type == "code" and "class SimpleBatchNorm1d" in c.source]
    assert len(cells) == 1
    namespace = {"torch": torch, "nn": nn}
    exec(cells[0], namespace)
    return namespace["SimpleBatchNorm1d"]


def test_scratch_batchnorm_matches_torch_train_and_eval():
    cls = scratch_class()
    torch.manual_seed(10)
    ours, ref = cls(3, momentum=0.2), nn.BatchNorm1d(3, momentum=0.2)
    for _ in range(4):
        xb = torch.randn(6, 3) * 1.5 - 0.5
        assert (ours(xb) - ref(xb)).abs().max().item() <= 1e-6
    assert torch.allclose(ours.running_mean, ref.running_mean, atol=1e-6)
    assert torch.allclose(ours.running_var, ref.running_var, atol=1e-6)
    ours.eval()
    ref.eval()
    x = torch.randn(5, 3)
    assert (ours(x) - ref(x)).abs().max().item() <= 1e-6


@pytest.mark.parametrize("make", ["torch", "scratch"])
def test_running_var_uses_unbiased_variance(make):
    bn = nn.BatchNorm1d(4) if make == "torch" else scratch_class()(4)
    torch.manual_seed(11)
    xb = torch.randn(5, 4) * 2
    bn(xb)
    n = xb.shape[0]
    unbiased = ((xb - xb.mean(0)) ** 2).sum(0) / (n - 1)     # 手算，不依赖 torch.var 的默认值
    biased = ((xb - xb.mean(0)) ** 2).sum(0) / n
    assert torch.allclose(bn.running_var, 0.9 + 0.1 * unbiased, atol=1e-6)
    assert not torch.allclose(bn.running_var, 0.9 + 0.1 * biased, atol=1e-4)
    assert torch.allclose(bn.running_mean, 0.1 * xb.mean(0), atol=1e-6)


def test_batch_size_one_raises():
    with pytest.raises(ValueError, match="Expected more than 1 value per channel when training"):
        nn.BatchNorm1d(4)(torch.randn(1, 4))
    with pytest.raises(ValueError):
        scratch_class()(4)(torch.randn(1, 4))


def test_chapter_glued_and_printed(chapter):
    nb, glued, _ = chapter
    for key in ("ch07_train_match", "ch07_eval_match", "ch07_running_mean_match", "ch07_running_var_match",
                "ch07_rv_unbiased"):
        assert glued_value(glued, key) == "一致", key
    for key in ("ch07_ln_same", "ch07_kv_same"):
        assert glued_value(glued, key) == "相同", key
    assert glued_value(glued, "ch07_ln_pad_same") == "与填充多少无关，也与单独处理这个句子时相同"
    assert glued_value(glued, "ch07_rv_biased") == "不一致"
    assert float(glued_value(glued, "ch07_bn_gap")) > 0.1          # 同一个样本，批量归一化的输出随批次变化
    assert float(glued_value(glued, "ch07_bn_pad_gap")) > 0.1      # 填充改变批量归一化的统计量
    printed = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs)
    assert "Expected more than 1 value per channel when training" in printed


