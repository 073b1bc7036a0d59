"""练习 ch00-table-rows 的检查器（题目、模板、参考答案在同一个文件夹；编目的错误写法在 mistakes.py）。"""
import math

from ...simple_checks import (checker, _call, _msg, finish)

CODES = {
    "not_rows": "应返回由行组成的列表，每一行是一个列表，例如 [[名称, 个数, 均值], ...]；实际返回的是 {kind}。",
    "wrong_row_count": "应有 {expected} 行（每个名称一行），实际有 {actual} 行。",
    "wrong_row_length": "第 {row} 行有 {actual} 个值，应有 3 个：名称、个数、均值。",
    "wrong_name_order": "第 {row} 行的名称应是 {expected!r}，实际是 {actual!r}：名称放在第 1 列，并保持字典里的顺序。",
    "wrong_count": "“{name}”这一行的个数应是 {expected}，实际是 {actual!r}。",
    "wrong_mean": "“{name}”这一行的均值不对：实际是 {actual!r}。均值 = 所有值之和 ÷ 值的个数。",
}


@checker(__name__, CODES)
def check_table_rows(fn):
    """检查 stats_rows(data)：把 {名称: 数值列表} 变成 print_table 需要的行 [名称, 个数, 均值]。"""
    exercise = check_table_rows.exercise
    datasets = [
        {"第 1 层": [1.0, 2.0, 3.0, 6.0], "第 2 层": [-1.0, 1.0], "第 3 层": [0.5]},
        {"输出": [2.5, 2.5, -1.0], "嵌入": [4.0, 0.0]},   # 不是按名字排好的顺序：按名字排序的写法在这里露馅
    ]
    for data in datasets:
        copy = {k: list(v) for k, v in data.items()}
        rows, failure = _call(fn, copy)
        if failure is not None:
            return finish(exercise, [failure])
        if isinstance(rows, (str, bytes, dict)) or not isinstance(rows, (list, tuple)) or \
                not all(isinstance(r, (list, tuple)) for r in rows):
            return finish(exercise, [("not_rows", _msg(CODES, "not_rows", kind=type(rows).__name__))])
        if len(rows) != len(data):
            return finish(exercise, [("wrong_row_count", _msg(CODES, "wrong_row_count",
                                                              expected=len(data), actual=len(rows)))])
        for i, (row, (name, values)) in enumerate(zip(rows, data.items()), start=1):
            if len(row) != 3:
                return finish(exercise, [("wrong_row_length", _msg(CODES, "wrong_row_length",
                                                                   row=i, actual=len(row)))])
            if row[0] != name:
                return finish(exercise, [("wrong_name_order", _msg(CODES, "wrong_name_order",
                                                                   row=i, expected=name, actual=row[0]))])
            try:
                count_ok = float(row[1]) == len(values)
            except (TypeError, ValueError):
                count_ok = False
            if not count_ok:
                return finish(exercise, [("wrong_count", _msg(CODES, "wrong_count", name=name,
                                                              expected=len(values), actual=row[1]))])
            try:
                mean_ok = math.isclose(float(row[2]), sum(values) / len(values), rel_tol=1e-6, abs_tol=1e-9)
            except (TypeError, ValueError):
                mean_ok = False
            if not mean_ok:
                return finish(exercise, [("wrong_mean", _msg(CODES, "wrong_mean", name=name, actual=row[2]))])
    return finish(exercise, [])
