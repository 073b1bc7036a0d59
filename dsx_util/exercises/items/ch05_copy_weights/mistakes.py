"""练习 ch05-copy-weights 编目的错误写法：检查器对每一条必须恰好报出给定的代码（tests/test_exercise_layout.py、
tests/test_simple_checks.py 逐条检查）。每条是 (说明, 代码列表, 学习者写的函数)。
"""
import torch


def _copy(mode):
    def copy_weights(my_ln, torch_ln):
        with torch.no_grad():
            if mode == "swapped":
                my_ln.scale.copy_(torch_ln.bias)
                my_ln.shift.copy_(torch_ln.weight)
            if mode in ("shift_missing", "no_eps", "double"):
                my_ln.scale.copy_(torch_ln.weight * (2 if mode == "double" else 1))
            if mode in ("scale_missing", "no_eps", "double"):
                my_ln.shift.copy_(torch_ln.bias)
        if mode == "shares":
            my_ln.scale = torch_ln.weight
            my_ln.shift = torch_ln.bias
        if mode == "plain":
            del my_ln.scale, my_ln.shift
            my_ln.scale = torch_ln.weight.detach().clone()
            my_ln.shift = torch_ln.bias.detach().clone()
        if mode == "double":
            my_ln.eps = torch_ln.eps
    return copy_weights


MISTAKES = [
    ('not_copied', ['not_copied'], lambda my_ln, torch_ln: None),
    ('swapped', ['swapped'], _copy("swapped")),
    ('shift_missing', ['shift_missing'], _copy("shift_missing")),
    ('scale_missing', ['scale_missing'], _copy("scale_missing")),
    ('eps_not_copied', ['eps_not_copied'], _copy("no_eps")),
    ('shares_memory', ['shares_memory'], _copy("shares")),
    ('not_parameter', ['not_parameter'], _copy("plain")),
    ('outputs_differ', ['outputs_differ'], _copy("double")),
]
