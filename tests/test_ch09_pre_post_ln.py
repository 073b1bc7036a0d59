"""第 9 章：初始化时各层前馈神经网络权重的梯度范数（Pre-LN 与 Post-LN），以及预热实验。

测试里自己重新计算一遍（dsx_util.gpt 的只有解码器的模型，以及 nn.Transformer 的编码器-解码器；
都是小模型，几秒钟），不依赖章节的代码；再检查章节 glue 出来的数字与这些结论一致。
"""
import math
import re
import warnings

import pytest

from conftest import glued_value
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


def grad_norms(pos, seed, n_layers=8, std002_init=False, emb_dim=64, vocab=256, seq_len=32, batch=8):
    torch.manual_seed(seed)
    cfg = dict(GPT_CONFIG_124M, vocab_size=vocab, context_length=seq_len, emb_dim=emb_dim,
               n_heads=4, n_layers=n_layers, drop_rate=0.0)
    model = GPTModel(cfg, norm_position=pos)
    if std002_init:
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
def test_per_layer_trend_std002_init(seed):
    post, pre = grad_norms("post", seed, std002_init=True), grad_norms("pre", seed, std002_init=True)
    assert 0.9 < (post[-1] / post[0]).item() < 1.1
    assert (pre[-1] / pre[0]).item() < 0.7


def test_last_layer_gradient_vs_depth():
    """Xiong 等人的定理 1：Post-LN 最后一层的梯度与深度无关，Pre-LN 的随深度变小。"""
    def last(pos, n_layers):
        return sum(grad_norms(pos, s, n_layers=n_layers, std002_init=True)[-1] for s in (0, 1)) / 2
    post_change = (last("post", 16) / last("post", 1)).item()
    pre_change = (last("pre", 16) / last("pre", 1)).item()
    assert 0.8 < post_change < 1.2
    assert pre_change < 0.5


def sinusoidal(seq_len, d_model):
    """原论文 3.5 节的正弦位置编码。"""
    pos = torch.arange(seq_len, dtype=torch.float64).unsqueeze(1)
    div = torch.pow(10000.0, torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)
    pe = torch.zeros(seq_len, d_model, dtype=torch.float64)
    pe[:, 0::2], pe[:, 1::2] = torch.sin(pos / div), torch.cos(pos / div)
    return pe.float()


def encdec_ratio(norm_first, seed, d_model=128, n_layers=6, vocab=64, seq_len=24, batch=16, paper_emb=True):
    """Xiong 等人图 3 的设置：2017 年式编码器-解码器（Xavier 初始化），嵌入乘以 √d 并加位置编码；
    paper_emb=True 时嵌入 ~ N(0, 1/d)（乘以 √d 后标准差约 1），否则用 nn.Embedding 默认的 N(0, 1)。
    返回解码器最后一层/第一层 W² 梯度范数之比。"""
    torch.manual_seed(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = nn.Transformer(d_model, 4, n_layers, n_layers, 4 * d_model, dropout=0.0, batch_first=True,
                               norm_first=norm_first)
    if not norm_first:
        model.encoder.norm = model.decoder.norm = None
    emb, head = nn.Embedding(vocab, d_model), nn.Linear(d_model, vocab)
    if paper_emb:
        nn.init.normal_(emb.weight, 0.0, d_model ** -0.5)
    scale, pe = math.sqrt(d_model), sinusoidal(seq_len, d_model)
    src = torch.randint(0, vocab, (batch, seq_len), generator=torch.Generator().manual_seed(500 + seed))
    tgt = torch.randint(0, vocab, (batch, seq_len + 1), generator=torch.Generator().manual_seed(600 + seed))
    mask = nn.Transformer.generate_square_subsequent_mask(seq_len)
    out = model(emb(src) * scale + pe, emb(tgt[:, :-1]) * scale + pe, tgt_mask=mask, tgt_is_causal=True)
    F.cross_entropy(head(out).flatten(0, 1), tgt[:, 1:].flatten()).backward()
    norms = [layer.linear2.weight.grad.norm().item() for layer in model.decoder.layers]
    return norms[-1] / norms[0]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_xiong_fig3_only_post_ln_half_reproduces(seed):
    """论文图 3：Post-LN 的梯度越靠近输出越大（重现）；Pre-LN 在论文的嵌入尺度下不持平，越靠近输出越小；
    只有嵌入大了十倍（N(0, 1) 再乘 √d）时 Pre-LN 才持平。"""
    assert encdec_ratio(False, seed) > 1.8
    assert encdec_ratio(True, seed) < 0.85
    assert 0.9 < encdec_ratio(True, seed, paper_emb=False) < 1.1


def test_chapter_glued_values(run_chapter):
    _, glued, _ = run_chapter("ch09_pre_post_ln")
    g = {k: float(v) for k, v in glued.items() if k.startswith("ch09_") and not v.startswith("'")}   # 字符串另测
    assert 0.8 < g["ch09_ratio_post_default"] < 1.2
    assert g["ch09_ratio_pre_default"] < 0.97
    assert 0.9 < g["ch09_ratio_post_std002"] < 1.1 and 0.9 < g["ch09_ratio_post_gpt2"] < 1.1
    assert g["ch09_ratio_pre_std002"] < 0.7
    assert g["ch09_ratio_pre_std002"] < g["ch09_ratio_pre_gpt2"] < 0.97     # 残差缩放让下降变缓
    assert g["ch09_post_over_pre_last"] > 1.2
    assert g["ch09_pre_over_post_last_std002"] > 3                       # 标准差 0.02 时大小关系反过来
    for init in ("default", "std002", "gpt2"):
        assert 0.8 < g[f"ch09_depth_post_{init}"] < 1.2, init
    assert g["ch09_depth_pre_std002"] < 0.5 and g["ch09_depth_pre_default"] < 0.95
    assert g["ch09_depth_pre_gpt2"] > 0.9                                  # 加上残差缩放后不再随深度变小
    # Adam：第 1 步约为一个学习率（中位数），之后远小于学习率，且从不超过约一个学习率
    for pos in ("post", "pre"):
        steps = [g[f"ch09_adam_step_{pos}_{s}"] for s in (1, 5, 10, 30, 100)]
        assert 0.9 < steps[0] <= 1.01, steps
        assert max(steps) <= 1.01 and steps[2] < 0.5 * steps[0] and steps[4] < 0.3 * steps[0], steps
    # 编码器-解码器：只有 Post-LN 那一半重现；Pre-LN 只在嵌入大了十倍时持平；对照组（只有解码器）增大得少得多
    assert g["ch09_ed_post_min"] > 1.8 and g["ch09_ed_post_max"] >= g["ch09_ed_post_min"]
    assert g["ch09_ed_pre_min"] <= g["ch09_ed_pre_max"] < 0.85
    assert 0.9 < g["ch09_ed_pre_big_min"] <= g["ch09_ed_pre_big_max"] < 1.1
    assert g["ch09_ed_post_big_min"] > 1.5
    assert g["ch09_deconly_post_max"] < 0.6 * g["ch09_ed_post_min"]
    # 训练：不预热的 Post-LN 停在接近瞎猜（ln 16）的水平，其余三种接近可达到的最低损失
    assert g["ch09_uniform"] == pytest.approx(math.log(16))
    assert g["ch09_final_post_nowarm"] > 0.8 * g["ch09_uniform"]
    for name in ("ch09_final_post_warm", "ch09_final_pre_nowarm", "ch09_final_pre_warm"):
        assert g[name] < g["ch09_floor"] + 0.2, name
    assert g["ch09_final_post_nowarm_small_lr"] < 0.5 * g["ch09_uniform"]
    # 对照：学习率 0.03 时预热也救不了 Post-LN；标准差 0.02 的初始化下 Pre-LN 不预热学得慢
    assert g["ch09_big_lr_post_warm"] > 0.8 * g["ch09_uniform"]
    assert g["ch09_big_lr_pre_nowarm"] < 0.5 * g["ch09_uniform"]
    assert g["ch09_std002_pre_nowarm"] > g["ch09_floor"] + 0.2


def test_placement_2025_glued_claims(run_chapter):
    """「2024–2025：按深度调整放法」一节：LayerNorm Scaling 的残差流增长在每个种子上都比 Pre-LN 小；Post-LN 约为 1；
    Mix-LN 前两块（Post-LN）约为 1、之后又增长；Pre-LN 深层梯度小、Post-LN 浅层梯度小；四种放法的评估损失重叠。"""
    _, glued, _ = run_chapter("ch09_pre_post_ln")

    def g(name):
        return glued_value(glued, name)

    assert g("ch09_place_steps") == 60
    assert g("ch09_lns_smaller") == "每个种子上都比 Pre-LN 小"
    assert g("ch09_place_growth_lns_hi") < g("ch09_place_growth_pre_lo")
    assert g("ch09_place_growth_pre_lo") > 1.2
    post = [float(v) for v in re.findall(r"\d+\.\d+", g("ch09_place_growth_post_span"))]   # 「都是 x」或「a 到 b」
    assert 1 <= len(post) <= 2 and all(0.9 < v < 1.1 for v in post) and post == sorted(post)
    assert g("ch09_mix_head_dev") < 0.1 and g("ch09_place_growth_mix_lo") > 1.2
    assert g("ch09_grad_dir_pre") == "每个种子上都小于 1" and g("ch09_grad_dir_post") == "每个种子上都大于 1"
    assert g("ch09_place_grad_pre_hi") < 1 < g("ch09_place_grad_post_lo")
    assert g("ch09_place_loss_overlap") == "两两重叠"


def test_placement_2025_setup_matches_the_prose():
    """正文写的设置（8 层、嵌入维度 32、学习率 3×10⁻³、Mix-LN 前 ⌊0.25 × 8⌋ = 2 层 Post-LN）就是章节代码用的设置。"""
    import nbformat
    from pathlib import Path
    nb = nbformat.read(Path(__file__).resolve().parent.parent / "book" / "ch09_pre_post_ln.ipynb", as_version=4)
    code = "".join(c.source for c in nb.cells if c.cell_type == "code" and "PLACE_STEPS, PLACE_SEEDS" in c.source)
    code = "".join(code.split()).replace(",)", ")")     # 不看空白与换行（代码按 79 列折行）
    assert "tiny_config(vocab_size=8,context_length=32,emb_dim=32,n_layers=8)" in code
    assert "lr=3e-3" in code and "PLACE_STEPS,PLACE_SEEDS=60,(0,1,2)" in code
    from dsx_util import variants
    import inspect
    assert "mix_ratio=0.25" in inspect.getsource(variants.gpt_with_placement)
