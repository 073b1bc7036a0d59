# 导入：torch、feedback、torch_checks。
"""这道练习的检查器（题目、模板、参考答案在同一个文件夹；编目的错误写法与写明的要求在 mistakes.py）。"""
from ...feedback import checker, message
from ...torch_checks import changed_inputs, judge_tensor, randn, try_call

CODES = {
    "only_q_normalized": "{label}只归一化了查询 q，键 k 也要做一次均方根归一化。",
    "only_k_normalized": "{label}只归一化了键 k，查询 q 也要做一次均方根归一化。",
    "no_normalization": "{label}q 和 k 都没有归一化：这就是普通注意力的分数，会随 ‖q‖‖k‖ 增长。",
    "unit_length": "{label}你把 q、k 归一化成了单位长度（除以 ‖z‖）：均方根归一化除以 √(mean(z²))，长度是 √head_dim，"
                   "分数整体小了 head_dim = {d} 倍。",
    "missing_scale": "{label}少了除以 √head_dim = {root}。",
    "divided_by_d": "{label}除以的是 head_dim = {d}，应除以 √head_dim = {root}。",
    "transposed": "{label}结果转置了：第 i 行第 j 列应是第 i 个查询与第 j 个键的点积（q̂ @ k̂ᵀ，不是 k̂ @ q̂ᵀ）。",
    "wrong_dim": "{label}均方要沿最后一维（每个头的 head_dim 个分量）求，你沿的是词元那一维。",
    "subtracted_mean": "{label}你先减去了均值（做成了层归一化）：题目要的是均方根归一化，不减均值。",
    "eps_outside_sqrt": "{label}ε 加在了根号外面：应为 √(mean(z²) + ε)。",
    "eps_ignored": "{label}eps={eps} 时结果和不加 ε（或把 ε 写死成 1e-6 这样很小的数）时一样：请把参数 eps 加在均方上。",
    "not_scale_invariant": "把 q、k 都放大 10 倍后，分数最大变化了 {diff:.3g}：QK 归一化之后，分数应与 q、k 的尺度无关。",
    "exceeds_bound": "分数的绝对值最大为 {got:.3g}，超过了 √head_dim = {root:.3g}：q̂、k̂ 的长度都是 √head_dim，点积除以 √head_dim 后不会超过 √head_dim。",
}




def _scores(q, k, eps, *, norm_q=True, norm_k=True, kind="rms", scale="sqrt", transpose=False, dim=-1, eps_kind="in"):
    import torch
    d = q.shape[-1]

    def norm(z):
        z = z.double()
        if kind == "center":
            z = z - z.mean(dim=dim, keepdim=True)
        ms = z.pow(2).mean(dim=dim, keepdim=True)
        if kind == "unit":
            return z / (z.pow(2).sum(dim=dim, keepdim=True) + eps).sqrt()
        e = {"in": eps, "fixed": 1e-6, "none": 0.0}.get(eps_kind, eps)
        return z / (ms.sqrt() + eps if eps_kind == "out" else (ms + e).sqrt())
    qh = norm(q) if norm_q else q.double()
    kh = norm(k) if norm_k else k.double()
    s = (kh @ qh.transpose(-2, -1)) if transpose else (qh @ kh.transpose(-2, -1))
    return s / {"sqrt": d ** 0.5, "none": 1.0, "d": float(d)}[scale] if torch else s


@checker(__name__, CODES, each=True)
def check_qk_norm_scores(fn):
    """检查 qk_norm_scores(q, k, eps)：RMSNorm(q) · RMSNorm(k)ᵀ / √head_dim，形状 [B, 头数, T, T]。"""
    b, heads, t, d = 2, 3, 5, 8
    cases = (("", randn(0, b, heads, t, d) * 2 + 0.5, randn(1, b, heads, t, d) * 1.5 - 0.3, 1e-6),
             ("eps=0.5 时：", randn(2, b, heads, t, d) * 0.4, randn(3, b, heads, t, d) * 0.6, 0.5))
    fields = {"d": d, "root": f"{d ** 0.5:.3g}"}
    for label, q, k, eps in cases:
        want = _scores(q, k, eps)
        wrong = {"only_q_normalized": _scores(q, k, eps, norm_k=False),
                 "only_k_normalized": _scores(q, k, eps, norm_q=False),
                 "no_normalization": _scores(q, k, eps, norm_q=False, norm_k=False),
                 "unit_length": _scores(q, k, eps, kind="unit"),
                 "missing_scale": _scores(q, k, eps, scale="none"),
                 "divided_by_d": _scores(q, k, eps, scale="d"),
                 "transposed": _scores(q, k, eps, transpose=True),
                 "wrong_dim": _scores(q, k, eps, dim=-2),
                 "subtracted_mean": _scores(q, k, eps, kind="center"),
                 "eps_outside_sqrt": _scores(q, k, eps, eps_kind="out")}
        if eps != 1e-6:
            wrong.update({"eps_ignored": _scores(q, k, eps, eps_kind="fixed"),
                          "eps_ignored#none": _scores(q, k, eps, eps_kind="none")})
        gq, gk = q.clone(), k.clone()
        value, failure = try_call(fn, gq, gk, eps=eps)
        if failure is None:
            failure = judge_tensor(value, want, wrong, CODES, label=label, atol=1e-4, rtol=1e-4,
                                    fields=dict(fields, eps=eps))
        if failure is not None and failure[0] == "wrong_output":   # 不像任何典型错误：说出违反了哪条性质
            steps = _steps(fn, q, k, d)
            failure = steps[0] if len(steps) == 1 else failure
            extra = steps[1:] if len(steps) > 1 else []
        else:
            extra = []
        findings = ([failure] if failure else []) + extra + changed_inputs(
            [("参数 q", q, gq), ("参数 k", k, gk)], label, how="例如用了 mul_()、/= 这类原地操作")
        if findings:
            return findings
    return []


def _steps(fn, q, k, d):
    """逐步诊断：尺度不变、有界。"""
    import torch
    out = []
    a, fa = try_call(fn, q.clone(), k.clone(), eps=1e-6)
    c, fc = try_call(fn, 10 * q, 10 * k, eps=1e-6)
    if fa is None and fc is None and isinstance(a, torch.Tensor) and isinstance(c, torch.Tensor) and a.shape == c.shape:
        diff = float((a.detach().double() - c.detach().double()).abs().max())
        if diff > 1e-3:
            out.append(("not_scale_invariant", message(CODES, "not_scale_invariant", diff=diff)))
        top = float(a.detach().double().abs().max())
        if top > d ** 0.5 * (1 + 1e-4):
            out.append(("exceeds_bound", message(CODES, "exceeds_bound", got=top, root=d ** 0.5)))
    return out
