# 导入：标准库、torch、feedback、torch_checks。
"""练习 ch10-layer-norm-backward 的检查器（题目、模板、参考答案在同一个文件夹；编目的错误写法在 mistakes.py）。"""
from ...feedback import checker, message
from ...torch_checks import close_finite, judge_tensor, randn, try_call

CODES = {
    "missing_mean_term": "少了经过均值 μ 的那一项：每个 x 都通过 μ 影响这一行的所有输出，要减去 mean(γ·grad_out)。",
    "missing_projection_term": "少了经过方差 σ² 的那一项：每个 x 也通过 σ² 影响这一行的所有输出，要减去 x̂·mean(γ·grad_out·x̂)。",
    "mean_term_sum": "经过均值 μ 的那一项用了求和：它是 γ·grad_out 沿最后一维的平均（除以 H），你的大了 H 倍。",
    "projection_term_sum": "经过方差 σ² 的那一项用了求和：它是 γ·grad_out·x̂ 沿最后一维的平均（除以 H），你的大了 H 倍。",
    "mean_term_sign": "经过均值 μ 的那一项符号反了：它是减去的，不是加上的。",
    "projection_term_sign": "经过方差 σ² 的那一项符号反了：x̂·mean(γ·grad_out·x̂) 是减去的，不是加上的。",
    "wrong_scale": "结构对了，整体大小不对：对 x̂ = (x − μ)/σ 求导，整体要带一个 1/σ（σ = √(σ²+ε)）。",
    "gamma_ignored": "没有用到 gamma：y = γ·x̂ + β，传到 x̂ 的梯度要先乘上 γ。",
    "unbiased_var": "你用了无偏方差（除以 H−1）：层归一化前向用的是有偏方差，反向也要一致。",
    "eps_ignored": "eps={eps} 时结果和 eps=1e-5 时一样：σ = √(σ² + ε) 里要用参数 eps，不要写死。",
    "no_eps": "分母里少了 ε：你的结果与用 √σ²（没有 ε）代替 √(σ² + ε) 的一致；x̂ 和整体的 1/σ 里都要用 σ = √(σ² + ε)，"
              "与前向相同。",
    "row_sum_not_zero": "你的梯度第 {row} 行的和是 {got}，应为 0：层归一化的输出不受整行平移影响，所以 dL/dx 沿最后一维"
                        "的和必为 0——经过均值 μ 的那一项不对或缺了。",
    "not_orthogonal_to_xhat": "你的梯度第 {row} 行与 x̂ 的内积是 {got}，应为 0：输出不受整行缩放影响，所以 Σ dL/dx·x̂ 必为 0"
                              "——经过方差 σ² 的那一项不对或缺了。",
}


def _ln_backward_parts(x, gamma, g, eps, unbiased=False, use_gamma=True):
    var = x.var(-1, keepdim=True, unbiased=unbiased)
    sigma = (var + eps).sqrt()
    xhat = (x - x.mean(-1, keepdim=True)) / sigma
    gg = g * gamma if use_gamma else g
    a = gg.mean(-1, keepdim=True)
    b = (gg * xhat).mean(-1, keepdim=True)
    return sigma, xhat, gg, a, b


_LNB_FLAGS = {"mean_term": ["ok", "none", "sum", "sign"], "proj_term": ["ok", "none", "sum", "sign"],
              "use_gamma": [True, False], "unbiased": [False, True], "scale": ["inv", "none", "mul", "var"],
              "eps_fixed": [False, True, "none"]}


_LNB_FLAG_CODES = {("mean_term", "none"): "missing_mean_term", ("mean_term", "sum"): "mean_term_sum",
                   ("mean_term", "sign"): "mean_term_sign", ("proj_term", "none"): "missing_projection_term",
                   ("proj_term", "sum"): "projection_term_sum", ("proj_term", "sign"): "projection_term_sign",
                   ("use_gamma", False): "gamma_ignored", ("unbiased", True): "unbiased_var",
                   ("scale", "none"): "wrong_scale", ("scale", "mul"): "wrong_scale", ("scale", "var"): "wrong_scale",
                   ("eps_fixed", True): "eps_ignored", ("eps_fixed", "none"): "no_eps"}


_DIRECT_ONLY = ("只算了直接路径 γ·grad_out/σ：还少了两项——经过均值 μ 的 mean(γ·grad_out)，"
                "和经过方差 σ² 的 x̂·mean(γ·grad_out·x̂)，两者都要减去，再整体除以 σ。")


def _lnb_formula(x, gamma, g, eps, mean_term="ok", proj_term="ok", use_gamma=True, unbiased=False, scale="inv",
                 eps_fixed=False):
    eps = {False: eps, True: 1e-5, "none": 0.0}[eps_fixed]   # 用参数、写死 1e-5、没有 ε
    sigma, xhat, gg, a, b = _ln_backward_parts(x, gamma, g, eps, unbiased, use_gamma)
    h = x.shape[-1]
    term = {"ok": 1.0, "none": 0.0, "sum": float(h), "sign": -1.0}
    core = gg - term[mean_term] * a - term[proj_term] * xhat * b
    return {"inv": core / sigma, "none": core, "mul": core * sigma, "var": core / sigma ** 2}[scale]


def _lnb_variants(value, x, gamma, g, eps):
    """与一处或两处典型错误的组合比较；吻合时返回 findings，否则 None。"""
    import itertools
    keys = list(_LNB_FLAGS)
    for k in (1, 2):
        for chosen in itertools.combinations(keys, k):
            for values in itertools.product(*[_LNB_FLAGS[c][1:] for c in chosen]):
                setting = dict(zip(chosen, values))
                if setting.get("eps_fixed") is True and eps == 1e-5:
                    continue
                if close_finite(value, _lnb_formula(x, gamma, g, eps, **setting), 1e-6, 1e-5):
                    codes = [_LNB_FLAG_CODES[(c, v)] for c, v in setting.items()]
                    if set(codes) == {"missing_mean_term", "missing_projection_term"}:
                        return [("missing_mean_term", _DIRECT_ONLY),
                                ("missing_projection_term", CODES["missing_projection_term"])]
                    found = [(c, message(CODES, c, eps=eps)) for c in codes]
                    if len(found) > 1:
                        found[0] = (found[0][0], "同时有两处错误。" + found[0][1])
                    return found
    return None


def _lnb_steps(value, x, eps):
    """逐步诊断：正确的 dL/dx 每行和为 0、与 x̂ 正交。"""
    import torch
    v = value.detach().double().reshape(-1, x.shape[-1])
    x2 = x.reshape(-1, x.shape[-1])
    xhat = (x2 - x2.mean(-1, keepdim=True)) / torch.sqrt(x2.var(-1, keepdim=True, unbiased=False) + eps)
    size = float(v.abs().max()) + 1e-12
    findings = []
    sums = v.sum(-1)
    i = int(sums.abs().argmax())
    if abs(float(sums[i])) > 1e-6 * size * x.shape[-1]:
        findings.append(("row_sum_not_zero", message(CODES, "row_sum_not_zero", row=i + 1, got=_fmt(sums[i]))))
    dots = (v * xhat).sum(-1)
    i = int(dots.abs().argmax())
    if abs(float(dots[i])) > 1e-6 * size * x.shape[-1]:
        findings.append(("not_orthogonal_to_xhat", message(CODES, "not_orthogonal_to_xhat", row=i + 1,
                                                         got=_fmt(dots[i]))))
    return findings


def _fmt(v):
    from ...feedback import fmt_num
    return fmt_num(float(v))


@checker(__name__, CODES, each=True)
def check_layer_norm_backward(fn):
    """检查 layer_norm_backward(x, gamma, grad_out, eps)：手推层归一化对 x 的梯度，与 autograd 比较。

    与正确结果不同时，先和一处或两处典型错误（缺项、求和代替平均、符号、γ、无偏方差、1/σ、写死 ε）的组合比较；
    都不像时检查两条性质：每行梯度之和为 0（经过 μ 的项），与 x̂ 的内积为 0（经过 σ² 的项）。
    """
    import torch
    for seed, shape, eps in ((0, (3, 6), 1e-5), (1, (2, 4, 8), 1e-5), (2, (3, 5), 0.5)):
        x = randn(seed, *shape, dtype=torch.float64) * 1.5 + 0.5
        if eps != 1e-5:
            x = x * 0.3   # 方差与 ε 同量级：写死 ε 的差别显出来
        gamma = randn(seed + 10, shape[-1], dtype=torch.float64) + 1.0
        g = randn(seed + 20, *shape, dtype=torch.float64)
        xr = x.clone().requires_grad_(True)   # 正确答案由 autograd 算出
        with torch.enable_grad():
            mean = xr.mean(-1, keepdim=True)
            var = xr.var(-1, keepdim=True, unbiased=False)
            y = gamma * (xr - mean) / torch.sqrt(var + eps)
            (expected,) = torch.autograd.grad(y, xr, g)
        given = (x.clone(), gamma.clone(), g.clone())
        value, failure = try_call(fn, *given, eps=eps)
        label = f"eps={eps:g} 时：" if eps != 1e-5 else ""
        if failure is None:
            failure = judge_tensor(value, expected, {}, CODES, label=label, atol=1e-6, rtol=1e-5)
        if failure is None:
            if any(not torch.equal(a, b) for a, b in zip(given, (x, gamma, g))):
                return [("modified_input", message(CODES, "modified_input", label=label, index=1))]
            continue
        if failure[0] != "wrong_output":
            return [failure]
        findings = _lnb_variants(value, x, gamma, g, eps)
        if findings is None:
            findings = _lnb_steps(value, x, eps) or [failure]
        return findings
    return []
