# 导入：标准库、feedback、list_checks。
"""练习 ch08-rms-norm-list 的检查器（题目、模板、参考答案在同一个文件夹；编目的错误写法在 mistakes.py）。"""
import ast
import math

from ...feedback import Stop, checker, fmt_num, fmt_pair, message
from ...list_checks import (as_floats, call_or_stop, combine, dropped_brackets, first_difference, judge, pow_one_half,
                            lists_close, max_abs_of, mean_of, unchanged)

CODES = {
    "subtracted_mean": "你先减去了均值（算的是标准差）：均方根归一化不减均值，直接对 x² 求平均。",
    "missing_sqrt": "分母是均方（x² 的平均），还差开平方。",
    "eps_outside_sqrt": "ε 加在了根号外面：ε 先加到均方上，再开平方。",
    "no_gamma": "结果没有乘缩放参数 γ。",
    "abs_mean": "你用绝对值的平均做分母：均方根是先平方、再平均、再开方。",
    "no_eps": "分母里少了 ε：全为 0 的输入会得到 0/0。",
    "eps_divided": "ε 放错了位置：ε 加到了平方和上、再和它一起除以 H（(Σx² + ε)/H），均方里只加了 ε/H，"
                   "很小的那组数差得最多。先除以 H 得到均方 mean(x²)，再加 ε：√(mean(x²) + ε)。",
    # 评审 r46：ε 写死成别的常数（1e-5 抄自层归一化）时结果也不随 eps 变：说出来，能认出常数时说出它（{what}）
    "eps_ignored": "调用时传入 eps={eps}，你的结果却和 eps={other} 时一样{what}：请用参数 eps，不要写死。",
    "divided_by_norm": "你除以的是向量的长度 ‖x‖ = √(Σx²)，不是均方根 √(mean(x²))：输出整体小了 √H = {root} 倍"
                       "（γ = 1 时输出的均方是 {ms}，应约为 1）。平方和之后还要除以 H。",
    "row_rms_not_one": "γ = 1 时，你的输出 y 的均方 mean(y²) 是 {got}，应为 mean(x²)/(mean(x²) + ε) ≈ {want}{hint}",
    "not_proportional": "γ = 1 时，你的输出不是输入的同一个倍数（第 1 个是输入的 {a} 倍，第 {j} 个是 {b} 倍）："
                        "均方根归一化只把整个向量除以同一个数，不减均值、不逐个变换。",
    "not_scale_invariant": "把输入整体乘以 4 后，你的输出变了，最大变化 {diff}；除了 ε 的微小影响，应该不变：除以均方根后，倍数会被抵消。",
    "gamma_not_featurewise": "把 γ 设成各不相同的值后，第 {pos} 个输出应是 γ = 1 时的 γ[{j}] = {want} 倍，你的是 {got} 倍："
                             "γ 逐个特征相乘。",
    "eps_squared": "根号里加的是 ε²（ε·ε），不是 ε：分母应是 √(mean(x²) + ε)。ε 本来就很小，ε² 更是几乎等于 0。",
    "constant_added": "γ = 1 时，你的每个输出都多了同一个常数 {c}（除此之外与输入成正比）{hint}。"
                      "均方根归一化只把向量除以同一个数，不加任何常数。",
    "gamma_added": "γ 是加上去的：γ 要乘，yᵢ = γᵢ · xᵢ / √(mean(x²) + ε)。",
    "square_of_sum": "你算的是和的平方 (Σx)²/H（先把 x 加起来再平方），不是平方的平均 Σx²/H = mean(x²)："
                     "每个数先平方、再相加，写成 `sum(v * v for v in values) / len(values)`。",
    "square_of_sum_total": "你算的是和的平方 (Σx)²（先把 x 加起来再平方），不是平方的平均 Σx²/H = mean(x²)："
                           "每个数先平方、再相加、再除以 H，写成 `sum(v * v for v in values) / len(values)`。",
    "times_rms": "你把 x 乘以了均方根：要除以它，yᵢ = γᵢ · xᵢ / √(mean(x²) + ε)。",
    # 评审 r46：ms + eps ** 0.5（或 math.sqrt(eps)）：只有 ε 开了方；少了括号时引用学习者写的那一段（{slip}{said}{fix}）
    "bracket_sqrt_eps": "{slip}{said}算的是 mean(x²) + √ε：只有 ε 开了方，均方没有开方。分母应是 √(mean(x²) + ε)："
                        "先把均方和 ε 相加，再开方{fix}。",
    # x ** 1 / 2 是 (x¹)/2：** 比 / 先算（ch06 的评审 r46 同一种错误）
    "pow_half": "{said}不是开平方：** 比 / 先算，`x ** 1 / 2` 是 (x¹)/2 = x/2，即除以 2。分母应是 √(mean(x²) + ε)："
                "开平方写 `** 0.5`、`** (1 / 2)` 或 math.sqrt{fix}。",
    # 评审 r47：先乘 γ 再求均方，以前说「γ 逐个特征相乘」（学习者正是逐个相乘的）：按值认出，说 γ 乘早了
    "gamma_before_rms": "γ 乘早了：你先把 γ 乘进了 x，再对 γ·x 求均方，分母成了 √(mean((γ·x)²) + ε)。均方根要用原始的 x 算："
                        "先求 mean(x²)，用 x 除以 √(mean(x²) + ε)，最后再逐个乘 γ。",
    "h_hard_coded": "H = 4 个数的输入都对，换成 H = 6 个数的输入{what}：{how}。有几个数要用 len(values) 得到，不要写死。",
}


def _rms_model(values, gamma, eps, center=False, sqrt=True, eps_kind="inside", use_gamma=True, abs_mean=False,
               norm=False, ms_kind="mean_sq", times=False, gamma_first=False):
    mu = mean_of(values) if center else 0.0
    xs = [v - mu for v in values]
    if gamma_first:   # 先乘 γ，均方算的是 γ·x 的（之后不再乘 γ）
        xs, gamma, use_gamma = [g * v for v, g in zip(xs, gamma)], None, False
    if abs_mean:
        ms = mean_of([abs(v) for v in xs])
    elif norm:
        ms = sum(v * v for v in xs)
    elif ms_kind != "mean_sq":   # 和的平方 (Σx)²/H 或 (Σx)²：先求和、再平方
        ms = sum(xs) ** 2 / (len(xs) if ms_kind == "square_of_sum" else 1)
    else:
        ms = mean_of([v * v for v in xs])
    e = {"inside": eps, "outside": eps, "missing": 0.0, "fixed": 1e-6, "squared": eps * eps,
         "divided": eps / len(values), "rooted": math.sqrt(eps)}[eps_kind]
    if abs_mean:
        d = ms + e
    elif eps_kind == "outside":
        d = math.sqrt(ms) + e
    else:
        d = (ms + e) / 2 if sqrt == "half" else math.sqrt(ms + e) if sqrt else ms + e   # "half"：x ** 1 / 2
    g = gamma if use_gamma else [1.0] * len(values)
    return [gi * v * d if times else gi * v / d for v, gi in zip(xs, g)]


_RMS_FLAG_CODES = {("center", True): "subtracted_mean", ("sqrt", False): "missing_sqrt", ("sqrt", "half"): "pow_half",
                   ("eps_kind", "outside"): "eps_outside_sqrt", ("eps_kind", "missing"): "no_eps",
                   ("eps_kind", "fixed"): "eps_ignored", ("eps_kind", "divided"): "eps_divided", ("use_gamma", False): "no_gamma", ("abs_mean", True): "abs_mean",
                   ("norm", True): "divided_by_norm", ("ms_kind", "square_of_sum"): "square_of_sum",
                   ("ms_kind", "square_of_sum_total"): "square_of_sum_total",
                   ("times", True): "times_rms", ("gamma_first", True): "gamma_before_rms"}


def _rms_steps(fn, eps):
    values = [1.0, -2.0, 3.0, 0.5, -1.5]
    h = len(values)
    ones = [1.0] * h

    def run(v, g):
        try:
            return as_floats(call_or_stop(fn, list(v), list(g), eps=eps), h, "输出")
        except Stop:
            return None
    findings = []
    y = run(values, ones)
    if y is None:
        return findings
    ms_x = mean_of([v * v for v in values])
    want = ms_x / (ms_x + eps)
    ms_y = mean_of([v * v for v in y])
    ratios = [a / b for a, b in zip(y, values)]
    k = (y[2] - y[1]) / (values[2] - values[1])   # y = k·x + c：c ≠ 0 时每个输出多了同一个常数
    c = y[2] - k * values[2]
    if abs(c) > 1e-12 and all(abs(k * v + c - w) <= 1e-9 * (1 + abs(w)) for v, w in zip(values, y)):
        gamma = [0.5 + 0.5 * j for j in range(h)]
        yg = run(values, gamma)
        if yg is not None and all(abs(a - b - (g - 1.0)) <= 1e-9 * (1 + abs(a)) for a, b, g in zip(yg, y, gamma)):
            return [("gamma_added", CODES["gamma_added"])]
        hint = "：正好是 ε，ε 应加在均方上、根号里面，不要加到结果上" if abs(c - eps) <= 1e-6 * eps else ""
        if (abs(c - 1.0) <= 1e-9 and yg is not None
                and all(abs(a - g * b) <= 1e-9 * (1 + abs(a)) for a, b, g in zip(yg, y, gamma))):
            hint = "：正好是 γ（γ = 1），像是乘完 γ 又加了一次 γ（γ·x/rms + γ）：γ 只乘，不要再加"
        return [("constant_added", message(CODES, "constant_added", c=fmt_num(c), hint=hint))]
    if abs(ms_y / want - 1) > 1e-3:
        hint = "：要除以 √(mean(x²) + ε)。"
        used = ms_x / ms_y - eps if ms_y > 0 else None   # 输出与输入成正比时，学习者分母的平方减去 ε：他用的均方
        if used is not None and abs(used - sum(v * v for v in values) / (h - 1)) <= 1e-6 * used:
            hint = "：均方要除以 H（x² 的平均），你除以了 H−1。"
        elif used is not None and abs(used - mean_of(values) ** 2) <= 1e-6 * (used + 1e-12):
            hint = "：你用的是 (x 的平均)²，应为 x² 的平均 mean(x²)：先平方、再平均。"
        if abs(ms_y * h - 1) < 1e-3:
            return [("divided_by_norm", message(CODES, "divided_by_norm", root=fmt_num(math.sqrt(h)),
                                                ms=fmt_num(ms_y)))]
        findings.append(("row_rms_not_one", message(CODES, "row_rms_not_one", got=fmt_num(ms_y),
                                                    want=fmt_num(want), hint=hint)))
    j = max(range(h), key=lambda k: abs(ratios[k] - ratios[0]))
    if abs(ratios[j] - ratios[0]) > 1e-6 * (1 + abs(ratios[0])):
        a, b = fmt_pair(ratios[0], ratios[j], digits=4)   # 两个倍数写到看得出不同
        findings.append(("not_proportional", message(CODES, "not_proportional", a=a, j=j + 1, b=b)))
    y4 = run([v * 4.0 for v in values], ones)
    if y4 is not None:
        d = max_abs_of([a - b for a, b in zip(y4, y)])
        if d > 1e-3:
            findings.append(("not_scale_invariant", message(CODES, "not_scale_invariant", diff=fmt_num(d))))
    gamma = [0.5 + 0.5 * k for k in range(h)]
    yg = run(values, gamma)
    if yg is not None:
        bad = [k for k in range(h) if abs(yg[k] - gamma[k] * y[k]) > 1e-6 * (1 + abs(yg[k]))]
        if bad:
            k = bad[0]
            findings.append(("gamma_not_featurewise", message(CODES, "gamma_not_featurewise", j=k, pos=k + 1,
                                                               want=fmt_num(gamma[k]), got=fmt_num(yg[k] / y[k]))))
    return findings


def _probe(fn, gamma, eps_kind, eps=0.25):
    """用一个大的 ε 调用学习者的函数，看结果是不是 eps_kind 那种写法；出错时算「不是」。"""
    values = [1.0, -2.0, 3.0, 0.5]
    try:
        got = as_floats(call_or_stop(fn, list(values), list(gamma), eps=eps), len(values), "输出")
    except Stop:
        return False
    return all(math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
               for a, b in zip(got, _rms_model(values, gamma, eps, eps_kind=eps_kind)))


def _eps_text(x):
    """ε 写成代码里的样子：1e-5、0.001、0.25（不写 1e-05）。"""
    text = f"{x:.3g}"
    mantissa, _, exponent = text.partition("e")
    return f"{mantissa}e{int(exponent)}" if exponent else text


def _eps_fixed(fn, gamma, eps, found, flags):
    """结果不随参数 eps 变（用一组很小的数、分别传入 eps 与大的 ε = 0.25，结果相同）：ε 写死了。返回一条 eps_ignored
    （能认出写死的常数 c、即分母是 √(mean(x²) + c) 时说出 c），另有的一处非 ε 错误附在后面。
    结果随 eps 变、与没有 ε 的某种写法相同（写死成 0 与少了 ε 分不开，沿用原来的说明）、或已经说了写死时 None。"""
    eps_codes = {"eps_outside_sqrt", "no_eps", "eps_divided", "eps_ignored", "eps_squared", "bracket_sqrt_eps"}
    if {"no_eps", "eps_ignored"} & {c for c, _ in found or []}:
        return None
    values, big = [0.001, -0.002, 0.0015, 0.0005], 0.25   # 很小的数：写死的 ε 哪怕只有 1e-8 也看得出
    try:
        got, other = (as_floats(call_or_stop(fn, list(values), list(gamma), eps=e), len(values), "输出") for e in (eps, big))
    except Stop:
        return None
    if not all(math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-15) for a, b in zip(got, other)):
        return None
    no_eps = {k: v for k, v in flags.items() if k != "eps_kind"}
    models = combine(no_eps, {k: v[0] for k, v in no_eps.items()}, lambda **s: _rms_model(values, gamma, 0.0, **s),
                     lambda k, v: (k, v))
    if any(lists_close(got, m, tol=1e-9) for m in [_rms_model(values, gamma, 0.0)] + list(models.values())):
        return None
    what = ""
    ms = mean_of([v * v for v in values])
    if all(y != 0 for y in got):
        cs = [(g * v / y) ** 2 - ms for v, g, y in zip(values, gamma, got)]   # 分母² − 均方：写死的 ε
        c = cs[0]
        if c > 0 and all(math.isclose(x, c, rel_tol=1e-6) for x in cs):
            c = float(_eps_text(c))
            if lists_close(got, [g * v / math.sqrt(ms + c) for v, g in zip(values, gamma)], tol=1e-9):
                said = _eps_text(c)
                what = f"，ε 像是写死成了 {said}（分母是 √(mean(x²) + {said})" + \
                       ("；1e-5 是层归一化的默认值，这道题默认 1e-6）" if c == 1e-5 else "）")
    text = message(CODES, "eps_ignored", eps=_eps_text(eps), other=_eps_text(big), what=what)
    both = "同时有两处错误。"
    rest = [(c, m.removeprefix(both)) for c, m in found or [] if c not in eps_codes]
    if len(rest) > 1:
        return None
    return [("eps_ignored", both + text if rest else text)] + rest


def _quoted(fn, found):
    """bracket_sqrt_eps、pow_half 的说明里引用学习者写的那一段（看不到源码时说「你的分母」）。"""
    out = []
    for code, text in found or []:
        both = "同时有两处错误。" if text.startswith("同时有两处错误。") else ""
        if code == "bracket_sqrt_eps":
            # 指数保留括号：eps ** (1 / 2) 改成 (ms + eps) ** (1 / 2)，不是 ** 1 / 2（单个数或名字的括号 dropped_brackets 会去掉）
            fields = dropped_brackets(fn, ast.Add, ast.Pow, "({a} + {b}) ** ({c})")
            if fields["fix"]:
                fields["slip"] = "少了括号：** 比 + 先算，"
            else:
                fields = {"slip": "", "said": "你的分母",
                          "fix": "，写成 `math.sqrt(ms + eps)` 或 `(ms + eps) ** 0.5`（ms 为均方 mean(x²)）"}
            text = both + message(CODES, code, **fields)
        elif code == "pow_half":
            quote = pow_one_half(fn)
            said = f"你写的 `{quote[0]}` " if quote else "你的分母"
            fix = f"，例如 `{quote[1]}`" if quote and quote[1] else ""
            text = both + message(CODES, code, said=said, fix=fix)
        out.append((code, text))
    return out if found is not None else None


def _sizes(fn, eps=1e-6):
    """检查用的输入都是 H = 4 个数：再用 6 个数算一次，写死了 4 的代码（/ 4、range(4)）在这里不对。"""
    values, gamma = [1.0, -2.0, 3.0, 0.5, -1.5, 2.5], [1.5, 0.5, -1.0, 2.0, 0.75, 1.25]
    h = len(values)
    how = "像是把 H = 4 写死了（例如 / 4 或 range(4)）"
    try:
        value = call_or_stop(fn, list(values), list(gamma), eps=eps)
    except Stop as stop:
        return [("h_hard_coded", message(CODES, "h_hard_coded", what="，你的代码却出错了", how=how))] + stop.args[0]
    if isinstance(value, list) and len(value) != h:
        what = f"，你的输出却只有 {len(value)} 个数" if len(value) < h else f"，你的输出却有 {len(value)} 个数"
    else:
        got = as_floats(value, h, "输出")
        want = _rms_model(values, gamma, eps)
        if lists_close(got, want):
            return []
        i = next(k for k, (a, b) in enumerate(zip(got, want)) if not math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-6))
        w, g = fmt_pair(want[i], got[i])
        what = f"就错了（第 {i + 1} 个值应为 {w}，你的是 {g}）"
        ms4 = sum(v * v for v in values) / 4
        if lists_close(got, [gi * v / math.sqrt(ms4 + eps) for v, gi in zip(values, gamma)]):
            how = f"均方除以了 4，不是这组数的个数 {h}，像是把 H = 4 写死了"
    return [("h_hard_coded", message(CODES, "h_hard_coded", what=what, how=how))]


@checker(__name__, CODES)
def check_rms_norm_list(fn):
    """检查 rms_norm_list(values, gamma, eps)：y_i = γ_i · x_i / sqrt(mean(x²) + ε)。"""
    gamma = [1.5, 0.5, -1.0, 2.0]
    for values, eps in (([1.0, -2.0, 3.0, 0.5], 1e-6), ([0.001, -0.002, 0.0015, 0.0005], 1e-6),
                        ([0.01, -0.03, 0.02, 0.005], 1e-3)):
        given = (list(values), list(gamma))
        want = _rms_model(values, gamma, eps)
        got = as_floats(call_or_stop(fn, *given, eps=eps), 4, "输出", want=want, fn=fn)
        changed = unchanged((values, gamma), given, "列表（values 或 gamma）")
        flags = {"center": [False, True], "sqrt": [True, False, "half"],
                 "eps_kind": ["inside", "outside", "missing", "divided"] + (["fixed"] if eps != 1e-6 else []),
                 "use_gamma": [True, False], "abs_mean": [False, True], "norm": [False, True],
                 "ms_kind": ["mean_sq", "square_of_sum", "square_of_sum_total"], "times": [False, True],
                 "gamma_first": [False, True]}
        variants = combine(flags, {k: v[0] for k, v in flags.items()}, lambda **s: _rms_model(values, gamma, eps, **s),
                            lambda k, v: _RMS_FLAG_CODES[(k, v)])
        # 只有 ε 开了方（ms + eps ** 0.5）：没开方、ε 却换成了 √ε，一种错误，不是两种
        variants[("bracket_sqrt_eps",)] = _rms_model(values, gamma, eps, sqrt=False, eps_kind="rooted")
        found = judge(got, want, variants, CODES,
                       {"eps": eps, "other": "1e-6", "what": "", "root": fmt_num(math.sqrt(4)),
                        "ms": fmt_num(mean_of([v * v for v in got]))})
        if found and [c for c, _ in found] == ["no_eps"] and _probe(fn, gamma, "squared"):
            found = [("eps_squared", CODES["eps_squared"])]   # ε 很小时 ε² 与没有 ε 分不开：用大的 ε 再试一次
        if found and "eps_outside_sqrt" in [c for c, _ in found] and not _probe(fn, gamma, "outside"):
            found = None   # ε 很小时根号里外差得很少（写死的 1e-5 在根号里也像 ε 在外面）：大的 ε 下不吻合就不这样说
        if found != [] and not lists_close(got, want):
            fixed = _eps_fixed(fn, gamma, eps, found, flags)
            if fixed:
                found = fixed
        found = _quoted(fn, found)
        if found is None:
            found = _rms_steps(fn, eps) or [first_difference(got, want)]
        if found or changed:
            return changed + found
    return _sizes(fn)
