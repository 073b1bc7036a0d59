# 导入：标准库、torch、feedback、torch_checks。
"""模块类检查：创建学习者的 nn.Module、检查参数、逐个输入前向，以及逐步诊断（LayerNorm、RMSNorm、BatchNorm、
均值方差四道模块类 / 多输出练习共用；它们的 check.py 不导入别的练习的文件夹）。

逐步诊断：没有任何错误模型吻合时，用“每个正确实现都有的性质”找出错在哪一步。每个检查器自己决定检查哪些性质
（均值为 0、方差约为 1、加常数不变、乘正数不变、各行互不影响……），这里只提供：在已知参数下安全地调用学习者的模块
（set_params、output），找出偏差最大的那一行（worst），以及各行是否互相影响（rows_mixed）。
"""
from __future__ import annotations

from .feedback import NOT_DONE, TIMEOUT, WRONG_SHAPE_OR_DTYPE, fmt_num
from .torch_checks import RAISES, close, describe_value, fmt_shape, max_abs_diff, tensor_problem


def stop_with(out):
    """学习者的代码未完成、报错或超时（Outcome out）：只报这一条，不再往下检查。"""
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


def set_params(m, values):
    """把 {属性名: 张量} 写进学习者模块的参数；失败时返回 False（此时不做依赖参数的检查）。"""
    import torch
    try:
        with torch.no_grad():
            for name, value in values.items():
                getattr(m, name).copy_(value)
    except Exception:  # noqa: BLE001 -- 学习者的参数可能是任何东西
        return False
    return True


def output(run, m, x):
    """m(x) 的 float64 结果；报错、超时、形状不对或有 NaN/inf 时返回 None（这一条性质就不检查）。"""
    import torch
    out = run.call(m, x.clone())
    y = out.value if out.ok else None
    if not isinstance(y, torch.Tensor) or tuple(y.shape) != tuple(x.shape) or not bool(torch.isfinite(y).all()):
        return None   # NaN/inf 由检查器原有的说明处理
    return y.detach().double()


def worst(values):
    """一维张量里绝对值最大的位置与值：(下标, 值)。"""
    i = int(values.abs().nan_to_num(float("inf")).argmax())
    return i, float(values[i])


def rows_mixed(run, m, x3, tol=1e-5):
    """只改动三维输入 x3[0, 0] 这一行时，其他行的输出是否也变了；返回最大变化（无法检查时返回 None）。"""
    a = output(run, m, x3)
    changed = x3.clone()
    changed[0, 0] = changed[0, 0] * 3.0 + 7.0
    b = output(run, m, changed)
    if a is None or b is None:
        return None
    d = (a - b).abs()
    d[0, 0] = 0.0
    d = float(d.nan_to_num(float("inf")).max())
    return d if d > tol else None


def rows_mixed_finding(run, m, x3, own):
    """只改动第 (0, 0) 个词元那一行后，别的词元的输出也变了：一条 rows_mixed（own：每个词元只该用它自己那一行的什么，
    例如“均值和方差”）；没变或无法检查时 []。"""
    d = rows_mixed(run, m, x3)
    if d is None:
        return []
    return [("rows_mixed", f"输入形状 {fmt_shape(x3.shape)}，只改动第 (0, 0) 个词元那一行后，别的词元的输出也变了，"
                           f"最大变化 {fmt_num(d)}：每个词元只能用它自己那一行的{own}（沿最后一维，嵌入维度 H）。")]
