"""第 12 章的现代变体：动态 tanh（DyT）、零中心缩放参数的 RMSNorm、QK 归一化的注意力，
以及「换一种归一化层」的小型 GPT、它训练用的合成语料和训练循环。

章节用 inspect.getsource 展示这里的代码，所以书里看到的就是这里的代码。
"""
import bisect

import torch
import torch.nn as nn
import torch.nn.functional as F

from .gpt import GPT_CONFIG_124M, GPTModel, MultiHeadAttention, TransformerBlock
from .layernorm import LayerNorm
from .rmsnorm import RMSNorm

NORM_KINDS = ("ln", "rms", "dyt", "derf", "dyisru", "none")
NORM_NAMES = {"ln": "LayerNorm", "rms": "RMSNorm", "dyt": "DyT", "derf": "Derf", "dyisru": "DyISRU", "none": "不归一化"}


class DyT(nn.Module):
    """动态 tanh（Zhu 等人，2025）：逐元素的 γ·tanh(αx) + β，不算任何统计量；α 是一个可学习的标量。"""

    def __init__(self, emb_dim, alpha0=0.5):
        super().__init__()
        self.alpha = nn.Parameter(torch.full((1,), float(alpha0)))  # 论文的默认初值 α₀ = 0.5
        self.scale = nn.Parameter(torch.ones(emb_dim))    # 缩放参数 γ
        self.shift = nn.Parameter(torch.zeros(emb_dim))   # 平移参数 β

    def forward(self, x):
        return self.scale * torch.tanh(self.alpha * x) + self.shift


class Derf(nn.Module):
    """动态 erf（Chen 等人，2025）：逐元素的 γ·erf(αx + s) + β；α、s 是可学习的标量。
    初值 α₀ = 0.5、s₀ = 0 与本书的 DyT 相同（没有按论文为这个模型调过）。"""

    def __init__(self, emb_dim, alpha0=0.5, shift0=0.0):
        super().__init__()
        self.alpha = nn.Parameter(torch.full((1,), float(alpha0)))
        self.s = nn.Parameter(torch.full((1,), float(shift0)))   # erf 里面的平移（标量）
        self.scale = nn.Parameter(torch.ones(emb_dim))    # 缩放参数 γ
        self.shift = nn.Parameter(torch.zeros(emb_dim))   # 平移参数 β

    def forward(self, x):
        return self.scale * torch.erf(self.alpha * x + self.s) + self.shift


class DyISRU(nn.Module):
    """动态反平方根单元（Stollenwerk，2025）：把 RMSNorm 的 √H·x_i / √(x_i² + Σ_{j≠i} x_j²) 里
    「其他分量的平方和」换成一个可学习的正数 κ，得到逐元素的 √H·x / √(κ + x²)；外面再乘 γ、加 β。
    κ 的初值 H 对应每个分量的方差为 1（Σ_{j≠i} x_j² ≈ H − 1）。"""

    def __init__(self, emb_dim):
        super().__init__()
        self.h = emb_dim
        self.log_kappa = nn.Parameter(torch.full((1,), float(emb_dim)).log())   # κ = exp(log κ) > 0
        self.scale = nn.Parameter(torch.ones(emb_dim))    # 缩放参数 γ
        self.shift = nn.Parameter(torch.zeros(emb_dim))   # 平移参数 β

    def forward(self, x):
        y = self.h ** 0.5 * x * torch.rsqrt(self.log_kappa.exp() + x * x)
        return self.scale * y + self.shift


class ZeroCenteredRMSNorm(nn.Module):
    """零中心缩放参数的 RMSNorm（Gemma 的写法）：输出乘以 (1 + γ)，γ 从 0 开始；γ = 0 时就是不缩放。"""

    def __init__(self, emb_dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.scale = nn.Parameter(torch.zeros(emb_dim))   # γ 初始化为 0，而不是 1

    def forward(self, x):
        x32 = x.float()                                   # 在 float32 里算均方，见「精度实验」一节
        norm_x = x32 * torch.rsqrt(x32.pow(2).mean(dim=-1, keepdim=True) + self.eps)
        return (norm_x * (1.0 + self.scale.float())).type_as(x)


class QKNormAttention(MultiHeadAttention):
    """带 QK 归一化的多头注意力：每个头的查询和键先各做一次 RMSNorm，再算点积。"""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__(d_in, d_out, context_length, dropout, num_heads, qkv_bias)
        self.q_norm = RMSNorm(self.head_dim)
        self.k_norm = RMSNorm(self.head_dim)

    def forward(self, x):
        b, t, _ = x.shape

        def split_heads(z):  # [b, t, d_out] -> [b, 头数, t, 每头维度]
            return z.view(b, t, self.num_heads, self.head_dim).transpose(1, 2)

        q = self.q_norm(split_heads(self.W_query(x)))   # 与普通注意力只差这两处归一化
        k = self.k_norm(split_heads(self.W_key(x)))
        v = split_heads(self.W_value(x))
        scores = q @ k.transpose(-2, -1) / self.head_dim ** 0.5
        scores = scores.masked_fill(self.mask[:t, :t], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = (weights @ v).transpose(1, 2).reshape(b, t, self.d_out)
        return self.out_proj(context)


class PeriLNBlock(TransformerBlock):
    """Peri-LN（「三明治」）块：子层的输入和输出各做一次层归一化，再加回残差：x + norm_out(F(norm_in(x)))。"""

    def __init__(self, cfg):
        super().__init__(cfg, norm_position="pre")
        self.norm1_out = LayerNorm(cfg["emb_dim"])   # 注意力输出的归一化
        self.norm2_out = LayerNorm(cfg["emb_dim"])   # 前馈神经网络输出的归一化

    def forward(self, x):
        x = x + self.drop_shortcut(self.norm1_out(self.att(self.norm1(x))))
        x = x + self.drop_shortcut(self.norm2_out(self.ff(self.norm2(x))))
        return x


def make_norm(kind, emb_dim):
    """按名字造一个归一化层：'ln'、'rms'、'dyt'、'derf'、'dyisru' 或 'none'（恒等映射，即不归一化）。"""
    if kind == "ln":
        return LayerNorm(emb_dim)
    if kind == "rms":
        return RMSNorm(emb_dim)
    if kind == "dyt":
        return DyT(emb_dim)
    if kind == "derf":
        return Derf(emb_dim)
    if kind == "dyisru":
        return DyISRU(emb_dim)
    if kind == "none":
        return nn.Identity()
    raise ValueError(f"未知的归一化种类 kind={kind!r}；可选值为 {', '.join(repr(k) for k in NORM_KINDS)}。")


def gpt_with_norm(cfg, norm="ln"):
    """一个前置归一化的 GPTModel，把它的三处归一化层（norm1、norm2、final_norm）都换成 make_norm(norm)。"""
    model = GPTModel(cfg, norm_position="pre")
    e = cfg["emb_dim"]
    for blk in model.trf_blocks:
        blk.norm1 = make_norm(norm, e)
        blk.norm2 = make_norm(norm, e)
    model.final_norm = make_norm(norm, e)
    return model


def markov_corpus(n_tokens, vocab_size=16, concentration=0.3, seed=0):
    """合成语料：二阶马尔可夫链，下一个词元的分布只取决于前两个词元。

    每一种「前两个词元」对应一个从狄利克雷分布（参数 concentration，越小越尖）抽出的分布。
    返回 (词元 ID 的一维张量, 同样长的张量：第 t 个位置是真实条件概率 p(x_t | x_{t-2}, x_{t-1}) 的对数)。
    前两个位置没有完整的上文，记为 nan。对数概率的负均值是这份语料的熵率：任何模型能达到的最低交叉熵。
    """
    if n_tokens < 3:
        raise ValueError(f"语料至少要有 3 个词元，收到 n_tokens={n_tokens}。")
    g = torch.Generator().manual_seed(seed)
    alpha = torch.full((vocab_size,), float(concentration))
    gammas = torch._standard_gamma(alpha.expand(vocab_size * vocab_size, vocab_size).contiguous(), generator=g)
    table = gammas / gammas.sum(-1, keepdim=True)                 # [V*V, V]：每行一个条件分布
    cdf = table.cumsum(-1).tolist()                               # 纯 Python 的循环比逐个张量运算快得多
    u = torch.rand(n_tokens, generator=g).tolist()
    seq = torch.randint(0, vocab_size, (2,), generator=g).tolist()
    for t in range(2, n_tokens):
        row = cdf[seq[t - 2] * vocab_size + seq[t - 1]]
        seq.append(min(bisect.bisect_right(row, u[t]), vocab_size - 1))
    tokens = torch.tensor(seq)
    rows = tokens[:-2] * vocab_size + tokens[1:-1]
    logp = torch.full((n_tokens,), float("nan"))
    logp[2:] = table[rows, tokens[2:]].log()
    return tokens, logp


def tiny_config(vocab_size=16, context_length=32, emb_dim=32, n_layers=4, n_heads=4):
    """训练对比用的小模型配置：其余键取 GPT_CONFIG_124M 的，dropout 关掉。"""
    return dict(GPT_CONFIG_124M, vocab_size=vocab_size, context_length=context_length, emb_dim=emb_dim,
                n_heads=n_heads, n_layers=n_layers, drop_rate=0.0)


def eval_windows(tokens, context_length):
    """把 tokens 切成不重叠的窗口，返回 (输入 [窗口数, T], 目标 [窗口数, T])；目标是输入右移一位。"""
    windows = (len(tokens) - 1) // context_length
    x = tokens[: windows * context_length + 1]
    return x[:-1].view(windows, context_length), x[1:].view(windows, context_length)


def loss_floor(tokens, logp, context_length):
    """eval_windows 的目标里、窗口内第 2 个及以后的位置（上文完整）上，真实分布的交叉熵：损失的下限。"""
    windows = (len(tokens) - 1) // context_length
    target_logp = logp[1: windows * context_length + 1].view(windows, context_length)[:, 1:]
    return -target_logp.mean().item()


def train_variant(norm, seed, tokens, steps=150, lr=3e-3, batch_size=16, cfg=None, eval_tokens=None):
    """用 AdamW 训练一个 gpt_with_norm(cfg, norm)，返回 (每一步的训练损失列表, 训练后在 eval_tokens 上的损失)。

    评估损失只算每个窗口第 2 个及以后的位置：窗口的第 1 个位置只看得到一个词元，二阶的链还缺一个，
    这样与 loss_floor 的下限算在同一批位置上。
    每一步从 tokens 里随机截取 batch_size 段长 context_length + 1 的窗口，做下一个词元预测。
    seed 同时决定初始化和取窗口的顺序；不同的 norm 在同一个 seed 下看到同样的数据。
    """
    cfg = cfg or tiny_config()
    torch.manual_seed(seed)
    model = gpt_with_norm(cfg, norm)
    return train_model(model, seed, tokens, steps=steps, lr=lr, batch_size=batch_size, eval_tokens=eval_tokens)


def train_model(model, seed, tokens, steps=150, lr=3e-3, batch_size=16, eval_tokens=None):
    """train_variant 的训练循环本身（模型由调用者造好）：返回 (每一步的训练损失列表, eval_tokens 上的损失)。"""
    t = model.context_length
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.0)
    g = torch.Generator().manual_seed(10_000 + seed)
    losses = []
    for _ in range(steps):
        start = torch.randint(0, len(tokens) - t - 1, (batch_size,), generator=g)
        batch = tokens[start[:, None] + torch.arange(t + 1)]     # [batch_size, t + 1] 的窗口
        loss = F.cross_entropy(model(batch[:, :-1]).flatten(0, 1), batch[:, 1:].flatten())
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    eval_loss = None
    if eval_tokens is not None:
        inputs, targets = eval_windows(eval_tokens, t)
        with torch.no_grad():
            logits = model(inputs)[:, 1:]
            eval_loss = F.cross_entropy(logits.flatten(0, 1), targets[:, 1:].flatten()).item()
    return losses, eval_loss


# ---------------------------------------------------------------- 归一化放在哪里：2024–2025 的两种做法（第 9 章）
PLACEMENTS = ("pre", "post", "lns", "mix")
PLACEMENT_NAMES = {"pre": "Pre-LN", "post": "Post-LN", "lns": "Pre-LN + LayerNorm Scaling", "mix": "Mix-LN"}


class ScaledNorm(nn.Module):
    """LayerNorm Scaling（Sun 等人，2025）：第 ℓ 层的层归一化输出再乘以 1/√ℓ。"""

    def __init__(self, norm, layer):
        super().__init__()
        self.norm = norm
        self.factor = layer ** -0.5

    def forward(self, x):
        return self.norm(x) * self.factor


def gpt_with_placement(cfg, placement="pre", mix_ratio=0.25):
    """按放法造一个 GPTModel：'pre'、'post'、'lns'（Pre-LN，第 ℓ 层的两个层归一化输出乘 1/√ℓ）
    或 'mix'（Mix-LN：前 ⌊mix_ratio × 层数⌋ 层用 Post-LN，其余用 Pre-LN，最后仍有 final_norm）。"""
    if placement not in PLACEMENTS:
        raise ValueError(f"未知的放法 placement={placement!r}；可选值为 {', '.join(repr(p) for p in PLACEMENTS)}。")
    if placement == "post":
        return GPTModel(cfg, norm_position="post")
    model = GPTModel(cfg, norm_position="pre")
    if placement == "lns":
        for layer, blk in enumerate(model.trf_blocks, start=1):
            blk.norm1 = ScaledNorm(blk.norm1, layer)
            blk.norm2 = ScaledNorm(blk.norm2, layer)
    elif placement == "mix":
        for blk in model.trf_blocks[:int(mix_ratio * len(model.trf_blocks))]:
            blk.norm_position = "post"      # TransformerBlock.forward 按这个属性选放法
    return model


def placement_stats(model, tokens):
    """在一批词元上前向、反向各一次：返回 (每个块输出的残差流标准差, 每层 ff.layers[2].weight 的梯度范数)。"""
    stds = []
    hooks = [blk.register_forward_hook(lambda m, i, out: stds.append(out.detach().std().item()))
             for blk in model.trf_blocks]
    model.zero_grad()
    try:
        logits = model(tokens[:, :-1])
    finally:
        for h in hooks:
            h.remove()
    F.cross_entropy(logits.flatten(0, 1), tokens[:, 1:].flatten()).backward()
    grads = [blk.ff.layers[2].weight.grad.norm().item() for blk in model.trf_blocks]
    return torch.tensor(stds), torch.tensor(grads)
