"""练习 ch04-identity-params 的检查器（题目、模板、参考答案在同一个文件夹；编目的错误写法在 mistakes.py）。"""
from ...simple_checks import (checker, _call, _close, _max_diff, _msg, _randn, _torch, finish)

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


@checker(__name__, CODES)
def check_identity_params(fn):
    """检查 identity_params(x, eps)：为一行 x 选出 γ、β，使层归一化的输出恰好等于 x。"""
    torch = _torch()
    from dsx_util.layernorm import LayerNorm
    exercise = check_identity_params.exercise
    # 第一行方差约 1e-5，与 ε 同量级：漏掉 ε 会明显算错；最后再用 eps=0.3 调用一次，看是否用了参数 eps
    rows = [(_randn(0, 6) * 0.003 + 0.5, 1e-5), (_randn(1, 10) * 2.0 - 1.0, 1e-5), (_randn(1, 10) * 0.2, 0.3)]
    for x, eps in rows:
        d = x.shape[0]
        value, failure = _call(fn, x.clone(), eps=eps)
        if failure is not None:
            return finish(exercise, [failure])
        if not isinstance(value, (tuple, list)) or len(value) != 2 or \
                not all(isinstance(v, torch.Tensor) for v in value):
            return finish(exercise, [("not_pair", _msg(CODES, "not_pair", kind=type(value).__name__))])
        gamma, beta = (v.detach().to(torch.float32) for v in value)
        if tuple(gamma.shape) != (d,) or tuple(beta.shape) != (d,):
            return finish(exercise, [("wrong_param_shape", _msg(CODES, "wrong_param_shape", d=d,
                                                          actual=(tuple(gamma.shape), tuple(beta.shape))))])
        ln = LayerNorm(d, eps=eps).double()   # 用 float64 验证，误差只来自 gamma、beta 本身
        with torch.no_grad():
            ln.scale.copy_(gamma)
            ln.shift.copy_(beta)
            y = ln(x.double())
        if _close(y, x.double(), 1e-3 * float(x.std()), 0):
            continue
        mean, var = x.mean(), x.var(unbiased=False)

        def full(v):
            return torch.full((d,), float(v))
        tol = dict(atol=1e-6, rtol=1e-4)
        beta_ok = _close(beta, full(mean), **tol)
        if eps != 1e-5 and _close(gamma, full((var + 1e-5).sqrt()), **tol):
            code = "eps_ignored"
        elif _close(gamma, full(var + eps), **tol) or _close(gamma, full(var), **tol):
            code = "gamma_is_var"
        elif _close(gamma, full(var.sqrt()), **tol):
            code = "missing_eps"
        elif _close(gamma, full((x.var(unbiased=True) + eps).sqrt()), **tol):
            code = "unbiased_var"
        elif _close(gamma, full(mean), **tol) and _close(beta, full((var + eps).sqrt()), **tol):
            code = "swapped"
        elif _close(gamma, full((var + eps).sqrt()), **tol) and not beta_ok:
            code = "beta_missing"
        else:
            code = "not_identity"
        return finish(exercise, [(code, _msg(CODES, code, diff=_max_diff(y, x), eps=eps))])
    return finish(exercise, [])
