"""练习检查器的公共部分：安全地运行学习者的代码，把发现的问题整理成一两行中文反馈。

检查器只说“错在哪里、证据是什么”，不给出参考答案。用法（检查器作者）::

    out = call_learner(fn, x)            # 不会让内核崩溃：异常、超时、海量打印都被接住
    if not out.ok:
        return finish("my_ex", [(out.code, out.message)])
    ...
    return finish("my_ex", findings)     # findings: [(错误代码, 一行中文说明), ...]

显示策略（保证笔记本里每次检查只显示一次）：
``finish`` 立即显示反馈（笔记本里用 IPython.display，终端里用 print），并返回 ``CheckResult``。
如果这个结果又恰好是单元格的最后一个表达式，IPython 会再去显示它；``CheckResult._ipython_display_``
发现“本单元格里已经显示过”就什么也不做。所以 ``check_x(f)``、``r = check_x(f)``、
在循环里调用，都只显示一次；在后面的单元格里单独写 ``r`` 会再显示一次。
"""
from __future__ import annotations

import linecache
import math
import os
import sys
import sysconfig
import traceback
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable

from .core import MESSAGES, run_limited

NOT_DONE = "not_done"
RAISED = "raised"
TIMEOUT = "timeout"
WRONG_OUTPUT = "wrong_output"
WRONG_SHAPE_OR_DTYPE = "wrong_shape_or_dtype"
CHECK_FAILED = "check_failed"   # 检查器自己出了意外（不应发生）；不在各检查器的错误目录里

# 这些代码的中文说明都在唯一的通用表 core.MESSAGES 里（Outcome.message 另外带上运行时的细节）。

_HERE = os.path.dirname(os.path.abspath(__file__))
_LIBRARY_DIRS = tuple(sorted({os.path.abspath(p) for p in (
    os.path.dirname(os.__file__),
    sysconfig.get_paths().get("purelib", ""),
    sysconfig.get_paths().get("platlib", ""),
) if p}))


# 结果类、显示与数字格式都在标准库核心 core.py 里（网页里的检查器用同一份）
from .core import (BACKGROUND as _BACKGROUND, STATE_COLORS as _STATE_COLORS, CheckResult,  # noqa: E402,F401
                   _display_bundle, _ipython_shell, error_text, explain_error, finish, fmt_num, fmt_pair)


# ---------------------------------------------------------------------------
# 运行学习者的代码
# ---------------------------------------------------------------------------
@dataclass
class Outcome:
    """call_learner 的返回值。ok=False 时 code 是 "raised" / "timeout" / "not_done"。"""

    ok: bool
    value: Any = None
    error: str | None = None      # 一行：异常类型与信息，外加出错的是学习者代码的第几行
    code: str | None = None
    printed: str = ""                # 捕获到的 stdout/stderr（截断后）
    printed_chars: int = 0           # 实际打印的总字符数
    seconds: float = 0.0
    exception: BaseException | None = field(default=None, repr=False)

    @property
    def message(self) -> str:
        """这次失败对应的一行中文反馈（ok=True 时为空字符串）。"""
        if self.ok:
            return ""
        if self.code == NOT_DONE:
            return MESSAGES[NOT_DONE]
        if self.code == TIMEOUT:
            return (f"你的代码运行了 {self.seconds:.1f} 秒还没有结束（可能有死循环或计算量过大），"
                    f"检查已中止。")
        if self.exception is None:
            return f"运行你的代码时出错：{self.error}"
        return exception_sentence(self.exception)


def _is_internal(filename):
    if not filename:
        return True
    path = os.path.abspath(filename)
    if path.startswith(_HERE):
        return True
    if any(path.startswith(d + os.sep) for d in _LIBRARY_DIRS):
        return True  # 标准库和 site-packages（torch 等）
    for mod in ("torch", "numpy"):
        m = sys.modules.get(mod)
        if m is not None and getattr(m, "__file__", None):
            if path.startswith(os.path.dirname(m.__file__)):
                return True
    return False


def _learner_frame(exc):
    """异常回溯里最后一个属于学习者代码的帧（不是本包、标准库或 torch）；没有时返回 None。"""
    where = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if not _is_internal(frame.filename):
            where = frame
    return where


def _frame_text(where):
    """“第 12 行（`y = x / 0`）”；不在笔记本单元格里时带上文件名。"""
    line = (where.line or linecache.getline(where.filename, where.lineno)).strip()
    base = os.path.basename(where.filename)
    # 笔记本单元格的文件名（/tmp/ipykernel_123/456.py、<ipython-input-...>）对学习者没有意义
    in_cell = "ipykernel" in where.filename or base.startswith("<")
    loc = f"第 {where.lineno} 行" if in_cell else f"{base} 第 {where.lineno} 行"
    if len(line) > 80:
        line = line[:77] + "..."
    return loc + (f"（`{line}`）" if line else "")


def describe_exception(exc: BaseException) -> str:
    """一行描述：“RuntimeError: ……（你的代码第 12 行：`y = x / 0`）”。只指向学习者的代码。"""
    first = str(exc).strip().splitlines()
    text = type(exc).__name__ + (f": {first[0].strip()}" if first else "")
    if len(text) > 200:
        text = text[:197] + "..."
    where = _learner_frame(exc)
    if where is not None:
        loc = _frame_text(where).replace("（`", "：`").rstrip("）")
        text += f"（{loc}）"
    return text


def exception_sentence(exc: BaseException) -> str:
    """学习者代码抛出的异常，写成以中文开头的一句：出错的行在前，Python 的原话在后。"""
    where = _learner_frame(exc)
    first = str(exc).strip().splitlines()
    said = type(exc).__name__ + (f"：{first[0].strip()}" if first else "")
    if len(said) > 200:
        said = said[:197] + "..."
    why = explain_error(exc)
    if why:   # 认识的报错：先用中文说原因和改法，再附 Python 的原话
        at = f"你的代码{_frame_text(where)}出错" if where is not None else "运行你的代码时出错"
        return f"{at}：{why}{'' if why.endswith('？') else '。'}Python 的报错是 {said}"
    if where is None:
        return f"运行你的代码时出错，Python 的报错是 {said}"
    return f"你的代码{_frame_text(where)}出错，Python 的报错是 {said}"


def call_learner(fn: Callable, *args, timeout: float = 5.0, max_output_chars: int = 2000,
                 **kwargs) -> Outcome:
    """运行 fn(*args, **kwargs)，最多 timeout 秒；捕获并截断它打印的内容（core.run_limited，网页里用的也是它）。

    永远不抛出异常（KeyboardInterrupt 除外）：学习者代码的异常、超时、NotImplementedError
    都变成 Outcome 里的 code。纯 Python 的死循环到时会被停下。
    """
    run = run_limited(fn, args, kwargs, timeout=timeout, capture_chars=max_output_chars)
    common = dict(printed=run["printed"], printed_chars=run["printed_chars"], seconds=run["seconds"])
    if run["timed_out"]:
        return Outcome(False, code=TIMEOUT, error=f"超过 {timeout:g} 秒仍未结束", **common)
    exc = run["exception"]
    if exc is not None:
        code = NOT_DONE if isinstance(exc, NotImplementedError) else RAISED
        return Outcome(False, code=code, error=describe_exception(exc), exception=exc, **common)
    return Outcome(True, value=run["value"], **common)


class Runner:
    """一次检查里多次调用学习者代码的小帮手：统计打印量，记住第一次失败。

    ``r.call(fn, *args)`` 返回 Outcome；``r.failure`` 是第一次失败（异常/超时/未完成）的 Outcome；
    ``r.notes()`` 给出“打印太多”之类的附加提醒。
    """

    def __init__(self, timeout: float = 5.0, max_output_chars: int = 2000):
        self.timeout = timeout
        self.max_output_chars = max_output_chars
        self.printed_chars = 0
        self.first_print = ""
        self.failure: Outcome | None = None

    def call(self, fn, *args, **kwargs) -> Outcome:
        out = call_learner(fn, *args, timeout=self.timeout,
                           max_output_chars=self.max_output_chars, **kwargs)
        self.printed_chars += out.printed_chars
        if out.printed and not self.first_print:
            self.first_print = out.printed
        if not out.ok and self.failure is None:
            self.failure = out
        return out

    def notes(self) -> list[str]:
        if self.printed_chars <= 0:
            return []
        head = self.first_print.strip().splitlines()[0] if self.first_print.strip() else ""
        if len(head) > 60:
            head = head[:57] + "..."
        note = f"检查期间你的代码打印了 {self.printed_chars:,} 个字符，已省略不显示"
        if head:
            note += f"（第一行：{head!r}）"
        return [note + "；检查通过后可以删掉调试用的 print。"]


# ---------------------------------------------------------------------------
# 描述张量与比较数值的小工具（检查器共用）
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


__all__ = ["CheckResult", "Outcome", "Runner", "NOT_DONE", "RAISED", "TIMEOUT", "WRONG_OUTPUT",
           "WRONG_SHAPE_OR_DTYPE", "call_learner", "finish", "describe_exception",
           "describe_value", "fmt_shape", "fmt_num", "tensor_problem", "max_abs_diff", "close"]


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


def safe_findings(diagnose, *args, **kwargs):
    """运行检查器的诊断函数；它自己意外出错时，也只返回一条 check_failed，绝不让单元格报错。"""
    try:
        return list(diagnose(*args, **kwargs))
    except Exception as exc:  # noqa: BLE001
        text = f"{type(exc).__name__}: {exc}".splitlines()[0][:120]
        return [(CHECK_FAILED, f"检查器遇到了意外情况（{text}）；请确认返回的是普通的浮点张量，"
                               f"若仍出现，请把这条信息报告给本书作者。")]


__all__ += ["RAISES", "run_model", "find_models", "safe_findings", "CHECK_FAILED"]


# ---------------------------------------------------------------------------
# 题目写明的要求（签名、不许用的名字）：规则在 core.requirement_findings，要求来自练习文件夹
# ---------------------------------------------------------------------------
def spec_findings(obj, exercise_id):
    """学习者写的 obj（函数或类）是否满足练习 exercise_id 写明的要求；obj 不是学习者写的（本包、torch）时不查。"""
    from .catalog import get_exercise
    from .core import _internal_module, requirement_findings
    module = getattr(obj, "__module__", None) or ""
    if not callable(obj) or _internal_module(module):
        return []
    spec = get_exercise(exercise_id).spec
    return requirement_findings(obj, spec, spec["entry"])


def stops_checking(findings):
    """签名不符时，按题目的签名调用会出错，不必再往下检查。"""
    return any(code == "wrong_signature" for code, _ in findings)


__all__ += ["spec_findings", "stops_checking"]


# ---------------------------------------------------------------- 模块类检查器共用：停下、建模块、前向、eps
# LayerNorm（ch05）、RMSNorm（ch08）、BatchNorm（ch07）的检查器都从这里取，不导入别的练习的文件夹。
def stop_with(out):
    return [(out.code, out.message)]


# 学习者常用的其他名字（例如照搬 nn.LayerNorm 的 weight / bias）
_OTHER_NAMES = {"scale": ("weight", "gamma", "g"), "shift": ("bias", "beta", "b")}


def build_module(factory, run, emb_dim, params_spec, values):
    """创建学习者的模块并检查参数；把参数设成 values 里的已知值，方便对照错误模型。

    params_spec：[(属性名, 中文角色, 初始值), ...]。返回 (模块或 None, findings)；
    模块为 None 表示无法继续检查。LayerNorm 与 RMSNorm 的检查器共用。
    """
    import torch
    import torch.nn as nn

    findings = []
    out = run.call(factory, emb_dim)
    if not out.ok:
        return None, stop_with(out)
    m = out.value
    if not callable(m):
        return None, [(WRONG_SHAPE_OR_DTYPE, f"用 emb_dim={emb_dim} 创建模块得到的是 {describe_value(m)}，"
                                             f"应是一个可以调用的 nn.Module。")]
    params = {}
    names = "、".join(name for name, _, _ in params_spec)
    for name, role, _ in params_spec:
        p = getattr(m, name, None)
        if not isinstance(p, torch.Tensor):
            what = "没有这个属性" if p is None else f"它是 {describe_value(p)}"
            other = [a for a in _OTHER_NAMES.get(name, ()) if isinstance(getattr(m, a, None), torch.Tensor)]
            if p is None and other:
                what = f"你的模块里有 `{other[0]}`，请改名为 `{name}`"
            return None, [("not_parameters",
                           f"找不到张量属性 `{name}`（{role}）：{what}；本书约定的名字是 {names}。")]
        if tuple(p.shape) != (emb_dim,):
            return None, [("wrong_param_shape",
                           f"emb_dim={emb_dim} 时 `{name}` 的形状是 {fmt_shape(p.shape)}，"
                           f"应是 ({emb_dim},)：每个特征一个{role.split(' ')[0]}。")]
        params[name] = p
    own = list(m.parameters()) if isinstance(m, nn.Module) else []
    for name, p in params.items():
        registered = any(q is p for q in own)
        if not registered or not isinstance(p, nn.Parameter) or not p.requires_grad:
            why = ("不在 model.parameters() 里" if not registered else "设置了 requires_grad=False")
            findings.append(("not_parameters",
                             f"`{name}` {why}：优化器看不到它，训练时它不会更新。"))
            break
    bad = []
    for name, _, want in params_spec:
        v = params[name].detach().double()
        if not bool((v == want).all()):
            vals = torch.unique(v)
            got = f"全为 {fmt_num(vals[0])}" if vals.numel() == 1 else f"例如第 0 个是 {fmt_num(v[0])}"
            bad.append(f"`{name}` 应全为 {fmt_num(want)}，你的{got}")
    if bad:
        findings.append(("wrong_init", "刚创建的模块里 " + "；".join(bad) + "。"))
    try:
        with torch.no_grad():
            for (name, _, _), value in zip(params_spec, values):
                params[name].copy_(value)
    except Exception as exc:  # noqa: BLE001
        return None, findings + [("not_parameters", f"无法给 {names} 赋值（{type(exc).__name__}），"
                                                    f"它们应是浮点张量参数。")]
    return m, findings


def run_forward(m, run, inputs, keys, where):
    """在每个输入上运行 m(x)。返回 dict：got（张量或 RAISES）、first_error、inplace、
    shape_msg、dtype_msg、stop（未完成/超时时的 findings）。"""
    import torch
    res = dict(got=[], first_error=None, inplace=None, shape_msg=None, dtype_msg=None, stop=None)
    for k in keys:
        x = inputs[k].clone()
        out = run.call(m, x)
        if not out.ok and out.code in (NOT_DONE, TIMEOUT):
            res["stop"] = stop_with(out)
            return res
        if res["inplace"] is None and not torch.equal(x, inputs[k]):
            res["inplace"] = (k, max_abs_diff(x, inputs[k]))
        if not out.ok:
            res["got"].append(RAISES)
            res["first_error"] = res["first_error"] or (k, out)
            continue
        y = out.value
        problem = tensor_problem(y, inputs[k], "forward 的输出", where(k, inputs[k]))
        if problem and (not isinstance(y, torch.Tensor) or y.shape != inputs[k].shape):
            res["shape_msg"] = res["shape_msg"] or problem
        elif problem:
            res["dtype_msg"] = res["dtype_msg"] or problem
        res["got"].append(y.detach() if isinstance(y, torch.Tensor) else y)
    return res


def eps_used(factory, run, emb_dim, eps, default, params, x, reference):
    """用 eps=eps 创建学习者的模块：输出应按这个 ε 计算；和默认 ε 的结果一样 -> eps_ignored。LayerNorm、RMSNorm 共用。"""
    from ._steps import output, set_params
    out = run.call(factory, emb_dim, eps=eps)
    if not out.ok or not callable(out.value) or not set_params(out.value, params):
        return []   # 构造函数不接受 eps 时，签名检查已经说过
    y = output(run, out.value, x)
    if y is None:
        return []
    want, old = reference(x, eps), reference(x, default)
    if close(y, want):
        return []
    if close(y, old):
        return [("eps_ignored", f"用 eps={eps:g} 创建模块，输出却和 eps={default:g} 时一样：forward 里要用构造函数传入的 eps"
                                f"（例如存成 self.eps），不要写死 {default:g}。")]
    return [("eps_ignored", f"用 eps={eps:g} 创建模块后，输出与按这个 ε 算出的正确结果最大相差 {fmt_num(max_abs_diff(y, want))}："
                            f"请在 forward 里用构造函数传入的 eps。")]


__all__ += ["stop_with", "build_module", "run_forward", "eps_used"]
