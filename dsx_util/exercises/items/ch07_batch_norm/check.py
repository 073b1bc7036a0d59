# 导入：标准库、torch、feedback、module_checks、torch_checks。
"""检查学习者自己写的 BatchNorm1d：``cls(num_features, eps=1e-5, momentum=0.1)``，输入 x 形状 [B, H]。

对照 ``nn.BatchNorm1d`` 的行为分三步检查：训练模式的输出（按批量统计量归一化）、
running_mean / running_var 的更新（running_var 用无偏方差！）、评估模式的输出（用 running 统计量）。
每一步都与几种错误模型比较；后一步以学习者自己上一步的缓冲区为起点，避免一个错误连带出一串。
训练模式的输出与错误模型都不吻合时逐步诊断：每个特征（列）的输出均值为 0、方差约为 1、
整列平移不变、各特征互不影响。
"""
from __future__ import annotations

import functools

from ...feedback import NOT_DONE, TIMEOUT, WRONG_OUTPUT, WRONG_SHAPE_OR_DTYPE, checker, fmt_num, fmt_pair
from ...torch_checks import close, describe_value, find_models, fmt_shape, max_abs_diff, run_model, tensor_problem
from ...module_checks import output, stop_with, worst



CODES = {
    "wrong_axis": "在错误的维度上归一化（例如对每个样本），批量归一化要对每个特征沿批量维度统计",
    "unbiased_normalize": "归一化时用了无偏方差，训练模式的输出要用有偏方差",
    "running_var_biased": "running_var 用有偏方差更新了，nn.BatchNorm1d 用的是无偏方差",
    "no_running_update": "训练模式下没有更新 running_mean / running_var",
    "wrong_momentum": "动量用反了：新值 = (1−momentum)·旧值 + momentum·批量统计量",
    "eval_uses_batch_stats": "评估模式仍用当前批量的统计量，应改用 running_mean / running_var",
    "wrong_shape_or_dtype": "返回值不是与输入同形状、同 dtype 的张量",
    "feature_mean_not_zero": "训练模式下每个特征（一列）的输出均值不是 0：没有减去这个特征在批量上的均值",
    "feature_variance_not_one": "训练模式下每个特征的输出方差不是 σ²/(σ²+ε) ≈ 1：缩放不对",
    "not_shift_invariant": "给一个特征整列加上常数后输出变了：正确的批量归一化不受整列平移的影响",
    "features_mixed": "一个特征的输出受到了其他特征输入的影响：每个特征只能用自己那一列的统计量",
    "wrong_param_names": "可学习参数的名字应是 weight、bias（与 nn.BatchNorm1d 相同）",
    "not_parameters": "weight / bias 不是可学习参数",
    "wrong_init": "初始值不对：weight 全 1、bias 全 0、running_mean 全 0、running_var 全 1",
    "buffers_not_registered": "running_mean / running_var 没有用 register_buffer 注册",
    "eval_updates_running": "评估模式下仍在更新滑动统计量",
    "eps_ignored": "构造函数传入的 eps 没有用上",
    "momentum_ignored": "构造函数传入的 momentum 没有用上",
    "running_stats_in_graph": "滑动统计量的更新进入了计算图（没有放在 torch.no_grad() 里）",
    "no_batches_tracked": "缺少用 register_buffer 注册的 num_batches_tracked（整数 0），state_dict 与 nn.BatchNorm1d 的对不上",
    "batches_not_counted": "num_batches_tracked 没有在训练模式下每个批量加 1（评估模式不加）",
    "momentum_none_wrong": "momentum=None 时滑动统计量应取累计平均（第 k 个批量的动量为 1/k）",
    "state_dict_incompatible": "state_dict 不能与 nn.BatchNorm1d 互相加载",
}

C = 4
N = 6
EPS = 1e-5
MOMENTUM = 0.1
_USES_RUNNING = "_uses_running_in_train"
_IGNORES_AFFINE = "_ignores_affine"


@functools.cache
def _fixture():
    import torch
    g = torch.Generator().manual_seed(77)
    mean = torch.tensor([1.0, -2.0, 5.0, 0.0])
    std = torch.tensor([0.5, 1.0, 3.0, 0.2])
    x1 = torch.randn(N, C, generator=g) * std + mean
    x2 = torch.randn(N, C, generator=g) * std * 2 + mean - 1
    x3 = torch.randn(N, C, generator=g) * 2.0 + 3.0
    return x1, x2, x3


def _norm(x, dim, unbiased):
    import torch
    x = x.double()
    if dim is None:
        return (x - x.mean()) / torch.sqrt(x.var(unbiased=unbiased) + EPS)
    return (x - x.mean(dim, keepdim=True)) / torch.sqrt(x.var(dim, keepdim=True, unbiased=unbiased) + EPS)


def _train_models(x, rm, rv, affine):
    """训练模式输出的错误模型；正确答案在第一个。affine(t) 施加学习者的 weight、bias（若有）。"""
    import torch
    models = []
    for dim, axis_code in ((0, ()), (1, ("wrong_axis",)), (None, ("wrong_axis",))):
        for unbiased in (False, True):
            codes = axis_code + (("unbiased_normalize",) if unbiased else ())
            models.append((codes, [run_model(lambda: affine(_norm(x, dim, unbiased)))]))
    if rm is not None and rv is not None:
        models.append(((_USES_RUNNING,), [run_model(
            lambda: affine((x.double() - rm.double()) / torch.sqrt(rv.double() + EPS)))]))
    models.append(((_IGNORES_AFFINE,), [run_model(lambda: _norm(x, 0, False))]))
    return models


def _running_models(x, rm0, rv0):
    """一步训练后 running_mean、running_var 的错误模型：[(codes, [rm, rv])]，正确答案在第一个。"""
    x = x.double()
    mean, var_u, var_b = x.mean(0), x.var(0, unbiased=True), x.var(0, unbiased=False)
    rm0, rv0 = rm0.double(), rv0.double()
    m = MOMENTUM
    rm_models = [((), (1 - m) * rm0 + m * mean), (("wrong_momentum",), m * rm0 + (1 - m) * mean),
                 (("no_running_update",), rm0)]
    rv_models = [((), (1 - m) * rv0 + m * var_u), (("running_var_biased",), (1 - m) * rv0 + m * var_b),
                 (("wrong_momentum",), m * rv0 + (1 - m) * var_u),
                 (("running_var_biased", "wrong_momentum"), m * rv0 + (1 - m) * var_b),
                 (("no_running_update",), rv0)]
    return rm_models, rv_models


def _buffers(m):
    """读出学习者的 running_mean / running_var（拷贝）；缺失或形状不对时返回说明文字。"""
    import torch
    values = []
    for name in ("running_mean", "running_var"):
        v = getattr(m, name, None)
        if not isinstance(v, torch.Tensor):
            what = "没有这个属性" if v is None else f"它是 {describe_value(v)}"
            return None, f"找不到张量属性 `{name}`（{what}）：训练时要用它记录统计量的滑动平均。"
        if tuple(v.shape) != (C,):
            return None, f"`{name}` 的形状是 {fmt_shape(v.shape)}，应是 ({C},)：每个特征一个值。"
        values.append(v.detach().clone())
    return values, None


@checker(__name__, CODES, runner=True)
def check_batch_norm(factory, run):
    """检查 ``cls_or_factory(num_features)`` 创建的批量归一化模块（见 CODES）。"""
    import torch
    x1, x2, x3 = _fixture()
    findings = []

    out = run.call(factory, C)
    if not out.ok:
        return stop_with(out)
    m = out.value
    if not callable(m) or not hasattr(m, "train") or not hasattr(m, "eval"):
        return [(WRONG_SHAPE_OR_DTYPE, f"用 num_features={C} 创建模块得到的是 {describe_value(m)}，"
                                       f"应是有 train() / eval() 方法的 nn.Module。")]
    bufs, problem = _buffers(m)
    if problem:
        return [("no_running_update", problem)]
    findings += _stated_parts(m)
    affine, unaffine = _set_affine(m)

    def forward(x, what):
        o = run.call(m, x.clone())
        if not o.ok:
            return None, stop_with(o) if o.code in (NOT_DONE, TIMEOUT) else [
                ("raised", f"在{what}（形状 {fmt_shape(x.shape)}）上，{o.message}")]
        p = tensor_problem(o.value, x, "forward 的输出", f"{what}（形状 {fmt_shape(x.shape)}）")
        if p:
            return None, [(WRONG_SHAPE_OR_DTYPE, p)]
        return o.value.detach(), []

    # 1. 训练模式：两个批量，检查输出与 running 统计量的更新
    o = run.call(m.train)
    if not o.ok:
        return stop_with(o)
    running_codes = []
    for step, x in enumerate((x1, x2), start=1):
        rm0, rv0 = bufs
        what = f"训练模式的第 {step} 个批量"
        y, stop = forward(x, what)
        if stop:
            return findings + stop
        models = _train_models(x, rm0, rv0, affine)
        matches = find_models([y], models)
        if not matches and bool(torch.isnan(y).any()):
            return findings + [(WRONG_OUTPUT, f"在{what}（形状 {fmt_shape(x.shape)}）上，你的输出里有 NaN。")]
        if not matches:
            steps = _stepwise(m, run, x, unaffine)
            return findings + (steps or [(WRONG_OUTPUT, f"在{what}（形状 {fmt_shape(x.shape)}）上，你的输出与正确结果"
                                                        f"最大相差 {fmt_num(max_abs_diff(y, models[0][1][0]))}；"
                                                        f"逐条性质都满足，请核对 ε 的取值。")])
        for code in models[matches[0]][0]:
            findings.append(_explain_train(code, unaffine(y), unaffine(models[0][1][0]), x))
        bufs, problem = _buffers(m)
        if problem:
            return findings + [("no_running_update", problem)]
        rm1, rv1 = bufs
        rm_models, rv_models = _running_models(x, rm0, rv0)
        for name, got, cands in (("running_mean", rm1, rm_models), ("running_var", rv1, rv_models)):
            hit = find_models([got], [(codes, [want]) for codes, want in cands])
            if not hit:
                if step == 1 or not running_codes:
                    findings.append((WRONG_OUTPUT, f"第 {step} 个训练批量之后，你的 `{name}` 与正确结果最大相差 "
                                                   f"{fmt_num(max_abs_diff(got, cands[0][1]))}，不像任何一种常见错误。"))
                continue
            for code in cands[hit[0]][0]:
                if code not in running_codes:
                    running_codes.append(code)
                    findings.append(_explain_running(code, name, got, cands[0][1], rm0 if name == "running_mean" else rv0, step))
        if any(c in (WRONG_OUTPUT,) for c, _ in findings):
            return findings

    # 2. 评估模式：应使用 running 统计量（用学习者自己的缓冲区算正确答案，避免连带）
    o = run.call(m.eval)
    if not o.ok:
        return findings + stop_with(o)
    rm, rv = bufs
    y, stop = forward(x3, "评估模式")
    if stop:
        return findings + stop
    after, _ = _buffers(m)
    if after is not None and not (torch.equal(after[0], rm) and torch.equal(after[1], rv)):
        findings.append(("eval_updates_running", "评估模式（model.eval() 之后）下调用 forward，running_mean / running_var 却变了："
                                                 "评估时只用滑动统计量，不再更新它们（用 self.training 区分两种模式）。"))
        rm, rv = after   # 用它更新后的统计量核对输出，不把同一个错误再报一遍
    want = affine((x3.double() - rm.double()) / torch.sqrt(rv.double() + EPS))
    if not close(y, want) and bool(torch.isnan(y).any()):
        findings.append((WRONG_OUTPUT, "在评估模式下，你的输出里有 NaN。"))
    elif not close(y, want):
        batch = [affine(_norm(x3, 0, False)), affine(_norm(x3, 0, True))]
        if any(close(y, b) for b in batch):
            findings.append(("eval_uses_batch_stats",
                             f"评估模式下（输入均值约 3，与训练数据不同），你的输出与用 running 统计量的结果最大相差 "
                             f"{fmt_num(max_abs_diff(y, want))}，却与用这个批量自己的统计量一致：评估时应使用 running_mean / running_var。"))
        else:
            findings.append((WRONG_OUTPUT, f"评估模式下，你的输出与用你自己的 running_mean / running_var 归一化的结果最大相差 "
                                           f"{fmt_num(max_abs_diff(y, want))}，不像任何一种常见错误。"))
    if not findings:
        findings += _arguments_used(factory, run) + _outside_graph(factory, run)
    if not findings:
        for step in (_counts, _momentum_none, _state_dict_both_ways):   # 前一步有错时不再往下查，免得一个错误连带出一串
            findings += step(factory, run)
            if findings:
                break
    return findings


def _counts(factory, run):
    """num_batches_tracked：两个训练批量之后是 2，之后在评估模式下前向一次仍是 2。"""
    x1, x2, x3 = _fixture()
    out = run.call(factory, C)
    if not out.ok:
        return []
    m = out.value
    seen = []
    for mode, x in (("train", x1), ("train", x2), ("eval", x3)):
        if not run.call(getattr(m, mode)).ok or not run.call(m, x.clone()).ok:
            return []
        seen.append(int(getattr(m, "num_batches_tracked", -1)))
    if seen != [1, 2, 2]:
        return [("batches_not_counted", f"训练两个批量、再在评估模式下前向一次，你的 `num_batches_tracked` 依次是 "
                                        f"{', '.join(map(str, seen))}，应是 1, 2, 2：训练模式下每个批量加 1，评估模式不加。")]
    return []


def _momentum_none(factory, run):
    """momentum=None：running_mean / running_var 是已见批量统计量的累计平均（与 nn.BatchNorm1d 相同）。"""
    out = run.call(factory, C, momentum=None)
    if not out.ok:
        return [("momentum_none_wrong", f"用 momentum=None 创建模块时出错：{out.message}")]
    m = out.value
    if not run.call(m.train).ok:
        return []
    batches = _fixture()
    for i, x in enumerate(batches, start=1):
        o = run.call(m, x.clone())
        if not o.ok:
            return [("momentum_none_wrong", f"用 momentum=None 创建模块，训练模式的第 {i} 个批量上出错：{o.message}")]
    bufs, problem = _buffers(m)
    if problem:
        return []
    xs = [x.double() for x in batches]
    want_rm = sum(x.mean(0) for x in xs) / len(xs)
    want_rv = sum(x.var(0, unbiased=True) for x in xs) / len(xs)
    if not close(bufs[0], want_rm):
        name, got, want, rule = ("running_mean", bufs[0], want_rm, "均值的平均")
        why = "momentum 为 None 时，第 k 个批量的动量取 1/num_batches_tracked（累计平均）"
    elif not close(bufs[1], want_rv):   # running_mean 对了：动量没问题，只说 running_var
        name, got, want, rule = ("running_var", bufs[1], want_rv, f"无偏方差（除以 B−1 = {N - 1}）的平均")
        why = "你的 running_mean 是对的，动量 1/k 没有问题；running_var 的累计平均也要用每个批量的无偏方差"
    else:
        return []
    i = int((got.double() - want).abs().argmax())
    right, mine = fmt_pair(float(want[i]), float(got[i]))
    return [("momentum_none_wrong", f"用 momentum=None 训练 3 个批量之后，你的 `{name}` 第 {i} 个是 {mine}，"
                                    f"应是 3 个批量{rule} {right}：{why}。")]


def _state_dict_both_ways(factory, run):
    """把 nn.BatchNorm1d 的 state_dict 加载进学习者的模块，再反过来；单独一个模块和放在 nn.Sequential 里各一次。"""
    import torch
    import torch.nn as nn
    g = torch.Generator().manual_seed(11)
    for wrap in (False, True):
        where = "放在 nn.Sequential(nn.Linear, …) 里" if wrap else "单独一个模块"
        for direction in ("from_torch", "to_torch"):
            out = run.call(factory, C)
            if not out.ok or not isinstance(out.value, nn.Module):
                return []
            ours, ref = out.value, nn.BatchNorm1d(C)
            src = ref if direction == "from_torch" else ours
            with torch.no_grad():
                for name in ("weight", "bias", "running_mean"):
                    getattr(src, name).copy_(torch.randn(C, generator=g))
                src.running_var.copy_(torch.rand(C, generator=g) + 0.5)
                src.num_batches_tracked.fill_(7)
            if wrap:
                ours, ref = nn.Sequential(nn.Linear(C, C), ours), nn.Sequential(nn.Linear(C, C), ref)
            a, b = (ref, ours) if direction == "from_torch" else (ours, ref)
            o = run.call(b.load_state_dict, a.state_dict())
            said = ("把 nn.BatchNorm1d 的 state_dict 加载进你的模块" if direction == "from_torch"
                    else "把你的模块的 state_dict 加载进 nn.BatchNorm1d")
            if not o.ok:
                return [("state_dict_incompatible", f"{where}，{said}时出错：{o.message}")]
            got, want = b.state_dict(), a.state_dict()
            differ = [k for k in want if k not in got or not torch.equal(got[k].double(), want[k].double())]
            if differ:
                return [("state_dict_incompatible", f"{where}，{said}之后，`{differ[0]}` 与原来的值不同：加载要把每个参数和缓冲区原样复制过去。")]
    return []


def _stated_parts(m):
    """题目写明的部件：可学习参数 weight（全 1）、bias（全 0），用 register_buffer 注册的 running_mean（全 0）、running_var（全 1）。"""
    import torch
    import torch.nn as nn
    findings = []
    missing = [n for n in ("weight", "bias") if not isinstance(getattr(m, n, None), torch.Tensor)]
    if missing:
        others = [n for n in ("scale", "shift", "gamma", "beta") if isinstance(getattr(m, n, None), torch.Tensor)]
        hint = f"你的模块里有 `{'`、`'.join(others)}`，请改名；" if others else ""
        findings.append(("wrong_param_names", f"找不到可学习参数 `{'`、`'.join(missing)}`：{hint}题目要求参数名是 weight、bias，"
                                              f"与 nn.BatchNorm1d 相同，两者的 state_dict 才能互相加载。"))
    else:
        params = dict(m.named_parameters()) if isinstance(m, nn.Module) else {}
        plain = [n for n in ("weight", "bias") if params.get(n) is not getattr(m, n) or not getattr(m, n).requires_grad]
        if plain:
            findings.append(("not_parameters", f"`{plain[0]}` 不是需要梯度的 nn.Parameter（不在 model.parameters() 里）："
                                               f"优化器看不到它，训练时不会更新。"))
        bad = [f"`{n}` 应全为 {v:g}" for n, v in (("weight", 1.0), ("bias", 0.0))
               if tuple(getattr(m, n).shape) == (C,) and not bool((getattr(m, n).detach() == v).all())]
        if bad:
            findings.append(("wrong_init", "刚创建的模块里 " + "，".join(bad) + "。"))
    buffers = dict(m.named_buffers()) if isinstance(m, nn.Module) else {}
    loose = [n for n in ("running_mean", "running_var") if buffers.get(n) is not getattr(m, n)]
    if loose:
        findings.append(("buffers_not_registered", f"`{loose[0]}` 不是用 register_buffer 注册的缓冲区：它不在 state_dict 里，"
                                                   f"保存、加载模型时会丢失，model.to(设备) 也不会带上它。"))
    nbt = buffers.get("num_batches_tracked")
    if nbt is None:
        what = ("它不是用 register_buffer 注册的" if isinstance(getattr(m, "num_batches_tracked", None), torch.Tensor)
                else "没有这个缓冲区")
        findings.append(("no_batches_tracked", f"找不到缓冲区 `num_batches_tracked`（{what}）：nn.BatchNorm1d 的 state_dict 里有它"
                                               f"（torch.tensor(0, dtype=torch.long)），少了它两者的 state_dict 不能互相加载。"))
    elif tuple(nbt.shape) != () or nbt.dtype.is_floating_point or nbt.dtype == torch.bool or int(nbt.flatten()[0] if nbt.numel() else -1) != 0:
        wrong = []   # 缓冲区在，只说哪一点与 nn.BatchNorm1d 的不同
        if tuple(nbt.shape) != ():
            wrong.append(f"形状是 {fmt_shape(nbt.shape)}，应是 ()（一个数）")
        if nbt.dtype != torch.long:
            wrong.append(f"dtype 是 {nbt.dtype}，应是 torch.long（与 nn.BatchNorm1d 相同，它是一个整数计数）")
        if nbt.numel() and float(nbt.flatten()[0]) != 0:
            wrong.append(f"初始值是 {fmt_num(nbt.flatten()[0])}，应是 0")
        findings.append(("no_batches_tracked", f"缓冲区 `num_batches_tracked` 的{'；'.join(wrong)}："
                                               f"请写成 torch.tensor(0, dtype=torch.long)。"))
    bad = [f"`{n}` 应全为 {v:g}" for n, v in (("running_mean", 0.0), ("running_var", 1.0))
           if not bool((getattr(m, n).detach() == v).all())]
    if bad and not any(c == "wrong_init" for c, _ in findings):
        findings.append(("wrong_init", "刚创建的模块里 " + "，".join(bad) + "。"))
    return findings


def _arguments_used(factory, run):
    """用 eps=0.5、momentum=0.3 创建模块：训练模式的输出与滑动统计量要按这两个值算（题目的签名里有它们）。"""
    import torch
    x1 = _fixture()[0]
    out = run.call(factory, C, eps=0.5, momentum=0.3)
    if not out.ok or not hasattr(out.value, "train"):
        return []   # 构造函数不接受这两个参数时，签名检查已经说过
    m = out.value
    affine, _ = _set_affine(m)
    if not run.call(m.train).ok:
        return []
    o = run.call(m, x1.clone())
    bufs, _ = _buffers(m)
    if not o.ok or not isinstance(o.value, torch.Tensor) or bufs is None:
        return []
    x = x1.double()
    findings = []
    want = affine((x - x.mean(0)) / torch.sqrt(x.var(0, unbiased=False) + 0.5))
    if not close(o.value, want):
        if close(o.value, affine((x - x.mean(0)) / torch.sqrt(x.var(0, unbiased=False) + EPS))):
            findings.append(("eps_ignored", "用 eps=0.5 创建模块，训练模式的输出却和 eps=1e-5 时一样：forward 里要用构造函数"
                                            "传入的 eps（存成 self.eps），不要写死。"))
    want_rm = 0.7 * torch.zeros(C, dtype=torch.float64) + 0.3 * x.mean(0)
    if not close(bufs[0], want_rm):
        old = 0.9 * torch.zeros(C, dtype=torch.float64) + 0.1 * x.mean(0)
        if close(bufs[0], old):
            findings.append(("momentum_ignored", "用 momentum=0.3 创建模块，running_mean 却按 momentum=0.1 更新：请用构造函数传入的 "
                                                 "momentum（存成 self.momentum），不要写死 0.1。"))
    return findings


def _outside_graph(factory, run):
    """滑动统计量不进入计算图：输入需要梯度时，更新后的 running_mean / running_var 也不应带着计算图。"""
    import torch
    out = run.call(factory, C)
    if not out.ok or not hasattr(out.value, "train") or not run.call(out.value.train).ok:
        return []
    x = _fixture()[0].clone().requires_grad_(True)
    if not run.call(out.value, x).ok:
        return []
    for name in ("running_mean", "running_var"):
        v = getattr(out.value, name, None)
        if isinstance(v, torch.Tensor) and (v.requires_grad or v.grad_fn is not None):
            return [("running_stats_in_graph", f"输入需要梯度时，更新后的 `{name}` 带着计算图（requires_grad=True）："
                                               f"滑动统计量的更新要放在 `with torch.no_grad():` 里，或对批量统计量先 .detach()，"
                                               f"否则计算图会随着一个个批量越积越长。")]
    return []


def _set_affine(m):
    """学习者的模块若有形状为 (H,) 的 weight、bias，把它们设成已知的值；返回（施加、撤销）两个函数。"""
    import torch
    w, b = getattr(m, "weight", None), getattr(m, "bias", None)
    if not (isinstance(w, torch.Tensor) and isinstance(b, torch.Tensor)
            and tuple(w.shape) == (C,) and tuple(b.shape) == (C,)):
        return _identity, _identity
    g = torch.Generator().manual_seed(5)
    w_val = 1.0 + 0.5 * torch.rand(C, generator=g)
    b_val = 0.3 + 0.5 * torch.rand(C, generator=g)
    try:
        with torch.no_grad():
            w.copy_(w_val)
            b.copy_(b_val)
    except Exception:  # noqa: BLE001 -- 赋值失败就按没有 weight/bias 检查
        return _identity, _identity
    w64, b64 = w_val.double(), b_val.double()
    return (lambda t: w64 * t + b64), (lambda t: (t.double() - b64) / w64)


def _identity(t):
    return t


def _explain_train(code, y, want, x):
    if code == "wrong_axis":
        row_std = float(y.double()[:, 0].std(unbiased=False))
        return (code, f"训练模式下（输入形状 {fmt_shape(x.shape)}，各特征尺度不同），你的第 0 个特征归一化后"
                      f"标准差是 {fmt_num(row_std)}，应约为 1：批量归一化对每个特征沿批量维度（第 0 维）统计。")
    if code == "unbiased_normalize":
        ratio = float((y.double() * want).sum() / (want * want).sum())
        return (code, f"训练模式下，你的输出约是正确结果的 {fmt_num(ratio)} 倍 ≈ √((B−1)/B) = "
                      f"{fmt_num(((N - 1) / N) ** 0.5)}（B = {N}）：归一化要用有偏方差（除以 B）。")
    if code == _IGNORES_AFFINE:
        return (WRONG_OUTPUT, "把 weight、bias 设成别的值后，你的输出没有随之改变：forward 里没有用到它们。")
    return (WRONG_OUTPUT, "训练模式下你的输出是用 running 统计量归一化的，应使用当前批量的均值和方差。")


def _explain_running(code, name, got, want, before, step):
    i = int((got.double() - want.double()).abs().argmax())   # 差得最多的特征
    head = f"第 {step} 个训练批量之后，你的 `{name}` 第 {i} 个是 {fmt_num(got[i])}，应为 {fmt_num(want[i])}"
    if code == "no_running_update":
        return (code, f"第 {step} 个训练批量之后，`{name}` 没有变化（仍是 {fmt_num(before[0])}, …）："
                      f"训练模式下要用批量统计量更新它。")
    if code == "wrong_momentum":
        return (code, head + f"：动量用反了，旧值应占 1−momentum = {1 - MOMENTUM:g}，批量统计量占 {MOMENTUM:g}。")
    if code == "running_var_biased":
        return (code, head + f"：running_var 要用无偏方差（除以 B−1 = {N - 1}）更新，"
                             f"这与归一化时用的有偏方差不同。")
    return (code, head + "。")


def _stepwise(m, run, x, unaffine):
    """训练模式的输出与任何错误模型都不吻合时，逐条检查批量归一化的性质（按特征、沿批量维度）。"""

    def run_on(inp):
        y = output(run, m, inp)
        return None if y is None else unaffine(y)

    findings = []
    y = run_on(x)
    if y is None:
        return findings
    var_x = x.double().var(0, unbiased=False)
    want = var_x / (var_x + EPS)
    j, mean_j = worst(y.mean(0))
    if abs(mean_j) > 1e-3:
        findings.append(("feature_mean_not_zero",
                         f"训练模式下，你的第 {j} 个特征（第 {j} 列）在这个批量上的输出均值是 {fmt_num(mean_j)}，应为 0："
                         f"要减去这一列在批量上（第 0 维，B = {N}）的均值。"))
    var_y = y.var(0, unbiased=False)
    j, _ = worst(var_y / want - 1)
    if abs(float(var_y[j] / want[j]) - 1) > 1e-2:
        hint = "要除以这一列的 √(σ² + ε)"
        if bool(((var_y * (var_x + EPS) / want - 1).abs() < 1e-2).all()):
            hint = "像是除以了方差 σ² + ε，而不是它的平方根"
        findings.append(("feature_variance_not_one",
                         f"训练模式下，你的第 {j} 个特征的输出方差是 {fmt_num(var_y[j])}，应为 σ²/(σ² + ε) ≈ "
                         f"{fmt_num(want[j])}（这一列的 σ² = {fmt_num(var_x[j])}）：{hint}。"))
    import torch
    shift = torch.tensor([3.0, -2.0, 5.0, 0.5])
    y_shift = run_on(x + shift)
    if y_shift is not None:
        d = float((y_shift - y).abs().nan_to_num(float("inf")).max())
        if d > 1e-3:
            findings.append(("not_shift_invariant",
                             f"给每一列加上一个常数（第 0 列加 3）后，你的输出变了，最大变化 {fmt_num(d)}；应该不变："
                             f"减去这一列的均值后，常数会被抵消。"))
    changed = x.clone()
    changed[:, 0] = changed[:, 0] * 3.0 + 7.0
    y_changed = run_on(changed)
    if y_changed is not None:
        d = float((y_changed - y)[:, 1:].abs().nan_to_num(float("inf")).max())
        if d > 1e-5:
            findings.append(("features_mixed",
                             f"只改动输入的第 0 列（第 0 个特征）后，其他特征的输出也变了，最大变化 {fmt_num(d)}："
                             f"每个特征只能用它自己那一列的均值和方差。"))
    return findings


__all__ = ["check_batch_norm", "CODES"]
