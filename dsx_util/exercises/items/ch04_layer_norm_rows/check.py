# 导入：标准库、feedback、list_checks。
"""练习 ch04-layer-norm-rows 的检查器（题目、模板、参考答案在同一个文件夹；编目的错误写法在 mistakes.py）。"""
import ast
import math

from ...feedback import checker, message
from ...list_checks import other_size, as_rows, call_or_stop, columns_of, combine, copy_rows, dropped_brackets, first_difference, flatten, judge, lists_close, mean_of, norm_steps, quiet, unchanged, var_of

CODES = {
    "unbiased_var": "你用了无偏方差（除以 H−1）：式 (4.2) 的方差是有偏估计，除以 H。",
    "eps_outside_sqrt": "ε 加在了根号外面：按式 (4.3)，ε 先加到方差上，再开平方。",
    "no_eps": "方差很小的那一行算错了：分母里少了 ε（式 (4.3)）。",
    "eps_ignored": "调用时传入 eps={eps}，你的结果却和 eps=1e-5 时一样：请用参数 eps，不要写死。",
    "wrong_axis": "你对每一列（跨行）做了归一化：层归一化对每一行的 H 个值各自归一化。",
    # 评审 r46：以前得到 4 条症状（均值、方差、平移、别的行也变了）；按值认出，一条说明（ch07、ch13 的维度错误也这样）
    "normalized_all": "均值和方差是把所有行放在一起算的：层归一化的均值和方差要在每一行里算（这一行的 H 个数），"
                      "不是所有行一起算（式 (4.1)、(4.2)）。对每一行分别求 `sum(row) / len(row)` 和这一行的方差。",
    "no_centering": "没有减去均值：式 (4.3) 的分子是 x − μ。",
    "no_gamma_beta": "结果是标准化后的 x̂，还差式 (4.4)：乘缩放参数 γ、加平移参数 β。",
    "gamma_beta_swapped": "γ 和 β 用反了：式 (4.4) 是 γ ⊙ x̂ + β，γ 乘、β 加。",
    "shift_before_scale": "先加 β 再乘 γ 了：式 (4.4) 是先乘 γ、再加 β。",
    "no_sqrt": "分母是方差 σ² + ε，没有开平方：式 (4.3) 除以的是标准差 √(σ² + ε)。",
    "gamma_beta_first_only": "γ、β 要逐特征使用（第 i 个特征乘 γ[i]、加 β[i]）：你对所有特征都用了 γ[0] 和 β[0]（式 (4.4)）。",
    "eps_divided": "ε 加到了偏差平方和上、再和它一起除以 H（(Σ(x−μ)² + ε)/H）：这样方差里只加了 ε/H，"
                   "方差很小的第 3 行差得最多。按式 (4.2)、(4.3)，先除以 H 得到方差 σ²，再加 ε：√(σ² + ε)。",
    "eps_max": "你用了 √max(σ², ε)（方差比 ε 小时拿 ε 代替）：方差很小的第 3 行差得最多。"
               "式 (4.3) 是把 ε 加到方差上，√(σ² + ε)，不是取两者中大的那个。",
    # 评审 r47：var = mean(x²) − μ（单遍公式里 μ 没有平方）以前得到 3 条症状（说除法、减均值错了）：按值认出
    "mu_not_squared": "方差算错了：单遍公式是 σ² = mean(x²) − μ²，你减去的是 μ，没有平方（例如 `- mu` 要写成 `- mu ** 2`）。"
                      "也可以按式 (4.2) 先减均值再平方：σ² = mean((x − μ)²)。",
    "eps_twice": "ε 加了两次：根号里加过一次（√(σ² + ε)），根号外面又加了一次。按式 (4.3)，只在根号里加。",
    # 评审 r45：少了括号（运算顺序），按值认出（_slips），引用学习者写的那一段
    "bracket_gamma_x": "少了括号：* 和 / 比 − 先算，{said}算的是 γ·x − μ/√(σ² + ε) + β：x 没有减去 μ 就乘了 γ，"
                       "只有 μ 除以了标准差。式 (4.3)、(4.4) 是 γ·(x − μ)/√(σ² + ε) + β：把 x − μ 括起来{fix}。",
    "bracket_mu_over_std": "少了括号：/ 比 − 先算，{said}算的是 x − μ/√(σ² + ε)：只有 μ 除以了标准差，x 没有除以它。"
                           "式 (4.3) 是 (x − μ)/√(σ² + ε)：把 x − μ 括起来{fix}。",
    "bracket_sqrt_eps": "少了括号：** 比 + 先算，{said}算的是 σ² + √ε：只有 ε 开了方，方差没有开方。"
                        "式 (4.3) 除以的是 √(σ² + ε)：把 σ² + ε 括起来再开方{fix}。",
    "bracket_eps_after_div": "少了括号：/ 比 + 先算，ε 没有进分母，而是加在了除法的结果上（γ·(x − μ)/√(σ²) + ε + β）："
                             "方差很小的第 3 行差得最多。式 (4.3) 除以的是 √(σ² + ε)：ε 加在方差上，再开平方。",
    # 逐步诊断（norm_steps）的说明
    "row_mean_not_zero": "γ = 1、β = 0 时，你的输出第 {row} 行的均值是 {got}，应为 0{hint}",
    "row_variance_not_one": "γ = 1、β = 0 时，你的输出第 {row} 行的方差是 {got}，应为 σ²/(σ² + ε) ≈ {want}{hint}",
    "not_shift_invariant": "给每一行加上同一个常数（第 1 行加 3）后，你的输出变了，最大变化 {diff}；应该不变："
                           "减去这一行的均值后，常数会被抵消。",
    "not_scale_invariant": "把每一行乘以 4 后，你的输出变了，最大变化 {diff}；除了 ε 的微小影响，应该不变："
                           "除以这一行的标准差后，倍数会被抵消。",
    "gamma_not_featurewise": "把 γ 设成各不相同的值（β = 0）后，第 {pos} 个特征的输出应是 γ = 1 时的 γ[{j}] = {want} 倍，"
                             "你的是 {got} 倍：第四步（式 (4.4)）是 γ 逐特征乘 x̂。",
    "beta_not_featurewise": "γ 不变、把 β 设成各不相同的值后，第 {pos} 个特征的输出应整体加上 β[{j}] = {want}，你的加了 {got}"
                            "{hint}（式 (4.4)：y = γ ⊙ x̂ + β）。",
    "rows_mixed": "只改动第 1 行的输入后，别的行的输出也变了，最大变化 {diff}：每一行只能用它自己的均值和方差。",
    # 换一种大小的输入（_sizes）
    "h_hard_coded": "每行 H = 4 个数的输入都对，换成每行 H = 6 个数的输入{what}：{how}。"
                    "每行有几个数要用 len(row) 得到，不要写死。",
    "rows_hard_coded": "3 行的输入都对，换成 5 行的输入{what}：像是把行数 3 写死了（例如 range(3)）。"
                       "有几行就处理几行：for row in rows。",
}


def _ln_model(rows, gamma, beta, eps, unbiased=False, eps_kind="inside", center=True, axis="row", affine="ok",
              sqrt=True, mu_squared=True):
    def norm(vals):
        mu = mean_of(vals) if center else 0.0
        var = var_of(vals, unbiased)
        if not mu_squared:   # 单遍公式 mean(x²) − μ 里 μ 没有平方（为负时 math.sqrt 出错，combine 跳过这种写法）
            h = len(vals)
            var = (mean_of([v * v for v in vals]) - mean_of(vals)) * (h / (h - 1) if unbiased else 1)
        e = {"inside": eps, "outside": eps, "missing": 0.0, "fixed": 1e-5, "twice": eps, "divided": eps / len(vals),
             "max": max(eps - var, 0.0)}[eps_kind]   # max：σ² + max(ε − σ², 0) = max(σ², ε)
        denom = math.sqrt(var) + e if eps_kind == "outside" else (math.sqrt(var + e) if sqrt else var + e)
        denom += e if eps_kind == "twice" else 0.0
        return [(v - mu) / denom for v in vals]
    if axis == "all":   # 所有行的数放在一起求均值和方差
        flat = norm(flatten(rows))
        w = len(rows[0])
        xh = [flat[i:i + w] for i in range(0, len(flat), w)]
    else:
        xh = columns_of([norm(c) for c in columns_of(rows)]) if axis == "col" else [norm(r) for r in rows]
    return [{"ok": [g * v + b for v, g, b in zip(r, gamma, beta)],
             "none": list(r),
             "swapped": [b * v + g for v, g, b in zip(r, gamma, beta)],
             "shift_first": [(v + b) * g for v, g, b in zip(r, gamma, beta)],
             "first_only": [gamma[0] * v + beta[0] for v in r]}[affine] for r in xh]


# 检查用的输入都是 3 行、每行 H = 4 个数：再用每行 6 个数、5 行的输入各算一次，写死了 4 或 3 的代码在这里不对
_WIDE = [[1.0, 2.0, 4.0, 7.0, -3.0, 0.5], [0.5, -1.5, 2.5, 0.0, 6.0, 1.0], [3.0, -2.0, 1.0, 5.0, 2.0, -4.0]]
_TALL = [[1.0, 2.0, 4.0, 7.0], [0.5, -1.5, 2.5, 0.0], [3.0, 3.5, 2.0, 3.0], [-1.0, 0.0, 2.0, 5.0], [2.0, 8.0, -4.0, 1.0]]


def _fixed_n(rows, gamma, beta, eps, mean_n, var_n):
    """均值除以 mean_n、方差除以 var_n（None：除以这一行的个数）的层归一化：写死了 H 的写法。"""
    out = []
    for row in rows:
        mu = sum(row) / (mean_n or len(row))
        var = sum((v - mu) ** 2 for v in row) / (var_n or len(row))
        out.append([g * (v - mu) / math.sqrt(var + eps) + b for v, g, b in zip(row, gamma, beta)])
    return out


def _sizes(fn, eps=1e-5):
    """换成每行 6 个数、换成 5 行的输入再检查一次；不对时一条 h_hard_coded 或 rows_hard_coded（说出写死的是哪个数）。"""
    for rows, code in ((_WIDE, "h_hard_coded"), (_TALL, "rows_hard_coded")):
        h = len(rows[0])
        gamma, beta = [0.5 + 0.25 * j for j in range(h)], [0.5 - 0.25 * j for j in range(h)]
        models = [(said + f"，不是这一行的个数 {h}，像是把 H = 4 写死了", _fixed_n(rows, gamma, beta, eps, m, v))
                  for said, m, v in (("均值和方差都除以了 4", 4, 4), ("均值除以了 4", 4, None), ("方差除以了 4", None, 4))]
        found = other_size(fn, (copy_rows(rows), list(gamma), list(beta)), {"eps": eps}, _ln_model(rows, gamma, beta, eps),
                           CODES, code, "像是把 H = 4 写死了（例如 / 4 或 range(4)）", models)
        if found:
            return found
    return []


def _slips(fn, got, rows, gamma, beta, eps):
    """少了括号的几种写法（运算顺序）：按值比较，学习者的结果与其中一种相同时一条说明（引用他写的那一段）；否则 None。

    每种写法在检查输入上都与正确结果不同（第 3 行方差很小，γ、β 各不相同），写对的代码不会被认成它们。
    """
    models = {"bracket_gamma_x": [], "bracket_mu_over_std": [], "bracket_sqrt_eps": [], "bracket_eps_after_div": []}
    for row in rows:
        mu, var = mean_of(row), var_of(row)
        std = math.sqrt(var + eps)
        models["bracket_gamma_x"].append([g * v - mu / std + b for v, g, b in zip(row, gamma, beta)])
        models["bracket_mu_over_std"].append([g * (v - mu / std) + b for v, g, b in zip(row, gamma, beta)])
        models["bracket_sqrt_eps"].append([g * (v - mu) / (var + eps ** 0.5) + b for v, g, b in zip(row, gamma, beta)])
        models["bracket_eps_after_div"].append([g * (v - mu) / math.sqrt(var) + eps + b for v, g, b in zip(row, gamma, beta)])
    quotes = {"bracket_gamma_x": (ast.Sub, ast.Div, "{g} * ({x} - {b}) / {c}", True),
              "bracket_mu_over_std": (ast.Sub, ast.Div, "({a} - {b}) / {c}", False),
              "bracket_sqrt_eps": (ast.Add, ast.Pow, "({a} + {b}) ** ({c})", False)}
    for code, model in models.items():
        if lists_close(got, model):
            fields = dropped_brackets(fn, *quotes[code]) if code in quotes else {}
            return [(code, message(CODES, code, **fields))]
    return None


_LN_FLAG_CODES = {("unbiased", True): "unbiased_var", ("eps_kind", "outside"): "eps_outside_sqrt",
                  ("eps_kind", "missing"): "no_eps", ("eps_kind", "fixed"): "eps_ignored", ("center", False): "no_centering",
                  ("axis", "col"): "wrong_axis", ("axis", "all"): "normalized_all", ("affine", "none"): "no_gamma_beta",
                  ("affine", "swapped"): "gamma_beta_swapped", ("affine", "shift_first"): "shift_before_scale",
                  ("sqrt", False): "no_sqrt", ("affine", "first_only"): "gamma_beta_first_only",
                  ("eps_kind", "twice"): "eps_twice", ("eps_kind", "divided"): "eps_divided", ("eps_kind", "max"): "eps_max",
                  ("mu_squared", False): "mu_not_squared"}


@checker(__name__, CODES)
def check_layer_norm_rows(fn):
    """检查 layer_norm_rows(rows, gamma, beta, eps)：对每一行按式 (4.1)–(4.4) 做层归一化。"""
    rows = [[1.0, 2.0, 4.0, 7.0], [0.5, -1.5, 2.5, 0.0], [3.0, 3.001, 2.999, 3.0]]
    gamma, beta = [1.5, 2.0, 0.5, -1.0], [0.25, 0.5, -1.0, 2.0]   # γ[0] ≠ 1、β[0] ≠ 0：只用 γ[0]、β[0] 与不用 γ、β 分得开
    for eps in (1e-5, 1e-2):
        given = (copy_rows(rows), list(gamma), list(beta))
        want = _ln_model(rows, gamma, beta, eps)
        got = as_rows(call_or_stop(fn, *given, eps=eps), (3, 4), want=want, fn=fn)
        changed = unchanged((rows, gamma, beta), given, "列表（rows、gamma 或 beta）", "列表")
        flags = {"unbiased": [False, True],
                 "eps_kind": ["inside", "outside", "missing", "twice", "divided", "max"] + (["fixed"] if eps != 1e-5 else []),
                 "center": [True, False], "axis": ["row", "col", "all"], "affine": ["ok", "none", "swapped", "shift_first", "first_only"],
                 "sqrt": [True, False], "mu_squared": [True, False]}
        default = {k: v[0] for k, v in flags.items()}
        variants = combine(flags, default, lambda **s: _ln_model(rows, gamma, beta, eps, **s),
                            lambda k, v: _LN_FLAG_CODES[(k, v)])
        found = judge(got, want, variants, CODES, {"eps": eps})
        if found is None:
            found = _slips(fn, got, rows, gamma, beta, eps)
        if found is None:
            steps = norm_steps(lambda r, g, b: quiet(fn, (3, 4))(r, g, b, eps=eps), 4, eps, CODES)
            found = steps or [first_difference(got, want)]
        if found or changed:
            return changed + found
    return _sizes(fn)
