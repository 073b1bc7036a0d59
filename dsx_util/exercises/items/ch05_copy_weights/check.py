# 导入：torch、dsx_util.layernorm、feedback、torch_checks。
"""练习 ch05-copy-weights 的检查器（题目、模板、参考答案在同一个文件夹；编目的错误写法在 mistakes.py）。"""
from ...feedback import checker, message
from ...torch_checks import close_finite, max_abs_diff, randn, try_call

CODES = {
    "not_copied": "scale 和 shift 没有变化：参数还没有复制进来。",
    "swapped": "复制反了：nn.LayerNorm 的 weight 对应缩放参数 scale，bias 对应平移参数 shift。",
    "shift_missing": "scale 复制对了，shift 还没有：bias 也要复制。",
    "scale_missing": "shift 复制对了，scale 还没有：weight 也要复制。",
    "eps_not_copied": "参数复制对了，但 eps 不一致（PyTorch 模型用的是 {eps:g}）：两个模型的 ε 也要相同，输出才会一致。",
    "shares_memory": "两个模型现在共用同一块内存：改动一个会悄悄改动另一个。请复制数值，而不是共用张量。",
    "not_parameter": "scale 或 shift 不再是需要梯度的 nn.Parameter，训练时就不会更新了。请把数值复制进原来的参数。",
    "outputs_differ": "参数复制后，两个模型的输出最大相差 {diff:.3g}。",
}


@checker(__name__, CODES, each=True)
def check_copy_weights(fn):
    """检查 copy_weights(my_ln, torch_ln)：把 nn.LayerNorm 的 weight、bias、eps 复制到本书的 LayerNorm。"""
    import torch
    import torch.nn as nn
    from dsx_util.layernorm import LayerNorm
    d, eps = 6, 1e-6
    torch_ln = nn.LayerNorm(d, eps=eps)
    with torch.no_grad():
        torch_ln.weight.copy_(randn(0, d) + 1.0)
        torch_ln.bias.copy_(randn(1, d))
    my_ln = LayerNorm(d)
    _, failure = try_call(fn, my_ln, torch_ln)
    if failure is not None:
        return [failure]

    def fail(code, **fields):
        return [(code, message(CODES, code, **fields))]

    scale, shift = getattr(my_ln, "scale", None), getattr(my_ln, "shift", None)
    w, b = torch_ln.weight.detach(), torch_ln.bias.detach()
    if not all(isinstance(p, nn.Parameter) and p.requires_grad for p in (scale, shift)):
        return fail("not_parameter")
    if scale.data_ptr() in (w.data_ptr(), b.data_ptr()) or shift.data_ptr() in (w.data_ptr(), b.data_ptr()):
        return fail("shares_memory")
    s_ok, t_ok = close_finite(scale, w, 0, 0), close_finite(shift, b, 0, 0)
    if not (s_ok and t_ok):
        if close_finite(scale, b, 0, 0) and close_finite(shift, w, 0, 0):
            return fail("swapped")
        s_untouched, t_untouched = close_finite(scale, torch.ones(d), 0, 0), close_finite(shift, torch.zeros(d), 0, 0)
        if s_ok and t_untouched:
            return fail("shift_missing")
        if t_ok and s_untouched:
            return fail("scale_missing")
        if s_untouched and t_untouched:
            return fail("not_copied")
        return fail("outputs_differ", diff=max(max_abs_diff(scale, w), max_abs_diff(shift, b)))
    if getattr(my_ln, "eps", None) != eps:
        return fail("eps_not_copied", eps=eps)
    x = randn(2, 3, d) * 1e-3   # 方差很小，ε 的差别会显出来
    with torch.no_grad():
        diff = max_abs_diff(my_ln(x), torch_ln(x))
    if diff > 1e-4:
        return fail("outputs_differ", diff=diff)
    return []
