"""一个精简的 GPT-2 式语言模型（PyTorch），供各章构建真实的模型对象。

结构：词元嵌入 + 位置嵌入 → N 个 Transformer 块 → 最终层归一化 → 线性输出头。
Transformer 块支持两种层归一化位置：
- "pre"：前置归一化（Pre-LN），GPT-2 的做法：x = x + drop(att(norm1(x)))；x = x + drop(ff(norm2(x)))
- "post"：后置归一化（Post-LN），2017 年原始 Transformer 的做法：x = norm1(x + drop(att(x)))；x = norm2(x + drop(ff(x)))

与 GPT-2 检查点的名字对应：ln_1 → norm1，ln_2 → norm2，ln_f → final_norm，
LayerNorm 的 weight / bias → scale / shift。
"""
import torch
import torch.nn as nn

from .layernorm import LayerNorm

GPT_CONFIG_124M = {
    "vocab_size": 50257,     # 词表大小（GPT-2 的 BPE 词表）
    "context_length": 1024,  # 最多能处理的词元个数
    "emb_dim": 768,          # 嵌入维度
    "n_heads": 12,           # 注意力头数
    "n_layers": 12,          # Transformer 块的个数
    "drop_rate": 0.1,        # dropout 比例
    "qkv_bias": False,       # 查询、键、值的线性层是否带偏置
}

NORM_POSITIONS = ("pre", "post")
_REQUIRED_KEYS = tuple(GPT_CONFIG_124M)


def _check_norm_position(norm_position):
    if norm_position not in NORM_POSITIONS:
        raise ValueError(
            f"未知的 norm_position={norm_position!r}；可选值为 {', '.join(repr(p) for p in NORM_POSITIONS)}"
            "（'pre' 为前置归一化，'post' 为后置归一化）。"
        )


def _check_config(cfg):
    missing = [k for k in _REQUIRED_KEYS if k not in cfg]
    if missing:
        raise ValueError(
            f"配置缺少键：{', '.join(missing)}；请参照 GPT_CONFIG_124M 补全这些键。"
        )
    if cfg["emb_dim"] % cfg["n_heads"] != 0:
        raise ValueError(
            f"嵌入维度 emb_dim={cfg['emb_dim']} 不能被注意力头数 n_heads={cfg['n_heads']} 整除；"
            "请让 emb_dim 是 n_heads 的整数倍。"
        )


class MultiHeadAttention(nn.Module):
    """带因果掩码的多头自注意力：每个位置只能看到它自己和它之前的词元。"""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(
                f"输出维度 d_out={d_out} 不能被注意力头数 num_heads={num_heads} 整除；"
                "请让 d_out 是 num_heads 的整数倍。"
            )
        self.d_out = d_out
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        # 上三角（不含对角线）为 True 的位置是“未来”，注意力分数要屏蔽掉
        mask = torch.triu(torch.ones(context_length, context_length, dtype=torch.bool), diagonal=1)
        self.register_buffer("mask", mask, persistent=False)

    def forward(self, x):
        b, t, _ = x.shape

        def split_heads(z):  # [b, t, d_out] -> [b, 头数, t, 每头维度]
            return z.view(b, t, self.num_heads, self.head_dim).transpose(1, 2)

        q = split_heads(self.W_query(x))
        k = split_heads(self.W_key(x))
        v = split_heads(self.W_value(x))
        scores = q @ k.transpose(-2, -1) / self.head_dim ** 0.5
        scores = scores.masked_fill(self.mask[:t, :t], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = (weights @ v).transpose(1, 2).reshape(b, t, self.d_out)
        return self.out_proj(context)


class FeedForward(nn.Module):
    """逐位置的前馈神经网络：先扩到 4 倍宽度，经过 GELU，再投影回嵌入维度。"""

    def __init__(self, cfg):
        super().__init__()
        e = cfg["emb_dim"]
        self.layers = nn.Sequential(
            nn.Linear(e, 4 * e),
            nn.GELU(approximate="tanh"),
            nn.Linear(4 * e, e),
        )

    def forward(self, x):
        return self.layers(x)


class TransformerBlock(nn.Module):
    """一个 Transformer 块：注意力和前馈两个子层，各带一个残差连接和一个层归一化。"""

    def __init__(self, cfg, norm_position="pre"):
        super().__init__()
        _check_config(cfg)
        _check_norm_position(norm_position)
        self.norm_position = norm_position
        e = cfg["emb_dim"]
        self.att = MultiHeadAttention(
            d_in=e, d_out=e, context_length=cfg["context_length"],
            dropout=cfg["drop_rate"], num_heads=cfg["n_heads"], qkv_bias=cfg["qkv_bias"],
        )
        self.ff = FeedForward(cfg)
        self.norm1 = LayerNorm(e)  # 对应 GPT-2 检查点里的 ln_1
        self.norm2 = LayerNorm(e)  # 对应 GPT-2 检查点里的 ln_2
        self.drop_shortcut = nn.Dropout(cfg["drop_rate"])

    def forward(self, x):
        if self.norm_position == "pre":   # 前置归一化：先归一化，再进子层，最后加回残差
            x = x + self.drop_shortcut(self.att(self.norm1(x)))
            x = x + self.drop_shortcut(self.ff(self.norm2(x)))
        else:                             # 后置归一化：子层输出加回残差之后再归一化
            x = self.norm1(x + self.drop_shortcut(self.att(x)))
            x = self.norm2(x + self.drop_shortcut(self.ff(x)))
        return x


class GPTModel(nn.Module):
    """GPT-2 式语言模型：输入词元 ID，输出每个位置上对整个词表的分数（logits）。"""

    def __init__(self, cfg, norm_position=None):
        super().__init__()
        _check_config(cfg)
        if norm_position is None:
            norm_position = cfg.get("norm_position", "pre")
        _check_norm_position(norm_position)
        self.norm_position = norm_position
        self.context_length = cfg["context_length"]
        e = cfg["emb_dim"]
        self.tok_emb = nn.Embedding(cfg["vocab_size"], e)        # 词元嵌入（wte）
        self.pos_emb = nn.Embedding(cfg["context_length"], e)    # 位置嵌入（wpe）
        self.drop_emb = nn.Dropout(cfg["drop_rate"])
        self.trf_blocks = nn.Sequential(
            *[TransformerBlock(cfg, norm_position) for _ in range(cfg["n_layers"])]
        )
        # Pre-LN 在最后一个块之后还要一个层归一化（GPT-2 的 ln_f）；
        # Post-LN 的每个块本身就以层归一化结尾，这里不再重复。
        self.final_norm = LayerNorm(e) if norm_position == "pre" else nn.Identity()
        self.out_head = nn.Linear(e, cfg["vocab_size"], bias=False)

    def forward(self, in_idx):
        if in_idx.dim() != 2:
            raise ValueError(
                f"输入应是形状为 [批量大小, 词元个数] 的二维词元 ID 张量，实际形状为 {tuple(in_idx.shape)}。"
            )
        _, t = in_idx.shape
        if t > self.context_length:
            raise ValueError(
                f"词元序列长度 {t} 超过了上下文长度 context_length={self.context_length}；"
                f"请截断到最后 {self.context_length} 个词元。"
            )
        pos = torch.arange(t, device=in_idx.device)
        x = self.drop_emb(self.tok_emb(in_idx) + self.pos_emb(pos))
        x = self.trf_blocks(x)
        x = self.final_norm(x)
        return self.out_head(x)


def count_layer_norms(model):
    """统计模型里层归一化模块（本包的 LayerNorm 或 nn.LayerNorm）的个数和参数总数，返回 (个数, 参数总数)。"""
    norms = [m for m in model.modules() if isinstance(m, (LayerNorm, nn.LayerNorm))]
    n_params = sum(p.numel() for m in norms for p in m.parameters())
    return len(norms), n_params
