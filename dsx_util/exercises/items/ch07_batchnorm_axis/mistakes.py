"""练习 ch07-batchnorm-axis 编目的错误写法：检查器对每一条必须恰好报出给定的代码（tests/test_exercise_layout.py、
tests/test_simple_checks.py 逐条检查）。每条是 (说明, 代码列表, 学习者写的函数)。
"""
import torch


def _mean(x, dim=-1):
    return x.mean(dim=dim, keepdim=True)


def _var(x, dim=-1, unbiased=False):
    return x.var(dim=dim, keepdim=True, unbiased=unbiased)


MISTAKES = [
    ('normalized_rows', ['normalized_rows'], lambda x, eps=1e-5: (x - _mean(x)) / (_var(x) + eps).sqrt()),
    ('normalized_all', ['normalized_all'], lambda x, eps=1e-5: (x - x.mean()) / (x.var(unbiased=False) + eps).sqrt()),
    ('unbiased_var', ['unbiased_var'], lambda x, eps=1e-5: (x - _mean(x, 0)) / (_var(x, 0, unbiased=True) + eps).sqrt()),
    ('no_centering', ['no_centering'], lambda x, eps=1e-5: x / (_var(x, 0) + eps).sqrt()),
    ('eps_ignored', ['eps_ignored'], lambda x, eps=1e-5: (x - _mean(x, 0)) / torch.sqrt(_var(x, 0) + 1e-5)),
    ('eps_misplaced', ['eps_misplaced'], lambda x, eps=1e-5: (x - _mean(x, 0)) / (torch.sqrt(_var(x, 0)) + eps)),
]
