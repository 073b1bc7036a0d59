# 导入：torch、feedback、torch_checks。
"""这道练习的检查器（题目、模板、参考答案在同一个文件夹；编目的错误写法与写明的要求在 mistakes.py）。"""
from ...feedback import fmt_pair
from ...feedback import checker, message
from ...torch_checks import changed_inputs, judge_tensor, randn, try_call

CODES = {
    "gamma_not_zero_centered": "{label}结果像是乘了 γ 而不是 (1 + γ)：零中心写法里 γ = 0 表示不缩放。",
    "no_gamma": "{label}结果没有乘 (1 + γ)。",
    "wrong_dtype": "{label}返回的类型是 {got}，应与输入相同（{want}）：在 float32 里算完以后，用 .to(x.dtype) 转回去。",
    "computed_in_low_precision": "{label}结果里有 {bad} 个值是 0、inf 或 nan：输入里有平方会超过 float16 上限（65504）的值，"
                                 "均方溢出成了 inf。先用 x.float() 转成 float32，再求平方和。",
    "low_precision_error": "{label}与正确结果最大相差 {diff}，超出了只在最后一步舍入到输入类型时的误差上限 {budget}："
                           "每一步都要在 float32 里算，只在最后转回输入的类型。",
    "subtracted_mean": "{label}你先减去了均值：均方根归一化不减均值，直接对 x² 求平均。",
    "eps_outside_sqrt": "{label}ε 加在了根号外面：应为 √(mean(x²) + ε)。",
    "eps_ignored": "{label}eps={eps} 时结果和 eps=1e-6 时一样：请用参数 eps，不要写死。",
    "no_eps": "{label}分母里少了 ε（eps={eps} 时差别很明显）。",
    "missing_sqrt": "{label}分母是均方，还差开平方。",
    "wrong_dim": "{label}均方要沿最后一维（每个词元的所有特征）求。",
}




def _reference(x, gamma, eps, *, mode="ok", dim=-1):
    """float64 下的结果（mode 是典型错误的写法），不转回输入类型。"""
    import torch
    x64, g64 = x.double(), gamma.double()
    if mode == "subtracted_mean":
        x64 = x64 - x64.mean(dim=dim, keepdim=True)
    ms = x64.pow(2).mean(dim=dim, keepdim=True)
    if mode == "eps_outside_sqrt":
        d = ms.sqrt() + eps
    elif mode == "missing_sqrt":
        d = ms + eps
    elif mode == "no_eps":
        d = ms.sqrt()
    else:
        d = (ms + (1e-6 if mode == "eps_ignored" else eps)).sqrt()
    scale = {"gamma_not_zero_centered": g64, "no_gamma": torch.ones_like(g64)}.get(mode, 1 + g64)
    if dim != -1:
        scale = 1 + g64
    return x64 / d * scale


@checker(__name__, CODES, each=True)
def check_zero_centered_rms_norm(fn):
    """检查 zero_centered_rms_norm(x, gamma, eps)：x / sqrt(mean(x²) + ε) * (1 + γ)，float32 里算，返回 x 的类型。"""
    import torch
    h = 16
    gamma = randn(5, h) * 0.3
    x_small = randn(0, 3, h) * 2 + 0.3
    x_narrow = randn(1, 4, h) * 0.05           # 均方与 ε 同量级：ε 用没用、加在哪里差得很明显
    x_half = randn(2, 3, h) * 20
    x_half[0, 0] = 300.0                        # 300² = 90000 > 65504
    x_bf = randn(3, 2, 3, h) * 3
    cases = (("float32 输入：", x_small, 1e-6), ("eps=1e-2 时：", x_narrow, 1e-2),
             ("float16 输入：", x_half.half(), 1e-6), ("bfloat16 输入：", x_bf.bfloat16(), 1e-6))
    for label, x, eps in cases:
        given, given_gamma = x.clone(), gamma.clone()
        value, failure = try_call(fn, given, given_gamma, eps=eps)
        want = _reference(x, gamma, eps)
        if failure is None and isinstance(value, torch.Tensor) and value.dtype != x.dtype:
            close = value.shape == want.shape and torch.allclose(value.detach().double(), want, atol=5e-2, rtol=2e-2)
            failure = ("wrong_dtype", message(CODES, "wrong_dtype", label=label, got=str(value.dtype).replace("torch.", ""),
                                           want=str(x.dtype).replace("torch.", ""))) if close else None
        if failure is None:
            low = x.dtype != torch.float32
            # 允许的误差：正确做法（float32 里算、最后转回）本身的误差，再放宽一点
            budget = float((want.to(x.dtype).double() - want).abs().max()) * 1.01 + 1e-6
            tol = budget if low else 1e-4
            wrong = {m: _reference(x, gamma, eps, mode=m) for m in
                     ("gamma_not_zero_centered", "no_gamma", "subtracted_mean", "missing_sqrt")}
            if eps != 1e-6:   # ε 很小时，ε 放错位置的结果与正确结果分不开：只在 ε 大的那一组里认这几种错误
                wrong.update({m: _reference(x, gamma, eps, mode=m) for m in ("eps_outside_sqrt", "eps_ignored", "no_eps")})
            wrong["wrong_dim"] = _reference(x, gamma, eps, dim=0)
            if low:
                wrong = {k: v.to(x.dtype) for k, v in wrong.items()}
            if isinstance(value, torch.Tensor) and value.dtype == x.dtype and low and value.shape == want.shape:
                v = value.detach().double()
                bad = int((~torch.isfinite(v) | (v == 0)).sum())
                if bad and bool(torch.isfinite(want).all()) and bool((want != 0).all()):
                    failure = ("computed_in_low_precision",
                               message(CODES, "computed_in_low_precision", label=label, bad=bad))
            if failure is None:
                failure = judge_tensor(value, want, wrong, CODES, label=label, atol=tol, rtol=0.0 if low else 1e-4,
                                        fields={"eps": eps})
            if failure is not None and failure[0] == "wrong_output" and low:
                diff = float((value.detach().double() - want).abs().max())
                if diff < 20 * budget:
                    shown_budget, shown_diff = fmt_pair(budget, diff)   # 写到看得出两者不同为止
                    failure = ("low_precision_error", message(CODES, "low_precision_error", label=label, diff=shown_diff,
                                                           budget=shown_budget))
        findings = ([failure] if failure else []) + changed_inputs(
            [("参数 x", x, given), ("参数 gamma", gamma, given_gamma)], label, how="例如用了 add_()、mul_()、*= 这类原地操作")
        if findings:
            return findings
    return []
