# 导入：标准库、torch、feedback。
"""PyTorch 检查：比较张量、与典型错误的结果对照（PyTorch 函数练习与模块类练习共用）。torch 在函数里才导入。

check.py 用到的公开工具：
- try_call(fn, *参数)：调用学习者的函数，返回 (值, None) 或 (None, (代码, 说明))；形状无法广播时说出是哪一维；
- randn(种子, *形状)、generator(种子)：检查用的数据，来自独立的随机数生成器，不动学习者的全局随机状态；
- judge_tensor(值, 正确结果, 典型错误 {代码: 结果}, CODES)：对了返回 None，否则 (代码, 说明)；
- run_cases(fn, 用例, CODES)：逐个用例调用、比较，并查学习者有没有原地修改输入；返回 findings；
- close / close_finite / max_abs_diff、fmt_shape、describe_value、tensor_problem：比较与描述张量；
- RAISES、run_model、find_models：“错误模型”匹配（模块类练习用，见 module_checks.py）。
"""
from __future__ import annotations

import math
import re

from .feedback import TIME_LIMIT, call_learner, fmt_num, fmt_pair, message


# ---------------------------------------------------------------------------
# 描述张量与比较数值
# ---------------------------------------------------------------------------
def fmt_shape(shape) -> str:
    """(2, 3, 8) 这样的形状文字；一维写成 (8,)。"""
    dims = tuple(int(d) for d in shape)
    return "(" + ", ".join(map(str, dims)) + ("," if len(dims) == 1 else "") + ")"


def describe_value(value) -> str:
    """学习者返回值的简短描述：“None”“list”“形状 (2, 3) 的 float64 张量”。"""
    try:
        import torch
        if isinstance(value, torch.Tensor):
            return f"形状 {fmt_shape(value.shape)} 的 {str(value.dtype).replace('torch.', '')} 张量"
    except Exception:
        pass
    if value is None:
        return "None"
    shape = getattr(value, "shape", None)
    if shape is not None:
        return f"形状 {fmt_shape(shape)} 的 {type(value).__module__.split('.')[0]}.{type(value).__name__}"
    return type(value).__name__


def tensor_problem(value, like, what="输出", input_desc="") -> str | None:
    """value 应是与张量 like 形状、dtype 都相同的张量；不是时返回一行中文说明，否则 None。"""
    import torch
    prefix = f"对{input_desc}，" if input_desc else ""
    if not isinstance(value, torch.Tensor):
        return f"{prefix}{what}是 {describe_value(value)}，应是与输入形状相同的 PyTorch 张量。"
    if tuple(value.shape) != tuple(like.shape):
        return (f"{prefix}{what}的形状是 {fmt_shape(value.shape)}，"
                f"应是 {fmt_shape(like.shape)}（与输入相同）。")
    if value.dtype != like.dtype:
        return (f"{prefix}{what}的 dtype 是 {str(value.dtype).replace('torch.', '')}，"
                f"应与输入相同（{str(like.dtype).replace('torch.', '')}）。")
    return None


def max_abs_diff(a, b) -> float:
    """两个张量的最大绝对差；NaN 所在位置若一方是 NaN 另一方不是，则返回 inf。"""
    import torch
    a = a.detach().double()
    b = b.detach().double()
    if a.shape != b.shape:
        return math.inf
    nan_a, nan_b = torch.isnan(a), torch.isnan(b)
    if bool((nan_a != nan_b).any()):
        return math.inf
    both = ~(nan_a | nan_b)
    if not bool(both.any()):
        return 0.0
    d = (a[both] - b[both]).abs()
    if bool(torch.isinf(d).any()) or bool(torch.isnan(d).any()):
        # inf 与 inf 相等时差为 nan；逐元素处理
        same = a[both] == b[both]
        d = torch.where(same, torch.zeros_like(d), d)
        d = torch.nan_to_num(d, nan=math.inf)
    return float(d.max())


def close(a, b, atol=1e-4, rtol=1e-4) -> bool:
    """数值上是否一致（形状相同；NaN 与 NaN 视为一致）。"""
    import torch
    if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)):
        return False
    if a.shape != b.shape:
        return False
    return bool(torch.allclose(a.detach().double(), b.detach().double(),
                               atol=atol, rtol=rtol, equal_nan=True))


# ---------------------------------------------------------------------------
# 调用学习者的函数、逐个用例比较（PyTorch 函数练习）
# ---------------------------------------------------------------------------
def try_call(fn, *args, **kwargs):
    """调用学习者的函数，返回 (值, None) 或 (None, (代码, 说明))。"""
    out = call_learner(fn, *args, timeout=TIME_LIMIT, **kwargs)
    if out.ok:
        return out.value, None
    if out.code == "raised" and isinstance(out.exception, RuntimeError):
        found = re.search(r"tensor a \((\d+)\) must match the size of tensor b \((\d+)\) "
                          r"at non-singleton dimension (\d+)", str(out.exception))
        if found:
            a, b, dim = found.groups()
            where = out.error[out.error.rfind("（"):] if "（" in (out.error or "") else ""
            return None, ("broadcast_error", message(None, "broadcast_error", a=a, b=b, dim=dim, where=where))
    return None, (out.code or "raised", out.message)


def generator(seed):
    """检查用的独立随机数生成器（不动学习者的全局随机状态）。"""
    import torch
    return torch.Generator().manual_seed(seed)


def randn(seed, *shape, dtype=None):
    """检查用的标准正态随机张量：同一个种子总是同样的数，不动学习者的全局随机状态；dtype 缺省为 float32。"""
    import torch
    return torch.randn(*shape, generator=generator(seed), dtype=dtype or torch.float32)


def close_finite(a, b, atol, rtol):
    """a 是与 b 形状相同、全是有限值的张量，且数值上一致（与 close 不同：a 里有 NaN/inf 就不算一致）。"""
    import torch
    if not isinstance(a, torch.Tensor) or not isinstance(b, torch.Tensor) or a.shape != b.shape:
        return False
    a, b = a.detach().double(), b.detach().double()
    if not torch.isfinite(a).all():
        return False
    return bool(torch.allclose(a, b, atol=atol, rtol=rtol))


def judge_tensor(value, expected, variants, codes, *, label="", atol=1e-4, rtol=1e-4,
                  nan_code="nan_output", fields=None):
    """比较学习者返回的张量与正确结果；不对时在 variants（代码 -> 典型错误写法的结果）里找原因。

    返回 None（正确）或 (代码, 说明)。
    """
    import torch
    if not isinstance(value, torch.Tensor):
        return "not_tensor", message(codes, "not_tensor", kind=type(value).__name__)
    if value.is_complex():
        return "not_tensor", message(codes, "not_tensor", kind=f"复数张量（{str(value.dtype).replace('torch.', '')}）")
    if close_finite(value, expected, atol, rtol):
        return None
    for key, wrong in variants.items():
        if close_finite(value, wrong, atol, rtol):
            code = key.split("#")[0]   # "代码#说明"：同一个代码可以对应几种写法
            return code, message(codes, code, label=label, **(fields or {}))
    if tuple(value.shape) != tuple(expected.shape):
        return "wrong_shape", message(codes, "wrong_shape", label=label, expected=tuple(expected.shape),
                                   actual=tuple(value.shape))
    if not torch.isfinite(value.detach()).all():
        return nan_code, message(codes, nan_code, label=label)
    return "wrong_output", wrong_output_message(value, expected, label)


def wrong_output_message(value, expected, label=""):
    """数值不对：说出最大差多少，以及相差最大的那个元素应为多少、实际是多少（通用说法 feedback.MESSAGES["wrong_output"]）。"""
    diff = (value.detach().double() - expected.detach().double()).abs()
    flat = int(diff.reshape(-1).argmax())
    pos, rest = [], flat
    for n in reversed(tuple(diff.shape)):
        pos.insert(0, rest % n)
        rest //= n
    want, got = fmt_pair(float(expected.reshape(-1)[flat]), float(value.reshape(-1)[flat]))
    where = f"（位置 {tuple(pos)}）" if pos else ""
    what = f"{label}结果与正确值最大相差 {fmt_num(float(diff.max()))}：相差最大的元素{where}"
    return message(None, "wrong_output", what=what, want=want, got=got)


def case(args, expected, wrong, label="", kwargs=None):
    """run_cases 的一个用例：传给学习者的参数元组 args（传的是副本）、正确结果、典型错误 {代码: 结果}
    （"代码#说明" 表示同一个代码的另一种写法；先比较的在前）；label 放在说明前面，kwargs 按名字传。"""
    return (label, tuple(args), dict(kwargs or {}), expected, dict(wrong))


def run_cases(fn, cases, codes, **judge):
    """cases：[(标签, 参数元组, 关键字参数字典, 正确结果, 错误写法字典)]；遇到第一个错误就停止。"""
    for label, args, kwargs, expected, variants in cases:
        given = clone_args(args)
        value, failure = try_call(fn, *given, **kwargs)   # 传副本：学习者原地修改也不影响检查
        if failure is None:
            failure = judge_tensor(value, expected, variants, codes, label=label, fields=kwargs, **judge)
        findings = ([] if failure is None else [failure]) + changed_inputs(
            [(f"第 {i} 个参数", a, g) for i, (a, g) in enumerate(zip(args, given), start=1)], label)
        if findings:
            return findings
    return []


def changed_inputs(pairs, label="", how="例如用了 -=、/= 或 sub_()、div_() 这类原地操作"):
    """pairs：[(参数的称呼, 原来的张量, 传给学习者的副本), ...]。学习者改动了某个副本时返回一条 modified_input
    （说出第一个被改的参数，label 放在最前面，how 是常见的原地写法），否则 []。"""
    import torch
    changed = [name for name, before, after in pairs if isinstance(before, torch.Tensor)
               and isinstance(after, torch.Tensor) and not torch.equal(before, after)]
    if not changed:
        return []
    return [("modified_input", label + message(None, "modified_input", new="张量", what=f"{changed[0]}（{how}）"))]


def clone_args(args):
    import torch
    return tuple(a.clone() if isinstance(a, torch.Tensor) else a for a in args)


# ---------------------------------------------------------------------------
# “错误模型”匹配：把学习者的输出与若干种典型错误算出的结果逐一比较
# ---------------------------------------------------------------------------
class _Raises:
    """占位：某个错误模型在这个输入上会报错（例如形状无法广播）。"""

    def __repr__(self):
        return "RAISES"


RAISES = _Raises()


def run_model(fn, *args):
    """运行一个错误模型；报错时返回 RAISES。"""
    try:
        return fn(*args)
    except Exception:
        return RAISES


def find_models(got, candidates, atol=1e-4, rtol=1e-4, skip=()):
    """返回与学习者在全部输入上都一致的错误模型的下标，最具体（错误代码最少）的在前。

    got：每个输入上学习者的结果（张量；报错时为 RAISES；其他类型不与任何模型一致）。
    candidates：[(codes 元组, 每个输入上的模型结果列表), ...]，codes 为空元组表示正确答案。
    skip：不参与比较的输入下标。
    """
    import torch
    matches = []
    for order, (codes, outs) in enumerate(candidates):
        ok = True
        for i, (g, c) in enumerate(zip(got, outs)):
            if i in skip:
                continue
            if c is RAISES:
                ok = g is RAISES
            elif isinstance(g, torch.Tensor) and isinstance(c, torch.Tensor):
                ok = close(g, c, atol=atol, rtol=rtol)
            else:
                ok = False
            if not ok:
                break
        if ok:
            matches.append((len(codes), order, codes))
    matches.sort()
    return [order for _, order, _ in matches]
