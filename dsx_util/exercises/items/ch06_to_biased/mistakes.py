"""练习 ch06-to-biased 编目的错误写法：检查器对每一条必须恰好报出给定的代码（tests/test_exercise_layout.py、
tests/test_simple_checks.py 逐条检查）。每条是 (说明, 代码列表, 学习者写的函数)。
"""

MISTAKES = [
    ('inverted', ['inverted'], lambda v, n: v * n / (n - 1)),
    ('used_sqrt', ['used_sqrt'], lambda v, n: v * ((n - 1) / n) ** 0.5),
    ('ignored_n', ['ignored_n'], lambda v, n: v),
    ('wrong_output', ['wrong_output'], lambda v, n: v * (n - 2) / n),
]
