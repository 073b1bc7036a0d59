"""第 13 章的参考模型：用本书自己的 GPTModel、在本书正文上训练好的一个字符级小 GPT。

训练是维护者的一步（`make model`，脚本在 dsx_book/train_reference.py），不在构建时进行；
训练好的权重（float16 存储）、冻结的语料快照和训练日志都作为包数据装在 dsx_util 的 wheel 里，
所以网页构建、Colab 和离线的读者版笔记本都用同一个文件，不用联网。

    from dsx_util.reference_model import load_reference_model
    model, tok = load_reference_model()          # 训练好的模型（eval 模式、float32）与分词器
    ids = tok.encode("层归一化")                   # 字符 -> 词元 ID
    tok.decode(ids)                                # 词元 ID -> 字符
    fresh = initial_model()                        # 同样配置、同样种子、刚初始化的模型
    text = validation_text()                       # 验证集（语料最后 10%）
"""
import json
import math
import time
from functools import lru_cache
from importlib import resources

import torch
import torch.nn.functional as F

from .gpt import GPT_CONFIG_124M, GPTModel

CORPUS_FILE = "reference_corpus.txt"
CHECKPOINT_FILE = "reference_model.pt"
LOG_FILE = "reference_log.json"
EXTRAS_FILE = "reference_extras.json"

SEED = 0
VAL_FRACTION = 0.1       # 语料最后 10% 做验证集，训练时从不看到
CONTEXT_LENGTH = 128
TRAIN = {                # 训练设置（dsx_book/train_reference.py 用；改了它要重新 make model）
    "steps": 1000,
    "batch_size": 16,
    "lr": 1.5e-3,
    "min_lr": 1e-4,
    "warmup": 100,
    "weight_decay": 0.1,
    "grad_clip": 1.0,
    "log_every": 50,
}


def _data_path(name):
    return resources.files("dsx_util").joinpath("data", name)


@lru_cache(maxsize=1)
def corpus_text():
    """冻结的语料快照：本书第 0–12 章的正文（Markdown 单元格，去掉代码块与排版标记），MIT 许可。"""
    return _data_path(CORPUS_FILE).read_text(encoding="utf-8")


def split_point(text=None):
    """训练集与验证集的分界（字符位置）：前 90% 训练，后 10% 验证。"""
    text = corpus_text() if text is None else text
    return int(len(text) * (1 - VAL_FRACTION))


def training_text():
    """训练集：语料的前 90%。"""
    text = corpus_text()
    return text[: split_point(text)]


def validation_text():
    """验证集：语料的最后 10%（训练时从不看到）。"""
    text = corpus_text()
    return text[split_point(text):]


class CharTokenizer:
    """字符级分词器：每个不同的字符是一个词元，ID 按字符的 Unicode 码位排序。"""

    def __init__(self, chars):
        self.chars = list(chars)
        self.index = {c: i for i, c in enumerate(self.chars)}

    @classmethod
    def from_text(cls, text):
        return cls(sorted(set(text)))

    @property
    def vocab_size(self):
        return len(self.chars)

    def encode(self, text):
        if not isinstance(text, str):
            raise TypeError(f"encode 需要一个字符串，收到的是 {type(text).__name__}：{text!r}。")
        unknown = sorted({c for c in text if c not in self.index})
        if unknown:
            shown = "".join(unknown[:10])
            raise ValueError(
                f"这些字符不在参考模型的词表里：{shown!r}（共 {len(unknown)} 个）；"
                f"词表只有语料里出现过的 {self.vocab_size} 个字符，请换成语料里有的字或去掉它们。"
            )
        return [self.index[c] for c in text]

    def decode(self, ids):
        ids = [int(i) for i in ids]
        bad = [i for i in ids if not 0 <= i < self.vocab_size]
        if bad:
            raise ValueError(f"词元 ID {bad[0]} 超出词表范围 0–{self.vocab_size - 1}；请检查传入的 ID。")
        return "".join(self.chars[i] for i in ids)


def tokenizer():
    """由语料快照得到的分词器（与检查点里存的词表相同）。"""
    return CharTokenizer.from_text(corpus_text())


def model_config(vocab_size):
    """参考模型的配置：4 个块、128 维、4 个头、上下文 128 个字符；训练时 dropout 0.1。"""
    return dict(GPT_CONFIG_124M, vocab_size=vocab_size, context_length=CONTEXT_LENGTH,
                emb_dim=128, n_heads=4, n_layers=4, drop_rate=0.1, qkv_bias=False)


def initial_model(seed=SEED):
    """与参考模型同样配置、同样种子、刚初始化（没有训练）的模型，eval 模式。"""
    tok = tokenizer()
    torch.manual_seed(seed)
    model = GPTModel(model_config(tok.vocab_size))
    return model.eval()


@lru_cache(maxsize=1)
def _checkpoint():
    with _data_path(CHECKPOINT_FILE).open("rb") as f:
        return torch.load(f, map_location="cpu", weights_only=True)


def load_reference_model():
    """返回 (训练好的 GPTModel（eval 模式、float32），分词器 CharTokenizer)。

    检查点里的权重以 float16 存储（文件约 2 MB），载入时转回 float32。
    """
    ckpt = _checkpoint()
    tok = CharTokenizer(ckpt["chars"])
    if tok.chars != tokenizer().chars:
        raise RuntimeError("检查点的词表与语料快照不一致：请用 make model 重新训练参考模型。")
    model = GPTModel(model_config(tok.vocab_size))
    state = {k: v.float() for k, v in ckpt["state_dict"].items()}
    model.load_state_dict(state)
    return model.eval(), tok


def training_log():
    """训练日志（make model 写出）：设置、机器、用时，以及每 log_every 步的训练损失与验证损失。"""
    return json.loads(_data_path(LOG_FILE).read_text(encoding="utf-8"))


def extras_log():
    """维护者一步里算好的其他结果（冻结 σ 后的微调、第 12 章对比的长训练等），第 13 章读它。"""
    return json.loads(_data_path(EXTRAS_FILE).read_text(encoding="utf-8"))


# ---------------------------------------------------------------- 训练与评估（维护者脚本与第 13 章共用）
def encode_corpus(tok=None):
    """整份语料的词元 ID，及训练/验证分界：返回 (train_ids, val_ids) 两个一维张量。"""
    tok = tok or tokenizer()
    text = corpus_text()
    cut = split_point(text)
    return torch.tensor(tok.encode(text[:cut])), torch.tensor(tok.encode(text[cut:]))


def eval_batches(ids, context_length=CONTEXT_LENGTH):
    """把 ids 切成不重叠的窗口：返回 (输入 [窗口数, T], 目标 [窗口数, T])。"""
    n = (len(ids) - 1) // context_length
    x = ids[: n * context_length + 1]
    return x[:-1].view(n, context_length), x[1:].view(n, context_length)


@torch.no_grad()
def evaluate(model, ids, context_length=CONTEXT_LENGTH):
    """模型在 ids（不重叠的窗口）上的平均交叉熵（nats/字符）；临时切到 eval 模式。"""
    was_training = model.training
    model.eval()
    inputs, targets = eval_batches(ids, context_length)
    loss = F.cross_entropy(model(inputs).flatten(0, 1), targets.flatten()).item()
    model.train(was_training)
    return loss


def lr_at(step, steps, cfg=TRAIN):
    """学习率：前 warmup 步线性升到 lr，之后按余弦降到 min_lr。step 从 1 数起。"""
    if step <= cfg["warmup"]:
        return cfg["lr"] * step / cfg["warmup"]
    progress = (step - cfg["warmup"]) / max(1, steps - cfg["warmup"])
    return cfg["min_lr"] + 0.5 * (cfg["lr"] - cfg["min_lr"]) * (1 + math.cos(math.pi * progress))


def train(model, train_ids, val_ids, steps, seed=SEED, cfg=TRAIN, total_steps=None, on_log=None):
    """AdamW 训练 model 共 steps 步（单线程才可复现），返回日志列表。

    每一步从 train_ids 随机截取 batch_size 段长 T+1 的窗口（取窗口的随机数生成器由 seed 决定）；
    第 1 步和每 log_every 步记一次：步数、这一步的训练损失、验证损失、学习率、已用秒数。
    total_steps：学习率日程按多少步排（默认 steps）；复现测试只跑前几步时用它保持同一日程。
    """
    total_steps = total_steps or steps
    t = model.context_length
    decay = [p for n, p in model.named_parameters() if p.dim() >= 2]
    no_decay = [p for n, p in model.named_parameters() if p.dim() < 2]   # γ、β 与偏置不做权重衰减
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": cfg["weight_decay"]},
                             {"params": no_decay, "weight_decay": 0.0}], lr=cfg["lr"], betas=(0.9, 0.95))
    g = torch.Generator().manual_seed(1_000 + seed)
    log, start = [], time.perf_counter()
    model.train()
    for step in range(1, steps + 1):
        lr = lr_at(step, total_steps, cfg)
        for group in opt.param_groups:
            group["lr"] = lr
        offsets = torch.randint(0, len(train_ids) - t - 1, (cfg["batch_size"],), generator=g)
        batch = train_ids[offsets[:, None] + torch.arange(t + 1)]
        loss = F.cross_entropy(model(batch[:, :-1]).flatten(0, 1), batch[:, 1:].flatten())
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), cfg["grad_clip"])
        opt.step()
        if step == 1 or step % cfg["log_every"] == 0 or step == steps:
            entry = {"step": step, "train_loss": round(loss.item(), 5), "val_loss": round(evaluate(model, val_ids), 5),
                     "lr": lr, "seconds": round(time.perf_counter() - start, 1)}
            log.append(entry)
            if on_log:
                on_log(entry)
    model.eval()
    return log


@torch.no_grad()
def generate(model, tok, prompt, n_chars=100, temperature=0.8, seed=0):
    """从 prompt 接着生成 n_chars 个字符（按 temperature 采样，seed 固定随机数）。"""
    if n_chars < 0:
        raise ValueError(f"n_chars={n_chars} 不能是负数；请给一个非负整数。")
    if temperature <= 0:
        raise ValueError(f"temperature={temperature} 必须大于 0；想要最可能的字符时用一个小的正数，如 0.1。")
    g = torch.Generator().manual_seed(seed)
    ids = tok.encode(prompt)
    if not ids:
        raise ValueError("prompt 不能是空字符串；请至少给一个字符。")
    for _ in range(n_chars):
        ctx = torch.tensor([ids[-model.context_length:]])
        probs = torch.softmax(model(ctx)[0, -1] / temperature, dim=-1)
        ids.append(torch.multinomial(probs, 1, generator=g).item())
    return tok.decode(ids[len(tok.encode(prompt)):])


# ---------------------------------------------------------------- 打开模型：层归一化的输入、冻结 σ
def layer_norms(model):
    """模型里按前向顺序排列的层归一化：[(名字, 模块)]，名字如 "块 1 norm1"、"final_norm"。"""
    out = []
    for i, blk in enumerate(model.trf_blocks, start=1):
        out += [(f"块 {i} norm1", blk.norm1), (f"块 {i} norm2", blk.norm2)]
    out.append(("final_norm", model.final_norm))
    return out


@torch.no_grad()
def norm_inputs(model, ids):
    """前向传播一次，用前向钩子记下每个层归一化的输入；返回 {名字: [批量, T, H] 的张量}（顺序同 layer_norms）。"""
    if ids.dim() != 2:
        raise ValueError(f"ids 应是形状为 [批量大小, 词元个数] 的二维张量，实际形状为 {tuple(ids.shape)}。")
    seen, handles = {}, []
    for name, norm in layer_norms(model):
        handles.append(norm.register_forward_pre_hook(lambda mod, args, name=name: seen.__setitem__(name, args[0])))
    try:
        model(ids)
    finally:
        for h in handles:
            h.remove()
    return seen


def probe_batch(n_windows=16, split="val"):
    """第 13 章画图与统计用的一批输入：验证集（split="train" 时为训练集）的前 n_windows 个不重叠窗口（[n_windows, 128]）。"""
    if split not in ("train", "val"):
        raise ValueError(f"split={split!r} 只能是 'train' 或 'val'。")
    train_ids, val_ids = encode_corpus()
    inputs, _ = eval_batches(val_ids if split == "val" else train_ids)
    if not 1 <= n_windows <= len(inputs):
        raise ValueError(f"n_windows={n_windows} 应在 1 到 {len(inputs)} 之间（验证集只有这么多个窗口）。")
    return inputs[:n_windows]


class FrozenSigmaLayerNorm(torch.nn.Module):
    """推理时把 σ 冻结成常数的层归一化：y = γ ⊙ (x − μ) / σ₀ + β，σ₀ 不再随词元变化。

    μ 仍然逐个词元计算（减均值是线性运算），只有除以 σ 这一步（唯一的非线性）换成了除以常数。
    """

    def __init__(self, norm, sigma):
        super().__init__()
        self.scale, self.shift = norm.scale, norm.shift
        self.register_buffer("sigma", torch.as_tensor(float(sigma)))

    def forward(self, x):
        return self.scale * (x - x.mean(dim=-1, keepdim=True)) / self.sigma + self.shift


@torch.no_grad()
def typical_sigmas(model, ids):
    """每个层归一化输入的 σ（逐词元，有偏，含 eps）在 ids 上的平均值：{名字: 数}。"""
    out = {}
    for name, x in norm_inputs(model, ids).items():
        norm = dict(layer_norms(model))[name]
        out[name] = torch.sqrt(x.var(dim=-1, unbiased=False) + norm.eps).mean().item()
    return out


def freeze_sigmas(model, sigmas, names=None):
    """把 model 里的层归一化换成 FrozenSigmaLayerNorm（原地修改并返回 model）。

    sigmas 来自 typical_sigmas；names 给出只冻结哪几个（如 ["final_norm"]），默认全部冻结。
    """
    all_names = [name for name, _ in layer_norms(model)]
    names = all_names if names is None else list(names)
    unknown = [n for n in names if n not in all_names]
    if unknown:
        raise ValueError(f"模型里没有这些层归一化：{', '.join(map(repr, unknown))}；可选的名字是 {', '.join(all_names)}。")
    missing = [n for n in names if n not in sigmas]
    if missing:
        raise ValueError(f"sigmas 里缺少这些层归一化的 σ：{', '.join(missing)}；请用 typical_sigmas(model, ids) 得到完整的字典。")
    for i, blk in enumerate(model.trf_blocks, start=1):
        for attr in ("norm1", "norm2"):
            if f"块 {i} {attr}" in names:
                setattr(blk, attr, FrozenSigmaLayerNorm(getattr(blk, attr), sigmas[f"块 {i} {attr}"]))
    if "final_norm" in names:
        model.final_norm = FrozenSigmaLayerNorm(model.final_norm, sigmas["final_norm"])
    return model


@torch.no_grad()
def summarize(model, ids, val_ids):
    """第 13 章的结论所依据的统计量（维护者一步对其他种子算同样的数，tests/test_seed_robustness.py 复核）。

    每个层归一化：输入逐词元 σ 的中位数、5% 与 95% 分位数、最大/最小；|μ| 的中位数；
    输入 |x| 的最大值与中位数之比、各通道平均 |x| 的最大值与中位数之比（「巨大激活」）；
    γ 的最小、最大、平均，|β| 的平均。另有验证损失：原样、去掉全部 β、
    冻结全部 σ（σ₀ 取训练集前 16 个窗口上的平均，不看验证集）。
    """
    import copy

    stats = {}
    for name, x in norm_inputs(model, ids).items():
        norm = dict(layer_norms(model))[name]
        sigma = x.std(dim=-1, unbiased=False).flatten()
        chan = x.abs().mean(dim=(0, 1))
        stats[name] = {
            "sigma_median": sigma.median().item(), "sigma_p05": sigma.quantile(0.05).item(),
            "sigma_p95": sigma.quantile(0.95).item(), "sigma_min": sigma.min().item(), "sigma_max": sigma.max().item(),
            "abs_mu_median": x.mean(dim=-1).abs().median().item(),
            "max_abs_over_median": (x.abs().max() / x.abs().median()).item(),
            "top_channel_over_median": (chan.max() / chan.median()).item(),
            "top_channel": int(chan.argmax()),
            "gamma_min": norm.scale.min().item(), "gamma_max": norm.scale.max().item(),
            "gamma_mean": norm.scale.mean().item(), "beta_abs_mean": norm.shift.abs().mean().item(),
        }
    no_beta = copy.deepcopy(model)
    for _, norm in layer_norms(no_beta):
        norm.shift.zero_()
    frozen = freeze_sigmas(copy.deepcopy(model), typical_sigmas(model, probe_batch(16, 'train')))
    return {"norms": stats, "val_loss": evaluate(model, val_ids), "val_loss_no_beta": evaluate(no_beta, val_ids),
            "val_loss_frozen_sigma": evaluate(frozen, val_ids)}
