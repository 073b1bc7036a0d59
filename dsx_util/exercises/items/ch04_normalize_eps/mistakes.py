"""练习 ch04-normalize-eps 编目的错误写法：检查器对每一条必须恰好报出给定的代码（tests/test_exercise_layout.py、
tests/test_simple_checks.py 逐条检查）。每条是 (说明, 代码列表, 学习者写的函数)。
"""
import torch


def _mean(x, dim=-1):
    return x.mean(dim=dim, keepdim=True)


def _var(x, dim=-1, unbiased=False):
    return x.var(dim=dim, keepdim=True, unbiased=unbiased)


def _normalize(eps_mode="inside", unbiased=False, center=True):
    def normalize(x, eps=1e-5):
        if eps_mode == "fixed":
            eps = 1e-5
        var = _var(x, unbiased=unbiased)
        num = x - _mean(x) if center else x
        if eps_mode == "none":
            return num / torch.sqrt(var)
        if eps_mode == "outside":
            return num / (torch.sqrt(var) + eps)
        return num / torch.sqrt(var + eps)
    return normalize


MISTAKES = [
    ('nan_on_constant', ['nan_on_constant'], _normalize(eps_mode="none")),
    ('eps_outside_sqrt', ['eps_outside_sqrt'], _normalize(eps_mode="outside")),
    ('eps_ignored', ['eps_ignored'], _normalize(eps_mode="fixed")),
    ('unbiased_var', ['unbiased_var'], _normalize(unbiased=True)),
    ('no_centering', ['no_centering'], _normalize(center=False)),
    ('wrong_shape', ['wrong_shape'], lambda x, eps=1e-5: _mean(x)),
]
