"""练习 ch03-predict-shapes 编目的错误写法：检查器对每一条必须恰好报出给定的代码（tests/test_exercise_layout.py、
tests/test_simple_checks.py 逐条检查）。每条是 (说明, 代码列表, 学习者写的函数)。
"""


_SHAPES = {
    "x.mean(dim=-1)": (2, 3),
    "x.mean(dim=-1, keepdim=True)": (2, 3, 1),
    "x.sum(dim=0)": (3, 4),
    "x.var(dim=1, keepdim=True)": (2, 1, 4),
    "x - x.mean(dim=-1, keepdim=True)": (2, 3, 4),
}


def _shapes(**changes):
    answer = dict(_SHAPES)
    for key, value in changes.items():
        expr = {"a": "x.mean(dim=-1)", "b": "x.mean(dim=-1, keepdim=True)", "c": "x.sum(dim=0)",
                "d": "x.var(dim=1, keepdim=True)", "e": "x - x.mean(dim=-1, keepdim=True)"}[key]
        if value is None:
            del answer[expr]
        else:
            answer[expr] = value
    return lambda: answer


MISTAKES = [
    ('not_dict', ['not_dict'], lambda: [(2, 3), (2, 3, 1), (3, 4), (2, 1, 4), (2, 3, 4)]),
    ('missing_key', ['missing_key'], _shapes(c=None)),
    ('bad_shape_value', ['bad_shape_value'], _shapes(a="(2, 3)")),
    ('keepdim_dropped', ['keepdim_dropped'], _shapes(b=(2, 3))),
    ('keepdim_added', ['keepdim_added'], _shapes(a=(2, 3, 1))),
    ('wrong_axis', ['wrong_axis'], _shapes(c=(2, 4))),
    ('broadcast_misread', ['broadcast_misread'], _shapes(e=(2, 3, 1))),
    ('wrong_prediction', ['wrong_prediction'], _shapes(c=(4, 3))),
]
