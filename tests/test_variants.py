"""dsx_util.variants：第 12 章的 DyT、零中心 RMSNorm、QK 归一化注意力、Peri-LN 块、换归一化的 GPT、合成语料与训练循环。"""
import math

import pytest
import torch
import torch.nn as nn

from dsx_util import variants
from dsx_util.gpt import MultiHeadAttention
from dsx_util.layernorm import LayerNorm
from dsx_util.rmsnorm import RMSNorm


@pytest.fixture(autouse=True)
def one_thread():
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(old)


def test_dyt_is_elementwise_formula():
    torch.manual_seed(0)
    m = variants.DyT(6, alpha0=0.7)
    with torch.no_grad():
        m.scale.copy_(torch.randn(6))
        m.shift.copy_(torch.randn(6))
    x = torch.randn(3, 4, 6)
    expected = m.scale * torch.tanh(0.7 * x) + m.shift
    torch.testing.assert_close(m(x), expected)
    # 逐元素：改一个分量不影响同一词元的其他分量（层归一化做不到）
    x2 = x.clone()
    x2[0, 0, 0] += 5.0
    assert torch.equal(m(x2)[0, 0, 1:], m(x)[0, 0, 1:])
    assert [n for n, _ in m.named_parameters()] == ["alpha", "scale", "shift"]
    assert m.alpha.shape == (1,) and m.alpha.item() == pytest.approx(0.7)


def test_zero_centred_rmsnorm_matches_rmsnorm_with_one_plus_gamma():
    torch.manual_seed(1)
    zc, plain = variants.ZeroCenteredRMSNorm(16), RMSNorm(16)
    assert torch.equal(zc.scale, torch.zeros(16))   # 从 0 出发
    with torch.no_grad():
        zc.scale.copy_(0.3 * torch.randn(16))
        plain.scale.copy_(1 + zc.scale)
    x = torch.randn(5, 16)
    torch.testing.assert_close(zc(x), plain(x))


def test_zero_centred_rmsnorm_keeps_dtype_and_computes_in_float32():
    torch.manual_seed(2)
    zc = variants.ZeroCenteredRMSNorm(64)
    x = torch.randn(4, 64) * 40
    x[0, 0] = 300.0                        # 平方超过 float16 的上限
    y16 = zc(x.half())
    assert y16.dtype == torch.float16
    assert torch.isfinite(y16).all()
    ref = x.double() * torch.rsqrt(x.half().double().pow(2).mean(-1, keepdim=True) + 1e-6)
    assert (y16.double() - ref).abs().max() < 0.02
    yb = zc(x.bfloat16())
    assert yb.dtype == torch.bfloat16


def _scores(att, x):
    b, t, _ = x.shape
    def split(z):
        return z.view(b, t, att.num_heads, att.head_dim).transpose(1, 2)
    q, k = split(att.W_query(x)), split(att.W_key(x))
    if isinstance(att, variants.QKNormAttention):
        q, k = att.q_norm(q), att.k_norm(k)
    return q @ k.transpose(-2, -1) / att.head_dim ** 0.5


def test_qk_norm_attention_forward_and_bound():
    torch.manual_seed(3)
    att = variants.QKNormAttention(32, 32, 8, 0.0, 4)
    assert isinstance(att, MultiHeadAttention)
    x = torch.randn(2, 8, 32)
    y = att(x)
    assert y.shape == (2, 8, 32)
    # 与手算的前向传播一致：RMSNorm(q)·RMSNorm(k)/√d，因果掩码，softmax，乘 v，out_proj
    s = _scores(att, x).masked_fill(att.mask[:8, :8], float("-inf")).softmax(-1)
    v = att.W_value(x).view(2, 8, 4, 8).transpose(1, 2)
    expected = att.out_proj((s @ v).transpose(1, 2).reshape(2, 8, 32))
    torch.testing.assert_close(y, expected)
    # 分数不超过 √d（γ 为 1 时），并且与 W_Q、W_K 的尺度无关
    assert _scores(att, x).abs().max() <= 8 ** 0.5 + 1e-5
    with torch.no_grad():
        before = _scores(att, x)
        att.W_query.weight.mul_(10)
        att.W_key.weight.mul_(10)
        torch.testing.assert_close(_scores(att, x), before, rtol=1e-4, atol=1e-4)


def test_plain_attention_scores_grow_with_square_of_scale():
    torch.manual_seed(4)
    att = MultiHeadAttention(32, 32, 8, 0.0, 4)
    x = torch.randn(1, 8, 32)
    with torch.no_grad():
        before = _scores(att, x)
        att.W_query.weight.mul_(3)
        att.W_key.weight.mul_(3)
        torch.testing.assert_close(_scores(att, x), 9 * before, rtol=1e-4, atol=1e-5)


def test_peri_ln_block_formula():
    torch.manual_seed(5)
    cfg = variants.tiny_config(emb_dim=16, n_layers=1)
    blk = variants.PeriLNBlock(cfg)
    x = torch.randn(2, 6, 16)
    h = x + blk.norm1_out(blk.att(blk.norm1(x)))
    expected = h + blk.norm2_out(blk.ff(blk.norm2(h)))
    torch.testing.assert_close(blk(x), expected)
    # 子层的输出被归一化：把前馈神经网络放大 1000 倍，残差的增量仍然有界
    with torch.no_grad():
        blk.ff.layers[2].weight.mul_(1000)
        blk.ff.layers[2].bias.mul_(1000)
    delta = blk(x) - x
    assert delta.pow(2).mean().sqrt() < 3.0


@pytest.mark.parametrize("kind,cls", [("ln", LayerNorm), ("rms", RMSNorm), ("dyt", variants.DyT),
                                      ("derf", variants.Derf), ("dyisru", variants.DyISRU), ("none", nn.Identity)])
def test_gpt_with_norm_replaces_all_three_places(kind, cls):
    cfg = variants.tiny_config(n_layers=3)
    model = variants.gpt_with_norm(cfg, kind)
    places = [m for b in model.trf_blocks for m in (b.norm1, b.norm2)] + [model.final_norm]
    assert len(places) == 7 and all(type(m) is cls for m in places)
    others = {LayerNorm, RMSNorm, variants.DyT, variants.Derf, variants.DyISRU} - {cls}
    assert not any(type(m) in others for m in model.modules())
    out = model(torch.randint(0, cfg["vocab_size"], (2, 5)))
    assert out.shape == (2, 5, cfg["vocab_size"])


def test_derf_is_elementwise_erf_with_a_scalar_shift():
    torch.manual_seed(0)
    m = variants.Derf(6, alpha0=0.7, shift0=0.2)
    with torch.no_grad():
        m.scale.copy_(torch.randn(6))
        m.shift.copy_(torch.randn(6))
    x = torch.randn(3, 4, 6)
    torch.testing.assert_close(m(x), m.scale * torch.erf(0.7 * x + 0.2) + m.shift)
    x2 = x.clone()
    x2[0, 0, 0] += 5.0
    assert torch.equal(m(x2)[0, 0, 1:], m(x)[0, 0, 1:])
    assert sorted(n for n, _ in m.named_parameters()) == ["alpha", "s", "scale", "shift"]


def test_dyisru_replaces_the_other_squares_of_rmsnorm_by_kappa():
    """DyISRU：RMSNorm 的 √H·x_i/√(x_i² + Σ_{j≠i} x_j²) 把 Σ_{j≠i} x_j² 换成 κ；κ 取那一行真实的 Σ_{j≠i} x_j² 时与 RMSNorm 相同。"""
    h = 8
    x = torch.randn(h, dtype=torch.float64)
    m = variants.DyISRU(h).double()
    others = x.pow(2).sum() - x.pow(2)           # 每个分量的 Σ_{j≠i} x_j²
    ys = []
    for i in range(h):
        with torch.no_grad():
            m.log_kappa.fill_(others[i].log().item())
        ys.append(m(x)[i])
    rms = x * torch.rsqrt(x.pow(2).mean())
    torch.testing.assert_close(torch.stack(ys), rms)
    with torch.no_grad():
        assert m(1e6 * x).abs().max() <= h ** 0.5 + 1e-9        # 输出不超过 √H
    assert variants.DyISRU(h).log_kappa.exp().item() == pytest.approx(h)


def test_placements_build_the_models_they_name():
    cfg = variants.tiny_config(n_layers=8)
    pre, post = variants.gpt_with_placement(cfg, "pre"), variants.gpt_with_placement(cfg, "post")
    assert all(b.norm_position == "pre" for b in pre.trf_blocks) and all(b.norm_position == "post" for b in post.trf_blocks)
    mix = variants.gpt_with_placement(cfg, "mix")
    assert [b.norm_position for b in mix.trf_blocks] == ["post"] * 2 + ["pre"] * 6   # ⌊0.25·8⌋ = 2 层 Post-LN
    lns = variants.gpt_with_placement(cfg, "lns")
    assert [b.norm1.factor for b in lns.trf_blocks] == pytest.approx([k ** -0.5 for k in range(1, 9)])
    torch.manual_seed(0)
    x = torch.randn(2, 3, cfg["emb_dim"])
    blk = lns.trf_blocks[3]
    torch.testing.assert_close(blk.norm2(x), blk.norm2.norm(x) / 2)      # 第 4 层：乘 1/√4
    tokens = torch.randint(0, cfg["vocab_size"], (2, 9))
    stds, grads = variants.placement_stats(lns, tokens)
    assert stds.shape == grads.shape == (8,) and bool((grads > 0).all())
    with pytest.raises(ValueError, match="未知的放法"):
        variants.gpt_with_placement(cfg, "sandwich")


def test_make_norm_rejects_unknown_kind_in_chinese():
    with pytest.raises(ValueError, match=r"未知的归一化种类 kind='layer'.*'ln'"):
        variants.make_norm("layer", 8)


def test_markov_corpus_is_a_second_order_chain():
    tokens, logp = variants.markov_corpus(40_000, vocab_size=4, concentration=0.5, seed=7)
    again, _ = variants.markov_corpus(40_000, vocab_size=4, concentration=0.5, seed=7)
    assert torch.equal(tokens, again)
    assert not torch.equal(tokens, variants.markov_corpus(40_000, vocab_size=4, concentration=0.5, seed=8)[0])
    assert tokens.min() >= 0 and tokens.max() < 4 and len(tokens) == len(logp) == 40_000
    assert torch.isnan(logp[:2]).all() and torch.isfinite(logp[2:]).all() and (logp[2:] <= 0).all()
    # 经验频率与 logp 给出的真实条件概率一致（同一种「前两个词元」的 logp 相同）
    ctx = tokens[:-2] * 4 + tokens[1:-1]
    pairs = ctx * 4 + tokens[2:]
    counts = torch.bincount(pairs, minlength=64).view(16, 4).double()
    freq = counts / counts.sum(-1, keepdim=True)
    i = int(torch.argmax(counts.sum(-1)))               # 最常见的上文
    nxt = int(torch.argmax(counts[i]))
    j = int(((ctx == i) & (tokens[2:] == nxt)).nonzero()[0]) + 2
    assert freq[i, nxt].item() == pytest.approx(math.exp(logp[j].item()), abs=0.03)
    # 熵率低于均匀分布
    assert -logp[2:].mean() < math.log(4)


def test_loss_floor_and_eval_windows_use_the_same_targets():
    tokens, logp = variants.markov_corpus(1000, vocab_size=5, seed=1)
    inputs, targets = variants.eval_windows(tokens, 10)
    assert inputs.shape == targets.shape == (99, 10)
    assert torch.equal(targets[:, :-1], inputs[:, 1:])
    expected = -torch.stack([logp[1 + 10 * r + c] for r in range(99) for c in range(1, 10)]).mean()
    assert variants.loss_floor(tokens, logp, 10) == pytest.approx(expected.item())


def test_train_variant_is_reproducible_and_learns():
    tokens, logp = variants.markov_corpus(6000, vocab_size=6, seed=0)
    cfg = variants.tiny_config(vocab_size=6, context_length=16, emb_dim=16, n_layers=1)
    a, ea = variants.train_variant("rms", 0, tokens[:5000], steps=40, lr=1e-2, cfg=cfg, eval_tokens=tokens[5000:])
    b, eb = variants.train_variant("rms", 0, tokens[:5000], steps=40, lr=1e-2, cfg=cfg, eval_tokens=tokens[5000:])
    assert a == b and ea == eb
    assert len(a) == 40 and sum(a[-5:]) / 5 < sum(a[:5]) / 5
    assert variants.loss_floor(tokens[5000:], logp[5000:], 16) < ea < math.log(6) + 0.2
