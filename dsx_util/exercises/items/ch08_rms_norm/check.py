# 导入：标准库、torch、feedback、module_checks、torch_checks。
"""检查学习者自己写的 RMSNorm（均方根归一化）：``cls(emb_dim, eps=1e-6)``，参数 ``scale``。

与层归一化检查器同样的思路：把学习者的输出与多种错误模型（减了均值、ε 放错位置、
用求和代替求均值、维度不对……及其组合）比较，报告最具体的那一个。都不吻合时逐步诊断：
每行均方约为 1、输出与输入成比例、整行缩放不变、逐特征乘 γ、各行互不影响。
"""
from __future__ import annotations

import functools
import itertools

from ...feedback import WRONG_OUTPUT, WRONG_SHAPE_OR_DTYPE, checker, fmt_num
from ...torch_checks import find_models, fmt_shape, max_abs_diff, run_model
from ...module_checks import build_module, eps_used, output, rows_mixed_finding, run_forward, set_params, worst



CODES = {
    "subtracts_mean": "减去了均值：均方根归一化不做中心化，直接除以均方根",
    "eps_outside_sqrt": "ε 加在了平方根外面，应加在均方 mean(x²) 上、再开平方",
    "eps_missing": "没有加 ε：全零的行会出现 0/0",
    "sum_not_mean": "用了平方和而不是平方的均值",
    "wrong_dim": "均方没有沿最后一维（嵌入维度）计算",
    "not_parameters": "scale 不是可学习参数，不在 .parameters() 里",
    "wrong_init": "scale 的初始值应全为 1",
    "wrong_param_shape": "scale 的形状应是 (emb_dim,)",
    "wrong_shape_or_dtype": "返回值不是与输入同形状、同 dtype 的张量",
    "row_rms_not_one": "γ = 1 时每行输出的均方不是 mean(x²)/(mean(x²) + ε) ≈ 1：除以的不是均方根",
    "not_proportional": "输出不是输入这一行的倍数：均方根归一化只把整行除以一个数",
    "not_scale_invariant": "把一行乘以正数后输出变了：正确的均方根归一化（除 ε 的影响外）不受整行缩放的影响",
    "gamma_not_featurewise": "输出没有逐特征乘以 γ[j]",
    "rows_mixed": "一行的输出受到了其他行输入的影响",
    "eps_ignored": "构造函数传入的 eps 没有用上（forward 里写死了 1e-6）",
    "extra_parameters": "除了 scale 还有别的可学习参数（例如平移参数 β）：均方根归一化只有 scale",
}

H = 8
EPS = 1e-6
_IGNORES_SCALE = "_ignores_scale"
_NAMES = {
    "offset": "均值约为 1 的随机输入",
    "scales": "各行尺度相差很大（0.1 到 1000）的输入",
    "tiny": "含一行均方根约 10⁻³、一行全零的输入",
    "vector": "一维输入",
}


def _where(k, x):
    return f"形状 {fmt_shape(x.shape)} 的{_NAMES[k]}"


@functools.cache
def _fixture():
    import torch
    g = torch.Generator().manual_seed(2024)
    tiny_row = torch.randn(H, generator=g)
    inputs = {
        "offset": torch.randn(2, 3, H, generator=g) + 1.0,
        "scales": (torch.randn(4, H, generator=g) + 1.0) * torch.tensor([[0.1], [1.0], [100.0], [1000.0]]),
        "tiny": torch.stack([1e-3 * tiny_row / tiny_row.pow(2).mean().sqrt(), torch.zeros(H),
                             torch.randn(H, generator=g) + 0.5]),
        "vector": torch.randn(H, generator=g) - 0.7,
    }
    gamma = (1.0 + 0.5 * torch.rand(H, generator=g)) * torch.where(torch.arange(H) % 3 == 0, -1.0, 1.0)
    keys = list(inputs)
    candidates = []
    for dim, center, reduce, eps_kind, affine in itertools.product(
            (-1, 0, 1, -2, None), ("none", "both", "num", "den"), ("mean", "sum"),
            ("inside", "outside", "missing"), ("ok", "none")):
        codes = []
        if center != "none":
            codes.append("subtracts_mean")
        if eps_kind != "inside":
            codes.append("eps_outside_sqrt" if eps_kind == "outside" else "eps_missing")
        if reduce == "sum":
            codes.append("sum_not_mean")
        if dim != -1:
            codes.append("wrong_dim")
        if affine == "none":
            codes.append(_IGNORES_SCALE)
        cfg = dict(dim=dim, center=center, reduce=reduce, eps_kind=eps_kind, affine=affine)
        candidates.append((tuple(codes), [run_model(_model, inputs[k], gamma, cfg) for k in keys]))
    return inputs, gamma, keys, candidates


def _model(x, gamma, cfg, eps=EPS):
    """一种（可能有错的）均方根归一化，用 float64 计算。"""
    import torch
    EPS = eps  # noqa: N806 -- 下面的公式里写 EPS，与模块常量同名
    x = x.double()
    dim = cfg["dim"]

    def reduce(t):
        if dim is None:
            return t.mean() if cfg["reduce"] == "mean" else t.sum()
        return t.mean(dim, keepdim=True) if cfg["reduce"] == "mean" else t.sum(dim, keepdim=True)

    centered = x - (x.mean() if dim is None else x.mean(dim, keepdim=True))
    num = centered if cfg["center"] in ("both", "num") else x
    sq = reduce((centered if cfg["center"] in ("both", "den") else x) ** 2)
    if cfg["eps_kind"] == "inside":
        norm = num / torch.sqrt(sq + EPS)
    elif cfg["eps_kind"] == "outside":
        norm = num / (torch.sqrt(sq) + EPS)
    else:
        norm = num / torch.sqrt(sq)
    return gamma.double() * norm if cfg["affine"] == "ok" else norm


@checker(__name__, CODES, runner=True)
def check_rms_norm(factory, run):
    """检查 ``cls_or_factory(emb_dim)`` 创建的 RMSNorm（见 CODES）。"""
    import torch
    inputs, gamma, keys, candidates = _fixture()
    m, findings = build_module(factory, run, H, [("scale", "缩放参数 γ", 1.0)], [gamma])
    if m is None:
        return findings
    res = run_forward(m, run, inputs, keys, _where)
    if res["stop"]:
        return findings + res["stop"]
    if res["shape_msg"]:
        return findings + [(WRONG_SHAPE_OR_DTYPE, res["shape_msg"])]
    if res["dtype_msg"]:
        findings.append((WRONG_SHAPE_OR_DTYPE, res["dtype_msg"]))
    got = res["got"]
    right = candidates[0][1]
    matches = find_models(got, candidates)
    if not matches:
        if res["first_error"]:
            k, out = res["first_error"]
            return findings + [("raised", f"在{_where(k, inputs[k])}上，{out.message}")]
        steps = _stepwise(m, run)
        if steps:
            return findings + steps
        for k, y, want in zip(keys, got, right):
            if not torch.allclose(y.double(), want, atol=1e-4, rtol=1e-4, equal_nan=True):
                if bool(torch.isnan(y).any()):
                    return findings + [(WRONG_OUTPUT, f"在{_where(k, inputs[k])}上，你的输出里有 NaN。")]
                return findings + [(WRONG_OUTPUT, f"在{_where(k, inputs[k])}上，你的输出与正确结果最大相差 "
                                                  f"{fmt_num(max_abs_diff(y, want))}；逐条性质都满足，请核对 ε 的取值。")]
        return findings + [(WRONG_OUTPUT, "输出与正确结果不一致。")]

    def diff_on(k):
        return fmt_num(max_abs_diff(got[keys.index(k)], right[keys.index(k)]))

    for code in candidates[matches[0]][0]:
        if code == "subtracts_mean":
            msg = (f"在{_where('offset', inputs['offset'])}上，你的输出与正确结果最大相差 {diff_on('offset')}，"
                   f"与“先减去均值”的结果一致：均方根归一化不做中心化。")
        elif code == "eps_outside_sqrt":
            y, want = got[keys.index("tiny")], right[keys.index("tiny")]
            msg = (f"在均方根约 10⁻³ 的那一行上，你的输出第 0 个是 {fmt_num(y[0, 0])}，应为 "
                   f"{fmt_num(want[0, 0])}：ε 要加在均方上再开平方。")
        elif code == "eps_missing":
            y = got[keys.index("tiny")]
            msg = f"在全零的那一行上，你的输出是 {fmt_num(y[1, 0])}（0/0），应为 0：分母里缺了 ε。"
        elif code == "sum_not_mean":
            k = "offset"
            y, want = got[keys.index(k)], right[keys.index(k)]
            ratio = float((y.double() * want).sum() / (want * want).sum()) if isinstance(y, torch.Tensor) else float("nan")
            msg = (f"在{_where(k, inputs[k])}上，你的输出约是正确结果的 {fmt_num(ratio)} 倍 ≈ 1/√H = "
                   f"{fmt_num(H ** -0.5)}：分母里用了平方和，应该用平方的均值。")
        elif code == "wrong_dim":
            k = max(keys, key=lambda k: max_abs_diff(got[keys.index(k)], right[keys.index(k)])
                    if isinstance(got[keys.index(k)], torch.Tensor) else -1.0)
            msg = (f"在{_where(k, inputs[k])}上，你的输出与正确结果最大相差 {diff_on(k)}："
                   f"均方要对每个词元沿最后一维（嵌入维度）各算一份。")
        else:  # 忽略了 scale
            code, msg = WRONG_OUTPUT, "把 scale 设成别的值后，你的输出没有随之改变：forward 里没有用到 self.scale。"
        findings.append((code, msg))
    if not findings:
        findings += _only_scale(m) + eps_used(
            factory, run, H, 0.5, EPS, {"scale": gamma}, inputs["offset"],
            lambda x, e: _model(x, gamma, dict(dim=-1, center="none", reduce="mean", eps_kind="inside", affine="ok"), e))
    return findings


def _only_scale(m):
    """题目：只有一个可学习参数 scale，没有平移参数 β。"""
    extra = [name for name, p in m.named_parameters() if name != "scale"] if hasattr(m, "named_parameters") else []
    if extra:
        return [("extra_parameters", f"除了 scale，你的模块还有可学习参数 `{extra[0]}`：均方根归一化只有缩放参数 γ，"
                                     f"没有平移参数 β，多出来的参数会被训练、也会让 state_dict 对不上。")]
    return []


@functools.cache
def _probes():
    """逐步诊断用的输入：各行尺度不同、均值不为 0 的 (4, H)，和看各行是否互相影响的 (2, 3, H)。"""
    import torch
    g = torch.Generator().manual_seed(7)
    x = (torch.randn(4, H, generator=g) + 0.8) * torch.tensor([[0.5], [1.0], [3.0], [10.0]])
    return x, torch.randn(2, 3, H, generator=g) + 0.5, 0.5 + 2.0 * torch.rand(H, generator=g)


def _stepwise(m, run):
    """没有错误模型吻合时，逐条检查均方根归一化的性质；每条不满足的性质一行说明。"""
    import torch

    x, x3, gamma = _probes()
    ones = torch.ones(H)

    def run_with(inp, g):
        return output(run, m, inp) if set_params(m, {"scale": g}) else None

    findings = []
    y = run_with(x, ones)
    if y is None:
        return findings
    ms_x = x.double().pow(2).mean(-1)
    want = ms_x / (ms_x + EPS)
    ms_y = y.pow(2).mean(-1)
    i, _ = worst(ms_y / want - 1)
    if abs(float(ms_y[i] / want[i]) - 1) > 1e-2:
        hint = "除以 √(mean(x²) + ε)"
        if bool(((ms_y * ms_x / want - 1).abs() < 1e-2).all()):
            hint = "像是除以了均方 mean(x²) + ε 本身，没有开平方"
        findings.append(("row_rms_not_one",
                         f"γ = 1 时，你的输出第 {i} 行的均方 mean(y²) 是 {fmt_num(ms_y[i])}，应为 mean(x²)/(mean(x²) + ε) ≈ "
                         f"{fmt_num(want[i])}（这一行输入的均方 ms = {fmt_num(ms_x[i])}）：{hint}。"))
    ratio = y / x.double()
    spread = (ratio.max(-1).values - ratio.min(-1).values).abs()
    i, _ = worst(spread / ratio.abs().mean(-1))
    if float(spread[i]) > 1e-3 * float(ratio[i].abs().mean()):
        findings.append(("not_proportional",
                         f"你的输出第 {i} 行与输入之比从 {fmt_num(ratio[i].min())} 到 {fmt_num(ratio[i].max())} 不等，"
                         f"应是同一个数：均方根归一化不减均值、不加常数，只把整行除以它的均方根。"))
    y4 = run_with(x * 4.0, ones)
    if y4 is not None:
        d = float((y4 - y).abs().nan_to_num(float("inf")).max())
        if d > 2e-3:
            findings.append(("not_scale_invariant",
                             f"把每一行乘以 4 后，你的输出变了，最大变化 {fmt_num(d)}；除了 ε 的微小影响，应该不变。"))
    y_g = run_with(x, gamma)
    if y_g is not None and float((y_g - y * gamma.double()).abs().max()) > 1e-3 * (1 + float(y.abs().max())):
        j = int((y_g - y * gamma.double()).abs().max(0).values.argmax())
        r = float((y_g[:, j] * y[:, j]).sum() / (y[:, j] * y[:, j]).sum())
        findings.append(("gamma_not_featurewise",
                         f"把 scale 设成各不相同的值后，第 {j} 个特征的输出应是 scale = 1 时的 γ[{j}] = "
                         f"{fmt_num(gamma[j])} 倍，你的是 {fmt_num(r)} 倍。"))
    if set_params(m, {"scale": ones}):
        findings += rows_mixed_finding(run, m, x3, "均方根")
    return findings


__all__ = ["check_rms_norm", "CODES"]
