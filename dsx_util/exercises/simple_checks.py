"""各章较简单练习的检查函数（LayerNorm、BatchNorm、RMSNorm、均值方差四个检查在各自的模块里）。

每个检查函数：
- 用 `_core.call_learner` 调用学习者的代码（超时、报错、未完成都不会让内核崩溃）；
- 把学习者的结果和正确结果比较；不对时，再和几种“典型错误写法”的结果比较，找出具体是哪种错误；
- 用 `_core.finish` 返回并显示 CheckResult。错误代码（codes）是稳定的英文短名，见各函数的 `codes` 属性。

检查用的数据由独立的随机数生成器产生，不会改动学习者的全局随机状态。
"""
import functools
import re
import sys

from ._core import NOT_DONE, call_learner, spec_findings, stops_checking
from ._core import finish as _show_result
from .catalog import get_exercise
from .core import exercise_id_of, fmt_num, fmt_pair, message


def finish(exercise, findings, notes=()):
    """各检查函数体的结论（先不显示）：装饰器 checker 再并上题目写明的要求，显示一次。"""
    return _show_result(exercise, findings, notes, show=False, each=True)

# 调用学习者代码的超时秒数（测试里可以调小）
_TIMEOUT = 5.0

def checker(module_name, codes):
    """装饰器（用在 items/<练习>/check.py 里：``@checker(__name__, CODES)``）：给检查函数记下练习 id
    （由模块名推出）和它自己的错误代码表 CODES（code -> 中文说明模板；通用代码的说明在 core.MESSAGES）。

    包装后的检查函数：结束时恢复学习者的全局随机状态（检查里创建的 nn.Linear 等会消耗随机数）；
    检查过程中意外出错（例如返回了奇怪的对象）时，报告 check_failed，而不是抛出异常。
    """
    exercise = exercise_id_of(module_name)

    def wrap(func):
        @functools.wraps(func)
        def checker(fn, show=True):
            import random
            torch = _torch()
            saved = torch.get_rng_state(), random.getstate()
            np = sys.modules.get("numpy")   # set_seed 也会设定 NumPy 的种子
            np_state = np.random.get_state() if np is not None else None
            try:
                findings = spec_findings(fn, exercise)   # 题目写明的要求：签名、不许用的现成函数
                notes = []
                if not stops_checking(findings):
                    result = func(fn)
                    findings += list(zip(result.codes, result.messages))
                    notes = result.notes
            except Exception as exc:  # noqa: BLE001 -- 检查本身永远不让单元格报错
                text = f"{type(exc).__name__}: {exc}".splitlines()[0][:120]
                findings, notes = [("check_failed", _msg({}, "check_failed", error=text))], []
            finally:
                torch.set_rng_state(saved[0])
                random.setstate(saved[1])
                if np_state is not None:
                    np.random.set_state(np_state)
            if any(code == NOT_DONE for code, _ in findings):
                findings = [(NOT_DONE, _msg({}, NOT_DONE))]
            return _show_result(checker.exercise, findings, notes, show=show, each=True)
        checker.exercise_id = exercise
        checker.exercise = get_exercise(exercise).title   # 反馈里显示练习的标题
        checker.codes = dict(codes)
        return checker
    return wrap


def _msg(codes, code, **fields):
    """code 的说明：先查这道练习的 CODES，再查唯一的通用表 core.MESSAGES。"""
    return message(codes, code, **fields)


def _call(fn, *args, **kwargs):
    """调用学习者的函数，返回 (值, None) 或 (None, (代码, 说明))。"""
    out = call_learner(fn, *args, timeout=_TIMEOUT, **kwargs)
    if out.ok:
        return out.value, None
    if out.code == "raised" and isinstance(out.exception, RuntimeError):
        found = re.search(r"tensor a \((\d+)\) must match the size of tensor b \((\d+)\) "
                          r"at non-singleton dimension (\d+)", str(out.exception))
        if found:
            a, b, dim = found.groups()
            where = out.error[out.error.rfind("（"):] if "（" in (out.error or "") else ""
            return None, ("broadcast_error", _msg({}, "broadcast_error", a=a, b=b, dim=dim, where=where))
    return None, (out.code or "raised", out.message)


def _torch():
    import torch
    return torch


def _gen(seed):
    torch = _torch()
    return torch.Generator().manual_seed(seed)


def _randn(seed, *shape, dtype=None):
    torch = _torch()
    return torch.randn(*shape, generator=_gen(seed), dtype=dtype or torch.float32)


def _close(a, b, atol, rtol):
    torch = _torch()
    if not isinstance(a, torch.Tensor) or not isinstance(b, torch.Tensor) or a.shape != b.shape:
        return False
    a, b = a.detach().double(), b.detach().double()
    if not torch.isfinite(a).all():
        return False
    return bool(torch.allclose(a, b, atol=atol, rtol=rtol))


def _max_diff(a, b):
    return float((a.detach().double() - b.detach().double()).abs().max())


def _judge_tensor(value, expected, variants, codes, *, label="", atol=1e-4, rtol=1e-4,
                  nan_code="nan_output", fields=None):
    """比较学习者返回的张量与正确结果；不对时在 variants（代码 -> 典型错误写法的结果）里找原因。

    返回 None（正确）或 (代码, 说明)。
    """
    torch = _torch()
    if not isinstance(value, torch.Tensor):
        return "not_tensor", _msg(codes, "not_tensor", kind=type(value).__name__)
    if value.is_complex():
        return "not_tensor", _msg(codes, "not_tensor", kind=f"复数张量（{str(value.dtype).replace('torch.', '')}）")
    if _close(value, expected, atol, rtol):
        return None
    for key, wrong in variants.items():
        if _close(value, wrong, atol, rtol):
            code = key.split("#")[0]   # "代码#说明"：同一个代码可以对应几种写法
            return code, _msg(codes, code, label=label, **(fields or {}))
    if tuple(value.shape) != tuple(expected.shape):
        return "wrong_shape", _msg(codes, "wrong_shape", label=label, expected=tuple(expected.shape),
                                   actual=tuple(value.shape))
    if not torch.isfinite(value.detach()).all():
        return nan_code, _msg(codes, nan_code, label=label)
    return "wrong_output", _wrong_output(value, expected, label)


def _wrong_output(value, expected, label=""):
    """数值不对：说出最大差多少，以及相差最大的那个元素应为多少、实际是多少（通用说法 core.MESSAGES["wrong_output"]）。"""
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


def _run_cases(exercise, fn, cases, codes, **judge):
    """cases：[(标签, 参数元组, 关键字参数字典, 正确结果, 错误写法字典)]；遇到第一个错误就停止。"""
    torch = _torch()
    for label, args, kwargs, expected, variants in cases:
        given = _clone_args(args)
        value, failure = _call(fn, *given, **kwargs)   # 传副本：学习者原地修改也不影响检查
        if failure is None:
            failure = _judge_tensor(value, expected, variants, codes, label=label, fields=kwargs, **judge)
        changed = [i for i, (a, g) in enumerate(zip(args, given), start=1)
                   if isinstance(a, torch.Tensor) and isinstance(g, torch.Tensor) and not torch.equal(a, g)]
        findings = ([] if failure is None else [failure]) + (
            [("modified_input", label + message(None, "modified_input", new="张量",
                                                what=f"第 {changed[0]} 个参数（例如用了 -=、/= 或 sub_()、div_() 这类原地操作）"))]
            if changed else [])
        if findings:
            return finish(exercise, findings)
    return finish(exercise, [])


def _clone_args(args):
    torch = _torch()
    return tuple(a.clone() if isinstance(a, torch.Tensor) else a for a in args)


# ---------------------------------------------------------------- 第 1 章：GPT 架构


def _block_parts(seed=0, emb_dim=8):
    """检查 Transformer 块用的小零件：两个层归一化（参数随机）、一个线性“注意力”和一个小前馈网络。"""
    torch = _torch()
    import torch.nn as nn
    from dsx_util.layernorm import LayerNorm
    gen = _gen(seed)
    att = nn.Linear(emb_dim, emb_dim)
    ff = nn.Sequential(nn.Linear(emb_dim, 2 * emb_dim), nn.GELU(), nn.Linear(2 * emb_dim, emb_dim))
    norm1, norm2 = LayerNorm(emb_dim), LayerNorm(emb_dim)
    with torch.no_grad():
        for module in (att, ff, norm1, norm2):
            for p in module.parameters():
                p.copy_(torch.randn(p.shape, generator=gen) * 0.5)
            module.requires_grad_(False)
        for norm in (norm1, norm2):   # 让两个层归一化的参数不同，才能分辨是否用反
            norm.scale += 1.0
    x = torch.randn(2, 5, emb_dim, generator=gen) * 2 + 1
    return x, att, ff, norm1, norm2


def _pre(x, att, ff, n1, n2):
    h = x + att(n1(x))
    return h + ff(n2(h))


def _post(x, att, ff, n1, n2):
    h = n1(x + att(x))
    return n2(h + ff(h))


def _sublayer(h, layer, norm, order, residual):
    """一个子层（可能接错）：前置归一化 h + layer(norm(h))，后置归一化 norm(h + layer(h))。"""
    if order == "pre":
        if residual == "missing":
            return layer(norm(h))
        if residual == "after_norm":
            return norm(h) + layer(norm(h))
        return h + layer(norm(h))
    if residual == "missing":
        return norm(layer(h))
    if residual == "after_norm":
        return h + norm(layer(h))
    return norm(h + layer(h))


def _block(x, a, f, n1, n2, order="pre", order1=None, order2=None, norms="ok", sub="ok", res1="ok", res2="ok"):
    """一种（可能接错的）Transformer 块。norms："ok"、"swapped"（两个对调）、"n1"/"n2"（两处都用同一个）。"""
    na, nf = {"ok": (n1, n2), "swapped": (n2, n1), "n1": (n1, n1), "n2": (n2, n2)}[norms]
    sa, sf = (a, f) if sub == "ok" else (f, a)
    h = _sublayer(x, sa, na, order1 or order, res1)
    return _sublayer(h, sf, nf, order2 or order, res2)


def _block_variants(parts, order):
    """[(代码元组, 接法, 输出)]：一处或两处接错的所有组合（正确的块不在里面），错得少的在前。"""
    import itertools
    torch = _torch()
    other = "post" if order == "pre" else "pre"
    flags = {"order": [order, other], "order1": [order, other], "order2": [order, other],
             "norms": ["ok", "swapped", "n1", "n2"], "sub": ["ok", "swapped"],
             "res1": ["ok", "missing", "after_norm"], "res2": ["ok", "missing", "after_norm"]}
    after = "residual_after_norm" if order == "pre" else "norm_before_add"
    names = {("order", other): f"{other}_ln_order", ("order1", other): f"{other}_ln_order",
             ("order2", other): f"{other}_ln_order", ("norms", "swapped"): "swapped_norms",
             ("norms", "n1"): "norm_reused", ("norms", "n2"): "norm_reused", ("sub", "swapped"): "swapped_sublayers",
             ("res1", "missing"): "missing_residual", ("res2", "missing"): "missing_residual",
             ("res1", "after_norm"): after, ("res2", "after_norm"): after}
    out = []
    with torch.no_grad():
        # 两个子层同时缺残差（或都加错地方）算一处错误
        both = [({"res1": r, "res2": r}, (names[("res1", r)],)) for r in ("missing", "after_norm")]
        singles = [({c: v}, (names[(c, v)],)) for c in flags for v in flags[c][1:]]
        for setting, codes in singles[:1] + both + singles[1:]:
            out.append((codes, setting, _block(*parts, **dict({"order": order}, **setting))))
        for (s1, c1), (s2, c2) in itertools.combinations(singles, 2):
            if set(s1) & set(s2) or c1 == c2 or ("order" in s1 and ("order1" in s2 or "order2" in s2)):
                continue
            setting = dict(s1, **s2)
            out.append((c1 + c2, setting, _block(*parts, **dict({"order": order}, **setting))))
    return out


_WHERE = {"res1": "注意力子层", "res2": "前馈子层", "order1": "注意力子层", "order2": "前馈子层"}


def _check_block(exercise, fn, order, codes_table):
    torch = _torch()
    for seed in (0, 1):
        parts = _block_parts(seed)
        with torch.no_grad():
            expected = _block(*parts, order=order)
        x, *modules = parts
        value, failure = _call(fn, x.clone(), *modules)
        if failure is None:
            failure = _judge_tensor(value, expected, {}, codes_table)
        if failure is None:
            continue
        if failure[0] != "wrong_output":
            return finish(exercise, [failure])
        for codes, setting, wrong in _block_variants(parts, order):
            if _close(value, wrong, 1e-4, 1e-4):
                used = {"n1": "norm1", "n2": "norm2"}.get(setting.get("norms"), "")
                where = "、".join(_WHERE[k] for k in setting if k in _WHERE)
                found = [(c, _msg(codes_table, c, which=used)) for c in codes]
                if where and len(set(setting) & {"res1", "res2"}) < 2:
                    found[0] = (found[0][0], f"{where}：" + found[0][1])
                if len(found) > 1:
                    found[0] = (found[0][0], "同时有两处错误。" + found[0][1])
                return finish(exercise, found)
        return finish(exercise, [failure])
    return finish(exercise, [])


# ---------------------------------------------------------------- 第 2 章：为什么需要归一化
# （ReLU 练习的检查在 items/ch02_relu/check.py：纯 Python，网页里也能运行）


def _standardize(x, dim=-1, unbiased=False):
    mean = x.mean(dim=dim, keepdim=True)
    var = x.var(dim=dim, keepdim=True, unbiased=unbiased)
    return (x - mean) / var.sqrt()


# ---------------------------------------------------------------- 第 4 章：公式逐步计算


def _normalize(x, eps, unbiased=False):
    mean = x.mean(dim=-1, keepdim=True)
    var = x.var(dim=-1, keepdim=True, unbiased=unbiased)
    return (x - mean) / (var + eps).sqrt()


# ---------------------------------------------------------------- 第 11 章：速度


