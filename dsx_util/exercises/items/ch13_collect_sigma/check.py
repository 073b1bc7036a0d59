# 导入：标准库、torch、dsx_util.gpt、feedback、torch_checks。
"""练习 ch13-collect-sigma 的检查器（题目、模板、参考答案在同一个文件夹；编目的错误写法与写明的要求在 mistakes.py）。

检查用的小模型：两个块、嵌入 8 维（无偏与有偏估计差 √(8/7) 倍），各层归一化的 ε 各不相同且不小（ε 放错位置、
写死、闭包记错都看得出来），final_norm 换成 nn.LayerNorm（只找本书 LayerNorm 的写法会漏掉它）。
"""
import itertools

from ...feedback import checker, message
from ...torch_checks import try_call

CODES = {
    "not_dict": "应返回字典 {{模块名: σ 张量}}，你返回的是 {kind}。",
    "wrong_keys": "字典的键应是 model.named_modules() 给出的模块名（如 {example}），你的键是 {got}。",
    "late_binding_name": "字典里只有 {name} 一项：每个钩子存结果时用的 name 都是循环结束时的值（闭包晚绑定）。"
                         "定义钩子时用默认参数 name=name 把当前的名字存下来。",
    "missed_nn_layer_norm": "少了 {names}：它是 nn.LayerNorm，不是本书的 LayerNorm。两种层归一化都要找，"
                            "例如 isinstance(m, (LayerNorm, nn.LayerNorm))。",
    "missing_layers": "少了这些层归一化：{names}。模型里每个层归一化模块都要注册钩子。",
    "extra_modules": "多了这些不是层归一化的模块：{names}。只在层归一化模块上注册钩子。",
    "wrong_axis": "{name} 的 σ 形状应为 [B, T] = {want}（每个词元一个），你的是 {got}：方差要沿最后一维（嵌入维度）求。",
    "kept_dim": "{name} 的 σ 形状是 {got}，多了最后那一维 1（keepdim=True）：每个词元一个数，形状应为 [B, T] = {want}。",
    "used_output": "你记下的是层归一化的输出，不是输入：钩子 hook(module, inputs, output) 的输入在第二个参数 inputs 里（取 inputs[0]）。",
    "unbiased_variance": "方差用了无偏估计（除以 H−1）：层归一化用有偏估计，unbiased=False。",
    "no_eps": "σ 里少了 ε：层归一化除以的是 √(Var(x) + ε)，ε 用这个模块自己的 eps。",
    "eps_outside_sqrt": "ε 加在了根号外面：σ = √(Var(x) + ε)，ε 先加到方差上再开平方。",
    "missing_sqrt": "这是方差加 ε，还差开平方：σ = √(Var(x) + ε)。",
    "eps_hardcoded": "ε 写死成了 1e-5：各层的 eps 可能不同（检查用的模型里就不同），用钩子第一个参数（模块）的 eps。",
    "late_binding_eps": "每一层都用了同一个 ε（最后一个层归一化的）：钩子里引用了循环变量 module，调用时它已经是最后一个模块。"
                        "用钩子的第一个参数（被调用的那个模块）的 eps。",
    "sigma_mismatch": "{name} 的 σ 与正确结果最大相差 {diff}（第 {pos} 个词元应为 {want}，你的是 {got}）：σ = √(有偏方差 + ε)，沿最后一维。",
    "hooks_left": "调用结束后模型上还留着 {count} 个前向钩子：register_forward_hook 返回的句柄要逐个 .remove()，"
                  "否则以后每次前向传播都会再运行它们。",
    "hooks_left_on_error": "前向传播出错时（{error}），模型上留下了 {count} 个前向钩子：把 model(idx) 放进 try，"
                           "在 finally 里移除钩子，出错时也会执行。",
    "kept_graph": "{name} 的 σ 还连着计算图（requires_grad=True）：在 torch.no_grad() 里运行模型，或存之前 .detach()。",
}

EMB, CTX = 8, 8
EPS = {"trf_blocks.0.norm1": 0.05, "trf_blocks.0.norm2": 0.4, "trf_blocks.1.norm1": 0.1, "trf_blocks.1.norm2": 0.25,
       "final_norm": 0.3}


def _model():
    """检查用的小模型（固定种子；检查器的装饰器会恢复学习者的随机状态）。"""
    import torch
    import torch.nn as nn

    from dsx_util.gpt import GPTModel
    torch.manual_seed(1234)
    m = GPTModel({"vocab_size": 30, "context_length": CTX, "emb_dim": EMB, "n_heads": 2, "n_layers": 2,
                  "drop_rate": 0.0, "qkv_bias": False})
    m.final_norm = nn.LayerNorm(EMB)
    with torch.no_grad():
        for p in m.parameters():
            p.add_(0.4 * torch.randn_like(p))
        m.trf_blocks[0].ff.layers[2].weight.mul_(0.3)       # 各层的方差有大有小，与 ε 同一量级
    mods = dict(m.named_modules())
    for name, eps in EPS.items():
        mods[name].eps = eps
    return m.eval()


def _idx():
    import torch
    return torch.tensor([[3, 17, 5, 29, 11], [0, 8, 8, 21, 14]])


def _reference():
    """用钩子量出每个层归一化的输入、输出和 ε。"""
    import torch
    m = _model()
    seen = {}
    handles = [m.get_submodule(n).register_forward_hook(
        lambda mod, i, o, n=n: seen.__setitem__(n, (i[0].detach().double(), o.detach().double(), mod.eps)))
        for n in EPS]
    with torch.no_grad():
        m(_idx())
    for h in handles:
        h.remove()
    return seen


def _sigma(x, eps, unbiased=False, eps_kind="own", last_eps=0.3):
    import torch
    var = x.var(dim=-1, unbiased=unbiased)
    e = {"own": eps, "none": 0.0, "outside": eps, "nosqrt": eps, "fixed": 1e-5, "last": last_eps}[eps_kind]
    if eps_kind == "outside":
        return torch.sqrt(var) + e
    if eps_kind == "nosqrt":
        return var + e
    return torch.sqrt(var + e)


_FLAG_CODES = {("source", "output"): "used_output", ("unbiased", True): "unbiased_variance", ("eps_kind", "none"): "no_eps",
               ("eps_kind", "outside"): "eps_outside_sqrt", ("eps_kind", "nosqrt"): "missing_sqrt",
               ("eps_kind", "fixed"): "eps_hardcoded", ("eps_kind", "last"): "late_binding_eps"}


def _variants(ref):
    """{代码元组: {模块名: σ}}：一处或两处典型错误的结果。"""
    flags = {"source": ["input", "output"], "unbiased": [False, True],
             "eps_kind": ["own", "none", "outside", "nosqrt", "fixed", "last"]}
    last = ref["final_norm"][2]
    out = {}
    for k in (0, 1, 2):
        for chosen in itertools.combinations(flags, k):
            for values in itertools.product(*[flags[c][1:] for c in chosen]):
                s = dict({f: v[0] for f, v in flags.items()}, **dict(zip(chosen, values)))
                codes = tuple(_FLAG_CODES[(c, v)] for c, v in zip(chosen, values))
                out[codes] = {n: _sigma(x if s["source"] == "input" else y, eps, s["unbiased"], s["eps_kind"], last)
                              for n, (x, y, eps) in ref.items()}
    return out


def close_finite(a, b):
    import torch
    return a.shape == b.shape and bool(torch.allclose(a.detach().double(), b, rtol=1e-4, atol=1e-5))


def _hooks(model):
    """模型上还挂着的前向钩子（含前置钩子）个数。"""
    return sum(len(m._forward_hooks) + len(m._forward_pre_hooks) for m in model.modules())


def _names(names):
    return "、".join(sorted(names))


def _late_bound(fn):
    """字典里只剩一项时，是闭包晚绑定（几个层归一化都挂了钩子，却都写进循环里最后的那个名字），还是只找到了一个层归一化？

    单看结果分不出来（只找 nn.LayerNorm 的写法也恰好只剩 final_norm 一项）。再让学习者的函数读一次检查用的模型，
    记下前向传播时哪些层归一化挂着钩子：挂了两个以上、结果却只有一项，才是晚绑定。
    """
    m = _model()
    hooked = set()
    for name in EPS:
        mod = m.get_submodule(name)

        def forward(*args, _orig=mod.forward, _mod=mod, _name=name, **kwargs):
            if _mod._forward_hooks or _mod._forward_pre_hooks:
                hooked.add(_name)
            return _orig(*args, **kwargs)
        mod.forward = forward
    value, failure = try_call(fn, m, _idx())
    return failure is None and isinstance(value, dict) and len(value) == 1 and len(hooked) >= 2


@checker(__name__, CODES, each=True)
def check_collect_sigma(fn):
    """检查 collect_sigma(model, idx)：{层归一化的模块名: 它输入的逐词元 σ = √(有偏方差 + ε)，形状 [B, T]}。"""
    import torch
    model = _model()
    value, failure = try_call(fn, model, _idx())
    if failure is not None:
        return [failure]
    findings = []
    left = _hooks(model)
    if left:
        findings.append(("hooks_left", message(CODES, "hooks_left", count=left)))
    if not isinstance(value, dict):
        return findings + [("not_dict", message(CODES, "not_dict", kind=type(value).__name__))]
    ref = _reference()
    names = set(ref)
    keys = set(value)
    if len(keys) == 1 and _late_bound(fn):
        # 只剩一项：每个钩子都写进了同一个键（循环里最后出现的名字）
        return findings + [("late_binding_name", message(CODES, "late_binding_name", name=next(iter(keys))))]
    if not keys:
        return findings + [("missing_layers", message(CODES, "missing_layers", names=_names(names)))]
    if not keys & names:
        return findings + [("wrong_keys", message(CODES, "wrong_keys", example="trf_blocks.0.norm1",
                                                                 got=_names(str(k) for k in keys) or "（空）"))]
    missing, extra = names - keys, keys - names
    if missing:
        code = "missed_nn_layer_norm" if missing == {"final_norm"} else "missing_layers"
        findings.append((code, message(CODES, code, names=_names(missing))))
    if extra:
        findings.append(("extra_modules", message(CODES, "extra_modules", names=_names(str(k) for k in extra))))
    common = sorted(keys & names)
    want = {n: _sigma(ref[n][0], ref[n][2]) for n in names}
    for n in common:
        v = value[n]
        if not isinstance(v, torch.Tensor):
            return findings + [("not_tensor", message(CODES, "not_tensor", kind=type(v).__name__))]
        if tuple(v.shape) == tuple(want[n].shape) + (1,):
            return findings + [("kept_dim", message(CODES, "kept_dim", name=n, want=list(want[n].shape),
                                                                  got=list(v.shape)))]
        if tuple(v.shape) != tuple(want[n].shape):
            return findings + [("wrong_axis", message(CODES, "wrong_axis", name=n,
                                                                     want=list(want[n].shape), got=list(v.shape)))]
    wrong = [n for n in common if not close_finite(value[n], want[n])]
    if wrong:
        variants = _variants(ref)

        def gap(codes):   # 与这种错误写法的结果最大相对差（张量不对时为无穷大）
            return max(float(((value[n].detach().double() - variants[codes][n]).abs()
                              / variants[codes][n].abs().clamp_min(1e-3)).max()) for n in common)
        near = sorted((gap(codes), len(codes), codes) for codes in variants if codes)
        # 最接近的那一种（ε 写死成 1e-5 与没有 ε 只差 1e-5：看谁更近，而不是谁先在容差之内）
        match = near[0][2] if near and near[0][0] < 1e-4 else None
        if match is not None:
            findings += [(c, message(CODES, c)) for c in match]
        else:
            n = wrong[0]
            diff = (value[n].detach().double() - want[n]).abs()
            pos = int(diff.flatten().argmax())
            findings.append(("sigma_mismatch", message(CODES, "sigma_mismatch", name=n, diff=f"{float(diff.max()):.4g}",
                                                    pos=f"({pos // diff.shape[-1]}, {pos % diff.shape[-1]})",
                                                    want=f"{float(want[n].flatten()[pos]):.5g}",
                                                    got=f"{float(value[n].detach().flatten()[pos]):.5g}")))
    grad = [n for n in common if value[n].requires_grad]
    if grad:
        findings.append(("kept_graph", message(CODES, "kept_graph", name=grad[0])))
    if not left:   # 前向传播出错时也要移除钩子
        broken = _model()
        _, failure = try_call(fn, broken, torch.zeros(1, CTX + 4, dtype=torch.long))
        left = _hooks(broken)
        if left:
            error = failure[1].split("：", 1)[-1][:60] if failure else "序列比上下文长度长"
            findings.append(("hooks_left_on_error", message(CODES, "hooks_left_on_error", count=left, error=error)))
    return findings
