# 导入：标准库、feedback、list_checks。
"""这道练习的检查器（题目、模板、参考答案在同一个文件夹；编目的错误写法与写明的要求在 mistakes.py）。"""
import math

from ...feedback import Stop, checker, fmt_num, fmt_pair, message
from ...list_checks import as_floats, call_or_stop, combine, first_difference, judge, unchanged

CODES = {
    "no_gamma": "结果没有乘缩放参数 γ：每个分量的 tanh(α·x) 要乘以同一位置的 γᵢ。",
    "no_beta": "结果没有加平移参数 β：乘完 γ 之后还要加上同一位置的 βᵢ。",
    "alpha_outside": "α 乘在了 tanh 外面（α·tanh(x)）：α 要先乘到输入上，tanh(α·x)。",
    "no_alpha": "结果与 α = 1 时一样：请用参数 alpha，把它乘到每个输入上再取 tanh。",
    "beta_inside": "β 放进了 tanh 里面（tanh(α·x + β)）：β 加在最后，γ·tanh(α·x) + β。",
    "gamma_beta_swapped": "γ 与 β 用反了：γ 乘在 tanh 上，β 加在最后。",
    "gamma_inside": "γ 放进了 tanh 里面（tanh(γ·α·x)）：γ 乘在 tanh 外面，γ·tanh(α·x) + β。",
    "sigmoid_not_tanh": "你用的是 sigmoid 1/(1 + e^(−z))（值在 0 和 1 之间），不是 tanh（值在 −1 和 1 之间）：DyT 取 tanh(α·x)，用 math.tanh。",
    "tan_not_tanh": "你用的是 tan（正切），不是 tanh（双曲正切）：你的输出等于 γ·tan(α·x) + β。"
                    "tan 不会把输入压到 ±1 以内；DyT 取 tanh(α·x)，用 math.tanh（多一个 h）。",
    "tanh_alpha_times_x": "你的输出等于 γ·tanh(α)·x + β：α 单独进了 tanh，x 乘在了 tanh 外面。"
                          "α·x 要一起放进 tanh：γ·tanh(α·x) + β。",
    "normalized_first": "你先对输入做了标准化（减均值、除以标准差）：DyT 不算任何统计量，直接对每个 xᵢ 取 tanh(α·xᵢ)。",
    "alpha_divides": "像是 tanh(x / α)：α 要乘到输入上，tanh(α·x)，不是除。",
    "alpha_twice": "α 用了两次（tanh(α²·x)）：α 只乘一次，tanh(α·x)。",
    "gamma_mean_for_all": "γ 要逐分量使用（第 i 个分量乘 γᵢ）：你对所有分量乘了同一个数（γ 的平均）。",
    "gamma_first_for_all": "γ 要逐分量使用（第 i 个分量乘 γᵢ）：你对所有分量都乘了 γ[0]。",
    "beta_first_for_all": "β 要逐分量使用（第 i 个分量加 βᵢ）：你对所有分量都加了 β[0]。",
    "alpha_abs": "α 为负数（α = {alpha}）时，你的结果与用 |α| 时一样：α 是学出来的参数，α 可以是负数；"
                 "直接乘 α 本身，tanh(α·x)，不要取绝对值或截成正数。",
    "not_elementwise": "只改第 1 个输入（{before} → {after}），别的位置的输出也变了（第 {pos} 个变化了 {diff}）："
                       "DyT 逐个分量计算，每个输出只取决于同一位置的输入。",
    "not_saturating": "α = 1、γ = 1、β = 0 时，输入 {x} 的输出应约为 tanh({x}) = {want}，你的是 {got}：tanh 把很大的输入压到 ±1 以内。",
    "beta_subtracted": "β 是减掉的（γ·tanh(α·x) − β）：β 要加上，γ·tanh(α·x) + β。",
    "beta_multiplied": "β 是乘上去的（γ·tanh(α·x)·β）：β 要加，γ·tanh(α·x) + β。",
    "beta_times_gamma": "β 也被 γ 乘到了（γ·(tanh(α·x) + β)）：β 加在乘完 γ 之后，γ·tanh(α·x) + β。",
    "gamma_added": "γ 是加上去的（γ + tanh(α·x) + β）：γ 要乘，γ·tanh(α·x) + β。",
    "negated": "tanh 那一项的符号反了：你的输出等于 −γ·tanh(α·x) + β（像是写成了 β − γ·tanh(α·x) 或 tanh(−α·x)），"
               "应为 γ·tanh(α·x) + β。",
    "alpha_added": "α 是加到 x 上的（tanh(α + x)）：α 要乘，tanh(α·x)。",
    "gamma_for_beta": "最后加的是 γ，不是 β（γ·tanh(α·x) + γ）：最后加平移参数 β，γ·tanh(α·x) + β。",
    "h_hard_coded": "4 个数的输入都对，换成 6 个数的输入{what}：像是把个数 4 写死了（例如 range(4) 或 [0.0] * 4）。"
                    "有几个数要用 len(values) 得到，或者直接 for v, g, b in zip(values, gamma, beta)。",
}


def _model(values, alpha, gamma, beta, use_gamma=True, use_beta=True, alpha_kind="inside", beta_inside=False,
           swapped=False, normalize=False, gamma_inside=False, sigmoid=False, tan=False, gamma_kind="each", beta_kind="each",
           beta_op="add", gamma_op="mul", negated=False):
    xs = list(values)
    if gamma_kind != "each":   # 所有分量乘同一个数：γ 的平均或 γ[0]
        gamma = [sum(gamma) / len(gamma) if gamma_kind == "mean" else gamma[0]] * len(gamma)
    if beta_kind != "each":    # 所有分量加 β[0]
        beta = [beta[0]] * len(beta)
    if normalize:
        mu = sum(xs) / len(xs)
        sd = math.sqrt(sum((v - mu) ** 2 for v in xs) / len(xs) + 1e-5)
        xs = [(v - mu) / sd for v in xs]
    g, b = (beta, gamma) if swapped else (gamma, beta)
    out = []
    for v, gi, bi in zip(xs, g, b):
        a = {"inside": alpha, "divides": 1.0 / alpha, "squared": alpha * alpha, "abs": abs(alpha),
             "alone": alpha}.get(alpha_kind, 1.0)
        # alpha_kind="alone"：tanh(α)·x，α 单独进了 tanh，x 乘在外面
        x_in = 1.0 if alpha_kind == "alone" else v
        base = v + alpha if alpha_kind == "plus" else a * x_in   # alpha_kind="plus"：tanh(α + x)
        inner = base * (gi if gamma_inside and use_gamma else 1.0) + (bi if beta_inside and use_beta else 0.0)
        squash = 1.0 / (1.0 + math.exp(-inner)) if sigmoid else (math.tan(inner) if tan else math.tanh(inner))
        t = squash * {"outside": alpha, "alone": v}.get(alpha_kind, 1.0) * (-1.0 if negated else 1.0)
        gm = gi if use_gamma and not gamma_inside else 1.0
        bt = bi if use_beta and not beta_inside else 0.0
        core = gm + t if gamma_op == "add" else gm * t
        # beta_op：sub 减掉 β，mul 乘上 β，scaled 是 γ·(tanh + β)（β 也被 γ 乘到），gamma 是最后加了 γ 而不是 β
        out.append({"add": core + bt, "sub": core - bt, "mul": core * (bi if use_beta else 1.0),
                    "scaled": gm * (t + bt), "gamma": core + gi}[beta_op])
    return out


_FLAG_CODES = {("use_gamma", False): "no_gamma", ("use_beta", False): "no_beta", ("alpha_kind", "outside"): "alpha_outside",
               ("alpha_kind", "one"): "no_alpha", ("beta_inside", True): "beta_inside", ("swapped", True): "gamma_beta_swapped",
               ("normalize", True): "normalized_first", ("gamma_inside", True): "gamma_inside",
               ("sigmoid", True): "sigmoid_not_tanh", ("tan", True): "tan_not_tanh",
               ("alpha_kind", "alone"): "tanh_alpha_times_x", ("alpha_kind", "divides"): "alpha_divides",
               ("alpha_kind", "squared"): "alpha_twice", ("alpha_kind", "abs"): "alpha_abs", ("gamma_kind", "mean"): "gamma_mean_for_all",
               ("gamma_kind", "first"): "gamma_first_for_all", ("beta_kind", "first"): "beta_first_for_all",
               ("beta_op", "sub"): "beta_subtracted", ("beta_op", "mul"): "beta_multiplied",
               ("beta_op", "scaled"): "beta_times_gamma", ("beta_op", "gamma"): "gamma_for_beta", ("gamma_op", "add"): "gamma_added",
               ("negated", True): "negated", ("alpha_kind", "plus"): "alpha_added"}


def _steps(fn):
    """逐步诊断：逐元素、饱和。"""
    h = 5
    values = [0.5, -1.0, 2.0, -0.25, 1.5]
    ones, zeros = [1.0] * h, [0.0] * h

    def run(v, alpha=1.0, g=ones, b=zeros):
        try:
            return as_floats(call_or_stop(fn, list(v), alpha, list(g), list(b)), h, "输出")
        except Stop:
            return None
    findings = []
    y = run(values)
    moved = run([values[0] + 3.0] + values[1:])
    if y is not None and moved is not None:
        diffs = [abs(a - b) for a, b in zip(y[1:], moved[1:])]
        if max(diffs) > 1e-9:
            k = max(range(len(diffs)), key=lambda i: diffs[i])
            findings.append(("not_elementwise", message(CODES, "not_elementwise", before=fmt_num(values[0]),
                                                        after=fmt_num(values[0] + 3.0), pos=k + 2,
                                                        diff=fmt_num(diffs[k]))))
    big = run([20.0, -20.0, 0.0, 0.0, 0.0])
    if big is not None and abs(big[0] - math.tanh(20.0)) > 1e-6:
        findings.append(("not_saturating", message(CODES, "not_saturating", x=fmt_num(20.0), want=fmt_num(math.tanh(20.0)),
                                                   got=fmt_num(big[0]))))
    return findings




def _close(got, want):
    """两个列表的每个数都相同（相对、绝对误差 1e-6 以内）。"""
    return len(got) == len(want) and all(math.isclose(u, v, rel_tol=1e-6, abs_tol=1e-6) for u, v in zip(got, want))


def _sizes(fn):
    """检查用的输入都是 4 个数：再用 6 个数算一次，写死了 4 的代码（range(4)）在这里不对。"""
    values, alpha = [0.5, -1.0, 2.0, -0.25, 1.5, -3.0], 0.8
    gamma, beta = [1.5, 0.5, -1.0, 2.0, 0.75, 1.25], [0.1, -0.2, 0.3, 0.05, -0.4, 0.6]
    h = len(values)
    try:
        value = call_or_stop(fn, list(values), alpha, list(gamma), list(beta))
    except Stop as stop:
        return [("h_hard_coded", message(CODES, "h_hard_coded", what="，你的代码却出错了"))] + stop.args[0]
    if isinstance(value, list) and len(value) != h:
        what = f"，你的输出却有 {len(value)} 个数"
    else:
        got, want = as_floats(value, h, "输出"), _model(values, alpha, gamma, beta)
        if _close(got, want):
            return []
        i = next(k for k, (a, b) in enumerate(zip(got, want)) if not math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-6))
        w, g = fmt_pair(want[i], got[i])
        what = f"就错了（第 {i + 1} 个值应为 {w}，你的是 {g}）"
    return [("h_hard_coded", message(CODES, "h_hard_coded", what=what))]


@checker(__name__, CODES)
def check_dyt_list(fn):
    """检查 dyt_list(values, alpha, gamma, beta)：y_i = γ_i · tanh(α · x_i) + β_i。"""
    cases = (([0.5, -1.0, 2.0, -0.25], 0.8, [1.5, 0.5, -1.0, 2.0], [0.1, -0.2, 0.3, 0.05]),
             ([3.0, -4.0, 0.2, 1.0], 0.3, [2.0, 1.0, 0.5, -1.5], [-0.5, 0.25, 0.0, 1.0]),
             # α 是学出来的参数，可以是负数：用 |α| 或把 α 截成正数的写法在这里不通过
             ([1.0, -2.0, 0.5, 3.0], -0.7, [1.0, -0.5, 2.0, 1.5], [0.2, 0.0, -0.1, 0.4]))
    for values, alpha, gamma, beta in cases:
        given = (list(values), list(gamma), list(beta))
        want = _model(values, alpha, gamma, beta)
        # 评审 r46：只返回了 1 个数、正是第 1 个输入的结果时，as_floats 说出 return 在哪里（want、fn）
        got = as_floats(call_or_stop(fn, given[0], alpha, given[1], given[2]), len(values), "输出", want=want, fn=fn)
        changed = unchanged((values, gamma, beta), given, "列表（values、gamma 或 beta）")
        flags = {"use_gamma": [True, False], "use_beta": [True, False],
                 "alpha_kind": ["inside", "outside", "one", "divides", "squared", "alone", "plus"] + (["abs"] if alpha < 0 else []), "gamma_kind": ["each", "mean", "first"],
                 "beta_kind": ["each", "first"],
                 "beta_inside": [False, True], "swapped": [False, True], "normalize": [False, True],
                 "gamma_inside": [False, True], "sigmoid": [False, True], "tan": [False, True],
                 "beta_op": ["add", "sub", "mul", "scaled", "gamma"], "gamma_op": ["mul", "add"], "negated": [False, True]}
        variants = combine(flags, {k: v[0] for k, v in flags.items()},
                            lambda **s: _model(values, alpha, gamma, beta, **s), lambda k, v: _FLAG_CODES[(k, v)])
        found = judge(got, want, variants, CODES, {"alpha": fmt_num(alpha)})
        if found is None:
            found = _steps(fn) or [first_difference(got, want)]
        if found or changed:
            return changed + found
    return _sizes(fn)
