# 导入：标准库、feedback、list_checks。
"""练习 ch06-std-ratio 的检查器（只用标准库，网页里也能运行；题目、模板、参考答案在同一个文件夹；编目的错误写法在 mistakes.py）。"""
import ast
import math

from ...feedback import checker, message
from ...list_checks import call_or_stop, dropped_brackets, pow_one_half, rounded_digits

CODES = {
    "inverted": "比值倒过来了：有偏估计除以 H，无偏估计除以 H−1，哪一个标准差更小？",
    "missing_sqrt": "这是两个方差之比：标准差是方差的平方根，比值也要开方。",
    "integer_division": "H={h} 时你的结果是 {actual:.6g}：像是用了整数除法 //，它把 (H−1)//H 舍成了 {floor}。"
                        "要得到小数，用 / 做除法。",
    "plus_one": "H={h} 时你的结果是 {actual:.6g}，像是用了 H+1：有偏估计除以 H，无偏估计除以 H−1（不是 H+1）。",
    # 评审 r47：√((h + 1) / h) 以前只重述公式：说出分子写成了 H+1（没开方时另加一条 missing_sqrt）
    "plus_one_numerator": "H={h} 时你的结果是 {actual:.6g}，是 {form}：分子写成了 H+1，应为 H−1。有偏方差除以 H，"
                          "无偏方差除以 H−1，比值是 √((H−1)/H)：math.sqrt((h - 1) / h)。",
    "rounded": "H={h} 时你的结果是 {actual!r}，是正确值 {want:.10g}… 四舍五入到 {digits} 位小数的结果：不要 round，直接返回算出的值。",
    "both_minus_one": "H={h} 时你的结果是 {actual:.6g}，像是 √((H−2)/(H−1))：分子分母都多减了 1。"
                      "有偏方差除以 H，无偏方差除以 H−1，比值是 √((H−1)/H)。",
    "sqrt_numerator_only": "H={h} 时你的结果是 {actual:.6g}，是 √(H−1) ÷ H：括号放错了，只有分子开了方。"
                           "比值 (H−1)/H 要整个开方：math.sqrt((h - 1) / h)。",
    "sqrt_denominator_only": "H={h} 时你的结果是 {actual:.6g}，是 (H−1) ÷ √H：只有分母开了方。** 比 / 先算，h ** 0.5 "
                             "只作用在 h 上；给整个比值加上括号：((h - 1) / h) ** 0.5。",
    "h_ignored": "H={hs} 时你的结果都是 {actual:.6g}：结果不随 h 变，像是把 H 写死了{which}，没有用参数 h。"
                 "比值要由 h 算出：√((h − 1) / h)，H 不同，比值就不同。",
    # 评审 r44：1 − 1/(2H)：接近却不相等，说出它是近似、这里不需要近似
    "first_order": "H={h} 时你的结果是 {actual:.6g}，正确值是 {want:.6g}：很接近，但不相等。1 − 1/(2H) 是 √((H−1)/H) = "
                   "√(1 − 1/H) 的一阶近似（H 越大越接近）；这里不需要近似，直接开方：math.sqrt((h - 1) / h)。",
    # 评审 r45：h - 1 / h 少了括号（/ 比 − 先算），引用学习者写的那一段
    "bracket_h_minus_1": "H={h} 时你的结果是 {actual:.6g}：少了括号，/ 比 − 先算，{said}算的是 H − 1/H，不是 (H−1)/H。"
                         "把 H − 1 括起来{fix}。",
    # 评审 r46：x ** 1 / 2 是 (x¹)/2（** 比 / 先算），不是开平方；引用学习者写的那一段
    "pow_half": "H={h} 时你的结果是 {actual:.6g}，正好是 {ratio} 的一半：{said}不是开平方。** 比 / 先算，"
                "`x ** 1 / 2` 是 (x¹)/2 = x/2，即除以 2。开平方写 `** 0.5`、`** (1 / 2)` 或 math.sqrt{fix}。",
    "wrong_value": "H={h} 时你的结果是 {actual:.6g}，不对：有偏方差除以 H，无偏方差除以 H−1；"
                   "比值只由这两个分母决定，标准差之比是方差之比的平方根。",
}

HS = (2, 4, 768)
# 典型的错误写法，每种是 H 的一个函数。只有在检查用的每个 H 上都与学习者的结果相同，才说是这种错误：
# 一个 H 上几种写法可能碰巧相等（H=2 时 √(H−1)/H 与 (H−1)/H 都是 0.5），不同的 H 把它们分开
FORMULAS = [
    ("inverted", lambda h: math.sqrt(h / (h - 1))), ("missing_sqrt", lambda h: (h - 1) / h),
    ("inverted", lambda h: h / (h - 1)),
    ("integer_division", lambda h: math.sqrt((h - 1) // h)), ("integer_division", lambda h: (h - 1) // h),
    ("plus_one", lambda h: math.sqrt(h / (h + 1))), ("plus_one", lambda h: h / (h + 1)),
    ("plus_one", lambda h: math.sqrt((h - 1) / (h + 1))), ("plus_one", lambda h: (h - 1) / (h + 1)),
    ("both_minus_one", lambda h: math.sqrt((h - 2) / (h - 1))), ("both_minus_one", lambda h: (h - 2) / (h - 1)),
    ("sqrt_numerator_only", lambda h: math.sqrt(h - 1) / h), ("sqrt_denominator_only", lambda h: (h - 1) / math.sqrt(h)),
    ("first_order", lambda h: 1 - 1 / (2 * h)),
]


# 少了括号的写法（h - 1 / h），开方或没开方：与学习者的结果在每个 H 上都相同时报这些代码
SLIPS = [(("bracket_h_minus_1",), lambda h: math.sqrt(h - 1 / h)), (("bracket_h_minus_1", "missing_sqrt"), lambda h: h - 1 / h)]
# 「开平方」写成了 x ** 1 / 2（= x/2）：比值本身或倒过来的比值的一半
# 分子写成了 H+1：(写法, 函数)，没开方时另加 missing_sqrt
NUMERATOR_PLUS_ONE = [(("plus_one_numerator",), "√((H+1)/H)", lambda h: math.sqrt((h + 1) / h)),
                      (("plus_one_numerator", "missing_sqrt"), "(H+1)/H", lambda h: (h + 1) / h)]
HALVES = [(("pow_half",), "(H−1)/H", lambda h: (h - 1) / h / 2), (("pow_half", "inverted"), "H/(H−1)", lambda h: h / (h - 1) / 2)]


def _value(fn, h):
    """std_ratio(h) 的浮点值；出错或不是数时 None（这里只是辨认错误写法，不下结论）。"""
    try:
        value = call_or_stop(fn, h)
        return None if isinstance(value, (bool, str)) else float(value)
    except Exception:  # noqa: BLE001 -- 这里只是辨认错误写法，出错时不下这个结论
        return None


def _constant(fn):
    """学习者的结果在检查用的每个 H 上都相同（不随 h 变）时返回 h_ignored 的说明；否则 None。"""
    got = [_value(fn, h) for h in HS]
    if any(v is None for v in got) or not all(math.isclose(v, got[0], rel_tol=1e-9, abs_tol=1e-12) for v in got):
        return None
    # 写死的值正好是某个 H 的正确比值时（例如 √(767/768)）说出是哪个 H：r² = (H−1)/H，H = 1/(1 − r²)
    which = ""
    if 0 < got[0] < 1:
        h = round(1 / (1 - got[0] ** 2))
        if h >= 2 and math.isclose(got[0], math.sqrt((h - 1) / h), rel_tol=1e-9):
            which = f"（这是 H={h} 时的比值）"
    return message(CODES, "h_ignored", hs="、".join(str(h) for h in HS), actual=got[0], which=which)


def _slip(fn, h, got):
    """学习者的结果在每个 H 上都等于 h - 1 / h 一类的写法（少了括号）、x ** 1 / 2（不是开平方）或分子 H+1 时：那些说明；否则 None。"""
    values = {k: _value(fn, k) for k in HS}
    if any(v is None for v in values.values()):
        return None
    for codes, ratio, f in HALVES:
        if all(math.isclose(values[k], f(k), rel_tol=1e-6, abs_tol=1e-12) for k in HS):
            quote = pow_one_half(fn)
            fields = {"said": f"你写的 `{quote[0]}` " if quote else "你的代码",
                      "fix": f"，例如 `{(quote[1] if quote else None) or '((h - 1) / h) ** 0.5'}`"}
            return [(codes[0], message(CODES, codes[0], h=h, actual=got, ratio=ratio, **fields))] + \
                [(c, CODES[c]) for c in codes[1:]]
    for codes, form, f in NUMERATOR_PLUS_ONE:
        if all(math.isclose(values[k], f(k), rel_tol=1e-6, abs_tol=1e-12) for k in HS):
            return [(codes[0], message(CODES, codes[0], h=h, actual=got, form=form))] + [(c, CODES[c]) for c in codes[1:]]
    for codes, f in SLIPS:
        if all(math.isclose(values[k], f(k), rel_tol=1e-6, abs_tol=1e-12) for k in HS):
            fields = dropped_brackets(fn, ast.Sub, ast.Div, "({a} - {b}) / {c}")
            return [(codes[0], message(CODES, codes[0], h=h, actual=got, **fields))] + [(c, CODES[c]) for c in codes[1:]]
    return None


def _formula_code(fn):
    """学习者的结果在每个 H 上都等于哪一种典型错误写法：那种错误的代码；没有时 None。"""
    got = {h: _value(fn, h) for h in HS}
    if any(v is None for v in got.values()):
        return None
    return next((code for code, f in FORMULAS
                 if all(math.isclose(got[h], f(h), rel_tol=1e-6, abs_tol=1e-12) for h in HS)), None)


@checker(__name__, CODES)
def check_std_ratio(fn):
    """检查 std_ratio(h)：同一组 h 个数的有偏标准差 ÷ 无偏标准差。"""
    for h in HS:
        value = call_or_stop(fn, h)
        try:
            if isinstance(value, (bool, str)):
                raise TypeError
            got = float(value)
        except (TypeError, ValueError, RuntimeError):
            return [("not_number", message(CODES, "not_number", what="返回值", value=value))]
        want = math.sqrt((h - 1) / h)
        if math.isclose(got, want, rel_tol=1e-6):
            continue
        digits = rounded_digits(value, want)
        if digits:
            return [("rounded", message(CODES, "rounded", h=h, actual=value, want=want, digits=digits))]
        slip = _slip(fn, h, got)
        if slip:
            return slip
        code = _formula_code(fn)   # 先认典型写法：整数除法 (H−1)//H 对每个 H 都是 0，也不随 h 变
        constant = None if code else _constant(fn)
        if constant:
            return [("h_ignored", constant)]
        code = code or "wrong_value"
        return [(code, message(CODES, code, h=h, actual=got, want=want, floor=(h - 1) // h))]
    return []
