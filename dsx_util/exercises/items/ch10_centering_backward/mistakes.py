"""练习 ch10-centering-backward 编目的错误写法：检查器对每一条必须恰好报出给定的代码（tests/test_exercise_layout.py、
tests/test_simple_checks.py 逐条检查）。每条是 (说明, 代码列表, 学习者写的函数)。
"""


def _mean(x, dim=-1):
    return x.mean(dim=dim, keepdim=True)


MISTAKES = [
    ('missing_mean_term', ['missing_mean_term'], lambda g: g.clone()),
    ('sign_flipped', ['sign_flipped'], lambda g: _mean(g) - g),
    ('wrong_dim', ['wrong_dim'], lambda g: g - _mean(g, 0)),
    ('wrong_scale', ['wrong_scale'], lambda g: g - g.sum(dim=-1, keepdim=True)),
]
