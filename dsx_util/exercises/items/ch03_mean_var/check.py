# 导入：标准库、torch、feedback、module_checks、torch_checks。
"""检查学习者的 ``fn(x) -> (mean, var)``：沿最后一维、保留维度、有偏方差。

均值和方差分别与一组“错误模型”（维度不对、没有 keepdim、无偏方差）比较，找出最具体的解释。
都不吻合时逐步诊断：常数行的均值等于那个数、方差为 0；平移时均值跟着平移、方差不变；
乘以 a 时方差变为 a² 倍；各行互不影响。
"""
from __future__ import annotations

import functools
import itertools

from ...feedback import NOT_DONE, RAISED, TIMEOUT, WRONG_OUTPUT, WRONG_SHAPE_OR_DTYPE, checker, fmt_num
from ...torch_checks import RAISES, describe_value, find_models, fmt_shape, max_abs_diff, run_model
from ...module_checks import worst



CODES = {
    "wrong_dim": "均值或方差没有沿最后一维计算",
    "missing_keepdim": "没有保留被归约的维度（keepdim），结果少了一维",
    "unbiased_variance": "方差用了无偏估计（除以 H−1），这里要有偏估计（除以 H）",
    "wrong_shape_or_dtype": "返回值不是 (均值, 方差) 两个与输入 dtype 相同的张量",
    "mean_of_constant_wrong": "元素全相同的一行，均值应等于那个数",
    "mean_not_shift_equivariant": "整行加上常数 c 后，均值应正好增加 c",
    "variance_of_constant_not_zero": "元素全相同的一行，方差应为 0",
    "variance_not_shift_invariant": "整行加上常数后，方差应不变",
    "variance_not_quadratic": "整行乘以 a 后，方差应变为 a² 倍",
    "rows_mixed": "一行的结果受到了其他行的影响：每行只用自己的数",
}

H = 8
_NAMES = {"random": "标准正态随机输入", "scales": "各行尺度不同的输入", "square": "方阵输入",
          "vector": "一维输入"}


@functools.cache
def _fixture():
    import torch
    g = torch.Generator().manual_seed(4321)
    inputs = {
        "random": torch.randn(2, 3, H, generator=g),
        "scales": torch.randn(4, H, generator=g) * torch.tensor([[0.5], [1.0], [10.0], [100.0]])
        + torch.tensor([[1.0], [-3.0], [20.0], [0.0]]),
        "square": torch.randn(H, H, generator=g),
        "vector": torch.randn(H, generator=g),
    }
    keys = list(inputs)
    mean_models, var_models = [], []
    for dim, keep, unbiased in itertools.product((-1, 0, 1, -2, None), (True, False), (False, True)):
        codes = []
        if dim != -1:
            codes.append("wrong_dim")
        if not keep and dim is not None:
            codes.append("missing_keepdim")
        cfg = dict(dim=dim, keepdim=keep)
        if not unbiased:
            mean_models.append((tuple(codes), [run_model(_mean, inputs[k], cfg) for k in keys]))
        if unbiased:
            codes.append("unbiased_variance")
        var_models.append((tuple(codes), [run_model(_var, inputs[k], cfg, unbiased) for k in keys]))
    return inputs, keys, mean_models, var_models


def _mean(x, cfg):
    x = x.double()
    return x.mean() if cfg["dim"] is None and not cfg["keepdim"] else x.mean(dim=cfg["dim"], keepdim=cfg["keepdim"])


def _var(x, cfg, unbiased):
    x = x.double()
    if cfg["dim"] is None and not cfg["keepdim"]:
        return x.var(unbiased=unbiased)
    return x.var(dim=cfg["dim"], keepdim=cfg["keepdim"], unbiased=unbiased)


def _where(k, x):
    return f"形状 {fmt_shape(x.shape)} 的{_NAMES[k]}"


@checker(__name__, CODES, runner=True)
def check_mean_var(fn, run):
    """检查 ``fn(x) -> (mean, var)``（错误代码见 CODES）。"""
    import torch
    inputs, keys, mean_models, var_models = _fixture()
    means, variances, first_error, dtype_msg = [], [], None, None
    for k in keys:
        x = inputs[k]
        out = run.call(fn, x.clone())
        if not out.ok:
            if out.code in (NOT_DONE, TIMEOUT):
                return [(out.code, out.message)]
            first_error = first_error or (k, out)
            means.append(RAISES)
            variances.append(RAISES)
            continue
        value = out.value
        if not isinstance(value, (tuple, list)) or len(value) != 2:
            return [(WRONG_SHAPE_OR_DTYPE, f"对{_where(k, x)}，你返回了 {describe_value(value)}，"
                                           f"应返回 (均值, 方差) 两个张量。")]
        for name, v in zip(("均值", "方差"), value):
            if not isinstance(v, torch.Tensor):
                return [(WRONG_SHAPE_OR_DTYPE, f"对{_where(k, x)}，你返回的{name}是 {describe_value(v)}，"
                                               f"应是 PyTorch 张量。")]
            if v.dtype != x.dtype and dtype_msg is None:
                dtype_msg = (f"对{_where(k, x)}，你返回的{name}的 dtype 是 "
                             f"{str(v.dtype).replace('torch.', '')}，应与输入相同（float32）。")
        means.append(value[0].detach())
        variances.append(value[1].detach())

    findings = [(WRONG_SHAPE_OR_DTYPE, dtype_msg)] if dtype_msg else []
    for name, got, models in (("均值", means, mean_models), ("方差", variances, var_models)):
        matches = find_models(got, models, atol=1e-5, rtol=1e-4)
        if not matches:
            steps = _stepwise(fn, run, name)
            findings += steps or [_unexplained(name, got, models, inputs, keys, first_error)]
            continue
        for code in models[matches[0]][0]:
            findings.append(_explain(code, name, got, models, inputs, keys))
    # 同一代码只保留第一条（均值与方差都犯同一种错时，说一次即可）
    return findings


def _explain(code, name, got, models, inputs, keys):
    import torch
    right = models[0][1]   # 第一个模型是正确答案
    if code == "unbiased_variance":
        k = "random"
        y, want = got[keys.index(k)], right[keys.index(k)]
        ratio = float("nan")
        if isinstance(y, torch.Tensor) and y.numel() == want.numel():
            ratio = float(y.double().sum() / want.sum())  # 形状不同（少了 keepdim）也能比
        return (code, f"在{_where(k, inputs[k])}上，你的方差约是正确结果的 {fmt_num(ratio)} 倍 "
                      f"= H/(H−1) = {fmt_num(H / (H - 1))}：除以了 H−1（无偏估计），这里要有偏估计（除以 H）。")
    # wrong_dim / missing_keepdim：找第一个与正确答案不同的输入，报告形状或数值
    for k, y, want in zip(keys, got, right):
        if not isinstance(y, torch.Tensor) or not isinstance(want, torch.Tensor):
            continue
        if y.shape != want.shape:
            evidence = (f"对{_where(k, inputs[k])}，你的{name}形状是 {fmt_shape(y.shape)}，"
                        f"应是 {fmt_shape(want.shape)}")
            break
        if max_abs_diff(y, want) > 1e-4:
            evidence = (f"在{_where(k, inputs[k])}上，你的{name}与正确结果最大相差 "
                        f"{fmt_num(max_abs_diff(y, want))}")
            break
    else:
        evidence = f"在{_where('vector', inputs['vector'])}上你的代码报错了"
    if code == "wrong_dim":
        return (code, evidence + "：要对每个词元沿最后一维（嵌入维度）计算。")
    return (code, evidence + "：少了被归约的那一维，之后与 x 相减时会广播到错误的方向。")


def _unexplained(name, got, models, inputs, keys, first_error):
    import torch
    right = models[0][1]
    for k, y, want in zip(keys, got, right):
        if y is RAISES:
            continue
        if y.shape != want.shape:
            return (WRONG_SHAPE_OR_DTYPE, f"对{_where(k, inputs[k])}，你的{name}形状是 {fmt_shape(y.shape)}，"
                                          f"应是 {fmt_shape(want.shape)}。")
        if max_abs_diff(y, want) > 1e-4:
            if bool(torch.isnan(y).any()):
                return (WRONG_OUTPUT, f"在{_where(k, inputs[k])}上，你的{name}里有 NaN。")
            return (WRONG_OUTPUT, f"在{_where(k, inputs[k])}上，你的{name}与正确结果最大相差 "
                                  f"{fmt_num(max_abs_diff(y, want))}，不像任何一种常见错误。")
    if first_error:
        k, out = first_error
        return (RAISED, f"在{_where(k, inputs[k])}上，{out.message}")
    return (WRONG_OUTPUT, f"你的{name}与正确结果不一致。")


# ---------------------------------------------------------------------------
# 逐步诊断：没有错误模型吻合时，检查每个正确的均值/方差都有的性质
# ---------------------------------------------------------------------------
@functools.cache
def _probe():
    """第 0 行元素全是 2.0；其余各行均值、尺度不同。"""
    import torch
    g = torch.Generator().manual_seed(11)
    rest = torch.randn(3, H, generator=g) * torch.tensor([[1.0], [2.0], [0.5]]) + torch.tensor([[3.0], [-1.0], [0.0]])
    return torch.cat([torch.full((1, H), 2.0), rest])


def _stepwise(fn, run, name):
    """name 是 “均值” 或 “方差”；返回每条不满足的性质一行说明。"""
    import torch

    which = 0 if name == "均值" else 1
    x = _probe()

    def value(inp):
        out = run.call(fn, inp.clone())
        v = out.value[which] if out.ok and isinstance(out.value, (tuple, list)) and len(out.value) == 2 else None
        if not isinstance(v, torch.Tensor) or v.numel() != inp.numel() // H or not bool(torch.isfinite(v).all()):
            return None
        return v.detach().double().reshape(-1)

    v = value(x)
    if v is None:
        return []
    findings = []
    if which == 0:
        if abs(float(v[0]) - 2.0) > 1e-4:
            hint = f"，正好是 H = {H} 倍：求和之后还要除以 H" if abs(float(v[0]) - 2.0 * H) < 1e-3 else ""
            findings.append(("mean_of_constant_wrong",
                             f"第 0 行的 {H} 个元素都是 2，均值应为 2，你的是 {fmt_num(v[0])}{hint}。"))
        shifted = value(x + 3.0)
        if shifted is not None:
            i, d = worst(shifted - v - 3.0)
            if abs(d) > 1e-4:
                findings.append(("mean_not_shift_equivariant",
                                 f"整行加上 3 之后，第 {i} 行的均值应正好增加 3，你的增加了 {fmt_num(shifted[i] - v[i])}。"))
    else:
        if abs(float(v[0])) > 1e-4:
            hint = "：像是没有先减去均值 μ（2² = 4）" if abs(float(v[0]) - 4.0) < 1e-3 else ""
            findings.append(("variance_of_constant_not_zero",
                             f"第 0 行的 {H} 个元素都是 2，方差应为 0，你的是 {fmt_num(v[0])}{hint}。"))
        shifted = value(x + 3.0)
        if shifted is not None:
            i, d = worst(shifted - v)
            if abs(d) > 1e-4 * (1 + float(v.abs().max())):
                findings.append(("variance_not_shift_invariant",
                                 f"整行加上 3 之后，第 {i} 行的方差从 {fmt_num(v[i])} 变成了 {fmt_num(shifted[i])}，"
                                 f"应该不变：方差只看各元素离均值 μ 有多远。"))
        tripled = value(x * 3.0)
        if tripled is not None:
            ok = (tripled - 9.0 * v).abs() <= 1e-4 * (1 + 9.0 * v.abs())
            if not bool(ok.all()):
                i = int((~ok).nonzero()[0])
                ratio = float(tripled[i] / v[i]) if float(v[i]) != 0 else float("nan")
                hint = "：像是没有平方（例如用了绝对值或标准差）" if abs(ratio - 3.0) < 1e-3 else ""
                findings.append(("variance_not_quadratic",
                                 f"整行乘以 3 之后，第 {i} 行的方差应变为 3² = 9 倍，你的变为 {fmt_num(ratio)} 倍{hint}。"))
    x3 = x.reshape(2, 2, H)
    a, changed = value(x3), x3.clone()
    changed[0, 0] = changed[0, 0] * 3.0 + 7.0
    b = value(changed)
    if a is not None and b is not None and float((a - b)[1:].abs().max()) > 1e-5:
        findings.append(("rows_mixed",
                         f"输入形状 {fmt_shape(x3.shape)}，只改动第 (0, 0) 行后，别的行的{name}也变了，"
                         f"最大变化 {fmt_num((a - b)[1:].abs().max())}：每行只用它自己的 H 个数。"))
    return findings


__all__ = ["check_mean_var", "CODES"]
