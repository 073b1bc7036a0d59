# 导入：标准库、feedback、list_checks。
"""练习 ch00-table-rows 的检查器（只用标准库，网页里也能运行；题目、模板、参考答案在同一个文件夹；编目的错误写法在 mistakes.py）。"""
import math

from ...feedback import checker, message
from ...list_checks import call_or_stop, first_row_only, rounded_digits

CODES = {
    "not_rows": "应返回由行组成的列表，每一行是一个列表，例如 [[名称, 个数, 均值], ...]；实际返回的是 {kind}。",
    "wrong_row_count": "应有 {expected} 行（每个名称一行），实际有 {actual} 行{hint}。",
    "wrong_row_length": "第 {row} 行有 {actual} 个值，应有 3 个：名称、个数、均值。",
    "wrong_name_order": "第 {row} 行的名称应是 {expected!r}，实际是 {actual!r}：名称放在第 1 列，并保持字典里的顺序。",
    "wrong_count": "“{name}”这一行的个数应是 {expected}，实际是 {actual!r}。",
    "count_not_int": "“{name}”这一行的个数应是整数 {expected}，你的是 {actual!r}（{kind}）：个数就是 len(...) 得到的整数，"
                     "不要转成浮点数。",
    "columns_swapped": "“{name}”这一行的个数和均值位置反了：每一行应是 [名称, 个数, 均值]，你的是 [名称, 均值, 个数]。"
                       "两个数本身都对。",
    "wrong_mean": "“{name}”这一行的均值不对：实际是 {actual!r}。均值 = 所有值之和 ÷ 值的个数。",
    "rounded_mean": "“{name}”这一行的均值 {actual!r} 是四舍五入到 {digits} 位小数的结果（应为 {want:.10g}…）："
                    "不要 round，返回原始的浮点数（要显示几位小数由 print_table 决定）。",
    "integer_division_mean": "“{name}”这一行的均值应是 {want!r}，你的是 {actual!r}：像是用了整数除法 //，它把商向下取整了。"
                             "求均值要用 / 除。",
}


def _number_is(value, want):
    try:
        return not isinstance(value, (bool, str)) and math.isclose(float(value), want, rel_tol=1e-6, abs_tol=1e-9)
    except (TypeError, ValueError):
        return False


def _mean_finding(rows, data, i):
    """第 i 行的均值不对：所有行的均值都像整数除法 // 的结果、或都像四舍五入到同样位数时说出来，否则只说哪一行不对。"""
    pairs = [(row[2], values) for row, values in zip(rows, data.values()) if len(row) == 3]
    name, values = list(data.items())[i]
    got, want = rows[i][2], sum(values) / len(values)
    if all(_number_is(a, sum(v) // len(v)) for a, v in pairs):
        return ("integer_division_mean", message(CODES, "integer_division_mean", name=name, want=want, actual=got))
    digits = rounded_digits(got, want)
    if digits and all(a == round(sum(v) / len(v), digits) for a, v in pairs):
        return ("rounded_mean", message(CODES, "rounded_mean", name=name, actual=got, want=want, digits=digits))
    return ("wrong_mean", message(CODES, "wrong_mean", name=name, actual=got))


@checker(__name__, CODES)
def check_table_rows(fn):
    """检查 stats_rows(data)：把 {名称: 数值列表} 变成 print_table 需要的行 [名称, 个数, 均值]。"""
    datasets = [
        {"第 1 层": [1.0, 2.0, 3.0, 6.0], "第 2 层": [-1.0, 1.0], "第 3 层": [0.5]},
        {"输出": [2.5, 2.5, -1.0], "嵌入": [4.0, 0.0]},   # 不是按名字排好的顺序：按名字排序的写法在这里露馅
    ]
    for data in datasets:
        copy = {k: list(v) for k, v in data.items()}
        rows = call_or_stop(fn, copy)
        # 题目写明行是列表 [名称, 个数, 均值]、个数是整数：类型也是答案的一部分
        if not isinstance(rows, list) or not all(isinstance(r, (list, tuple)) for r in rows):
            return [("not_rows", message(CODES, "not_rows", kind=type(rows).__name__))]
        if len(rows) != len(data):
            return [("wrong_row_count", message(CODES, "wrong_row_count", expected=len(data), actual=len(rows),
                                                hint=first_row_only(len(rows), len(data), fn)))]
        for i, (row, (name, values)) in enumerate(zip(rows, data.items()), start=1):
            if isinstance(row, tuple):
                return [("rows_not_lists", message(None, "rows_not_lists", row=i))]
            if len(row) != 3:
                return [("wrong_row_length", message(CODES, "wrong_row_length", row=i, actual=len(row)))]
            if row[0] != name:
                return [("wrong_name_order", message(CODES, "wrong_name_order", row=i, expected=name, actual=row[0]))]
            mean = sum(values) / len(values)
            if _number_is(row[1], mean) and row[2] == len(values) and not _number_is(row[1], len(values)):
                return [("columns_swapped", message(CODES, "columns_swapped", name=name))]
            if not _number_is(row[1], len(values)):
                return [("wrong_count", message(CODES, "wrong_count", name=name, expected=len(values), actual=row[1]))]
            if not isinstance(row[1], int):
                return [("count_not_int", message(CODES, "count_not_int", name=name, expected=len(values), actual=row[1],
                                                  kind="浮点数" if isinstance(row[1], float) else type(row[1]).__name__))]
            if not _number_is(row[2], mean):
                return [_mean_finding(rows, data, i - 1)]
    return []
