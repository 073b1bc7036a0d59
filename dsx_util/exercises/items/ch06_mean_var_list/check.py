# 导入：标准库、feedback、list_checks。
"""练习 ch06-mean-var-list 的检查器（题目、模板、参考答案在同一个文件夹；编目的错误写法在 mistakes.py）。"""
import math

from ...feedback import Stop, checker, fmt_num, fmt_pair, message
from ...list_checks import as_floats, call_or_stop, judge, list_not_tuple, mean_of, unchanged, var_of

CODES = {
    # 评审 r44：返回了 (均值, 方差, H) 时以前说「实际返回的是 tuple」（元组正是题目要的）：说出返回了几个值
    "not_pair": "应返回 (均值, 方差) {detail}。",
    # 评审 r44：(Σ(x−μ))²：偏差之和总是 0（分不清时也说出方差为 0、而这些数并不都相等）
    "variance_zero": "unbiased={unbiased} 时的方差应为 {want}，你的是 {got}，而这 {h} 个数并不都相等：像是先把偏差加起来再平方"
                     " (Σ(x − μ))²（或者没有平方）：偏差 x − μ 之和总是 0（正负抵消）。要先把每个偏差平方，再求和："
                     "Σ(x − μ)²，例如 sum((v - mu) ** 2 for v in values)。",
    "swapped_order": "均值和方差的位置反了：应返回 (均值, 方差)，你返回的是 (方差, 均值)。两个数本身都对。",
    "wrong_mean": "均值应为 {want}，你的是 {got}{hint}。",
    "unbiased_var": "unbiased=False 时要用有偏方差（除以 H），你除以了 H−1。",
    "returned_std": "返回的是标准差（开了平方根），题目要的是方差。",
    "unbiased_ignored": "传 unbiased=True 和 unbiased=False 得到的方差一样：请按参数 unbiased 选择除以 H−1 还是 H。",
    # 评审 r46：`if unbiased == "True":` 以前只得到 unbiased_ignored，没说为什么（传字符串试一次，按值认出）
    "unbiased_string": "传 unbiased=True 和 unbiased=False 得到的方差一样，传字符串 unbiased={text} 时却除以了 H−1："
                       "像是写了 `unbiased == {text}`。调用时传的是布尔值 True，它和字符串 {text} 不相等"
                       "（`True == {text}` 不成立），这个条件永远不成立。不要和字符串比较，直接写 `if unbiased:`。",
    "divisor_precedence": "unbiased=True 时你的方差正好是「偏差平方和 ÷ H，再减 1」：像是少了括号，除法比减法先算，"
                          "ss / H - 1 是 (ss / H) − 1。无偏方差要写成 ss / (H - 1)。",
    # 评审 r47：var = mean(x²) − μ（单遍公式里 μ 没有平方）以前得到 3 条症状：按值认出
    "mu_not_squared": "方差算错了：单遍公式是 σ² = mean(x²) − μ²，你减去的是均值 μ，没有平方（例如 `- mu` 要写成 `- mu ** 2`）。"
                      "也可以先减均值再平方：σ² = mean((x − μ)²)。",
    "variance_of_constant_not_zero": "{h} 个数都是 2.0 时，方差应为 0，你的是 {got}{hint}。",
    "variance_not_shift_invariant": "每个数都加上 3 之后，方差从 {before} 变成了 {after}，应该不变：方差只看各个数离均值有多远"
                                    "（先求均值，再求偏差的平方）。",
    "variance_not_quadratic": "每个数都乘以 3 之后，方差应变为 3² = 9 倍，你的变为 {ratio} 倍{hint}。",
    "variance_wrong_divisor": "方差的分子（偏差平方和）对了，分母不对：unbiased={unbiased} 时应除以 {want}，你的相当于除以 {got}。",
}

# 均值不对、而方差是按学习者自己的均值正确算出来的：方差这一步没有错，只说均值（不冤枉写对的那一步）
_VAR_FROM_OWN_MEAN = "；你的方差是用这个均值算的，均值改对后方差也会跟着对"


def _divisor(values, var):
    """偏差平方和 ÷ 学习者的方差：学习者“相当于除以”几。"""
    ss = sum((v - mean_of(values)) ** 2 for v in values)
    return ss / var if var else math.inf


_MEAN_OF_CONSTANT = "{h} 个数都是 2.0 时，均值应为 2，你的是 {got}{hint}。"   # wrong_mean 的逐步诊断说明


def _string_flag(fn, values):
    """传字符串 "True" / "true" 当 unbiased 时才得到无偏方差（学习者和字符串比较）：返回那个字符串的写法，否则 None。"""
    for text in ("True", "true"):
        try:
            out = call_or_stop(fn, list(values), unbiased=text)
            if math.isclose(float(out[1]), var_of(values, True), rel_tol=1e-9):
                return f'"{text}"'
        except (Stop, TypeError, ValueError, IndexError):
            return None
    return None


def _mv_steps(fn, unbiased):
    """mean_var_list 的逐步诊断：常数列表、平移、缩放。"""
    findings = []
    kwargs = {"unbiased": unbiased}
    values = [2.0, 4.0, 4.0, 5.0, 7.0, 9.5]
    h = len(values)

    def pair(v):
        try:
            out = call_or_stop(fn, list(v), **kwargs)
            return [float(out[0]), float(out[1])]
        except (Stop, TypeError, ValueError, IndexError):
            return None
    const = pair([2.0] * h)
    base, shifted, tripled = pair(values), pair([v + 3.0 for v in values]), pair([v * 3.0 for v in values])
    if const is not None and abs(const[0] - 2.0) > 1e-9:
        hint = f"，正好是 H = {h} 倍：求和之后还要除以 H" if abs(const[0] - 2.0 * h) < 1e-9 else ""
        if abs(const[0] - 2.0 * h / (h - 1)) < 1e-9:
            hint = "：均值要除以 H，不是 H−1"
        findings.append(("wrong_mean", _MEAN_OF_CONSTANT.format(h=h, got=fmt_num(const[0]), hint=hint)))
    if const is not None and abs(const[1]) > 1e-9:
        hint = "：像是没有先减去均值（2² = 4）" if abs(const[1] - 4.0) < 1e-9 else ""
        findings.append(("variance_of_constant_not_zero", message(CODES, "variance_of_constant_not_zero", h=h,
                                                                  got=fmt_num(const[1]), hint=hint)))
    if base is not None and shifted is not None and abs(shifted[1] - base[1]) > 1e-9 * (1 + abs(base[1])):
        findings.append(("variance_not_shift_invariant", message(CODES, "variance_not_shift_invariant",
                                                                 before=fmt_num(base[1]), after=fmt_num(shifted[1]))))
    if base is not None and tripled is not None and base[1] != 0 and \
            abs(tripled[1] / base[1] - 9.0) > 1e-6:
        r = tripled[1] / base[1]
        hint = "：像是没有平方（例如用了绝对值）" if abs(r - 3.0) < 1e-6 else ""
        findings.append(("variance_not_quadratic", message(CODES, "variance_not_quadratic", ratio=fmt_num(r),
                                                           hint=hint)))
    other = [1.0, 3.0, 3.5, 6.0, 8.0, 12.5]   # 同样长、分布不同：分母是否真的只差一个固定的数
    second = pair(other)
    if base is not None and second is not None and not findings and base[1] > 0 and second[1] > 0:
        div, div2 = _divisor(values, base[1]), _divisor(other, second[1])
        if abs(div - div2) < 1e-9 * div and abs(div - round(div)) < 1e-9 * div:
            # 两组数的“等效分母”相同，且是正整数：分子（偏差平方和）确实对了，只有分母不对
            findings.append(("variance_wrong_divisor", message(CODES, "variance_wrong_divisor", unbiased=unbiased,
                                                               want=f"H−1 = {h - 1}" if unbiased else f"H = {h}",
                                                               got=round(div))))
    return findings


@checker(__name__, CODES)
def check_mean_var_list(fn):
    """检查 mean_var_list(values, unbiased=False)：返回 (均值, 方差)，unbiased 决定除以 H 还是 H−1。"""
    values = [2.0, 4.0, 4.0, 5.0, 7.0, 9.5]
    results = {}
    listed = None   # 第一个写成列表的返回值：数都对之后再说要写成元组
    for kwargs in ({"unbiased": False}, {"unbiased": True}, {}):
        given = list(values)
        out = call_or_stop(fn, given, **kwargs)
        changed = unchanged(values, given, "列表")
        if changed:
            return changed
        if isinstance(out, (tuple, list)) and len(out) != 2:
            return [("not_pair", message(CODES, "not_pair", detail=f"恰好两个数，你返回了 {len(out)} 个值：{out!r:.80}。"
                                                                   "只返回均值和方差：return 均值, 方差"))]
        if not isinstance(out, (tuple, list)):
            return [("not_pair", message(CODES, "not_pair", detail=f"两个数，实际返回的是 {type(out).__name__}"))]
        if listed is None and isinstance(out, list):
            listed = out
        mean, var = as_floats(list(out), 2, "返回值")
        unbiased = kwargs.get("unbiased", False)
        want = var_of(values, unbiased)
        if math.isclose(mean, want, rel_tol=1e-9) and math.isclose(var, mean_of(values), rel_tol=1e-9):
            return [("swapped_order", CODES["swapped_order"])]
        results[str(kwargs)] = var
        findings = []
        if not math.isclose(mean, mean_of(values), rel_tol=1e-9):
            w, g = fmt_pair(mean_of(values), mean)
            own = sum((v - mean) ** 2 for v in values) / (len(values) - (1 if unbiased else 0))
            also = _VAR_FROM_OWN_MEAN if math.isclose(var, own, rel_tol=1e-9) else ""
            steps = [f for f in _mv_steps(fn, unbiased) if f[0] == "wrong_mean"]
            if mean == sum(values) // len(values):
                hint = "：像是用了整数除法 //，它把商向下取整了，求均值要用 /"
            else:
                hint = "：均值是总和除以 H"
            findings += [(c, m[:-1] + also + "。") for c, m in steps] or \
                [("wrong_mean", message(CODES, "wrong_mean", want=w, got=g, hint=hint + also))]
            if also:   # 方差这一步按学习者的均值是对的：只说均值
                return findings
        if kwargs == {} and not math.isclose(var, results["{'unbiased': False}"], rel_tol=1e-9):
            continue   # 默认值不对由签名检查说明
        if not math.isclose(var, want, rel_tol=1e-9):
            text = _string_flag(fn, values) if unbiased and math.isclose(var, var_of(values), rel_tol=1e-9) else None
            if text:   # 有偏方差，而传字符串时是无偏的：条件和字符串比较了
                return findings + [("unbiased_string", message(CODES, "unbiased_string", text=text))]
            not_squared = mean_of([v * v for v in values]) - mean_of(values)   # 单遍公式里 μ 没有平方
            if unbiased:   # unbiased=False 已经对了：True 时仍得到有偏方差，就是没有用参数 unbiased
                ss = sum((v - mean_of(values)) ** 2 for v in values)
                variants = {("unbiased_ignored",): [var_of(values)], ("returned_std",): [math.sqrt(want)],
                            ("divisor_precedence",): [ss / len(values) - 1],
                            ("mu_not_squared",): [not_squared * len(values) / (len(values) - 1)]}
            else:
                variants = {("unbiased_var",): [var_of(values, True)], ("returned_std",): [math.sqrt(want)],
                            ("unbiased_var", "returned_std"): [math.sqrt(var_of(values, True))],
                            ("mu_not_squared",): [not_squared]}
            found = judge([var], [want], variants, CODES)
            if found is None and abs(var) <= 1e-9 * want:
                w, g = fmt_pair(want, var)
                found = [("variance_zero", message(CODES, "variance_zero", unbiased=unbiased, want=w, got=g, h=len(values)))]
            if found is None:
                found = [f for f in _mv_steps(fn, unbiased) if f[0] != "wrong_mean"]
                w, g = fmt_pair(want, var)
                found = found or [("wrong_output", message(None, "wrong_output", what=f"unbiased={unbiased} 时的方差",
                                                          want=w, got=g))]
            findings += found
        if findings:
            return findings
    if listed is not None:
        return [list_not_tuple(listed, "(均值, 方差)", "均值, 方差")]
    return []
