"""第 9 章：初始化时各层前馈神经网络权重的梯度范数（Pre-LN 与 Post-LN），以及预热实验。

测试里自己用 dsx_util.gpt 重新计算一遍（小模型，几秒钟），不依赖章节的代码；
再检查章节 glue 出来的数字与这些结论一致。
"""
import math

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

from dsx_util.gpt import GPT_CONFIG_124M, GPTModel


@pytest.fixture(autouse=True)
def one_thread():
    old = torch.get_num_threads()
    torch.set_num_threads(1)   # 小模型单线程更快，也更不受机器负载影响
    yield
    torch.set_num_threads(old)


def grad_norms(pos, seed, n_layers=8, gpt2_init=False, emb_dim=64, vocab=256, seq_len=32, batch=8):
    torch.manual_seed(seed)
    cfg = dict(GPT_CONFIG_124M, vocab_size=vocab, context_length=seq_len, emb_dim=emb_dim,
               n_heads=4, n_layers=n_layers, drop_rate=0.0)
    model = GPTModel(cfg, norm_position=pos)
    if gpt2_init:
        for m in model.modules():
            if isinstance(m, (nn.Linear, nn.Embedding)):
                nn.init.normal_(m.weight, 0.0, 0.02)
                if getattr(m, "bias", None) is not None:
                    nn.init.zeros_(m.bias)
    tokens = torch.randint(0, vocab, (batch, seq_len + 1), generator=torch.Generator().manual_seed(1000 + seed))
    F.cross_entropy(model(tokens[:, :-1]).flatten(0, 1), tokens[:, 1:].flatten()).backward()
    return torch.tensor([b.ff.layers[2].weight.grad.norm().item() for b in model.trf_blocks])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_per_layer_trend_default_init(seed):
    post, pre = grad_norms("post", seed), grad_norms("pre", seed)
    # 本书的设置里 Post-LN 各层基本持平（没有重现论文图 3 的逐层增大），Pre-LN 随层号缓慢下降
    assert 0.8 < (post[-1] / post[0]).item() < 1.2
    assert (pre[-1] / pre[0]).item() < 0.97
    assert post[-1] > 1.2 * pre[-1]   # Post-LN 靠近输出的梯度更大


@pytest.mark.parametrize("seed", [0, 1])
def test_per_layer_trend_gpt2_init(seed):
    post, pre = grad_norms("post", seed, gpt2_init=True), grad_norms("pre", seed, gpt2_init=True)
    assert 0.9 < (post[-1] / post[0]).item() < 1.1
    assert (pre[-1] / pre[0]).item() < 0.7


def test_last_layer_gradient_vs_depth():
    """Xiong 等人的定理 1：Post-LN 最后一层的梯度与深度无关，Pre-LN 的随深度变小。"""
    def last(pos, n_layers):
        return sum(grad_norms(pos, s, n_layers=n_layers, gpt2_init=True)[-1] for s in (0, 1)) / 2
    post_change = (last("post", 16) / last("post", 1)).item()
    pre_change = (last("pre", 16) / last("pre", 1)).item()
    assert 0.8 < post_change < 1.2
    assert pre_change < 0.5


def test_chapter_glued_values(run_chapter):
    _, glued, _ = run_chapter("ch09_pre_post_ln")
    g = {k: float(v) for k, v in glued.items() if k.startswith("ch09_")}
    assert 0.8 < g["ch09_ratio_post_default"] < 1.2
    assert g["ch09_ratio_pre_default"] < 0.97
    assert 0.9 < g["ch09_ratio_post_gpt2"] < 1.1
    assert g["ch09_ratio_pre_gpt2"] < 0.7
    assert g["ch09_post_over_pre_last"] > 1.2
    assert 0.8 < g["ch09_depth_post_default"] < 1.2 and 0.8 < g["ch09_depth_post_gpt2"] < 1.2
    assert g["ch09_depth_pre_gpt2"] < 0.5 and g["ch09_depth_pre_default"] < 0.95
    # 训练：不预热的 Post-LN 停在接近瞎猜（ln 16）的水平，其余三种接近可达到的最低损失
    assert g["ch09_uniform"] == pytest.approx(math.log(16))
    assert g["ch09_final_post_nowarm"] > 0.8 * g["ch09_uniform"]
    for name in ("ch09_final_post_warm", "ch09_final_pre_nowarm", "ch09_final_pre_warm"):
        assert g[name] < g["ch09_floor"] + 0.2, name
    assert g["ch09_final_post_nowarm_small_lr"] < 0.5 * g["ch09_uniform"]
