# 导入：标准库、feedback、list_checks。
"""练习 ch13-frozen-sigma-norm 的检查器（题目、模板、参考答案在同一个文件夹；编目的错误写法在 mistakes.py）。"""
import ast
import math

from ...feedback import Stop, checker, fmt_num, message
from ...list_checks import other_size, beta_featurewise, as_rows, call_or_stop, combine, copy_rows, dropped_brackets, first_difference, flatten, judge, lists_close, max_abs_of, mean_of, quiet, unchanged, var_of, worst_of

CODES = {
    "per_token_sigma": "你除以的是每个词元自己的标准差（普通的层归一化）：冻结 σ 的意思是所有词元都除以同一个给定的 sigma。",
    "no_centering": "没有减去均值：冻结的只是 σ，每个词元仍要减去它自己的均值 μ。",
    "mean_reversed": "均值减反了：你算的是 μ_t − x，应为 x − μ_t（每个数减去这一行的均值），否则输出整体变号。",
    "global_mean": "你减去的是所有词元放在一起的均值：μ 要每个词元（每一行）各算一个。",
    "feature_mean": "你减去的是每个特征在各词元上的均值（按列）：μ 要沿一行、对一个词元的 H 个特征求。",
    "sigma_squared": "你除以的是 sigma²：sigma 本身就是标准差，直接除以它。",
    "sigma_sqrt": "你对 sigma 开了平方根：sigma 已经是标准差 √(σ² + ε)，直接除以它。",
    "eps_added": "你又加了一次 ε（√(sigma² + ε)）：冻结的 sigma 里已经含有 ε，直接除以 sigma。",
    "eps_added_to_sigma": "你在 sigma 上又加了 ε（sigma + ε）：冻结的 sigma 里已经含有 ε，直接除以 sigma。",
    "multiplied_by_sigma": "你乘了 sigma：应该除以 sigma。",
    "no_gamma": "结果没有乘缩放参数 γ：每个特征要乘同一位置的 γᵢ。",
    "no_beta": "结果没有加平移参数 β：乘完 γ 之后还要加同一位置的 βᵢ。",
    "gamma_beta_swapped": "γ 与 β 用反了：γ 乘在 (x − μ)/sigma 上，β 加在最后。",
    "row_mean_not_zero": "γ = 1、β = 0 时，你的输出第 {row} 行的均值是 {got}，应为 0：x − μ_t 的均值是 0，除以 sigma 后仍是 0；"
                         "要么减去的不是这一行自己的均值 μ_t，要么输出里多了一个常数。",
    "sigma_not_divided": "把 sigma 从 2 换成 4 后，你的输出（各行减去行均值后）变成了原来的 {got} 倍，应恰好为 0.5 倍："
                         "输出要除以给定的 sigma，分母里不能有别的东西。",
    "sigma_not_frozen": "把第 1 个词元偏离均值的部分（x − μ）放大 3 倍后，你这一行的输出（减去行均值后）变成了原来的 {got} 倍，应为 3 倍："
                        "sigma 是冻结的常数，不随词元变化，输出与 x − μ 成正比。",
    "not_shift_invariant": "给每个词元加上一个常数（第 1 行加 3）后，你的输出变了，最大变化 {diff}；应该不变："
                           "减去这个词元自己的均值后，常数会被抵消。",
    "gamma_not_featurewise": "把 γ 设成各不相同的值后，第 {pos} 个特征的输出应是 γ = 1 时的 γ[{j}] = {want} 倍，你的是 {got} 倍："
                             "γ 逐特征相乘。",
    "beta_not_featurewise": "γ 不变、再把 β 设成各不相同的值后，第 {pos} 个特征的输出应整体加上 β[{j}] = {want}，"
                            "你的加了 {got}{hint}：β 逐特征相加，加在最后。",
    "rows_mixed": "只改动第 1 个词元（第 1 行）的输入后，别的词元的输出也变了，最大变化 {diff}：每个词元只用它自己那一行的均值。",
    # 评审 r45：少了括号（运算顺序），按值认出（_slips），引用学习者写的那一段
    "bracket_mu_over_sigma": "少了括号：/ 比 − 先算，{said}算的是 x − μ/sigma：只有 μ 除以了 sigma，x 没有除以它。"
                             "应为 γ·(x − μ)/sigma + β：把 x − μ 括起来{fix}。",
    "bracket_gamma_x": "少了括号：* 和 / 比 − 先算，{said}算的是 γ·x − μ/sigma + β：x 没有减去 μ 就乘了 γ，只有 μ 除以了 sigma。"
                       "应为 γ·(x − μ)/sigma + β：把 x − μ 括起来{fix}。",
    # 换一种大小的输入（_sizes）
    "h_hard_coded": "每行 H = 4 个数的输入都对，换成每行 H = 6 个数的输入{what}：{how}。每行有几个数要用 len(row) 得到，不要写死。",
    "rows_hard_coded": "2 行、3 行的输入都对，换成 5 行（5 个词元）的输入{what}：像是把行数写死了（例如 range(3)）。"
                       "有几行就处理几行：for row in rows。",
}


def _model(x, sigma, gamma, beta, center="row", div="sigma", use_gamma=True, use_beta=True, swapped=False):
    """一种（可能有错的）冻结 σ 的层归一化，纯 Python。"""
    flat = flatten(x)
    cols = [mean_of(c) for c in zip(*x)]
    g, b = (beta, gamma) if swapped else (gamma, beta)
    out = []
    for row in x:
        mu = {"row": mean_of(row), "none": 0.0, "all": mean_of(flat)}.get(center, 0.0)
        mus = cols if center == "col" else [mu] * len(row)
        own = var_of(row)
        d = {"sigma": sigma, "own": math.sqrt(own + 1e-5), "own0": math.sqrt(own), "square": sigma * sigma,
             "sqrt": math.sqrt(sigma), "eps": math.sqrt(sigma * sigma + 1e-5), "eps_out": sigma + 1e-5, "times": 1 / sigma}[div]
        sign = -1.0 if center == "reversed" else 1.0   # μ_t − x：减反了
        mus = [mean_of(row)] * len(row) if center == "reversed" else mus
        out.append([(gi if use_gamma else 1.0) * sign * (v - m) / d + (bi if use_beta else 0.0)
                    for v, m, gi, bi in zip(row, mus, g, b)])
    return out


_FLAG_CODES = {("center", "none"): "no_centering", ("center", "reversed"): "mean_reversed", ("center", "all"): "global_mean", ("center", "col"): "feature_mean",
               ("div", "own"): "per_token_sigma", ("div", "own0"): "per_token_sigma", ("div", "square"): "sigma_squared",
               ("div", "sqrt"): "sigma_sqrt", ("div", "eps"): "eps_added", ("div", "eps_out"): "eps_added_to_sigma", ("div", "times"): "multiplied_by_sigma",
               ("use_gamma", False): "no_gamma", ("use_beta", False): "no_beta", ("swapped", True): "gamma_beta_swapped"}


def _ratio(a, b):
    """a ≈ k·b 时的 k（最小二乘）。"""
    fa, fb = flatten(a), flatten(b)
    return sum(u * v for u, v in zip(fa, fb)) / (sum(v * v for v in fb) or 1.0)


def _centred_rows(out):
    return [[v - mean_of(r) for v in r] for r in out]


def _steps(fn):
    """没有错误模型吻合时，逐条检查冻结 σ 的层归一化的性质；每条不满足的性质一条说明。"""
    h = 4
    base = [[1.0, -2.0, 3.5, 0.5], [10.0, 12.0, 9.0, 11.5], [-4.0, -4.5, -3.0, -6.0]]
    ones, zeros = [1.0] * h, [0.0] * h
    gamma, beta = [0.5, 1.5, -1.0, 2.0], [-1.0, 0.25, 0.5, 1.75]
    run = quiet(fn, (3, h))
    findings = []
    y = run(copy_rows(base), 2.0, ones, zeros)
    if y is None:
        return findings
    i, m = worst_of([mean_of(r) for r in y])
    if abs(m) > 1e-6:
        findings.append(("row_mean_not_zero", message(CODES, "row_mean_not_zero", row=i + 1, got=fmt_num(m))))
    yc = _centred_rows(y)          # 各行减去行均值：多出来的常数不影响下面两条比例的比较
    y4 = run(copy_rows(base), 4.0, ones, zeros)
    if y4 is not None:
        y4c = _centred_rows(y4)
        k = _ratio(y4c, yc)
        if max_abs_of([a - 0.5 * b for a, b in zip(flatten(y4c), flatten(yc))]) > 1e-6:
            findings.append(("sigma_not_divided", message(CODES, "sigma_not_divided", got=f"{k:.7g}")))
    stretched = copy_rows(base)
    mu0 = mean_of(base[0])
    stretched[0] = [mu0 + 3.0 * (v - mu0) for v in base[0]]
    y3 = run(stretched, 2.0, ones, zeros)
    if y3 is not None:
        y3c = _centred_rows(y3)
        k = _ratio([y3c[0]], [yc[0]])
        if max_abs_of([a - 3.0 * b for a, b in zip(y3c[0], yc[0])]) > 1e-6:
            findings.append(("sigma_not_frozen", message(CODES, "sigma_not_frozen", got=fmt_num(k))))
    shifted = run([[v + c for v in r] for r, c in zip(base, (3.0, -2.0, 5.0))], 2.0, ones, zeros)
    if shifted is not None:
        d = max_abs_of([a - b for a, b in zip(flatten(shifted), flatten(y))])
        if d > 1e-6:
            findings.append(("not_shift_invariant", message(CODES, "not_shift_invariant", diff=fmt_num(d))))
    y_g = run(copy_rows(base), 2.0, list(gamma), zeros)
    if y_g is not None:
        def centred(out, j):   # 第 j 个特征减去它在各词元上的平均：整体加上的常数不影响 γ 的比较
            col = [r[j] for r in out]
            return [[v - mean_of(col) for v in col]]
        bad = [(j, _ratio(centred(y_g, j), centred(y, j))) for j in range(h)]
        bad = [(j, r) for j, r in bad if abs(r - gamma[j]) > 1e-6 * (1 + abs(gamma[j]))]
        if bad:
            j, r = bad[0]
            findings.append(("gamma_not_featurewise", message(CODES, "gamma_not_featurewise", j=j, pos=j + 1,
                                                               want=fmt_num(gamma[j]), got=fmt_num(r))))
        y_gb = run(copy_rows(base), 2.0, list(gamma), list(beta))
        if y_gb is not None:
            findings += beta_featurewise(y_g, y_gb, gamma, beta, CODES, tol=1e-6, multiplied="，β 被 γ 乘到了")
    changed = copy_rows(base)
    changed[0] = [v * 3.0 + 7.0 for v in changed[0]]
    y_c = run(changed, 2.0, ones, zeros)
    if y_c is not None:
        d = max_abs_of([a - b for ra, rb in zip(y_c[1:], y[1:]) for a, b in zip(ra, rb)])
        if d > 1e-9:
            findings.append(("rows_mixed", message(CODES, "rows_mixed", diff=fmt_num(d))))
    return findings


def _slips(fn, got, x, sigma, gamma, beta):
    """少了括号的两种写法（/ 比 − 先算）：按值比较，学习者的结果与其中一种相同时一条说明（引用他写的那一段）；否则 None。

    检查用的 sigma 都不是 1：这两种写法在检查输入上都与正确结果不同，写对的代码不会被认成它们。
    """
    models = {"bracket_mu_over_sigma": [], "bracket_gamma_x": []}
    for row in x:
        mu = mean_of(row)
        models["bracket_mu_over_sigma"].append([g * (v - mu / sigma) + b for v, g, b in zip(row, gamma, beta)])
        models["bracket_gamma_x"].append([g * v - mu / sigma + b for v, g, b in zip(row, gamma, beta)])
    quotes = {"bracket_mu_over_sigma": ("({a} - {b}) / {c}", False), "bracket_gamma_x": ("{g} * ({x} - {b}) / {c}", True)}
    for code, model in models.items():
        if lists_close(got, model):
            return [(code, message(CODES, code, **dropped_brackets(fn, ast.Sub, ast.Div, *quotes[code])))]
    return None


# 检查用的输入每行都是 H = 4 个数、最多 3 行：再用每行 6 个数、5 行的输入各算一次，写死了大小的代码在这里不对
_WIDE = [[1.0, 2.0, 4.0, 7.0, -3.0, 0.5], [0.5, -1.5, 2.5, 0.0, 6.0, 1.0], [3.0, -2.0, 1.0, 5.0, 2.0, -4.0]]
_TALL = [[1.0, 2.0, 4.0, 7.0], [0.5, -1.5, 2.5, 0.0], [3.0, 3.5, 2.0, 3.0], [-1.0, 0.0, 2.0, 5.0], [2.0, 8.0, -4.0, 1.0]]


def _sizes(fn, sigma=2.0):
    """换成每行 6 个数、换成 5 行的输入再检查一次；不对时一条 h_hard_coded 或 rows_hard_coded（均值除以了 4 时说出来）。"""
    for rows, code in ((_WIDE, "h_hard_coded"), (_TALL, "rows_hard_coded")):
        h = len(rows[0])
        gamma, beta = [0.5 + 0.25 * j for j in range(h)], [0.5 - 0.25 * j for j in range(h)]
        by_four = [[gi * (v - sum(r) / 4) / sigma + bi for v, gi, bi in zip(r, gamma, beta)] for r in rows]
        found = other_size(fn, (copy_rows(rows), sigma, list(gamma), list(beta)), {}, _model(rows, sigma, gamma, beta),
                           CODES, code, "像是把 H = 4 写死了（例如 / 4 或 range(4)）",
                           [(f"均值除以了 4，不是这一行的个数 {h}，像是把 H = 4 写死了", by_four)])
        if found:
            return found
    return []


@checker(__name__, CODES)
def check_frozen_sigma_norm(fn):
    """检查 frozen_sigma_norm(rows, sigma, gamma, beta)：y[t][i] = γᵢ · (x[t][i] − μ_t) / sigma + βᵢ。"""
    cases = (([[1.0, -2.0, 3.0, 0.5], [6.0, 4.0, 9.0, 5.0], [-3.0, -1.0, -2.5, -6.5]], 2.5,
              [1.5, 0.5, -1.0, 2.0], [0.1, -0.2, 0.3, 0.05]),
             ([[0.01, -0.015, 0.02, 0.0], [1.005, 0.99, 1.0, 1.01]], 0.01,
              [2.0, 1.0, 0.5, -1.5], [-0.5, 0.25, 0.0, 1.0]))
    for x, sigma, gamma, beta in cases:
        given = (copy_rows(x), list(gamma), list(beta))
        value = call_or_stop(fn, given[0], sigma, given[1], given[2])
        if isinstance(value, list):
            odd = next((i for i, r in enumerate(value) if isinstance(r, tuple)), None)
            if odd is not None:   # 外层是列表、行是元组：说清楚是哪一层不对
                raise Stop([("rows_not_lists", message(None, "rows_not_lists", row=odd + 1))])
        got = as_rows(value, (len(x), len(x[0])))
        changed = unchanged((x, gamma, beta), given, "列表（rows、gamma 或 beta）")
        want = _model(x, sigma, gamma, beta)
        flags = {"center": ["row", "none", "all", "col", "reversed"],
                 "div": ["sigma", "own", "square", "sqrt", "eps", "eps_out", "times"],
                 "use_gamma": [True, False], "use_beta": [True, False], "swapped": [False, True]}
        found = None
        for own in ("own", "own0"):   # 各词元自己的 σ：带 ε（1e-5）或不带 ε，两种写法都认
            flags["div"][1] = own
            variants = combine(flags, {k: v[0] for k, v in flags.items()},
                                lambda **s: _model(x, sigma, gamma, beta, **s), lambda k, v: _FLAG_CODES[(k, v)])
            found = judge(got, want, variants, CODES)
            if found is not None:
                break
        if found is None:
            found = _slips(fn, got, x, sigma, gamma, beta)
        if found is None:
            # 与正确结果只差一点点（例如四舍五入）：逐步诊断的性质检查会被这点误差触发、错怪正确的步骤，只指出第一个不同的值
            near = max_abs_of([a - b for a, b in zip(flatten(got), flatten(want))]) <= 1e-2 * (1 + max_abs_of(flatten(want)))
            found = (None if near else _steps(fn)) or [first_difference(got, want)]
        if found or changed:
            return changed + found
    return _sizes(fn)
