"""dsx_util.gpt：形状、Pre-LN / Post-LN 结构、GPT-2 small 的层归一化计数、输入检查、因果掩码。"""
import pytest
import torch
import torch.nn as nn

from dsx_util.gpt import (GPT_CONFIG_124M, FeedForward, GPTModel, MultiHeadAttention,
                          TransformerBlock, count_layer_norms)
from dsx_util.layernorm import LayerNorm

TINY = {"vocab_size": 50, "context_length": 8, "emb_dim": 16, "n_heads": 4,
        "n_layers": 2, "drop_rate": 0.0, "qkv_bias": False}


def tiny(norm_position=None, **overrides):
    torch.manual_seed(0)
    return GPTModel({**TINY, **overrides}, norm_position=norm_position).eval()


def test_forward_shape():
    model = tiny()
    ids = torch.randint(0, TINY["vocab_size"], (3, 5))
    assert model(ids).shape == (3, 5, TINY["vocab_size"])


def test_block_and_submodules_shapes():
    x = torch.randn(2, 6, TINY["emb_dim"])
    block = TransformerBlock(TINY)
    assert block(x).shape == x.shape
    assert isinstance(block.norm1, LayerNorm) and isinstance(block.norm2, LayerNorm)
    assert isinstance(block.att, MultiHeadAttention) and isinstance(block.ff, FeedForward)
    for name in ("W_query", "W_key", "W_value", "out_proj"):
        assert isinstance(getattr(block.att, name), nn.Linear)
    layers = block.ff.layers
    assert [type(m) for m in layers] == [nn.Linear, nn.GELU, nn.Linear]
    assert layers[0].out_features == 4 * TINY["emb_dim"]
    assert layers[1].approximate == "tanh"


def test_model_attributes():
    model = tiny()
    assert isinstance(model.trf_blocks, nn.Sequential) and len(model.trf_blocks) == TINY["n_layers"]
    assert isinstance(model.final_norm, LayerNorm)
    assert model.out_head.bias is None
    assert model.out_head.weight.shape == (TINY["vocab_size"], TINY["emb_dim"])


def test_pre_and_post_differ():
    pre, post = tiny("pre"), tiny("post")
    assert isinstance(post.final_norm, nn.Identity)
    assert all(b.norm_position == "post" for b in post.trf_blocks)
    # 同样的种子 → 同样的权重（post 只是少了 final_norm 的参数）
    post_state = post.state_dict()
    for k, v in post_state.items():
        assert torch.equal(v, pre.state_dict()[k]), k
    ids = torch.randint(0, TINY["vocab_size"], (2, 6))
    assert not torch.allclose(pre(ids), post(ids))
    # Post-LN：每个块输出的每个词元向量都刚做过层归一化（scale=1, shift=0 时均值≈0）
    x = pre.tok_emb(ids) + pre.pos_emb(torch.arange(6))
    out = post.trf_blocks[0](x)
    assert out.mean(-1).abs().max() < 1e-5
    assert pre.trf_blocks[0](x).mean(-1).abs().max() > 1e-3


def test_norm_position_from_config():
    assert tiny().norm_position == "pre"  # 配置里没有 norm_position 时默认前置归一化
    model = GPTModel({**TINY, "norm_position": "post"})
    assert model.norm_position == "post" and isinstance(model.final_norm, nn.Identity)
    # 参数优先于配置
    assert GPTModel({**TINY, "norm_position": "post"}, norm_position="pre").norm_position == "pre"


def test_tiny_layer_norm_count():
    assert count_layer_norms(tiny("pre")) == (2 * TINY["n_layers"] + 1,
                                               (2 * TINY["n_layers"] + 1) * 2 * TINY["emb_dim"])
    assert count_layer_norms(tiny("post")) == (2 * TINY["n_layers"],
                                                2 * TINY["n_layers"] * 2 * TINY["emb_dim"])


def test_count_layer_norms_also_counts_torch_layernorm():
    model = nn.Sequential(nn.LayerNorm(4), nn.Linear(4, 4), LayerNorm(4))
    assert count_layer_norms(model) == (2, 16)


def test_gpt2_small_layer_norms():
    torch.manual_seed(0)
    model = GPTModel(GPT_CONFIG_124M)
    n, params = count_layer_norms(model)
    assert n == 25
    assert params == 25 * 2 * 768
    total = sum(p.numel() for p in model.parameters())
    # GPT-2 small 不共享输出头权重时约 1.63 亿参数
    assert total == pytest.approx(163_009_536, rel=1e-9)


def test_unknown_norm_position():
    with pytest.raises(ValueError, match="未知的 norm_position='middle'.*'pre'.*'post'"):
        GPTModel(TINY, norm_position="middle")
    with pytest.raises(ValueError, match="未知的 norm_position"):
        TransformerBlock(TINY, norm_position="Pre")


def test_emb_dim_not_divisible():
    with pytest.raises(ValueError, match="emb_dim=18.*n_heads=4.*整除"):
        GPTModel({**TINY, "emb_dim": 18})


def test_missing_keys():
    cfg = {k: v for k, v in TINY.items() if k not in ("n_heads", "drop_rate")}
    with pytest.raises(ValueError, match="配置缺少键：n_heads, drop_rate"):
        GPTModel(cfg)


def test_too_long_sequence():
    model = tiny()
    with pytest.raises(ValueError, match="长度 9 超过了上下文长度 context_length=8"):
        model(torch.zeros(1, 9, dtype=torch.long))


def test_causal_mask():
    for position in ("pre", "post"):
        model = tiny(position)
        ids = torch.randint(0, TINY["vocab_size"], (1, 7))
        changed = ids.clone()
        changed[0, 4] = (ids[0, 4] + 1) % TINY["vocab_size"]
        a, b = model(ids), model(changed)
        assert torch.allclose(a[:, :4], b[:, :4], atol=1e-6)
        assert not torch.allclose(a[:, 4:], b[:, 4:])
