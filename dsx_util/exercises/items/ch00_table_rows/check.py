# 导入：标准库、feedback、list_checks。
"""练习 ch00-table-rows 的检查器（只用标准库，网页里也能运行；题目、模板、参考答案在同一个文件夹；编目的错误写法在 mistakes.py）。"""
import math

from ...feedback import checker, message
from ...list_checks import call_or_stop

CODES = {
    "not_rows": "应返回由行组成的列表，每一行是一个列表，例如 [[名称, 个数, 均值], ...]；实际返回的是 {kind}。",
    "wrong_row_count": "应有 {expected} 行（每个名称一行），实际有 {actual} 行。",
    "wrong_row_length": "第 {row} 行有 {actual} 个值，应有 3 个：名称、个数、均值。",
    "wrong_name_order": "第 {row} 行的名称应是 {expected!r}，实际是 {actual!r}：名称放在第 1 列，并保持字典里的顺序。",
    "wrong_count": "“{name}”这一行的个数应是 {expected}，实际是 {actual!r}。",
    "wrong_mean": "“{name}”这一行的均值不对：实际是 {actual!r}。均值 = 所有值之和 ÷ 值的个数。",
}


def _number_is(value, want):
    try:
        return not isinstance(value, (bool, str)) and math.isclose(float(value), want, rel_tol=1e-6, abs_tol=1e-9)
    except (TypeError, ValueError):
        return False


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
        if isinstance(rows, (str, bytes, dict)) or not isinstance(rows, (list, tuple)) or \
                not all(isinstance(r, (list, tuple)) for r in rows):
            return [("not_rows", message(CODES, "not_rows", kind=type(rows).__name__))]
        if len(rows) != len(data):
            return [("wrong_row_count", message(CODES, "wrong_row_count", expected=len(data), actual=len(rows)))]
        for i, (row, (name, values)) in enumerate(zip(rows, data.items()), start=1):
            if len(row) != 3:
                return [("wrong_row_length", message(CODES, "wrong_row_length", row=i, actual=len(row)))]
            if row[0] != name:
                return [("wrong_name_order", message(CODES, "wrong_name_order", row=i, expected=name, actual=row[0]))]
            if not _number_is(row[1], len(values)):
                return [("wrong_count", message(CODES, "wrong_count", name=name, expected=len(values), actual=row[1]))]
            if not _number_is(row[2], sum(values) / len(values)):
                return [("wrong_mean", message(CODES, "wrong_mean", name=name, actual=row[2]))]
    return []
