"""各章较简单练习的检查函数（LayerNorm、BatchNorm、RMSNorm、均值方差四个检查在各自的模块里）。

每个检查函数：
- 用 `_core.call_learner` 调用学习者的代码（超时、报错、未完成都不会让内核崩溃）；
- 把学习者的结果和正确结果比较；不对时，再和几种“典型错误写法”的结果比较，找出具体是哪种错误；
- 用 `_core.finish` 返回并显示 CheckResult。错误代码（codes）是稳定的英文短名，见各函数的 `codes` 属性。

检查用的数据由独立的随机数生成器产生，不会改动学习者的全局随机状态。
"""
import functools
import math
import re
import sys

from ._core import NOT_DONE, call_learner, spec_findings, stops_checking
from ._core import finish as _show_result
from .catalog import get_exercise


def finish(exercise, findings, notes=()):
    """各检查函数体的结论（先不显示）：装饰器 _checker 再并上题目写明的要求，显示一次。"""
    return _show_result(exercise, findings, notes, show=False, each=True)

# 调用学习者代码的超时秒数（测试里可以调小）
_TIMEOUT = 5.0

# 所有检查都可能给出的通用错误代码
# （not_done、raised、timeout 的说明由 _core.Outcome.message 给出）
GENERIC_CODES = {
    NOT_DONE: "尚未作答：模板里的 raise NotImplementedError 还在，写好你的实现后再检查。",
    "raised": "你的代码抛出了异常。",
    "timeout": "你的代码运行太久，检查被中止。",
    "broadcast_error": "形状对不上，无法广播：第 {dim} 维一个长 {a}、一个长 {b}{where}。求均值、方差后，结果要还能和原张量逐元素运算（想想 keepdim）。",
    "not_tensor": "应返回一个 torch 张量，实际返回的是 {kind}。",
    "wrong_shape": "{label}输出形状应为 {expected}，实际是 {actual}。",
    "nan_output": "{label}输出里出现了 NaN 或无穷大。",
    "wrong_output": "{label}结果与正确值最大相差 {diff:.3g}。",
    "check_failed": "检查你的结果时出错（{error}）：请确认返回值的类型和形状符合题目要求。",
    "modified_input": "{label}你的函数原地改动了传入的第 {index} 个参数（例如用了 -=、/= 或 sub_()、div_() 这类原地操作）："
                      "请返回新的张量，不要改动调用者的数据。",
}


CHECKERS = {}   # 检查函数名 -> 检查函数（由 _checker 填写）


def _checker(exercise, codes):
    """装饰器：给检查函数记下练习 id 和它自己的错误代码表（code -> 中文说明模板）。

    包装后的检查函数：结束时恢复学习者的全局随机状态（检查里创建的 nn.Linear 等会消耗随机数）；
    检查过程中意外出错（例如返回了奇怪的对象）时，报告 check_failed，而不是抛出异常。
    """
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
        CHECKERS[func.__name__] = checker   # 注册表由装饰器填写，不再手写一遍名单
        checker.exercise_id = exercise
        checker.exercise = get_exercise(exercise).title   # 反馈里显示练习的标题
        checker.codes = dict(codes)
        return checker
    return wrap


def _msg(codes, code, **fields):
    template = codes.get(code) or GENERIC_CODES[code]
    try:
        return template.format(**fields)
    except (KeyError, IndexError, ValueError):
        return template


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
    return "wrong_output", _msg(codes, "wrong_output", label=label, diff=_max_diff(value, expected))


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
            [("modified_input", _msg(codes, "modified_input", label=label, index=changed[0]))] if changed else [])
        if findings:
            return finish(exercise, findings)
    return finish(exercise, [])


def _clone_args(args):
    torch = _torch()
    return tuple(a.clone() if isinstance(a, torch.Tensor) else a for a in args)


# ---------------------------------------------------------------- 第 0 章：环境与工具

_SEED_CODES = {
    "not_tensor": "应返回一个 torch 张量，实际返回的是 {kind}。",
    "wrong_shape": "返回张量的形状应为 (3, 4)，实际是 {actual}。",
    "not_reproducible": "用同一个种子调用两次，得到的随机数却不同：要在生成随机数之前设定种子。",
    "seed_ignored": "换了种子，结果却没有变：种子应当来自参数 seed，而不是写死的数。",
    "wrong_values": "结果可以复现，但和“设定种子后生成 3×4 的标准正态随机数”不一致：检查用的随机函数和调用顺序。",
}


@_checker("ch00-seeded-noise", _SEED_CODES)
def check_seeded_noise(fn):
    """检查 make_noise(seed)：设定种子后返回形状 (3, 4) 的标准正态随机张量，同一种子结果相同。"""
    torch = _torch()
    exercise = check_seeded_noise.exercise
    # 学习者的函数会调用 set_seed；检查结束后 _checker 恢复原来的全局随机状态
    a, failure = _call(fn, 7)
    if failure is None:
        b, failure = _call(fn, 7)
    if failure is None:
        c, failure = _call(fn, 8)
    if failure is not None:
        return finish(exercise, [failure])
    for value in (a, b, c):
        if not isinstance(value, torch.Tensor):
            return finish(exercise, [("not_tensor", _msg(_SEED_CODES, "not_tensor", kind=type(value).__name__))])
        if tuple(value.shape) != (3, 4):
            return finish(exercise, [("wrong_shape", _msg(_SEED_CODES, "wrong_shape", actual=tuple(value.shape)))])
    if not torch.equal(a, b):
        return finish(exercise, [("not_reproducible", _SEED_CODES["not_reproducible"])])
    if torch.equal(a, c):
        return finish(exercise, [("seed_ignored", _SEED_CODES["seed_ignored"])])
    from dsx_util.seed import set_seed
    set_seed(7)
    expected = torch.randn(3, 4)
    if not torch.equal(a.detach().to(expected.dtype), expected):
        return finish(exercise, [("wrong_values", _SEED_CODES["wrong_values"])])
    return finish(exercise, [])


_ROWS_CODES = {
    "not_rows": "应返回由行组成的列表，每一行是一个列表，例如 [[名称, 个数, 均值], ...]；实际返回的是 {kind}。",
    "wrong_row_count": "应有 {expected} 行（每个名称一行），实际有 {actual} 行。",
    "wrong_row_length": "第 {row} 行有 {actual} 个值，应有 3 个：名称、个数、均值。",
    "wrong_name_order": "第 {row} 行的名称应是 {expected!r}，实际是 {actual!r}：名称放在第 1 列，并保持字典里的顺序。",
    "wrong_count": "“{name}”这一行的个数应是 {expected}，实际是 {actual!r}。",
    "wrong_mean": "“{name}”这一行的均值不对：实际是 {actual!r}。均值 = 所有值之和 ÷ 值的个数。",
}


@_checker("ch00-table-rows", _ROWS_CODES)
def check_table_rows(fn):
    """检查 stats_rows(data)：把 {名称: 数值列表} 变成 print_table 需要的行 [名称, 个数, 均值]。"""
    exercise = check_table_rows.exercise
    datasets = [
        {"第 1 层": [1.0, 2.0, 3.0, 6.0], "第 2 层": [-1.0, 1.0], "第 3 层": [0.5]},
        {"嵌入": [4.0, 0.0], "输出": [2.5, 2.5, -1.0]},
    ]
    for data in datasets:
        copy = {k: list(v) for k, v in data.items()}
        rows, failure = _call(fn, copy)
        if failure is not None:
            return finish(exercise, [failure])
        if isinstance(rows, (str, bytes, dict)) or not isinstance(rows, (list, tuple)) or \
                not all(isinstance(r, (list, tuple)) for r in rows):
            return finish(exercise, [("not_rows", _msg(_ROWS_CODES, "not_rows", kind=type(rows).__name__))])
        if len(rows) != len(data):
            return finish(exercise, [("wrong_row_count", _msg(_ROWS_CODES, "wrong_row_count",
                                                              expected=len(data), actual=len(rows)))])
        for i, (row, (name, values)) in enumerate(zip(rows, data.items()), start=1):
            if len(row) != 3:
                return finish(exercise, [("wrong_row_length", _msg(_ROWS_CODES, "wrong_row_length",
                                                                   row=i, actual=len(row)))])
            if row[0] != name:
                return finish(exercise, [("wrong_name_order", _msg(_ROWS_CODES, "wrong_name_order",
                                                                   row=i, expected=name, actual=row[0]))])
            try:
                count_ok = float(row[1]) == len(values)
            except (TypeError, ValueError):
                count_ok = False
            if not count_ok:
                return finish(exercise, [("wrong_count", _msg(_ROWS_CODES, "wrong_count", name=name,
                                                              expected=len(values), actual=row[1]))])
            try:
                mean_ok = math.isclose(float(row[2]), sum(values) / len(values), rel_tol=1e-6, abs_tol=1e-9)
            except (TypeError, ValueError):
                mean_ok = False
            if not mean_ok:
                return finish(exercise, [("wrong_mean", _msg(_ROWS_CODES, "wrong_mean", name=name, actual=row[2]))])
    return finish(exercise, [])


# ---------------------------------------------------------------- 第 1 章：GPT 架构

_COUNT_CODES = {
    "not_pair": "应返回两个整数组成的元组 (层归一化个数, 参数总数)，实际返回的是 {value!r:.60}。",
    "forgot_final_norm": "层归一化少算了 1 个：最后一个 Transformer 块之后、输出头之前还有一个。",
    "one_norm_per_block": "每个 Transformer 块里有两个层归一化（注意力前一个、前馈神经网络前一个），不是一个。",
    "params_missing_shift": "个数对了，参数总数只有应有的一半：每个层归一化除了缩放参数 γ，还有平移参数 β。",
    "hard_coded": "GPT-2 small 的配置算对了，换一个配置（n_layers={n_layers}，emb_dim={emb_dim}）就错了：请用 cfg 里的值来算。",
    "wrong_count": "层归一化的个数不对（配置 n_layers={n_layers}）：数一数每个块里有几个，块外还有几个。",
    "wrong_params": "参数总数不对（配置 emb_dim={emb_dim}）：每个层归一化有多少个可学习参数？",
}


@_checker("ch01-count-norms", _COUNT_CODES)
def check_count_norms(fn):
    """检查 count_norms(cfg)：前置归一化 GPT 模型里层归一化的个数与参数总数（不构建模型，用公式算）。"""
    from dsx_util.gpt import GPT_CONFIG_124M
    exercise = check_count_norms.exercise
    configs = [dict(GPT_CONFIG_124M),
               dict(GPT_CONFIG_124M, n_layers=3, emb_dim=64, n_heads=4),
               dict(GPT_CONFIG_124M, n_layers=24, emb_dim=1024, n_heads=16)]
    for k, cfg in enumerate(configs):
        value, failure = _call(fn, dict(cfg))
        if failure is not None:
            return finish(exercise, [failure])
        try:
            count, params = value
            count, params = int(count), int(params)
            if count != value[0] or params != value[1]:
                raise ValueError
        except (TypeError, ValueError):
            return finish(exercise, [("not_pair", _msg(_COUNT_CODES, "not_pair", value=value))])
        n, e = cfg["n_layers"], cfg["emb_dim"]
        want_count, want_params = 2 * n + 1, (2 * n + 1) * 2 * e
        if (count, params) == (want_count, want_params):
            continue
        fields = {"n_layers": n, "emb_dim": e}
        if k > 0 and (count, params) == (25, 38400):
            code = "hard_coded"
        elif count == 2 * n:
            code = "forgot_final_norm"
        elif count in (n, n + 1):
            code = "one_norm_per_block"
        elif count != want_count:
            code = "wrong_count"
        elif params == want_count * e:
            code = "params_missing_shift"
        else:
            code = "wrong_params"
        return finish(exercise, [(code, _msg(_COUNT_CODES, code, **fields))])
    return finish(exercise, [])


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


_PRE_CODES = {
    "post_ln_order": "你写的是后置归一化（Post-LN）：先加残差再归一化。前置归一化要在进入子层之前归一化。",
    "missing_residual": "缺少残差连接：子层的输出要加回到进入这个子层之前的 x 上。",
    "residual_after_norm": "残差加在了归一化之后的张量上：残差连接应当绕过层归一化，加回未归一化的 x。",
    "swapped_norms": "norm1 和 norm2 用反了：norm1 属于注意力子层（先用），norm2 属于前馈子层（后用）。",
    "norm_reused": "两个子层用了同一个层归一化（都是 {which}）：norm1 给注意力子层，norm2 给前馈子层，各有各的参数。",
    "swapped_sublayers": "两个子层的顺序反了：先注意力 att，再前馈网络 ff。",
}

_POST_CODES = {
    "pre_ln_order": "你写的是前置归一化（Pre-LN）：后置归一化要先把子层输出加回残差，再做层归一化。",
    "missing_residual": "缺少残差连接：子层的输出要先加回该子层的输入，再归一化。",
    "norm_before_add": "层归一化只作用在了子层输出上：后置归一化归一化的是“输入 + 子层输出”的和。",
    "swapped_norms": "norm1 和 norm2 用反了：norm1 接在注意力子层的残差之后，norm2 接在前馈子层的残差之后。",
    "norm_reused": "两个子层用了同一个层归一化（都是 {which}）：norm1 接在注意力子层之后，norm2 接在前馈子层之后。",
    "swapped_sublayers": "两个子层的顺序反了：先注意力 att，再前馈网络 ff。",
}


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


@_checker("ch01-pre-ln-block", _PRE_CODES)
def check_pre_ln_block(fn):
    """检查 pre_ln_block(x, att, ff, norm1, norm2)：前置归一化 Transformer 块的前向传播（不含 dropout）。

    与正确结果不同时，和一处或两处接错（写成后置、两个层归一化对调或重复用一个、子层对调、残差缺失或加错地方）
    的组合比较，说出是哪几处。
    """
    return _check_block(check_pre_ln_block.exercise, fn, "pre", _PRE_CODES)


@_checker("ch09-post-ln-block", _POST_CODES)
def check_post_ln_block(fn):
    """检查 post_ln_block(x, att, ff, norm1, norm2)：后置归一化 Transformer 块的前向传播（不含 dropout）。"""
    return _check_block(check_post_ln_block.exercise, fn, "post", _POST_CODES)


# ---------------------------------------------------------------- 第 2 章：为什么需要归一化
# （ReLU 练习的检查在 pure_checks.py：纯 Python，网页里也能运行）


def _standardize(x, dim=-1, unbiased=False):
    mean = x.mean(dim=dim, keepdim=True)
    var = x.var(dim=dim, keepdim=True, unbiased=unbiased)
    return (x - mean) / var.sqrt()


_STD_CODES = {
    "normalized_columns": "你按列（dim=0）做了标准化：这里要让每一行（同一个样本的所有特征）均值为 0、方差为 1。",
    "normalized_all": "你用整个张量的均值和方差做了标准化：这里要每一行各用自己的均值和方差。",
    "no_centering": "没有减去均值：标准化后每一行的均值应为 0。",
    "no_scaling": "减去了均值，但没有除以标准差：标准化后每一行的方差应为 1。",
    "divided_by_var": "除以的是方差，不是标准差：方差的单位是原数据单位的平方。",
    "unbiased_var": "你用了无偏方差（除以 H−1）：本书的归一化用有偏方差（除以 H）。",
}


@_checker("ch02-standardize-rows", _STD_CODES)
def check_standardize_rows(fn):
    """检查 standardize_rows(x)：x 形状 [B, H]，把每一行变成均值 0、（有偏）方差 1。"""
    torch = _torch()
    cases = []
    for seed, shape in ((0, (4, 6)), (1, (3, 5))):
        x = _randn(seed, *shape) * torch.tensor([3.0] * shape[1]) + torch.arange(shape[1], dtype=torch.float32)
        wrong = {
            "normalized_columns": _standardize(x, dim=0),
            "normalized_all": (x - x.mean()) / x.var(unbiased=False).sqrt(),
            "no_centering": x / x.var(dim=-1, keepdim=True, unbiased=False).sqrt(),
            "no_scaling": x - x.mean(dim=-1, keepdim=True),
            "divided_by_var": (x - x.mean(dim=-1, keepdim=True)) / x.var(dim=-1, keepdim=True, unbiased=False),
            "unbiased_var": _standardize(x, unbiased=True),
        }
        cases.append(("", (x.clone(),), {}, _standardize(x), wrong))
    return _run_cases(check_standardize_rows.exercise, fn, cases, _STD_CODES, atol=1e-3, rtol=1e-3)


# ---------------------------------------------------------------- 第 3 章：dim 与 keepdim

# (表达式, 归约的维度, keepdim)；维度为 None 表示不是归约（逐元素运算 + 广播）
SHAPE_QUESTIONS = [
    ("x.mean(dim=-1)", (-1,), False),
    ("x.mean(dim=-1, keepdim=True)", (-1,), True),
    ("x.sum(dim=0)", (0,), False),
    ("x.var(dim=1, keepdim=True)", (1,), True),
    ("x - x.mean(dim=-1, keepdim=True)", None, None),
]
SHAPE_X = (2, 3, 4)

_SHAPE_CODES = {
    "not_dict": "应返回一个字典：键是表达式字符串，值是形状元组；实际返回的是 {kind}。",
    "missing_key": "字典里缺少表达式 {expr!r}（键要和题目里的表达式一字不差）。",
    "bad_shape_value": "{expr!r} 的值应是由整数组成的元组，例如 (2, 3)；实际是 {value!r:.40}。",
    "keepdim_dropped": "{expr!r}：keepdim=True 时被归约的维度不会消失，而是留下长度 1。",
    "keepdim_added": "{expr!r}：没有 keepdim=True 时，被归约的维度会从形状里消失。",
    "wrong_axis": "{expr!r}：你的答案像是归约了另一个维度。数一数 dim 指向哪一维（负数从最后一维往前数）。",
    "broadcast_misread": "{expr!r}：减法会把长度为 1 的维度广播回原来的长度，结果形状和 x 一样吗？",
    "wrong_shape": "{expr!r} 的形状不对，把每一维的长度再推一遍。",
}


def _reduced_shape(dims, keepdim):
    """形状为 SHAPE_X 的张量沿 dims 归约后的形状。"""
    dims = {d % len(SHAPE_X) for d in dims}
    shape = []
    for i, n in enumerate(SHAPE_X):
        if i not in dims:
            shape.append(n)
        elif keepdim:
            shape.append(1)
    return tuple(shape)


def _as_shape(value):
    torch = _torch()
    if isinstance(value, torch.Size):
        return tuple(value)
    if isinstance(value, (tuple, list)) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return tuple(value)
    return None


@_checker("ch03-predict-shapes", _SHAPE_CODES)
def check_predict_shapes(fn):
    """检查 predict_shapes()：对形状 (2, 3, 4) 的 x，预测几个表达式结果的形状。"""
    torch = _torch()
    exercise = check_predict_shapes.exercise
    answer, failure = _call(fn)
    if failure is not None:
        return finish(exercise, [failure])
    if not isinstance(answer, dict):
        return finish(exercise, [("not_dict", _msg(_SHAPE_CODES, "not_dict", kind=type(answer).__name__))])
    x = torch.zeros(SHAPE_X)
    findings = []
    for expr, dims, keepdim in SHAPE_QUESTIONS:
        truth = tuple(eval(expr, {"x": x}).shape)  # 由 PyTorch 真正算出的形状
        if expr not in answer:
            code, fields = "missing_key", {}
        else:
            shape = _as_shape(answer[expr])
            code, fields = None, {"value": answer[expr]}
            if shape is None:
                code = "bad_shape_value"
            elif shape != truth:
                code = "wrong_shape"
                if dims is None:
                    if len(shape) < len(truth) or 1 in shape:
                        code = "broadcast_misread"
                elif shape == _reduced_shape(dims, not keepdim):
                    code = "keepdim_added" if not keepdim else "keepdim_dropped"
                elif any(shape in (_reduced_shape((d,), keepdim), _reduced_shape((d,), not keepdim))
                         for d in range(len(SHAPE_X)) if d not in {e % len(SHAPE_X) for e in dims}):
                    code = "wrong_axis"
        if code:   # 每道答错的小题一条：答错五道就列五条
            findings.append((code, _msg(_SHAPE_CODES, code, expr=expr, **fields)))
    return finish(exercise, findings)


# ---------------------------------------------------------------- 第 4 章：公式逐步计算

_IDENTITY_CODES = {
    "not_pair": "应返回两个张量 (gamma, beta)，实际返回的是 {kind}。",
    "wrong_shape": "gamma 和 beta 的形状都应是 ({d},)，和层归一化的参数一样；实际是 {actual}。",
    "gamma_is_var": "gamma 用了方差：标准化时除的是标准差，要还原回去，乘的也应是标准差（别忘了 ε 在根号里）。",
    "missing_eps": "gamma 差了一点：标准化时分母里有 ε，gamma 也要把它算进去。",
    "unbiased_var": "gamma 用了无偏方差（除以 H−1）：层归一化用的是有偏方差。",
    "swapped": "gamma 和 beta 放反了：一个负责缩放，一个负责平移。",
    "beta_missing": "gamma 对了，但 beta 不对：标准化时减掉了均值，要平移回去。",
    "eps_ignored": "eps={eps} 时，你的 gamma 和 eps=1e-5 时一样：gamma 里的 ε 要用参数 eps，不要写死。",
    "wrong_output": "用你的 gamma、beta 做层归一化后，输出与输入最大相差 {diff:.3g}。",
}


@_checker("ch04-identity-params", _IDENTITY_CODES)
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
            return finish(exercise, [("not_pair", _msg(_IDENTITY_CODES, "not_pair", kind=type(value).__name__))])
        gamma, beta = (v.detach().to(torch.float32) for v in value)
        if tuple(gamma.shape) != (d,) or tuple(beta.shape) != (d,):
            return finish(exercise, [("wrong_shape", _msg(_IDENTITY_CODES, "wrong_shape", d=d,
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
            code = "wrong_output"
        return finish(exercise, [(code, _msg(_IDENTITY_CODES, code, diff=_max_diff(y, x), eps=eps))])
    return finish(exercise, [])


def _normalize(x, eps, unbiased=False):
    mean = x.mean(dim=-1, keepdim=True)
    var = x.var(dim=-1, keepdim=True, unbiased=unbiased)
    return (x - mean) / (var + eps).sqrt()


_EPS_CODES = {
    "nan_on_constant": "分母里没有 ε：所有值都相同的一行方差为 0，会得到 0/0 = NaN。",
    "eps_outside_sqrt": "ε 加在了根号外面：按式 (4.3)，ε 要先加到方差上，再开平方。",
    "eps_ignored": "换成 eps=0.5 调用，结果没有变：请使用参数 eps，不要写死 1e-5。",
    "unbiased_var": "你用了无偏方差（除以 H−1）：层归一化用有偏方差（除以 H）。",
    "no_centering": "没有减去均值：式 (4.3) 的分子是 x − μ。",
}


@_checker("ch04-normalize-eps", _EPS_CODES)
def check_normalize_eps(fn):
    """检查 normalize(x, eps)：按式 (4.1)–(4.3) 对最后一维标准化（不含 γ、β），常数行也要给出 0 而不是 NaN。"""
    torch = _torch()
    x = _randn(0, 3, 8)
    x[1] = x[1] * 1e-3 + 2.0                 # 方差很小的一行：能区分 ε 放在根号里还是外
    const = torch.full((2, 8), 3.0)
    cases = []
    for label, data, eps in (("常数行：", const, 1e-5), ("普通输入：", x, 1e-5), ("eps=0.5 时：", x, 0.5)):
        wrong = {
            "nan_on_constant": _normalize(data, 0.0),
            "eps_outside_sqrt": (data - data.mean(-1, keepdim=True)) / (data.var(-1, keepdim=True, unbiased=False).sqrt() + eps),
            "unbiased_var": _normalize(data, eps, unbiased=True),
            "no_centering": data / (data.var(-1, keepdim=True, unbiased=False) + eps).sqrt(),
        }
        if eps != 1e-5:
            wrong = {"eps_ignored": _normalize(data, 1e-5), **wrong}
        cases.append((label, (data.clone(),), {"eps": eps}, _normalize(data, eps), wrong))
    return _run_cases(check_normalize_eps.exercise, fn, cases, _EPS_CODES, atol=1e-4, rtol=1e-3,
                      nan_code="nan_on_constant")


# ---------------------------------------------------------------- 第 5 章：实现 LayerNorm

_COPY_CODES = {
    "not_copied": "scale 和 shift 没有变化：参数还没有复制进来。",
    "swapped": "复制反了：nn.LayerNorm 的 weight 对应缩放参数 scale，bias 对应平移参数 shift。",
    "shift_missing": "scale 复制对了，shift 还没有：bias 也要复制。",
    "scale_missing": "shift 复制对了，scale 还没有：weight 也要复制。",
    "eps_not_copied": "参数复制对了，但 eps 不一致（PyTorch 模型用的是 {eps:g}）：两个模型的 ε 也要相同，输出才会一致。",
    "shares_memory": "两个模型现在共用同一块内存：改动一个会悄悄改动另一个。请复制数值，而不是共用张量。",
    "not_parameter": "scale 或 shift 不再是需要梯度的 nn.Parameter，训练时就不会更新了。请把数值复制进原来的参数。",
    "wrong_output": "参数复制后，两个模型的输出最大相差 {diff:.3g}。",
}


@_checker("ch05-copy-weights", _COPY_CODES)
def check_copy_weights(fn):
    """检查 copy_weights(my_ln, torch_ln)：把 nn.LayerNorm 的 weight、bias、eps 复制到本书的 LayerNorm。"""
    torch = _torch()
    import torch.nn as nn
    from dsx_util.layernorm import LayerNorm
    exercise = check_copy_weights.exercise
    d, eps = 6, 1e-6
    torch_ln = nn.LayerNorm(d, eps=eps)
    with torch.no_grad():
        torch_ln.weight.copy_(_randn(0, d) + 1.0)
        torch_ln.bias.copy_(_randn(1, d))
    my_ln = LayerNorm(d)
    _, failure = _call(fn, my_ln, torch_ln)
    if failure is not None:
        return finish(exercise, [failure])

    def fail(code, **fields):
        return finish(exercise, [(code, _msg(_COPY_CODES, code, **fields))])

    scale, shift = getattr(my_ln, "scale", None), getattr(my_ln, "shift", None)
    w, b = torch_ln.weight.detach(), torch_ln.bias.detach()
    if not all(isinstance(p, nn.Parameter) and p.requires_grad for p in (scale, shift)):
        return fail("not_parameter")
    if scale.data_ptr() in (w.data_ptr(), b.data_ptr()) or shift.data_ptr() in (w.data_ptr(), b.data_ptr()):
        return fail("shares_memory")
    s_ok, t_ok = _close(scale, w, 0, 0), _close(shift, b, 0, 0)
    if not (s_ok and t_ok):
        if _close(scale, b, 0, 0) and _close(shift, w, 0, 0):
            return fail("swapped")
        s_untouched, t_untouched = _close(scale, torch.ones(d), 0, 0), _close(shift, torch.zeros(d), 0, 0)
        if s_ok and t_untouched:
            return fail("shift_missing")
        if t_ok and s_untouched:
            return fail("scale_missing")
        if s_untouched and t_untouched:
            return fail("not_copied")
        return fail("wrong_output", diff=max(_max_diff(scale, w), _max_diff(shift, b)))
    if getattr(my_ln, "eps", None) != eps:
        return fail("eps_not_copied", eps=eps)
    x = _randn(2, 3, d) * 1e-3   # 方差很小，ε 的差别会显出来
    with torch.no_grad():
        diff = _max_diff(my_ln(x), torch_ln(x))
    if diff > 1e-4:
        return fail("wrong_output", diff=diff)
    return finish(exercise, [])


# ---------------------------------------------------------------- 第 6 章：有偏与无偏方差

_RATIO_CODES = {
    "not_number": "应返回一个数，实际返回的是 {kind}。",
    "inverted": "比值倒过来了：有偏估计除以 H，无偏估计除以 H−1，哪一个标准差更小？",
    "missing_sqrt": "这是两个方差之比：标准差是方差的平方根，比值也要开方。",
    "wrong_value": "H={h} 时你的结果是 {actual:.6g}，不对：有偏标准差比无偏标准差略小，比值在 0 和 1 之间。",
}


@_checker("ch06-std-ratio", _RATIO_CODES)
def check_std_ratio(fn):
    """检查 std_ratio(h)：同一组 h 个数的有偏标准差 ÷ 无偏标准差。"""
    exercise = check_std_ratio.exercise
    for h in (2, 4, 768):
        value, failure = _call(fn, h)
        if failure is not None:
            return finish(exercise, [failure])
        try:
            if isinstance(value, (bool, str)):
                raise TypeError
            got = float(value)
        except (TypeError, ValueError, RuntimeError):
            return finish(exercise, [("not_number", _msg(_RATIO_CODES, "not_number", kind=type(value).__name__))])
        want = math.sqrt((h - 1) / h)
        if math.isclose(got, want, rel_tol=1e-6):
            continue
        variants = [("inverted", 1 / want), ("missing_sqrt", want ** 2), ("inverted", 1 / want ** 2)]
        code = next((c for c, v in variants if math.isclose(got, v, rel_tol=1e-6)), "wrong_value")
        return finish(exercise, [(code, _msg(_RATIO_CODES, code, h=h, actual=got))])
    return finish(exercise, [])


_TO_BIASED_CODES = {
    "inverted": "换算方向反了：有偏方差除以 H，无偏方差除以 H−1，所以有偏方差更小。",
    "used_sqrt": "这里换算的是方差，不是标准差：不需要开方。",
    "ignored_n": "结果没有用到 h：换算系数取决于每组有多少个数。",
}


@_checker("ch06-to-biased", _TO_BIASED_CODES)
def check_to_biased(fn):
    """检查 to_biased(var_unbiased, h)：把无偏方差换算成有偏方差（张量逐元素）。"""
    torch = _torch()
    cases = []
    for label, v, n in (("", torch.tensor([1.0, 2.5, 0.3]), 4), ("", _randn(0, 2, 3).abs() + 0.5, 768)):
        wrong = {
            "inverted": v * n / (n - 1),
            "used_sqrt": v * math.sqrt((n - 1) / n),
            "ignored_n": v,
        }
        cases.append((label, (v.clone(), n), {}, v * (n - 1) / n, wrong))
    return _run_cases(check_to_biased.exercise, fn, cases, _TO_BIASED_CODES, atol=1e-7, rtol=1e-6)


# ---------------------------------------------------------------- 第 7 章：LayerNorm 与 BatchNorm

_BN_AXIS_CODES = {
    "normalized_rows": "你对每一行（每个样本）做了归一化，这是层归一化：批量归一化要对每一列（每个特征）跨样本归一化。",
    "normalized_all": "你用整个批量所有元素的均值和方差做了归一化：批量归一化每个特征（每一列）各算各的。",
    "unbiased_var": "你用了无偏方差（除以 B−1）：训练时的批量归一化用有偏方差来归一化。",
    "no_centering": "没有减去均值：归一化后每一列的均值应为 0。",
    "eps_ignored": "eps={eps} 时结果和 eps=1e-5 时一样：请用参数 eps，不要写死。",
    "eps_misplaced": "eps={eps} 时结果不对：ε 要加在方差上、再开平方（√(σ² + ε)），不要漏掉或加在根号外面。",
}


@_checker("ch07-batchnorm-axis", _BN_AXIS_CODES)
def check_batchnorm_axis(fn):
    """检查 batch_normalize(x, eps)：x 形状 [B, H]，对每个特征（dim=0）做标准化（不含 γ、β）。"""
    torch = _torch()
    cases = []
    for seed, shape, eps in ((0, (5, 3), 1e-5), (1, (4, 7), 1e-5), (2, (6, 3), 0.5)):
        x = _randn(seed, *shape) * (torch.arange(shape[1]) + 1.0) + 10 * torch.arange(shape[1])

        def norm(dim, unbiased=False, e=eps):
            return (x - x.mean(dim, keepdim=True)) / (x.var(dim, keepdim=True, unbiased=unbiased) + e).sqrt()
        centered = x - x.mean(0, keepdim=True)
        std = x.var(0, keepdim=True, unbiased=False).sqrt()
        wrong = {
            "normalized_rows": norm(-1),
            "normalized_all": (x - x.mean()) / (x.var(unbiased=False) + eps).sqrt(),
            "unbiased_var": norm(0, unbiased=True),
            "no_centering": x / (x.var(0, keepdim=True, unbiased=False) + eps).sqrt(),
        }
        if eps != 1e-5:
            wrong = {"eps_ignored": norm(0, e=1e-5), "eps_misplaced": centered / (std + eps),
                     "eps_misplaced#none": centered / std, **wrong}
        cases.append((f"eps={eps:g} 时：" if eps != 1e-5 else "", (x.clone(),), {"eps": eps}, norm(0), wrong))
    return _run_cases(check_batchnorm_axis.exercise, fn, cases, _BN_AXIS_CODES, atol=1e-4, rtol=1e-3)


# ---------------------------------------------------------------- 第 8 章：RMSNorm

_RMS_CODES = {
    "subtracted_mean": "你先减去了均值，算出的是标准差：均方根直接对 x² 求平均，不减均值。",
    "missing_sqrt": "这是均方（x² 的平均），还差开平方。",
    "no_keepdim": "数值对了，但形状是 {actual}：请保留被归约的最后一维（长度 1），这样结果才能和 x 逐元素相除。",
    "wrong_dim": "你在第 0 维上求了平均：均方根要对最后一维（每个词元的所有特征）求。",
    "abs_mean": "你算的是绝对值的平均：均方根是先平方、再平均、再开方。",
}


@_checker("ch08-rms", _RMS_CODES)
def check_rms(fn):
    """检查 rms_last_dim(x)：沿最后一维的均方根 sqrt(mean(x²))，保留维度（keepdim）。"""
    cases = []
    for seed, shape in ((0, (3, 5)), (1, (2, 4, 6))):
        x = _randn(seed, *shape) * 2 + 0.5
        wrong = {
            "no_keepdim": x.pow(2).mean(-1).sqrt(),
            "subtracted_mean": x.var(-1, keepdim=True, unbiased=False).sqrt(),
            "missing_sqrt": x.pow(2).mean(-1, keepdim=True),
            "wrong_dim": x.pow(2).mean(0, keepdim=True).sqrt(),
            "abs_mean": x.abs().mean(-1, keepdim=True),
        }
        wrong["wrong_dim#no_keepdim"] = x.pow(2).mean(0).sqrt()
        cases.append(("", (x.clone(),), {}, x.pow(2).mean(-1, keepdim=True).sqrt(), wrong))
    return _run_cases(check_rms.exercise, fn, cases, _RMS_CODES, atol=1e-4, rtol=1e-4)


# ---------------------------------------------------------------- 第 9 章：Pre-LN 与 Post-LN

_TRUNK_CODES = {
    "missing_final_norm": "前置归一化（Pre-LN）的模型在所有块之后还要再做一次层归一化（GPT-2 的 ln_f）。",
    "extra_final_norm": "后置归一化（Post-LN）的每个块本身就以层归一化结尾，所有块之后不再需要 final_norm。",
    "final_norm_first": "final_norm 放在了所有块之前：它应在最后一个块之后。",
    "reversed_blocks": "块的顺序反了：按列表顺序，从 blocks[0] 依次经过每个块。",
    "bad_position": "norm_position 只会是 \"pre\" 或 \"post\"：两种情况都要处理。",
}


@_checker("ch09-gpt-trunk", _TRUNK_CODES)
def check_gpt_trunk(fn):
    """检查 gpt_trunk(x, blocks, final_norm, norm_position)：依次经过所有块，Pre-LN 时最后再做 final_norm。"""
    torch = _torch()
    import torch.nn as nn
    from dsx_util.layernorm import LayerNorm
    gen = _gen(3)
    e = 6
    blocks = [nn.Linear(e, e) for _ in range(3)]
    final_norm = LayerNorm(e)
    with torch.no_grad():
        for m in (*blocks, final_norm):
            for p in m.parameters():
                p.copy_(torch.randn(p.shape, generator=gen) * 0.7)
            m.requires_grad_(False)
    x = torch.randn(2, 4, e, generator=gen) + 2.0

    def run(seq, with_norm, norm_first=False):
        h = final_norm(x) if norm_first else x
        for b in seq:
            h = b(h)
        return final_norm(h) if with_norm else h
    with torch.no_grad():
        cases = [
            ("norm_position=\"pre\"：", "pre", run(blocks, True),
             {"missing_final_norm": run(blocks, False), "final_norm_first": run(blocks, False, True),
              "reversed_blocks": run(blocks[::-1], True)}),
            ("norm_position=\"post\"：", "post", run(blocks, False),
             {"extra_final_norm": run(blocks, True), "reversed_blocks": run(blocks[::-1], False)}),
        ]
    exercise = check_gpt_trunk.exercise
    for label, position, expected, wrong in cases:
        value, failure = _call(fn, x.clone(), list(blocks), final_norm, position)
        if failure is None:
            if value is None:
                failure = ("bad_position", _TRUNK_CODES["bad_position"])
            else:
                failure = _judge_tensor(value, expected, wrong, _TRUNK_CODES, label=label)
        if failure is not None:
            return finish(exercise, [failure])
    return finish(exercise, [])


# ---------------------------------------------------------------- 第 10 章：反向传播

_CENTER_CODES = {
    "missing_mean_term": "每个 x 都通过均值影响所有输出：梯度里还少了经过均值的那一部分。",
    "sign_flipped": "符号反了：直接路径的梯度是 +grad_out，经过均值的那一部分是减去的。",
    "wrong_dim": "经过均值的那一项要在最后一维（同一个词元的特征）上算，不是第 0 维。",
    "wrong_scale": "经过均值的那一项大小不对：均值是“求和 ÷ H”，别忘了除以 H。",
}


@_checker("ch10-centering-backward", _CENTER_CODES)
def check_centering_backward(fn):
    """检查 centering_backward(grad_out)：y = x − mean(x, 最后一维) 时，损失对 x 的梯度。"""
    cases = []
    for seed, shape in ((0, (3, 5)), (1, (2, 4, 6))):
        g = _randn(seed, *shape)
        gm = g.mean(-1, keepdim=True)
        wrong = {
            "missing_mean_term": g,
            "sign_flipped": gm - g,
            "wrong_dim": g - g.mean(0, keepdim=True),
            "wrong_scale": g - g.sum(-1, keepdim=True),
        }
        cases.append(("", (g.clone(),), {}, g - gm, wrong))
    return _run_cases(check_centering_backward.exercise, fn, cases, _CENTER_CODES, atol=1e-5, rtol=1e-4)


def _ln_backward_parts(x, gamma, g, eps, unbiased=False, use_gamma=True):
    var = x.var(-1, keepdim=True, unbiased=unbiased)
    sigma = (var + eps).sqrt()
    xhat = (x - x.mean(-1, keepdim=True)) / sigma
    gg = g * gamma if use_gamma else g
    a = gg.mean(-1, keepdim=True)
    b = (gg * xhat).mean(-1, keepdim=True)
    return sigma, xhat, gg, a, b


_LNB_CODES = {
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
    "row_sum_not_zero": "你的梯度第 {row} 行的和是 {got}，应为 0：层归一化的输出不受整行平移影响，所以 dL/dx 沿最后一维"
                        "的和必为 0——经过均值 μ 的那一项不对或缺了。",
    "not_orthogonal_to_xhat": "你的梯度第 {row} 行与 x̂ 的内积是 {got}，应为 0：输出不受整行缩放影响，所以 Σ dL/dx·x̂ 必为 0"
                              "——经过方差 σ² 的那一项不对或缺了。",
}

_LNB_FLAGS = {"mean_term": ["ok", "none", "sum", "sign"], "proj_term": ["ok", "none", "sum", "sign"],
              "use_gamma": [True, False], "unbiased": [False, True], "scale": ["inv", "none", "mul", "var"],
              "eps_fixed": [False, True]}
_LNB_FLAG_CODES = {("mean_term", "none"): "missing_mean_term", ("mean_term", "sum"): "mean_term_sum",
                   ("mean_term", "sign"): "mean_term_sign", ("proj_term", "none"): "missing_projection_term",
                   ("proj_term", "sum"): "projection_term_sum", ("proj_term", "sign"): "projection_term_sign",
                   ("use_gamma", False): "gamma_ignored", ("unbiased", True): "unbiased_var",
                   ("scale", "none"): "wrong_scale", ("scale", "mul"): "wrong_scale", ("scale", "var"): "wrong_scale",
                   ("eps_fixed", True): "eps_ignored"}
_DIRECT_ONLY = ("只算了直接路径 γ·grad_out/σ：还少了两项——经过均值 μ 的 mean(γ·grad_out)，"
                "和经过方差 σ² 的 x̂·mean(γ·grad_out·x̂)，两者都要减去，再整体除以 σ。")


def _lnb_formula(x, gamma, g, eps, mean_term="ok", proj_term="ok", use_gamma=True, unbiased=False, scale="inv",
                 eps_fixed=False):
    sigma, xhat, gg, a, b = _ln_backward_parts(x, gamma, g, 1e-5 if eps_fixed else eps, unbiased, use_gamma)
    h = x.shape[-1]
    term = {"ok": 1.0, "none": 0.0, "sum": float(h), "sign": -1.0}
    core = gg - term[mean_term] * a - term[proj_term] * xhat * b
    return {"inv": core / sigma, "none": core, "mul": core * sigma, "var": core / sigma ** 2}[scale]


@_checker("ch10-layer-norm-backward", _LNB_CODES)
def check_layer_norm_backward(fn):
    """检查 layer_norm_backward(x, gamma, grad_out, eps)：手推层归一化对 x 的梯度，与 autograd 比较。

    与正确结果不同时，先和一处或两处典型错误（缺项、求和代替平均、符号、γ、无偏方差、1/σ、写死 ε）的组合比较；
    都不像时检查两条性质：每行梯度之和为 0（经过 μ 的项），与 x̂ 的内积为 0（经过 σ² 的项）。
    """
    torch = _torch()
    exercise = check_layer_norm_backward.exercise
    for seed, shape, eps in ((0, (3, 6), 1e-5), (1, (2, 4, 8), 1e-5), (2, (3, 5), 0.5)):
        x = _randn(seed, *shape, dtype=torch.float64) * 1.5 + 0.5
        if eps != 1e-5:
            x = x * 0.3   # 方差与 ε 同量级：写死 ε 的差别显出来
        gamma = _randn(seed + 10, shape[-1], dtype=torch.float64) + 1.0
        g = _randn(seed + 20, *shape, dtype=torch.float64)
        xr = x.clone().requires_grad_(True)   # 正确答案由 autograd 算出
        with torch.enable_grad():
            mean = xr.mean(-1, keepdim=True)
            var = xr.var(-1, keepdim=True, unbiased=False)
            y = gamma * (xr - mean) / torch.sqrt(var + eps)
            (expected,) = torch.autograd.grad(y, xr, g)
        given = (x.clone(), gamma.clone(), g.clone())
        value, failure = _call(fn, *given, eps=eps)
        label = f"eps={eps:g} 时：" if eps != 1e-5 else ""
        if failure is None:
            failure = _judge_tensor(value, expected, {}, _LNB_CODES, label=label, atol=1e-6, rtol=1e-5)
        if failure is None:
            if any(not torch.equal(a, b) for a, b in zip(given, (x, gamma, g))):
                return finish(exercise, [("modified_input", _msg(_LNB_CODES, "modified_input", label=label, index=1))])
            continue
        if failure[0] != "wrong_output":
            return finish(exercise, [failure])
        findings = _lnb_variants(value, x, gamma, g, eps)
        if findings is None:
            findings = _lnb_steps(value, x, eps) or [failure]
        return finish(exercise, findings)
    return finish(exercise, [])


def _lnb_variants(value, x, gamma, g, eps):
    """与一处或两处典型错误的组合比较；吻合时返回 findings，否则 None。"""
    import itertools
    keys = list(_LNB_FLAGS)
    for k in (1, 2):
        for chosen in itertools.combinations(keys, k):
            for values in itertools.product(*[_LNB_FLAGS[c][1:] for c in chosen]):
                setting = dict(zip(chosen, values))
                if setting.get("eps_fixed") and eps == 1e-5:
                    continue
                if _close(value, _lnb_formula(x, gamma, g, eps, **setting), 1e-6, 1e-5):
                    codes = [_LNB_FLAG_CODES[(c, v)] for c, v in setting.items()]
                    if set(codes) == {"missing_mean_term", "missing_projection_term"}:
                        return [("missing_mean_term", _DIRECT_ONLY),
                                ("missing_projection_term", _LNB_CODES["missing_projection_term"])]
                    found = [(c, _msg(_LNB_CODES, c, eps=eps)) for c in codes]
                    if len(found) > 1:
                        found[0] = (found[0][0], "同时有两处错误。" + found[0][1])
                    return found
    return None


def _lnb_steps(value, x, eps):
    """逐步诊断：正确的 dL/dx 每行和为 0、与 x̂ 正交。"""
    torch = _torch()
    v = value.detach().double().reshape(-1, x.shape[-1])
    x2 = x.reshape(-1, x.shape[-1])
    xhat = (x2 - x2.mean(-1, keepdim=True)) / torch.sqrt(x2.var(-1, keepdim=True, unbiased=False) + eps)
    size = float(v.abs().max()) + 1e-12
    findings = []
    sums = v.sum(-1)
    i = int(sums.abs().argmax())
    if abs(float(sums[i])) > 1e-6 * size * x.shape[-1]:
        findings.append(("row_sum_not_zero", _msg(_LNB_CODES, "row_sum_not_zero", row=i + 1, got=_fmt(sums[i]))))
    dots = (v * xhat).sum(-1)
    i = int(dots.abs().argmax())
    if abs(float(dots[i])) > 1e-6 * size * x.shape[-1]:
        findings.append(("not_orthogonal_to_xhat", _msg(_LNB_CODES, "not_orthogonal_to_xhat", row=i + 1,
                                                         got=_fmt(dots[i]))))
    return findings


def _fmt(v):
    from .core import fmt_num
    return fmt_num(float(v))


# ---------------------------------------------------------------- 第 11 章：速度

_SUMS_CODES = {
    "unbiased_var": "你除以了 H−1：这里要的是有偏方差（除以 H），和层归一化一致。",
    "missing_mean_square": "还要减去均值的平方：方差 = x² 的平均 − 平均值的平方。",
    "sign_flipped": "两项的顺序反了：方差不会是负数。",
    "forgot_divide": "s1、s2 是求和，不是平均：先除以 h。",
}


@_checker("ch11-var-from-sums", _SUMS_CODES)
def check_var_from_sums(fn):
    """检查 var_from_sums(s1, s2, h)：由一遍扫描得到的 Σx 与 Σx² 算出有偏方差（逐元素）。"""
    torch = _torch()
    cases = []
    for seed, n in ((0, 8), (1, 50)):
        x = _randn(seed, 3, n, dtype=torch.float64) * 2 + 1
        s1, s2 = x.sum(-1), x.pow(2).sum(-1)
        wrong = {
            "unbiased_var": (s2 - s1 ** 2 / n) / (n - 1),
            "missing_mean_square": s2 / n,
            "sign_flipped": (s1 / n) ** 2 - s2 / n,
            "forgot_divide": s2 - s1 ** 2,
        }
        cases.append(("", (s1.clone(), s2.clone(), n), {}, x.var(-1, unbiased=False), wrong))
    return _run_cases(check_var_from_sums.exercise, fn, cases, _SUMS_CODES, atol=1e-8, rtol=1e-7)


_STABLE_CODES = {
    "single_pass_variance": "均值约为 10⁴ 的行算错了（最大误差 {diff:.3g}）：用 E[x²] − (E[x])² 一次算方差时，两个很大的数相减会丢掉有效数字。",
    "unbiased_var": "你用了无偏方差（除以 H−1）：层归一化用有偏方差（除以 H）。",
    "wrong_dtype": "输入是 float32，你返回的是 {dtype}：请保持 float32，不要靠换成更高精度来绕过问题。",
    "no_centering": "没有减去均值：式 (4.3) 的分子是 x − μ。",
    "eps_ignored": "eps={eps} 时结果和 eps=1e-5 时一样：请用参数 eps，不要写死。",
    "eps_misplaced": "eps={eps} 时结果不对：ε 要加在方差上、再开平方（√(σ² + ε)），不要漏掉或加在根号外面。",
}


@_checker("ch11-stable-layer-norm", _STABLE_CODES)
def check_stable_layer_norm(fn):
    """检查 stable_normalize(x, eps)：float32 下对最后一维标准化，均值约 10⁴ 的行也要算对。"""
    torch = _torch()
    exercise = check_stable_layer_norm.exercise

    def reference(x, unbiased=False, eps=1e-5, outside=False):
        x64 = x.double()
        var = x64.var(-1, keepdim=True, unbiased=unbiased)
        return ((x64 - x64.mean(-1, keepdim=True)) / (var.sqrt() + eps if outside else (var + eps).sqrt())).float()
    small = _randn(0, 4, 64) * 2 + 1
    big = _randn(1, 4, 768) + 1e4
    narrow = _randn(2, 3, 16) * 0.3 + 2.0   # 方差与 ε 同量级：ε 用没用、加在哪里，结果差得很明显
    for label, x, tol, eps in (("普通输入：", small, 1e-3, 1e-5), ("均值约 1e4 的输入：", big, 2e-2, 1e-5),
                               ("eps=0.5 时：", narrow, 1e-3, 0.5)):
        value, failure = _call(fn, x.clone(), eps=eps)
        if failure is None and isinstance(value, torch.Tensor) and value.dtype != torch.float32:
            failure = ("wrong_dtype", _msg(_STABLE_CODES, "wrong_dtype", dtype=str(value.dtype).replace("torch.", "")))
        if failure is None:
            wrong = {"unbiased_var": reference(x, unbiased=True, eps=eps),
                     "no_centering": (x.double() / (x.double().var(-1, keepdim=True, unbiased=False) + eps).sqrt()).float()}
            if eps != 1e-5:
                wrong.update({"eps_ignored": reference(x), "eps_misplaced": reference(x, eps=eps, outside=True),
                              "eps_misplaced#none": reference(x, eps=0.0)})
            failure = _judge_tensor(value, reference(x, eps=eps), wrong, _STABLE_CODES, label=label, atol=tol, rtol=tol,
                                    fields={"eps": eps},
                                    nan_code="single_pass_variance" if x is big else "nan_output")
            if failure is not None and x is big and failure[0] in ("wrong_output", "single_pass_variance"):
                diff = _max_diff(torch.nan_to_num(value.detach(), nan=1e30), reference(x, eps=eps))
                failure = ("single_pass_variance", _msg(_STABLE_CODES, "single_pass_variance", diff=diff))
        if failure is not None:
            return finish(exercise, [failure])
    return finish(exercise, [])


# ---------------------------------------------------------------- 文件夹里自带 check.py 的练习（issue 21 的布局）
def _load_folder_checks():
    """练习文件夹 items/<id>/check.py 里的（非网页）检查器，在这里导入一次，登记进 CHECKERS。"""
    import importlib
    from pathlib import Path
    for check in sorted((Path(__file__).parent / "items").glob("*/check.py")):
        if "IN_PAGE = True" not in (check.parent / "__init__.py").read_text(encoding="utf-8"):
            importlib.import_module(f"{__package__}.items.{check.parent.name}.check")


_load_folder_checks()
