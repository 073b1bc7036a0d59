# 导入：标准库、torch、feedback、torch_checks。
"""练习 ch10-rms-norm-backward 的检查器（题目、模板、参考答案在同一个文件夹；编目的错误写法在 mistakes.py）。"""
from ...feedback import checker, message
from ...torch_checks import close_finite, judge_tensor, randn, try_call

CODES = {
    "not_pair": "应返回 (grad_x, grad_gamma) 两个张量，你返回的是 {kind}。",
    "missing_projection_term": "grad_x 少了经过 RMS 的那一项：每个 x 都通过 RMS 影响这一行的所有输出，"
                               "要减去 x̂·mean(γ·grad_out·x̂)，再乘 1/RMS。",
    "projection_term_sum": "grad_x 里经过 RMS 的那一项用了求和：它是 γ·grad_out·x̂ 沿最后一维的平均（除以 H），你的大了 H 倍。",
    "projection_term_sign": "grad_x 里经过 RMS 的那一项符号反了：x̂·mean(γ·grad_out·x̂) 是减去的，不是加上的。",
    "layer_norm_mean_term": "grad_x 多减了一项 mean(γ·grad_out)：那是层归一化里经过均值 μ 的一项，RMSNorm 不减均值，没有这一项。",
    "wrong_scale": "grad_x 结构对了，整体大小不对：对 x̂ = x/RMS 求导，整体要乘 1/RMS（RMS = √(mean(x²)+ε)）。",
    "gamma_ignored": "grad_x 没有用到 gamma：y = γ·x̂，传到 x̂ 的梯度要先乘上 γ。",
    "eps_outside_root": "eps={eps} 时不对：ε 要加在根号里，RMS = √(mean(x²) + ε)，你的像是 √mean(x²) + ε。",
    "eps_ignored": "eps={eps} 时结果和 eps=1e-5（或不加 ε）时一样：RMS = √(mean(x²) + ε) 里要用参数 eps，不要写死。",
    "dgamma_wrong_axes": "{label}grad_gamma 的形状是 {got}，应与 gamma 相同 {want}：γ 被所有行共用，"
                         "要对除最后一维外的所有维度求和（三维输入是前两维），不是沿最后一维、也不只是第 0 维。",
    "dgamma_missing_xhat": "grad_gamma 是 grad_out 的和：那是平移参数 β 的梯度。y = γ·x̂ 对 γ 求导是 x̂，要对 grad_out·x̂ 求和。",
    "dgamma_times_gamma": "grad_gamma 多乘了 γ：y = γ·x̂ 对 γ 求导是 x̂，γ 的梯度是 grad_out·x̂ 的和，不含 γ。",
    "not_orthogonal_to_x": "{label}grad_x 第 {row} 行与 x 的内积是 {got}，应约为 0：ε 可以忽略时，整行乘以正数不改变 RMSNorm 的输出，"
                           "所以 Σ dL/dx·x ≈ 0——经过 RMS 的那一项不对或缺了。",
    "rms_not_per_row": "r = 1/√(mean(x²)+ε) 算错了：要对每一行沿最后一维求 x² 的平均（不减均值），"
                       "你的像是{how}。grad_x 和 grad_gamma 都用到 x̂ = x·r，所以两个都不对。",
    "eps_misused": "ε 的用法不对：eps=1e-5 时只差约 10⁻⁵（像舍入误差），eps={eps} 时差得很远，说明错处随 ε 变大。"
                   "RMS = √(mean(x²) + ε)：把参数 eps 原样加在根号里（不平方、不写死成别的数）。",
    "rms_suspect": "{label}grad_x 和 grad_gamma 都不对，两者共用的是 r = 1/√(mean(x²)+ε) 和 x̂ = x·r："
                   "先查 r 是不是每一行沿最后一维算的（对 x² 求平均，不减均值、不跨行）。",
}

_RMS_HOW = {"all": "对整个张量求平均（跨了行）", "centred": "先减去均值再求平方的平均（那是方差）"}

_DX_FLAGS = {"proj": ["ok", "none", "sum", "sign"], "mean_term": [False, True], "use_gamma": [True, False],
             "scale": ["inv", "none", "var"], "eps_mode": ["in", "out", "fixed", "zero"],
             "rms_mode": ["row", "all", "centred"]}
_DX_CODES = {("proj", "none"): "missing_projection_term", ("proj", "sum"): "projection_term_sum",
             ("proj", "sign"): "projection_term_sign", ("mean_term", True): "layer_norm_mean_term",
             ("use_gamma", False): "gamma_ignored", ("scale", "none"): "wrong_scale", ("scale", "var"): "wrong_scale",
             ("eps_mode", "out"): "eps_outside_root", ("eps_mode", "fixed"): "eps_ignored",
             ("eps_mode", "zero"): "eps_ignored", ("rms_mode", "all"): "rms_not_per_row",
             ("rms_mode", "centred"): "rms_not_per_row"}
_DG_FLAGS = {"xhat": [True, False], "times_gamma": [False, True], "eps_mode": ["in", "out", "fixed", "zero"],
             "rms_mode": ["row", "all", "centred"]}
_DG_CODES = {("xhat", False): "dgamma_missing_xhat", ("times_gamma", True): "dgamma_times_gamma",
             ("eps_mode", "out"): "eps_outside_root", ("eps_mode", "fixed"): "eps_ignored",
             ("eps_mode", "zero"): "eps_ignored", ("rms_mode", "all"): "rms_not_per_row",
             ("rms_mode", "centred"): "rms_not_per_row"}


def _inv_rms(x, eps, eps_mode="in", rms_mode="row"):
    import torch
    ms = {"row": lambda: (x * x).mean(-1, keepdim=True), "all": lambda: (x * x).mean(),
          "centred": lambda: x.var(-1, keepdim=True, unbiased=False)}[rms_mode]()
    if eps_mode == "out":
        return 1 / (torch.sqrt(ms) + eps)
    return 1 / torch.sqrt(ms + {"fixed": 1e-5, "zero": 0.0}.get(eps_mode, eps))


def _dx(x, gamma, g, eps, proj="ok", mean_term=False, use_gamma=True, scale="inv", eps_mode="in", rms_mode="row"):
    s = _inv_rms(x, eps, eps_mode, rms_mode)
    xhat = x * s
    gg = g * gamma if use_gamma else g
    b = (gg * xhat).mean(-1, keepdim=True)
    term = {"ok": 1.0, "none": 0.0, "sum": float(x.shape[-1]), "sign": -1.0}[proj]
    core = gg - term * xhat * b - (gg.mean(-1, keepdim=True) if mean_term else 0.0)
    return {"inv": core * s, "none": core, "var": core * s * s}[scale]


def _dgamma(x, gamma, g, eps, xhat=True, times_gamma=False, eps_mode="in", rms_mode="row"):
    rows = tuple(range(x.dim() - 1))
    part = g * _inv_rms(x, eps, eps_mode, rms_mode) * x if xhat else g
    return (part * gamma if times_gamma else part).sum(dim=rows)


def _search(value, model, flags, codes_of, x, gamma, g, eps):
    """与一处或两处典型错误的组合比较；吻合时返回错误代码列表，否则 None。"""
    import itertools
    keys = list(flags)
    for k in (1, 2):
        for chosen in itertools.combinations(keys, k):
            for values in itertools.product(*[flags[c][1:] for c in chosen]):
                setting = dict(zip(chosen, values))
                if setting.get("eps_mode") in ("fixed", "zero") and eps == 1e-5:
                    continue   # ε 本来就是 1e-5：写死或不加 ε 只在 ε 较大的输入上认
                if close_finite(value, model(x, gamma, g, eps, **setting), 1e-6, 1e-5):
                    return [(codes_of[(c, v)], v) for c, v in setting.items()]
    return None


def _fmt(v):
    from ...feedback import fmt_num
    return fmt_num(float(v))


def _judge_dx(value, expected, x, gamma, g, eps, label):
    failure = judge_tensor(value, expected, {}, CODES, label=label + "grad_x：", atol=1e-6, rtol=1e-5)
    if failure is None:
        return []
    if failure[0] != "wrong_output":
        return [failure]
    codes = _search(value, _dx, _DX_FLAGS, _DX_CODES, x, gamma, g, eps)
    if codes is not None:
        return [(c, message(CODES, c, eps=eps, how=_RMS_HOW.get(v, ""))) for c, v in codes]
    if eps == 1e-5:   # 逐步诊断：ε 可忽略时，正确的 dL/dx 与 x 正交
        import torch
        v = value.detach().double().reshape(-1, x.shape[-1])
        x2 = x.reshape(-1, x.shape[-1])
        dots = (v * x2).sum(-1)
        size = float((v.abs() * x2.abs()).sum(-1).max()) + 1e-12
        i = int(dots.abs().argmax())
        if abs(float(dots[i])) > 1e-3 * size and torch.isfinite(v).all():
            return [("not_orthogonal_to_x", message(CODES, "not_orthogonal_to_x", label=label, row=i + 1,
                                                   got=_fmt(dots[i])))]
    return [failure]


def _judge_dgamma(value, expected, x, gamma, g, eps, label):
    import torch
    if isinstance(value, torch.Tensor) and tuple(value.shape) != tuple(expected.shape):
        want = tuple(expected.shape)
        got = tuple(value.shape)
        xh = x * _inv_rms(x, eps)
        wrong_axes = [(g * xh).sum(dim=-1), (g * xh).sum(dim=0), g * xh]
        if any(close_finite(value, w, 1e-6, 1e-5) for w in wrong_axes) or value.dim() != 1:
            return [("dgamma_wrong_axes", message(CODES, "dgamma_wrong_axes", label=label, got=got, want=want))]
    failure = judge_tensor(value, expected, {}, CODES, label=label + "grad_gamma：", atol=1e-6, rtol=1e-5)
    if failure is None:
        return []
    if failure[0] != "wrong_output":
        return [failure]
    codes = _search(value, _dgamma, _DG_FLAGS, _DG_CODES, x, gamma, g, eps)
    if codes is not None:
        return [(c, message(CODES, c, eps=eps, how=_RMS_HOW.get(v, ""))) for c, v in codes]
    return [failure]


@checker(__name__, CODES, each=True)
def check_rms_norm_backward(fn):
    """检查 rms_norm_backward(x, gamma, grad_out, eps)：手推 RMSNorm 对 x 和 γ 的梯度，与 autograd 比较。

    grad_x 与正确结果不同时，先和一处或两处典型错误（缺投影项、求和代替平均、符号、多了层归一化的均值项、γ、1/RMS、
    ε 在根号外或写死）的组合比较；都不像时检查 ε 可忽略时的性质 Σ dL/dx·x ≈ 0。grad_gamma 先看形状（求和的维度），
    再与典型错误（求 grad_out 的和、多乘 γ、ε 的位置）比较。
    """
    cases = ((0, (3, 6), 1e-5), (1, (2, 4, 8), 1e-5), (2, (3, 5), 0.5))
    for case in cases:
        findings = _run_case(fn, *case)
        if findings and case[2] == 1e-5 and all(c in _VAGUE for c, _ in findings) and _nearly(fn, *case):
            # ε = 1e-5 时 ε 用错只差 10⁻⁵ 左右，读起来像舍入误差：再跑 ε 较大的一组。能认出 ε 的错就报它；
            # 认不出、但那组差得远（误差随 ε 变大），就说是 ε 的用法
            sharper = _run_case(fn, *cases[-1])
            if sharper and any(c in _EPS_CODES for c, _ in sharper):
                findings = sharper
            elif sharper and not _nearly(fn, *cases[-1]):
                findings = [("eps_misused", message(CODES, "eps_misused", eps=cases[-1][2]))]
        if findings:
            return findings
    return []


def _inputs(seed, shape, eps):
    import torch
    x = randn(seed, *shape, dtype=torch.float64) * 1.5 + 0.5
    if eps != 1e-5:
        x = x * 0.3   # 均方与 ε 同量级：ε 的位置与写死 ε 的差别显出来
    gamma = randn(seed + 10, shape[-1], dtype=torch.float64) + 1.0
    g = randn(seed + 20, *shape, dtype=torch.float64)
    xr = x.clone().requires_grad_(True)   # 正确答案由 autograd 算出
    gr = gamma.clone().requires_grad_(True)
    with torch.enable_grad():
        y = gr * xr / torch.sqrt((xr * xr).mean(-1, keepdim=True) + eps)
        want_x, want_g = torch.autograd.grad(y, (xr, gr), g)
    return x, gamma, g, want_x, want_g


def _nearly(fn, seed, shape, eps):
    """这组输入上两个梯度是否都只差千分之一以内（形状对、差得很小）。"""
    x, gamma, g, want_x, want_g = _inputs(seed, shape, eps)
    value, failure = try_call(fn, x.clone(), gamma.clone(), g.clone(), eps=eps)
    if failure is not None or not isinstance(value, (tuple, list)) or len(value) != 2:
        return False
    return all(close_finite(v, w, 1e-4, 1e-3) for v, w in zip(value, (want_x, want_g)))


def _proportional(value, expected):
    """value 与 expected 方向相同、只差一个倍数（余弦 > 0.999）。"""
    import torch
    if not isinstance(value, torch.Tensor) or value.shape != expected.shape:
        return False
    v, w = value.detach().double().flatten(), expected.double().flatten()
    den = float(v.norm() * w.norm())
    return den > 0 and float(v @ w) / den > 0.999


_VAGUE = {"wrong_output", "not_orthogonal_to_x", "rms_suspect"}
_EPS_CODES = {"eps_outside_root", "eps_ignored"}


def _run_case(fn, seed, shape, eps):
    """跑一组输入，返回发现的问题（空列表表示这组通过）。"""
    import torch
    x, gamma, g, want_x, want_g = _inputs(seed, shape, eps)
    given = (x.clone(), gamma.clone(), g.clone())
    value, failure = try_call(fn, *given, eps=eps)
    label = f"eps={eps:g} 时：" if eps != 1e-5 else f"形状 {shape} 的输入上：" if len(shape) == 3 else ""
    if failure is not None:
        return [failure]
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        kind = f"{type(value).__name__}" + (f"（{len(value)} 个元素）" if isinstance(value, (tuple, list)) else "")
        return [("not_pair", message(CODES, "not_pair", kind=kind))]
    findings = _judge_dx(value[0], want_x, x, gamma, g, eps, label)
    dgamma = _judge_dgamma(value[1], want_g, x, gamma, g, eps, label)
    if ([c for c, _ in findings] == ["not_orthogonal_to_x"] and [c for c, _ in dgamma] == ["wrong_output"]
            and not _proportional(value[1], want_g)):
        # 两个梯度都不对、又都不像编目的错：它们共用的只有 r（x̂）——先指向 r，不说投影项错了。
        # grad_gamma 只差一个倍数（例如求了平均）时 x̂ 是对的，不指向 r
        return [("rms_suspect", message(CODES, "rms_suspect", label=label))]
    for f in dgamma:
        if f[0] not in {c for c, _ in findings}:   # ε 或 r 的同一种错在两个梯度里只说一次
            findings.append(f)
    changed = [i for i, (a, b) in enumerate(zip(given, (x, gamma, g)), start=1) if not torch.equal(a, b)]
    if not findings and changed:
        findings = [("modified_input", label + message(CODES, "modified_input", new="张量",
                                                    what=f"第 {changed[0]} 个参数（例如用了 *=、/= 这类原地操作）"))]
    return findings
