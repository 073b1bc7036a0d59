"""第 1 章《GPT 架构与层归一化的位置》：正文引用的层归一化个数、参数量与形状都来自执行结果，且与配置推算一致。"""
import pytest

from conftest import glued_value
from dsx_util.gpt import GPT_CONFIG_124M

CHAPTER = "ch01_gpt_architecture"


@pytest.fixture(scope="module")
def chapter(run_chapter):
    return run_chapter(CHAPTER)


def value(chapter, name):
    return float(glued_value(chapter[1], name))


def test_glued_counts(chapter):
    n_layers, emb_dim, vocab = (GPT_CONFIG_124M[k] for k in ("n_layers", "emb_dim", "vocab_size"))
    ctx = GPT_CONFIG_124M["context_length"]
    expected_n_ln = 2 * n_layers + 1            # 每块 2 个，外加 final_norm
    expected_each = 2 * emb_dim                 # scale 与 shift
    assert value(chapter, "ch01_n_layers") == n_layers
    assert value(chapter, "ch01_emb_dim") == emb_dim
    assert value(chapter, "ch01_n_ln") == expected_n_ln == 25
    assert value(chapter, "ch01_ln_params_each") == expected_each == 1536
    assert value(chapter, "ch01_ln_params_total") == expected_n_ln * expected_each

    # 参数总数按各层的形状从配置推算（输出头不与词元嵌入共享权重）
    attn = 3 * emb_dim * emb_dim + (emb_dim * emb_dim + emb_dim)          # W_query/W_key/W_value 无偏置，out_proj 有偏置
    ffn = (emb_dim * 4 * emb_dim + 4 * emb_dim) + (4 * emb_dim * emb_dim + emb_dim)
    block = attn + ffn + 2 * expected_each
    embeddings = vocab * emb_dim + ctx * emb_dim
    total = embeddings + n_layers * block + expected_each + emb_dim * vocab
    assert value(chapter, "ch01_total_params") == total
    tied = total - emb_dim * vocab              # 输出头与词元嵌入共享权重时
    assert value(chapter, "ch01_tied_params") == tied
    assert round(tied / 1e6) == 124             # 名字里的 “124M”
    assert value(chapter, "ch01_ln_share_pct") == pytest.approx(100 * expected_n_ln * expected_each / total)
    # GPT-2（输出头共享权重）里的占比：分母是 124M，不是本书未共享输出头的总数
    assert value(chapter, "ch01_ln_share_tied_pct") == pytest.approx(100 * expected_n_ln * expected_each / tied)


def test_tiny_forward_shape(chapter):
    nb, glued, _ = chapter
    src = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    assert "TINY_CONFIG" in src
    vocab = int(value(chapter, "ch01_tiny_vocab"))
    in_shape = glued_value(glued, "ch01_tiny_in_shape")      # glue 的是字符串，例如 '[2, 4]'
    out_shape = glued_value(glued, "ch01_tiny_out_shape")
    batch, tokens = (int(v) for v in in_shape.strip("[]").split(","))
    assert out_shape == f"[{batch}, {tokens}, {vocab}]"


def test_layer_norm_output_is_standardized(chapter):
    # 标准化后的方差 = σ²/(σ²+ε)，略小于 1；输入方差要明显不是 1，才说明层归一化确实起了作用
    assert value(chapter, "ch01_normed_var_min") == pytest.approx(1.0, abs=1e-3)
    assert value(chapter, "ch01_normed_var_min") < 1.0
    assert abs(value(chapter, "ch01_in_var_max") - 1.0) > 0.1
