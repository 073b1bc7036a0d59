# 导入：torch。
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

# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
REQUIREMENTS = [
    ("用参数 eps", "torch.sqrt(var + eps)", "torch.sqrt(var + 1e-5)", "eps_ignored", "eps"),
    ("有偏方差", "unbiased=False", "unbiased=True", "unbiased_var", "B−1"),
    ("每个特征（dim=0）", "x.mean(dim=0, keepdim=True)", "x.mean(dim=-1, keepdim=True)", "wrong_output", "最大相差"),
]

# 每条写明的要求的「邻居」：看起来也说得通的另一种写法（另一个维度、顺序、默认值、估计量……）。
# 检查用的输入要让每个邻居都得出不同的结果：把它当作答案交给检查器，必须不通过（tests/test_neighbours.py）。
# (要求, 参考答案里的原文片段, 换成的邻居写法)
NEIGHBOURS = [
    ('每个特征（dim=0）', 'x.mean(dim=0, keepdim=True)                  # 每个特征跨样本求均值\n    var = x.var(dim=0,', 'x.mean(dim=1, keepdim=True)                  # 每个特征跨样本求均值\n    var = x.var(dim=1,'),
    ('有偏方差', 'unbiased=False', 'unbiased=True'),
    ('ε 在根号里', 'torch.sqrt(var + eps)', '(torch.sqrt(var) + eps)'),
    ('用参数 eps', 'torch.sqrt(var + eps)', 'torch.sqrt(var + 1e-5)'),
]
