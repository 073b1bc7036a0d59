"""练习 ch11-var-from-sums 编目的错误写法：检查器对每一条必须恰好报出给定的代码（tests/test_exercise_layout.py、
tests/test_simple_checks.py 逐条检查）。每条是 (说明, 代码列表, 学习者写的函数)。
"""

MISTAKES = [
    ('unbiased_var', ['unbiased_var'], lambda s1, s2, n: (s2 - s1 ** 2 / n) / (n - 1)),
    ('missing_mean_square', ['missing_mean_square'], lambda s1, s2, n: s2 / n),
    ('sign_flipped', ['sign_flipped'], lambda s1, s2, n: (s1 / n) ** 2 - s2 / n),
    ('forgot_divide', ['forgot_divide'], lambda s1, s2, n: s2 - s1 ** 2),
]
