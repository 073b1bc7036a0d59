# 导入：标准库、torch、feedback、module_checks、torch_checks。
"""检查学习者自己写的 LayerNorm：用专门挑选的输入，说出具体错在哪里。

诊断方法：对每个输入，同时算出正确答案和多种“错误模型”（无偏方差、ε 放错位置、维度不对、
忘了 keepdim、γ/β 对调……以及它们的组合）的输出，找出与学习者在所有输入上都一致、
且错误最少的那个模型。随机 N(0,1) 数据会掩盖好几种错误，所以还用了：各行尺度相差很大的输入、
方阵输入、标准差约 10⁻³ 的行、常数行，以及均值约 10⁴ 的行。

没有任何错误模型吻合时（大多数真实的错误都是新写法），改为逐步诊断：用每个正确实现都有的性质
（γ = 1、β = 0 时每行均值为 0、方差约为 1；整行平移、缩放后输出不变；逐特征乘 γ、加 β；各行互不影响）
说出错在哪一步，每条不满足的性质一个代码、一行带数字的说明。
"""
from __future__ import annotations

import functools
import itertools

from ...feedback import NOT_DONE, RAISED, TIMEOUT, WRONG_OUTPUT, WRONG_SHAPE_OR_DTYPE, checker, fmt_num
from ...torch_checks import close, find_models, fmt_shape, max_abs_diff, run_model
from ...module_checks import build_module, eps_used, output, rows_mixed_finding, run_forward, set_params, stop_with, worst



CODES = {
    "unbiased_variance": "方差用了无偏估计（除以 H−1），层归一化要用有偏估计（除以 H）",
    "eps_outside_sqrt": "ε 加在了平方根外面（σ + ε），应加在方差上、再开平方",
    "eps_missing": "没有加 ε：常数行的方差为 0，会出现 0/0",
    "wrong_dim": "均值和方差没有沿最后一维（嵌入维度）计算",
    "missing_keepdim": "算均值或方差时没有保留维度（keepdim），减法被广播到了错误的方向",
    "single_pass_variance": "用 E[x²]−E[x]² 一次算方差，在均值很大的行上丢失精度",
    "not_parameters": "scale / shift 不是可学习参数，不在 .parameters() 里，训练时不会更新",
    "wrong_init": "初始值不对：scale 应全为 1，shift 应全为 0",
    "wrong_param_shape": "scale / shift 的形状应是 (emb_dim,)",
    "scale_shift_swapped": "缩放参数 γ 与平移参数 β 用反了",
    "inplace_input": "forward 原地修改了传入的张量",
    "wrong_shape_or_dtype": "返回值不是与输入同形状、同 dtype 的张量",
    "not_differentiable": "梯度传不回输入（计算图在 forward 中断开了）",
    "row_mean_not_zero": "γ = 1、β = 0 时每行输出的均值不是 0：第三步没有减去这一行的均值",
    "row_variance_not_one": "γ = 1、β = 0 时每行输出的方差不是 σ²/(σ²+ε) ≈ 1：第三步的缩放不对",
    "not_shift_invariant": "给一行加上常数后输出变了：正确的层归一化不受整行平移的影响",
    "not_scale_invariant": "把一行乘以正数后输出变了：正确的层归一化（除 ε 的影响外）不受整行缩放的影响",
    "gamma_not_featurewise": "输出没有逐特征乘以 γ[j]",
    "beta_not_featurewise": "输出没有逐特征加上 β[j]",
    "rows_mixed": "一行的输出受到了其他行输入的影响：每个词元只能用自己那一行的统计量",
    "eps_ignored": "构造函数传入的 eps 没有用上（forward 里写死了 1e-5）",
    "eps_wrong_value": "ε 的取值不是构造函数传入的 eps（写死成了别的数）",
}

H = 8            # 检查用的嵌入维度
EPS = 1e-5
# 只有“忽略 scale/shift”这一种错误模型用到的内部标记，最终报告成 wrong_output
_IGNORES_AFFINE = "_ignores_affine"

# 输入的名字（出现在反馈里）
_NAMES = {
    "random": "标准正态随机输入",
    "scales": "各行尺度相差很大（0.1 到 1000）的输入",
    "square": "方阵输入",
    "vector": "一维输入",
    "tiny": "含一行标准差约 10⁻³、一行常数 2.0 的输入",
}
_BIG_MEAN = 1e4


@functools.cache
def _fixture():
    """固定的检查输入、γ、β，以及每个错误模型在每个输入上的输出（只算一次）。"""
    import torch
    g = torch.Generator().manual_seed(1234)
    inputs = {
        "random": torch.randn(2, 3, H, generator=g),
        "scales": torch.randn(4, H, generator=g)
        * torch.tensor([[0.1], [1.0], [100.0], [1000.0]]) + torch.tensor([[0.2], [-2.0], [200.0], [-500.0]]),
        "square": torch.randn(H, H, generator=g),
        "vector": torch.randn(H, generator=g),
        "tiny": torch.stack([1e-3 * torch.randn(H, generator=g), torch.full((H,), 2.0),
                             torch.randn(H, generator=g)]),
    }
    big = torch.randn(2, H, generator=g) + _BIG_MEAN
    gamma = (1.0 + 0.5 * torch.rand(H, generator=g)) * torch.where(torch.arange(H) % 3 == 0, -1.0, 1.0)
    beta = 0.5 + torch.rand(H, generator=g)
    keys = list(inputs)
    candidates, configs = [], []
    for dim, unbiased, eps_kind, keep, affine in itertools.product(
            (-1, 0, 1, -2, None), (False, True), ("inside", "outside", "missing"),
            ("ok", "mean", "var", "both"), ("ok", "swapped", "none")):
        if dim is None and keep != "ok":
            continue
        cfg = dict(dim=dim, unbiased=unbiased, eps_kind=eps_kind, keep=keep, affine=affine)
        codes = []
        if unbiased:
            codes.append("unbiased_variance")
        if eps_kind != "inside":
            codes.append("eps_outside_sqrt" if eps_kind == "outside" else "eps_missing")
        if dim != -1:
            codes.append("wrong_dim")
        if keep != "ok":
            codes.append("missing_keepdim")
        if affine == "swapped":
            codes.append("scale_shift_swapped")
        elif affine == "none":
            codes.append(_IGNORES_AFFINE)
        outs = [run_model(_model, inputs[k], gamma, beta, cfg) for k in keys]
        candidates.append((tuple(codes), outs))
        configs.append(cfg)
    return inputs, big, gamma, beta, keys, candidates, configs


def _model(x, gamma, beta, cfg, eps=EPS):
    """一种（可能有错的）层归一化，用 float64 计算。"""
    import torch
    EPS = eps  # noqa: N806 -- 下面的公式里写 EPS，与模块常量同名
    x = x.double()
    dim, keep = cfg["dim"], cfg["keep"]
    if dim is None:
        mean = x.mean()
        var = x.var(unbiased=cfg["unbiased"])
    else:
        mean = x.mean(dim=dim, keepdim=keep not in ("mean", "both"))
        var = x.var(dim=dim, keepdim=keep not in ("var", "both"), unbiased=cfg["unbiased"])
    if cfg["eps_kind"] == "inside":
        norm = (x - mean) / torch.sqrt(var + EPS)
    elif cfg["eps_kind"] == "outside":
        norm = (x - mean) / (torch.sqrt(var) + EPS)
    else:
        norm = (x - mean) / torch.sqrt(var)
    g, b = gamma.double(), beta.double()
    if cfg["affine"] == "ok":
        return g * norm + b
    if cfg["affine"] == "swapped":
        return b * norm + g
    return norm


def _correct(x, gamma, beta):
    return _model(x, gamma, beta, dict(dim=-1, unbiased=False, eps_kind="inside", keep="ok",
                                       affine="ok"))


def _where(name, x):
    return f"形状 {fmt_shape(x.shape)} 的{_NAMES.get(name, name)}"


@checker(__name__, CODES, runner=True)
def check_layer_norm(factory, run):
    """检查 ``cls_or_factory(emb_dim)`` 创建的层归一化模块（见 CODES）。"""
    import torch

    inputs, big, gamma, beta, keys, candidates, configs = _fixture()
    # 1–2. 创建模块，检查参数
    m, findings = build_module(factory, run, H, [("scale", "缩放参数 γ", 1.0),
                                                 ("shift", "平移参数 β", 0.0)], [gamma, beta])
    if m is None:
        return findings

    # 3. 前向：在每个输入上运行，记录输出，检查是否原地修改输入
    res = run_forward(m, run, inputs, keys, _where)
    if res["stop"]:
        return findings + res["stop"]
    got, first_error, inplace = res["got"], res["first_error"], res["inplace"]
    if inplace:
        k, d = inplace
        findings.append(("inplace_input", f"在{_where(k, inputs[k])}上调用 forward 之后，传进去的 x 被改动了"
                                          f"（最大改变 {fmt_num(d)}）：forward 不应修改调用者的张量。"))
    if res["shape_msg"]:
        return findings + [(WRONG_SHAPE_OR_DTYPE, res["shape_msg"])]
    if res["dtype_msg"]:
        findings.append((WRONG_SHAPE_OR_DTYPE, res["dtype_msg"]))

    # 4. 与错误模型比较
    matches = find_models(got, candidates)
    if not matches:
        if first_error:
            k, out = first_error
            return findings + [(RAISED, f"在{_where(k, inputs[k])}上，{out.message}")]
        eps = _fitted_eps(m, run)
        if eps is not None:   # 各步都对，只是 ε 是另一个数：点名 ε，不去说哪一步错了
            return findings + [("eps_wrong_value",
                                f"你的输出恰好是 ε ≈ {fmt_num(eps)} 的层归一化，而构造函数传入的 eps = {EPS:g}："
                                f"forward 里要用构造函数的参数 eps（存成 self.eps），不要写死别的数。")]
        steps = _stepwise(m, run)
        if steps:
            return findings + steps
        return findings + [(WRONG_OUTPUT, _wrong_output_msg(got, inputs, keys, gamma, beta))]
    codes, cfg = candidates[matches[0]][0], configs[matches[0]]
    for code in codes:
        findings.append(_explain(code, got, inputs, keys, gamma, beta, first_error))

    # 5. 均值约 10⁴ 的行：只有“一次遍历算方差”会在这里出错
    x = big.clone()
    out = run.call(m, x)
    if not out.ok and out.code in (NOT_DONE, TIMEOUT):
        return findings + stop_with(out)
    if out.ok and isinstance(out.value, torch.Tensor) and out.value.shape == big.shape:
        want = _model(big, gamma, beta, cfg)
        d = max_abs_diff(out.value, want)
        if not close(out.value, want, atol=0.05, rtol=1e-3):
            findings.append(("single_pass_variance",
                             f"在均值约 10⁴ 的 float32 行上，你的输出与正确结果最大相差 {fmt_num(d)}"
                             f"（其他输入都对）：方差若用 E[x²]−E[x]² 计算，两个约 10⁸ 的数相减会丢掉全部精度。"))

    # 6. 梯度能否传回输入（只有前向完全正确时才比较梯度数值）
    usable = [k for k, y in zip(keys, got) if isinstance(y, torch.Tensor)]
    if not inplace and usable:
        findings += _check_grad(m, run, inputs[usable[0]], gamma, beta, exact=not codes)

    # 7. 构造函数的 eps 真的用上了（题目：MyLayerNorm(emb_dim, eps=1e-5)）
    if not findings:
        findings += eps_used(factory, run, H, 0.5, EPS, {"scale": gamma, "shift": beta}, inputs["random"],
                             lambda x, e: _model(x, gamma, beta, dict(dim=-1, unbiased=False, eps_kind="inside",
                                                                      keep="ok", affine="ok"), eps=e))
    return findings


def _wrong_output_msg(got, inputs, keys, gamma, beta):
    import torch
    for k, y in zip(keys, got):
        want = _correct(inputs[k], gamma, beta)
        if isinstance(y, torch.Tensor) and not close(y, want):
            where = _where(k, inputs[k])
            if bool(torch.isnan(y).any()) and not bool(torch.isnan(want).any()):
                return f"在{where}上，你的输出里有 NaN（{int(torch.isnan(y).sum())} 个），正确结果里没有。"
            diff = (y.double() - want).abs().nan_to_num(float("inf"))
            idx = tuple(int(i) for i in torch.nonzero(diff == diff.max())[0])
            return (f"在{where}上，你的输出与正确结果最大相差 {fmt_num(diff.max())}"
                    f"（位置 {idx}：应为 {fmt_num(want[idx])}，你的是 {fmt_num(y[idx])}）；"
                    f"均值为 0、方差约为 1、按特征缩放平移这些性质都满足，请核对 ε 的取值与式 (4.1)–(4.4)。")
    return "输出与正确结果不一致，请对照式 (4.1)–(4.4) 逐步检查。"


# ---------------------------------------------------------------------------
# 逐步诊断：没有错误模型吻合时，检查每个正确实现都有的性质，说出错在哪一步
# ---------------------------------------------------------------------------
@functools.cache
def _probes():
    """逐步诊断用的输入：各行均值、尺度不同的 (4, H)；另一个 (2, 3, H) 用来看各行是否互相影响。"""
    import torch
    g = torch.Generator().manual_seed(99)
    rows = torch.randn(4, H, generator=g)
    rows = (rows - rows.mean(-1, keepdim=True)) / rows.std(-1, keepdim=True, unbiased=False)
    x = rows * torch.tensor([[0.5], [1.0], [2.0], [4.0]]) + torch.tensor([[1.5], [-3.0], [0.5], [6.0]])
    x3 = torch.randn(2, 3, H, generator=g) * 2.0 + 1.0
    gamma = 0.5 + 2.0 * torch.rand(H, generator=g)
    beta = torch.linspace(-2.0, 2.0, H)
    return x, x3, gamma, beta


def _stepwise(m, run):
    """逐条检查性质，每条不满足的性质给出一行带数字的说明；都满足时返回 []。"""
    import torch

    x, x3, gamma, beta = _probes()
    ones, zeros = torch.ones(H), torch.zeros(H)

    def run_with(inp, g, b):
        return output(run, m, inp) if set_params(m, {"scale": g, "shift": b}) else None

    findings = []
    y = run_with(x, ones, zeros)
    if y is None:
        return findings
    var_x = x.double().var(-1, unbiased=False)
    want_var = var_x / (var_x + EPS)
    i, mean_i = worst(y.mean(-1))
    if abs(mean_i) > 1e-3:
        findings.append(("row_mean_not_zero",
                         f"γ = 1、β = 0 时，你的输出第 {i} 行的均值是 {fmt_num(mean_i)}，应为 0："
                         f"第三步（式 (4.3)）要先减去这一行的均值 μ。"))
    var_y = y.var(-1, unbiased=False)
    scale_change = _change(y, run_with(x * 4.0, ones, zeros), tol=2e-3)
    i, _ = worst(var_y / want_var - 1)
    if abs(float(var_y[i] / want_var[i]) - 1) > 1e-2:
        findings.append(("row_variance_not_one", _variance_msg(i, var_y, var_x, want_var, scale_change is None)))
    shift = torch.tensor([[3.0], [-2.0], [5.0], [0.5]])
    d = _change(y, run_with(x + shift, ones, zeros))
    if d is not None:
        findings.append(("not_shift_invariant",
                         f"给每一行加上一个常数（第 0 行加 3）后，你的输出变了，最大变化 {fmt_num(d)}；"
                         f"应该不变：减去这一行的均值后，常数会被抵消。"))
    if scale_change is not None:
        findings.append(("not_scale_invariant",
                         f"把每一行乘以 4 后，你的输出变了，最大变化 {fmt_num(scale_change)}；除了 ε 的微小影响，"
                         f"应该不变：除以这一行的标准差 √(σ² + ε) 后，倍数会被抵消。"))
    y_g = run_with(x, gamma, zeros)
    if y_g is not None and (y_g - y * gamma.double()).abs().max() > 1e-3 * (1 + float(y.abs().max())):
        j = int((y_g - y * gamma.double()).abs().max(0).values.argmax())
        ratio = float((y_g[:, j] * y[:, j]).sum() / (y[:, j] * y[:, j]).sum())
        findings.append(("gamma_not_featurewise",
                         f"把 γ 设成各不相同的值（β = 0）后，第 {j} 个特征的输出应是 γ = 1 时的 γ[{j}] = "
                         f"{fmt_num(gamma[j])} 倍，你的是 {fmt_num(ratio)} 倍：第四步（式 (4.4)）是 γ 逐特征乘 x̂。"))
    y_gb = run_with(x, gamma, beta)
    if y_g is not None and y_gb is not None:
        added = (y_gb - y_g).mean(0)
        j, _ = worst(added - beta.double())
        if abs(float(added[j] - beta[j])) > 1e-3 * (1 + float(beta.abs().max())):
            hint = ""
            if abs(float(added[j] - gamma[j] * beta[j])) < 1e-3 * (1 + abs(float(added[j]))):
                hint = f"，恰好是 γ[{j}]·β[{j}]：β 被 γ 乘到了，β 应在乘完 γ 之后再加"
            findings.append(("beta_not_featurewise",
                             f"γ 保持不变、再把 β 设成 {fmt_num(beta[0])} 到 {fmt_num(beta[-1])} 的值后，第 {j} 个特征的输出"
                             f"应整体加上 β[{j}] = {fmt_num(beta[j])}，你的加了 {fmt_num(added[j])}{hint}"
                             f"（式 (4.4)：y = γ ⊙ x̂ + β）。"))
    if set_params(m, {"scale": ones, "shift": zeros}):
        findings += rows_mixed_finding(run, m, x3, "均值和方差")
    return findings


def _fitted_eps(m, run):
    """γ = 1、β = 0 时，输出若恰好是「ε 取另一个值」的层归一化，返回这个 ε；否则返回 None。

    ε 从方差最小（10⁻⁶、均值 0）的一行反推：输出的方差 = σ²/(σ² + ε)，所以 ε = σ²·(1/输出方差 − 1)；
    再用这个 ε 的正确公式核对所有行（也核对逐步诊断用的输入）。"""
    import torch
    g = torch.Generator().manual_seed(7)
    rows = torch.randn(3, H, generator=g, dtype=torch.float64)
    rows = (rows - rows.mean(-1, keepdim=True)) / rows.std(-1, keepdim=True, unbiased=False)
    probe = (rows * torch.tensor([[1e-3], [1e-1], [1.0]], dtype=torch.float64)
             + torch.tensor([[0.0], [0.0], [2.0]], dtype=torch.float64)).float()
    if not set_params(m, {"scale": torch.ones(H), "shift": torch.zeros(H)}):
        return None
    var_x = probe.double().var(-1, unbiased=False)
    y = output(run, m, probe)
    if y is None:
        return None
    var_y = float(y.var(-1, unbiased=False)[0])
    if not var_y > 0:
        return None
    eps = float(var_x[0]) * (1.0 / var_y - 1.0)
    if not eps > 0 or abs(eps - EPS) <= 0.2 * EPS:
        return None
    for x in (probe, _probes()[0]):
        got = y if x is probe else output(run, m, x)
        xd = x.double()
        want = (xd - xd.mean(-1, keepdim=True)) / torch.sqrt(xd.var(-1, keepdim=True, unbiased=False) + eps)
        if got is None or not close(got, want, atol=1e-4, rtol=1e-3):
            return None
    return eps


def _change(a, b, tol=1e-3):
    """两次输出的最大差；不超过 tol 或无法比较时返回 None。"""
    if a is None or b is None:
        return None
    d = float((a - b).abs().nan_to_num(float("inf")).max())
    return d if d > tol else None


def _variance_msg(i, var_y, var_x, want_var, scale_invariant):
    """方差不对的那一行：报出数字，并按数值特征猜是哪一种写法。"""
    got, want = float(var_y[i]), float(want_var[i])
    head = (f"γ = 1、β = 0 时，你的输出第 {i} 行的方差是 {fmt_num(got)}，应为 σ²/(σ² + ε) ≈ {fmt_num(want)}"
            f"（这一行的 σ² = {fmt_num(var_x[i])}）")
    by_var = want_var / (var_x + EPS)              # 除以 σ² + ε 而不是它的平方根
    if bool(((var_y / by_var - 1).abs() < 1e-2).all()):
        return head + "：像是除以了方差 σ² + ε，而不是它的平方根 √(σ² + ε)（式 (4.3)）。"
    if bool(((var_y / var_x - 1).abs() < 1e-2).all()):
        return head + "：输出的方差与输入相同，像是没有除以标准差 √(σ² + ε)（式 (4.3)）。"
    if scale_invariant:
        return (head + "：整行乘以正数时输出不变，说明你除以了这一行的某种尺度，但它不是标准差 "
                       "√(σ² + ε)（式 (4.3)）。")
    return head + "：第三步（式 (4.3)）要除以这一行的 √(σ² + ε)。"


def _explain(code, got, inputs, keys, gamma, beta, first_error):
    """给匹配到的错误代码配上一行证据：哪个输入、应为多少、你的是多少。"""
    import torch

    def diff_on(k):
        return max_abs_diff(got[keys.index(k)], _correct(inputs[k], gamma, beta))

    if code == "unbiased_variance":
        k = "random"
        y = got[keys.index(k)]
        ratio = float("nan")
        if isinstance(y, torch.Tensor):
            n = (_correct(inputs[k], gamma, beta) - beta.double()) / gamma.double()
            yn = (y.double() - beta.double()) / gamma.double()
            ratio = float((yn * n).sum() / (n * n).sum())
        return (code, f"在{_where(k, inputs[k])}上，你的 (输出−β)/γ 约是正确结果的 {fmt_num(ratio)} 倍，"
                      f"与 √((H−1)/H) = {fmt_num(((H - 1) / H) ** 0.5)} 一致：方差除以了 H−1（无偏估计），"
                      f"层归一化要用有偏估计（除以 H）。")
    if code == "eps_outside_sqrt":
        k = "tiny"
        y = got[keys.index(k)]
        want = _correct(inputs[k], gamma, beta)
        return (code, f"在标准差约 10⁻³ 的那一行上，你的输出第 0 个是 {fmt_num(y[0, 0])}，应为 "
                      f"{fmt_num(want[0, 0])}：ε 要先加到方差上再开平方，加在标准差上的效果差很多。")
    if code == "eps_missing":
        k = "tiny"
        y = got[keys.index(k)]
        return (code, f"在元素全为 2.0 的常数行上，你的输出是 {fmt_num(y[1, 0])}（0/0），"
                      f"应等于平移参数 β：分母里缺了防止除以零的 ε。")
    if code == "wrong_dim":
        k = "scales"
        y = got[keys.index(k)]
        tail = "均值和方差应对每个词元沿最后一维（嵌入维度）各算一份。"
        if isinstance(y, torch.Tensor) and diff_on(k) > 1e-3:
            yn = (y.double() - beta.double()) / gamma.double()
            std0 = float(yn[0].std(unbiased=False))
            return (code, f"在{_where(k, inputs[k])}上，尺度 0.1 的第 0 行归一化后标准差应约为 1，"
                          f"你的是 {fmt_num(std0)}：" + tail)
        k = _worst(got, inputs, keys, gamma, beta)
        return (code, f"在{_where(k, inputs[k])}上，你的输出与正确结果最大相差 {fmt_num(diff_on(k))}：" + tail)
    if code == "missing_keepdim":
        k = "square"
        msg = (f"在{_where(k, inputs[k])}上，你的输出与正确结果最大相差 {fmt_num(diff_on(k))}："
               f"均值/方差的形状少了被归约的那一维，与 x 相减时被广播到了列方向")
        if first_error:
            fk, fo = first_error
            said = fo.error.split("（")[0].replace(": ", "：", 1)
            msg += f"；在{_where(fk, inputs[fk])}上则直接报错，Python 的报错是 {said}"
        return (code, msg + "。")
    if code == "scale_shift_swapped":
        k = "random"
        return (code, f"把 scale、shift 设成不同的值后，在{_where(k, inputs[k])}上你的输出与正确结果最大相差 "
                      f"{fmt_num(diff_on(k))}，恰好等于把两者对调后的结果：缩放参数 γ 乘、平移参数 β 加。")
    if code == _IGNORES_AFFINE:
        return (WRONG_OUTPUT, "把 scale、shift 设成别的值后，你的输出没有随之改变：forward 里没有用到 "
                              "self.scale / self.shift。")
    return (code, CODES.get(code, code) + "。")


def _worst(got, inputs, keys, gamma, beta):
    """学习者输出与正确结果相差最大的输入（报错的输入不算）。"""
    import torch
    best, worst = keys[0], -1.0
    for k, y in zip(keys, got):
        if isinstance(y, torch.Tensor):
            d = max_abs_diff(y, _correct(inputs[k], gamma, beta))
            if d > worst:
                best, worst = k, d
    return best


def _check_grad(m, run, x_in, gamma, beta, exact):
    import torch
    w = torch.linspace(-1.0, 1.0, x_in.numel()).reshape(x_in.shape)
    leaf = x_in.clone().requires_grad_(True)

    def forward_backward():
        y = m(leaf * 1.0)
        if not isinstance(y, torch.Tensor) or not y.requires_grad:
            return None
        return torch.autograd.grad((y * w).sum(), leaf, allow_unused=True)[0]

    out = run.call(forward_backward)
    if not out.ok:
        if out.code in (NOT_DONE, TIMEOUT):
            return stop_with(out)
        return [("not_differentiable", f"对 forward 的输出求梯度时出错：{out.error}")]
    if out.value is None:
        return [("not_differentiable", "对输入 x 求梯度得到的是 None：从输出到 x 的计算图断开了"
                                       "（例如用了 .detach()、.numpy() 或 .item()）。")]
    if exact:
        ref_leaf = x_in.double().clone().requires_grad_(True)
        ref = torch.autograd.grad((_correct(ref_leaf, gamma, beta) * w.double()).sum(), ref_leaf)[0]
        d = max_abs_diff(out.value, ref)
        if not close(out.value, ref, atol=1e-3, rtol=1e-3):
            return [("not_differentiable", f"前向结果正确，但传回输入的梯度与正确结果最大相差 {fmt_num(d)}："
                                           f"forward 里可能有某个中间量被 detach 了。")]
    return []


__all__ = ["check_layer_norm", "CODES"]
