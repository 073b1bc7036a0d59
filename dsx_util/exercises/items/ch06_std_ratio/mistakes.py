"""练习 ch06-std-ratio 编目的错误写法：检查器对每一条必须恰好报出给定的代码（tests/test_exercise_layout.py、
tests/test_simple_checks.py 逐条检查）。每条是 (说明, 代码列表, 学习者写的函数)。
"""

MISTAKES = [
    ('not_number', ['not_number'], lambda h: None),
    ('inverted', ['inverted'], lambda h: (h / (h - 1)) ** 0.5),
    ('missing_sqrt', ['missing_sqrt'], lambda h: (h - 1) / h),
    ('wrong_value', ['wrong_value'], lambda h: (h - 2) / h),
]
