# 导入：torch、dsx_util.layernorm、feedback、torch_checks。
"""练习 ch04-identity-params 的检查器（题目、模板、参考答案在同一个文件夹；编目的错误写法在 mistakes.py）。"""
from ...feedback import checker, message
from ...torch_checks import close_finite, max_abs_diff, randn, try_call

CODES = {
    "not_pair": "应返回两个张量 (gamma, beta)，实际返回的是 {kind}。",
    "wrong_param_shape": "gamma 和 beta 的形状都应是 ({d},)，和层归一化的参数一样；实际是 {actual}。",
    "gamma_is_var": "gamma 用了方差：标准化时除的是标准差，要还原回去，乘的也应是标准差（别忘了 ε 在根号里）。",
    "missing_eps": "gamma 差了一点：标准化时分母里有 ε，gamma 也要把它算进去。",
    "unbiased_var": "gamma 用了无偏方差（除以 H−1）：层归一化用的是有偏方差。",
    "swapped": "gamma 和 beta 放反了：一个负责缩放，一个负责平移。",
    "beta_missing": "gamma 对了，但 beta 不对：标准化时减掉了均值，要平移回去。",
    "eps_ignored": "eps={eps} 时，你的 gamma 和 eps=1e-5 时一样：gamma 里的 ε 要用参数 eps，不要写死。",
    "not_identity": "用你的 gamma、beta 做层归一化后，输出与输入最大相差 {diff:.3g}。",
}


@checker(__name__, CODES, each=True)
def check_identity_params(fn):
    """检查 identity_params(x, eps)：为一行 x 选出 γ、β，使层归一化的输出恰好等于 x。"""
    import torch
    from dsx_util.layernorm import LayerNorm
    # 第一行方差约 1e-5，与 ε 同量级：漏掉 ε 会明显算错；最后再用 eps=0.3 调用一次，看是否用了参数 eps
    rows = [(randn(0, 6) * 0.003 + 0.5, 1e-5), (randn(1, 10) * 2.0 - 1.0, 1e-5), (randn(1, 10) * 0.2, 0.3)]
    for x, eps in rows:
        d = x.shape[0]
        value, failure = try_call(fn, x.clone(), eps=eps)
        if failure is not None:
            return [failure]
        if not isinstance(value, (tuple, list)) or len(value) != 2 or \
                not all(isinstance(v, torch.Tensor) for v in value):
            return [("not_pair", message(CODES, "not_pair", kind=type(value).__name__))]
        gamma, beta = (v.detach().to(torch.float32) for v in value)
        if tuple(gamma.shape) != (d,) or tuple(beta.shape) != (d,):
            return [("wrong_param_shape", message(CODES, "wrong_param_shape", d=d,
                                                          actual=(tuple(gamma.shape), tuple(beta.shape))))]
        ln = LayerNorm(d, eps=eps).double()   # 用 float64 验证，误差只来自 gamma、beta 本身
        with torch.no_grad():
            ln.scale.copy_(gamma)
            ln.shift.copy_(beta)
            y = ln(x.double())
        if close_finite(y, x.double(), 1e-3 * float(x.std()), 0):
            continue
        mean, var = x.mean(), x.var(unbiased=False)

        def full(v):
            return torch.full((d,), float(v))
        tol = dict(atol=1e-6, rtol=1e-4)
        beta_ok = close_finite(beta, full(mean), **tol)
        if eps != 1e-5 and close_finite(gamma, full((var + 1e-5).sqrt()), **tol):
            code = "eps_ignored"
        elif close_finite(gamma, full(var + eps), **tol) or close_finite(gamma, full(var), **tol):
            code = "gamma_is_var"
        elif close_finite(gamma, full(var.sqrt()), **tol):
            code = "missing_eps"
        elif close_finite(gamma, full((x.var(unbiased=True) + eps).sqrt()), **tol):
            code = "unbiased_var"
        elif close_finite(gamma, full(mean), **tol) and close_finite(beta, full((var + eps).sqrt()), **tol):
            code = "swapped"
        elif close_finite(gamma, full((var + eps).sqrt()), **tol) and not beta_ok:
            code = "beta_missing"
        else:
            code = "not_identity"
        return [(code, message(CODES, code, diff=max_abs_diff(y, x), eps=eps))]
    return []
