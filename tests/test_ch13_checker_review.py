"""第 13 章两道练习的检查器：审稿（r35）找到的几种写法，检查器的说明不能错怪正确的步骤。

编目的错误与新错误在各练习的 mistakes.py 里（由 test_exercise_layout.py、test_inpage_checks.py 等统一测试）；
这里是那边放不下的：只差一点点的答案（不是一种“错误写法”），以及说明里的数要写到看得出不同。
"""
from dsx_util.exercises import list_checks
from dsx_util.exercises.catalog import get_exercise
from dsx_util.exercises.items.ch13_frozen_sigma_norm.mistakes import _src

EX = get_exercise("ch13-frozen-sigma-norm")


def _run(source):
    return list_checks.run_source(source, EX.checker, EX.entry)


def test_rounded_output_is_pointed_at_the_first_difference_not_at_a_correct_step():
    """输出四舍五入到 3 位：只指出第一个不同的值，不说 γ、β、均值或 sigma 哪一步错了。"""
    result = _run(_src(y="round(g * (v - mu) / sigma + b, 3)"))
    assert result["codes"] == ["wrong_output"], result["messages"]
    assert not any(word in m for m in result["messages"] for word in ("γ", "β", "均值", "sigma"))


def test_hard_coded_denominator_still_gets_the_sigma_step():
    """离正确结果远的答案仍走逐步诊断：分母写死成 2.5（检查用例的 sigma 恰好也是 2.5）。"""
    result = _run(_src(y="g * (v - mu) / 2.5 + b"))
    assert result["codes"] == ["sigma_not_divided"], result["messages"]
    # 说明里的比值写到看得出与 0.5 不同（写成「0.5 倍，应为 0.5 倍」会自相矛盾）
    got = result["messages"][0].split("变成了原来的 ")[1].split(" 倍")[0]
    assert got != "0.5" and abs(float(got) - 0.5) > 1e-6


def test_sigma_plus_eps_is_named_and_not_blamed_on_dividing():
    """除以 (sigma + 1e-5)：说出「在 sigma 上又加了 ε」，不说「没有除以 sigma」。"""
    result = _run(_src(y="g * (v - mu) / (sigma + 1e-5) + b"))
    assert result["codes"] == ["eps_added_to_sigma"], result["messages"]
    assert "sigma + ε" in result["messages"][0]


def test_rows_of_tuples_say_the_rows_are_tuples_not_the_result():
    source = _src().replace("out.append([", "out.append(tuple([").replace("zip(row, gamma, beta)])", "zip(row, gamma, beta)]))")
    result = _run(source)
    assert result["codes"] == ["rows_not_lists"], result["messages"]
    assert "外层是列表" in result["messages"][0] and "第 1 行是 tuple" in result["messages"][0]
