# 导入：标准库、feedback、list_checks。
"""练习 ch06-std-ratio 的检查器（只用标准库，网页里也能运行；题目、模板、参考答案在同一个文件夹；编目的错误写法在 mistakes.py）。"""
import math

from ...feedback import checker, message
from ...list_checks import call_or_stop, rounded_digits

CODES = {
    "inverted": "比值倒过来了：有偏估计除以 H，无偏估计除以 H−1，哪一个标准差更小？",
    "missing_sqrt": "这是两个方差之比：标准差是方差的平方根，比值也要开方。",
    "integer_division": "H={h} 时你的结果是 {actual:.6g}：像是用了整数除法 //，它把 (H−1)//H 舍成了 {floor}。"
                        "要得到小数，用 / 做除法。",
    "plus_one": "H={h} 时你的结果是 {actual:.6g}，像是用了 H+1：有偏估计除以 H，无偏估计除以 H−1（不是 H+1）。",
    "rounded": "H={h} 时你的结果是 {actual!r}，是正确值 {want:.10g}… 四舍五入到 {digits} 位小数的结果：不要 round，直接返回算出的值。",
    "both_minus_one": "H={h} 时你的结果是 {actual:.6g}，像是 √((H−2)/(H−1))：分子分母都多减了 1。"
                      "有偏方差除以 H，无偏方差除以 H−1，比值是 √((H−1)/H)。",
    "wrong_value": "H={h} 时你的结果是 {actual:.6g}，不对：有偏方差除以 H，无偏方差除以 H−1；"
                   "比值只由这两个分母决定，标准差之比是方差之比的平方根。",
}


def _whole(fn, h):
    """std_ratio(h) 是不是一个整数（整数除法 // 的痕迹）；出错或不是数时算「不是」。"""
    try:
        return float(call_or_stop(fn, h)).is_integer()
    except Exception:  # noqa: BLE001 -- 这里只是辨认错误写法，出错时不下这个结论
        return False


def _same(fn, h, candidates):
    """std_ratio(h) 是不是 candidates 里的某个数；出错或不是数时算「不是」。"""
    try:
        got = float(call_or_stop(fn, h))
    except Exception:  # noqa: BLE001 -- 这里只是辨认错误写法，出错时不下这个结论
        return False
    return any(math.isclose(got, c, rel_tol=1e-9) for c in candidates)


@checker(__name__, CODES)
def check_std_ratio(fn):
    """检查 std_ratio(h)：同一组 h 个数的有偏标准差 ÷ 无偏标准差。"""
    for h in (2, 4, 768):
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
        variants = [("inverted", 1 / want), ("missing_sqrt", want ** 2), ("inverted", 1 / want ** 2),
                    ("integer_division", math.sqrt((h - 1) // h)), ("integer_division", (h - 1) // h),
                    ("plus_one", math.sqrt(h / (h + 1))), ("plus_one", h / (h + 1)),
                    ("plus_one", math.sqrt((h - 1) / (h + 1))), ("plus_one", (h - 1) / (h + 1)),
                    ("both_minus_one", math.sqrt((h - 2) / (h - 1))), ("both_minus_one", (h - 2) / (h - 1))]
        if not all(_whole(fn, k) for k in (2, 4, 768)):   # 整数除法：每个 H 的结果都是整数
            variants = [(c, v) for c, v in variants if c != "integer_division"]
        if not _same(fn, 4, (math.sqrt(2 / 3), 2 / 3)):   # H=2 时 (H−2)/(H−1) 是 0，与别的写法分不开：再看 H=4
            variants = [(c, v) for c, v in variants if c != "both_minus_one"]
        digits = rounded_digits(value, want)
        if digits:
            return [("rounded", message(CODES, "rounded", h=h, actual=value, want=want, digits=digits))]
        code = next((c for c, v in variants if math.isclose(got, v, rel_tol=1e-6, abs_tol=1e-12)), "wrong_value")
        return [(code, message(CODES, code, h=h, actual=got, floor=(h - 1) // h))]
    return []
