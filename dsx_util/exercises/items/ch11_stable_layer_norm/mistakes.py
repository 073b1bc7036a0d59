"""练习 ch11-stable-layer-norm 编目的错误写法：检查器对每一条必须恰好报出给定的代码（tests/test_exercise_layout.py、
tests/test_simple_checks.py 逐条检查）。每条是 (说明, 代码列表, 学习者写的函数)。
"""
import torch


def _mean(x, dim=-1):
    return x.mean(dim=dim, keepdim=True)


def _own_var(x, unbiased=False):
    """第 11 章的练习不许调用现成的方差函数：自己算（两遍）。"""
    d = x - x.mean(dim=-1, keepdim=True)
    return (d * d).sum(dim=-1, keepdim=True) / (x.shape[-1] - (1 if unbiased else 0))


def _single_pass(x, eps=1e-5):
    mean = _mean(x)
    var = _mean(x * x) - mean ** 2
    return (x - mean) / torch.sqrt(var + eps)


MISTAKES = [
    ('single_pass_variance', ['single_pass_variance'], _single_pass),
    ('unbiased_var', ['unbiased_var'], lambda x, eps=1e-5: (x - _mean(x)) / torch.sqrt(_own_var(x, unbiased=True) + eps)),
    ('wrong_dtype', ['wrong_dtype'], lambda x, eps=1e-5: (lambda y: (y - _mean(y)) / torch.sqrt(_own_var(y) + eps))(x.to(torch.float16))),
    ('no_centering', ['no_centering'], lambda x, eps=1e-5: x / torch.sqrt(_own_var(x) + eps)),
    ('eps_ignored', ['eps_ignored'], lambda x, eps=1e-5: (x - _mean(x)) / torch.sqrt(_own_var(x) + 1e-5)),
    ('eps_misplaced', ['eps_misplaced'], lambda x, eps=1e-5: (x - _mean(x)) / (torch.sqrt(_own_var(x)) + eps)),
]
