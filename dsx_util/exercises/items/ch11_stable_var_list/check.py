# 导入：标准库、feedback、list_checks。
"""练习 ch11-stable-var-list 的检查器（题目、模板、参考答案在同一个文件夹；编目的错误写法在 mistakes.py）。"""
import math

from ...feedback import Stop, checker, fmt_num, fmt_pair, message
from ...list_checks import as_floats, call_or_stop, first_difference, judge, learner_return, mean_of, unchanged, var_of

CODES = {
    "single_pass": "均值约为 10⁹ 的数据算错了（应为 {want}，你的是 {got}），而均值小的数据是对的："
                   "这是单遍公式 E[x²] − (E[x])² 的相消误差，两个约 10¹⁸ 的数相减丢掉了有效数字。先求均值再求偏差平方（两遍），或用 Welford 算法。",
    "unbiased_var": "你用了无偏方差（除以 H−1）：这里要的是层归一化用的有偏方差（除以 H）。",
    "returned_std": "返回的是标准差（开了平方根），题目要的是方差。",
    "size_hard_coded": "5 个数的输入都对，换成 {h} 个数的 {values}，你的方差是 {got}（应为 {want}）：{how}，不是这组数的个数 {h}，"
                       "像是把个数 5 写死了。有几个数用 len(values) 得到，不要写死。",
    "minus_one": "你的结果正好比方差小 1（{values} 的方差是 {want}，你的是 {got}）：像是写了 `/ n - 1`，"
                 "Python 先算除法、再减 1，减掉的 1 不在分母里。这里要的是有偏方差，除以 H 就好：`/ n`，后面不要 `- 1`"
                 "（真要除以 H − 1 时得加括号 `/ (n - 1)`，那是无偏方差，这道题不用）。",
    "variance_of_constant_not_zero": "5 个数都是 2.0 时，方差应为 0，你的是 {got}{hint}。",
    "variance_not_shift_invariant": "每个数都加上 100 之后，方差从 {before} 变成了 {after}，应该不变：方差只看各个数离均值有多远。",
    "variance_not_quadratic": "每个数都乘以 3 之后，方差应变为 3² = 9 倍，你的变为 {ratio} 倍{hint}。",
    "variance_wrong_divisor": "偏差平方和对了，分母不对：应除以 H = {h}，你的相当于除以 {got}。",
    "no_return": "你的函数没有返回值（返回的是 None）：是不是忘了写 return？算出方差后 return 它。",
    "welford_update": "像是 Welford 算法的更新写错了：M2 要加 d·(x − 更新后的均值)，你加的是 d²（d = x − 更新前的均值）。",
    # 评审 r47：M2 加的是 (x − 更新后的均值)²，以前只说「应为 6，你的是 4.60556」：按值认出
    "welford_new_mean_only": "像是 Welford 算法的更新写错了：M2 要加 (x − 更新前的均值)·(x − 更新后的均值)，你加的是 "
                             "(x − 更新后的均值)²，只用了更新后的均值，每一项都偏小。更新均值之前先存下 d = x - mean，"
                             "更新均值之后再写 `m2 += d * (x - mean)`。",
    "shifted_sum_not_divided": "像是平移的算法（先减去同一个数 K，例如第一个数：d = x − K）少除了一个 H："
                               "方差 = (Σd² − (Σd)²/H) / H，你的是 (Σd² − (Σd)²) / H。",
    "negative_variance": "你的方差是负数（{got}）：方差是偏差平方的平均，不会小于 0。检查公式里减去的那一项。",
    "missing_term": "偏差平方和少了一项：第 {pos} 个数的 (x − μ)² 没有加进去（{hint}）。分母 H 是对的。",
    "mean_rounded": "{values} 的均值是 {mu}，你的方差却是按 {m} 算的：{how}。方差看的是各个数离真正的均值有多远，"
                    "求均值要用 /，不要取整。",
    "variance_always_zero": "{values} 这几个数并不全相同，方差应为 {want}，你的却是 0；每个数加上 100、乘以 3 之后也都是 0："
                            "像是先把偏差 x − μ 加起来（或求平均）再平方，而偏差的和总是 0。要先把每个偏差平方，再求平均：Σ(x − μ)² ÷ H。",
    "returned_several": "应只返回一个数（方差），你返回了 {count} 个值 {got}{hint}：只 return 方差，不要返回元组或列表。",
    # 评审 r46：return 缩进到了循环里，循环第一轮就返回了（按值认出，{how} 按 learner_return 说原因）
    "first_round_only": "方差应为 {want}，你的是 {got}，{what}{how}",
    "shift_not_mean": "{values} 的方差应为 {want}，你的是 {got}，大了 {extra}：Σ(x − c)² / H 在 c 等于均值 μ = {mu} 时最小，"
                      "c 离均值越远，结果越大（多出 (μ − c)²）。你减去的数 c 不是均值{which}；"
                      "如果用的是平移的算法（d = x − K，K 取任意一个数），要减去修正项：方差 = (Σd² − (Σd)²/H) / H。",
}

# 取整的均值：(写法, 取整的函数, 说明里的说法)
_ROUNDINGS = (("//", math.floor, "像是用了整数除法 //，它把均值向下取整了"),
              ("round", round, "像是用 round() 把均值四舍五入成了整数"))


# 4 个数、均值是整数 4：写死了除以 5 的均值（3.2）在这里与取整的均值（//、round 都得 4）分得开
_INTEGER_MEAN = [1.0, 2.0, 3.0, 10.0]


def _fixed_n(fn, values, mean_n, var_n):
    """学习者对 values 的结果是不是均值除以 mean_n、方差除以 var_n（None：除以个数）算出的；出错时算「不是」。"""
    try:
        got = float(call_or_stop(fn, list(values)))
    except (Stop, TypeError, ValueError):
        return False
    mu = sum(values) / mean_n
    return math.isclose(got, sum((v - mu) ** 2 for v in values) / (var_n or len(values)), rel_tol=1e-9)


def _welford_d_squared(values):
    """Welford 算法的常见写错：M2 加的是 d²（d 用更新前的均值），不是 d·(x − 更新后的均值)。"""
    n, mean, m2 = 0, 0.0, 0.0
    for x in values:
        n += 1
        d = x - mean
        mean += d / n
        m2 += d * d
    return m2 / n


def _welford_new_mean_squared(values):
    """Welford 算法的另一种写错：M2 加的是 (x − 更新后的均值)²，不是 (x − 更新前的均值)·(x − 更新后的均值)。"""
    n, mean, m2 = 0, 0.0, 0.0
    for x in values:
        n += 1
        mean += (x - mean) / n
        m2 += (x - mean) ** 2
    return m2 / n


def _shifted_not_divided(values):
    """平移公式 (Σd² − (Σd)²/H) / H 少除了一个 H：(Σd² − (Σd)²) / H，d = x − 第一个数。"""
    k = values[0]
    s1 = sum(v - k for v in values)
    return (sum((v - k) ** 2 for v in values) - s1 * s1) / len(values)


def _rounded_mean(values, got):
    """got 是不是按取整后的均值算出的方差：是时返回一条 mean_rounded，否则 []。"""
    mu = mean_of(values)
    hits = [(f(mu), how) for _, f, how in _ROUNDINGS
            if f(mu) != mu and math.isclose(got, mean_of([(v - f(mu)) ** 2 for v in values]), rel_tol=1e-9)]
    if not hits:
        return []
    how = hits[0][1] if len(hits) == 1 else "像是把均值取成了整数（整数除法 // 或 round()）"
    return [("mean_rounded", message(CODES, "mean_rounded", values=values, mu=fmt_num(mu), m=fmt_num(hits[0][0]), how=how))]


def _shift_not_mean(values, got):
    """got 比方差大，且正好是 Σ(x − c)²/H、c 落在最小值和最大值之间：减去的 c 不是均值。是时返回一条 shift_not_mean。"""
    want, mu = var_of(values), mean_of(values)
    extra = got - want
    if not extra > 1e-9 * (1 + want):
        return []
    cs = (mu - math.sqrt(extra), mu + math.sqrt(extra))   # (μ − c)² = 多出的部分
    if not any(min(values) <= c <= max(values) for c in cs):
        return []
    named = (("第一个数 values[0]", values[0]), ("(最小值 + 最大值) / 2", (min(values) + max(values)) / 2),
             ("最后一个数 values[-1]", values[-1]))
    hit = [name for name, c in named if any(math.isclose(c, x, rel_tol=1e-9, abs_tol=1e-12) for x in cs)]
    which = f"（像是减去了{hit[0]}）" if hit else ""
    return [("shift_not_mean", message(CODES, "shift_not_mean", values=values, want=fmt_num(want), got=fmt_num(got),
                                       extra=fmt_num(extra), mu=fmt_num(mu), which=which))]


# 循环第一轮就返回时的结果：(说法, 算法)。两遍的写法只加进了第一个数的偏差平方；Welford 更新一次后 M2 = 0
_FIRST_ROUND = (("正好是只算了第一个数的 (x₁ − μ)²/H：偏差平方和只加进了第一项",
                 lambda xs: (xs[0] - mean_of(xs)) ** 2 / len(xs)),
                ("正好是第一个数的 (x₁ − μ)²：偏差平方和只加进了第一项",
                 lambda xs: (xs[0] - mean_of(xs)) ** 2))
_FIRST_ROUND_HOW = {
    "loop": "。return 缩进到了 for 循环里面，循环第一轮就返回了：return 要与 for 对齐，写在循环之后。",
    None: "：像是 return 缩进到了 for 循环里面，循环第一轮就返回了；return 要与 for 对齐，写在循环之后。",
    "other": "：循环像是只跑了一轮（例如循环里有 break）；每个数的 (x − μ)² 都要加进去，循环结束后再除以 H。",
}


def _first_round(fn, values, got):
    """结果只是循环第一轮的值（return 在循环里）：是时一条 first_round_only，否则 []。

    按值认出，并在另一组数上再核对一次：(x₁ − μ)²/H 或 (x₁ − μ)²（两遍的写法），或 0（Welford 更新一次后；
    0 也可能是偏差先加起来再平方，所以只在 return 真在循环里时才这样说）。
    """
    other = [0.5, 2.0, 3.5, 9.0] if len(values) == 5 else [1.0, 2.0, 4.0, 5.0, 8.0]

    def again():
        try:
            return float(call_or_stop(fn, list(other)))
        except (Stop, TypeError, ValueError):
            return None
    where = learner_return(fn)
    kind = where[0] if where else None
    for what, model in _FIRST_ROUND:
        if math.isclose(got, model(values), rel_tol=1e-9) and (second := again()) is not None \
                and math.isclose(second, model(other), rel_tol=1e-9):
            return [("first_round_only", message(CODES, "first_round_only", want=fmt_num(var_of(values)), got=fmt_num(got),
                                                 what=what, how=_FIRST_ROUND_HOW[kind]))]
    if got == 0 and kind == "loop" and again() == 0:
        return [("first_round_only", message(CODES, "first_round_only", want=fmt_num(var_of(values)), got=fmt_num(got),
                                             what="正是只看了第一个数时的值（一个数的方差是 0，像是 Welford 只更新了一次）",
                                             how=_FIRST_ROUND_HOW["loop"]))]
    return []


def _var_steps(fn, values):
    def one(v):
        try:
            return float(call_or_stop(fn, list(v)))
        except (Stop, TypeError, ValueError):
            return None
    findings = []
    const = one([2.0] * 5)
    if const is not None and abs(const) > 1e-9:
        hint = "：像是没有先减去均值（2² = 4）" if abs(const - 4.0) < 1e-9 else ""
        findings.append(("variance_of_constant_not_zero", message(CODES, "variance_of_constant_not_zero",
                                                                  got=fmt_num(const), hint=hint)))
    base, shifted, tripled = one(values), one([v + 100.0 for v in values]), one([v * 3.0 for v in values])
    if base is not None and shifted is not None and abs(shifted - base) > 1e-6 * (1 + abs(base)):
        findings.append(("variance_not_shift_invariant", message(CODES, "variance_not_shift_invariant",
                                                                 before=fmt_num(base), after=fmt_num(shifted))))
    if base and tripled is not None and abs(tripled / base - 9.0) > 1e-6:
        r = tripled / base
        hint = "：像是没有平方（例如用了绝对值）" if abs(r - 3.0) < 1e-6 else ""
        findings.append(("variance_not_quadratic", message(CODES, "variance_not_quadratic", ratio=fmt_num(r),
                                                           hint=hint)))
    if base is not None and base < 0:
        return [("negative_variance", message(CODES, "negative_variance", got=fmt_num(base)))]
    if base == 0 and shifted == 0 and tripled == 0:
        return [("variance_always_zero", message(CODES, "variance_always_zero", values=values,
                                                         want=fmt_num(var_of(values))))]
    if base and not findings:
        h = len(values)
        terms = [(v - mean_of(values)) ** 2 for v in values]
        missing = [i for i in range(h) if abs(base * h - (sum(terms) - terms[i])) < 1e-9 * sum(terms)]
        other = [v * v * 0.5 - v for v in values]   # 同样长、分布不同：分母是否真的只差一个固定的数
        second = one(other)
        div = sum(terms) / base
        div2 = sum((v - mean_of(other)) ** 2 for v in other) / second if second else None
        if missing:
            i = missing[0]
            hint = "是不是用了 values[1:] 或 range(1, H)？" if i == 0 else ("是不是少循环了一次？" if i == h - 1 else "")
            findings.append(("missing_term", message(CODES, "missing_term", pos=i + 1, hint=hint or "检查循环的范围")))
        elif div2 is not None and abs(div - div2) < 1e-9 * div and abs(div - round(div)) < 1e-9 * div and div >= 1:
            # 两组数的“等效分母”相同，且是正整数：分子（偏差平方和）确实对了，只有分母不对
            findings.append(("variance_wrong_divisor", message(CODES, "variance_wrong_divisor", h=h, got=round(div))))
    return findings


@checker(__name__, CODES)
def check_stable_var(fn):
    """检查 stable_var(values)：有偏方差，均值很大（约 10⁹）的数据也要算对。"""
    small = [1.0, 2.0, 4.0, 5.0, 8.0]
    big = [1e9 + v for v in (0.5, 1.5, 2.5, 4.0, 6.5)]
    uneven = [0.5, 2.0, 3.5, 9.0]   # 均值 3.75 不是整数：取整的均值（// 是 3，round 是 4）在这里算错
    for values in (small, big, uneven):
        given = list(values)
        got = call_or_stop(fn, given)
        if got is None:
            return [("no_return", CODES["no_return"])]
        if isinstance(got, (tuple, list)):   # 例如 return mu, var：只要方差这一个数
            both = len(got) == 2 and all(isinstance(v, (int, float)) for v in got) and \
                math.isclose(got[0], mean_of(values), rel_tol=1e-6) and math.isclose(got[1], var_of(values), rel_tol=1e-6)
            return [("returned_several", message(CODES, "returned_several", count=len(got), got=f"{got!r:.60}",
                                                 hint="（像是把均值和方差一起返回了）" if both else ""))]
        (got,) = as_floats([got], 1, "返回值")
        changed = unchanged(values, given, "列表")
        want = var_of(values)
        if math.isclose(got, want, rel_tol=1e-6):
            if changed:
                return changed
            continue
        variants = {("unbiased_var",): [var_of(values, unbiased=True)], ("returned_std",): [math.sqrt(want)],
                    ("unbiased_var", "returned_std"): [math.sqrt(var_of(values, unbiased=True))],
                    ("minus_one",): [want - 1.0],   # `/ n - 1`：先除、再减 1
                    ("welford_update",): [_welford_d_squared(values)],
                    ("welford_new_mean_only",): [_welford_new_mean_squared(values)],
                    ("shifted_sum_not_divided",): [_shifted_not_divided(values)]}
        fields = {"values": values, "want": fmt_num(want), "got": fmt_num(got), "h": len(values)}
        if len(values) != 5:   # 前两组都是 5 个数：均值（和方差）写死了除以 5 的写法在这一组露馅
            for how, mean_n, var_n in (("均值和方差都除以了 5", 5, 5), ("均值除以了 5", 5, None)):
                if all(_fixed_n(fn, xs, mean_n, var_n) for xs in (values, _INTEGER_MEAN)):
                    return changed + [("size_hard_coded", message(CODES, "size_hard_coded", how=how, **fields))]
        found = judge([got], [want], variants, CODES, fields)
        if found is None:
            found = _first_round(fn, values, got) or _rounded_mean(values, got) or None
        if found is None and values is big:
            w, g = fmt_pair(want, got)
            found = [("single_pass", message(CODES, "single_pass", want=w, got=g))]
        if found is None:
            found = _var_steps(fn, values) or _shift_not_mean(values, got) or [first_difference([got], [want], "方差")]
        return changed + found
    return []
