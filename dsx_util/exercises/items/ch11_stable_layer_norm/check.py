# 导入：torch、feedback、torch_checks。
"""练习 ch11-stable-layer-norm 的检查器（题目、模板、参考答案在同一个文件夹；编目的错误写法在 mistakes.py）。"""
from ...feedback import checker, message
from ...torch_checks import judge_tensor, max_abs_diff, randn, try_call

CODES = {
    "single_pass_variance": "均值约为 10⁴ 的行算错了（最大误差 {diff:.3g}）：用 E[x²] − (E[x])² 一次算方差时，两个很大的数相减会丢掉有效数字。",
    "unbiased_var": "你用了无偏方差（除以 H−1）：层归一化用有偏方差（除以 H）。",
    "wrong_dtype": "输入是 float32，你返回的是 {dtype}：请在 float32 里算，并返回 float32。",
    "low_precision": "{label}结果不对（最大误差 {diff:.3g}）：你的计算中途换成了 {dtype}，题目要求在 float32 里算。"
                     "{dtype} 的有效数字比 float32 少得多：10⁴ 附近相邻两个数相差 {spacing:g}（float32 约 0.001），"
                     "均值约 10⁴ 的行一转换就丢了有效数字，之后怎么算方差都找不回来。",
    "no_centering": "没有减去均值：式 (4.3) 的分子是 x − μ。",
    "eps_ignored": "eps={eps} 时结果和 eps=1e-5 时一样：请用参数 eps，不要写死。",
    "eps_misplaced": "eps={eps} 时结果不对：ε 要加在方差上、再开平方（√(σ² + ε)），不要漏掉或加在根号外面。",
}


@checker(__name__, CODES, each=True)
def check_stable_layer_norm(fn):
    """检查 stable_normalize(x, eps)：float32 下对最后一维标准化，均值约 10⁴ 的行也要算对。"""
    import torch

    def reference(x, unbiased=False, eps=1e-5, outside=False):
        x64 = x.double()
        var = x64.var(-1, keepdim=True, unbiased=unbiased)
        return ((x64 - x64.mean(-1, keepdim=True)) / (var.sqrt() + eps if outside else (var + eps).sqrt())).float()
    small = randn(0, 4, 64) * 2 + 1
    big = randn(1, 4, 768) + 1e4
    narrow = randn(2, 3, 16) * 0.3 + 2.0   # 方差与 ε 同量级：ε 用没用、加在哪里，结果差得很明显
    for label, x, tol, eps in (("普通输入：", small, 1e-3, 1e-5), ("均值约 1e4 的输入：", big, 2e-2, 1e-5),
                               ("eps=0.5 时：", narrow, 1e-3, 0.5)):
        value, failure = try_call(fn, x.clone(), eps=eps)
        if failure is None and isinstance(value, torch.Tensor) and value.dtype != torch.float32:
            failure = ("wrong_dtype", message(CODES, "wrong_dtype", dtype=str(value.dtype).replace("torch.", "")))
        if failure is None:
            wrong = {"unbiased_var": reference(x, unbiased=True, eps=eps),
                     "no_centering": (x.double() / (x.double().var(-1, keepdim=True, unbiased=False) + eps).sqrt()).float()}
            if eps != 1e-5:
                wrong.update({"eps_ignored": reference(x), "eps_misplaced": reference(x, eps=eps, outside=True),
                              "eps_misplaced#none": reference(x, eps=0.0)})
            failure = judge_tensor(value, reference(x, eps=eps), wrong, CODES, label=label, atol=tol, rtol=tol,
                                    fields={"eps": eps},
                                    nan_code="single_pass_variance" if x is big else "nan_output")
            low = (_low_precision_dtypes(fn, x, eps)   # 先看是不是中途换成了 float16 / bfloat16，再找别的原因
                   if failure is not None and failure[0] in ("wrong_output", "single_pass_variance", "nan_output") else [])
            if low:
                diff = max_abs_diff(torch.nan_to_num(value.detach(), nan=1e30), reference(x, eps=eps))
                failure = ("low_precision", message(CODES, "low_precision", label=label, diff=diff,
                                                 dtype=low[0].replace("torch.", ""), spacing=_spacing_near_1e4(low[0])))
            elif failure is not None and x is big and failure[0] in ("wrong_output", "single_pass_variance"):
                diff = max_abs_diff(torch.nan_to_num(value.detach(), nan=1e30), reference(x, eps=eps))
                failure = ("single_pass_variance", message(CODES, "single_pass_variance", diff=diff))
        if failure is not None:
            return [failure]
    return []


def _low_precision_dtypes(fn, x, eps):
    """再调用一次学习者的函数，记下计算中途出现的低精度浮点类型（float16、bfloat16）的名字，按出现的先后。"""
    import torch
    from torch.overrides import TorchFunctionMode
    seen = []

    class Spy(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            for t in out if isinstance(out, (tuple, list)) else (out,):
                if isinstance(t, torch.Tensor) and t.dtype in (torch.float16, torch.bfloat16) and str(t.dtype) not in seen:
                    seen.append(str(t.dtype))
            return out

    def spied(*args, **kwargs):
        with Spy():
            return fn(*args, **kwargs)
    try_call(spied, x.clone(), eps=eps)
    return seen


def _spacing_near_1e4(dtype_name):
    """这种类型在 [8192, 16384) 里相邻两个数的间隔：float16 是 8，bfloat16 是 64。"""
    import torch
    return float(torch.finfo(getattr(torch, dtype_name.replace("torch.", ""))).eps) * 2 ** 13
