"""练习 ch08-rms 编目的错误写法：检查器对每一条必须恰好报出给定的代码（tests/test_exercise_layout.py、
tests/test_simple_checks.py 逐条检查）。每条是 (说明, 代码列表, 学习者写的函数)。
"""

MISTAKES = [
    ('subtracted_mean', ['subtracted_mean'], lambda x: x.std(dim=-1, keepdim=True, unbiased=False)),
    ('missing_sqrt', ['missing_sqrt'], lambda x: (x ** 2).mean(dim=-1, keepdim=True)),
    ('no_keepdim', ['no_keepdim'], lambda x: (x ** 2).mean(dim=-1).sqrt()),
    ('wrong_dim', ['wrong_dim'], lambda x: (x ** 2).mean(dim=0).sqrt()),
    ('abs_mean', ['abs_mean'], lambda x: x.abs().mean(dim=-1, keepdim=True)),
]
