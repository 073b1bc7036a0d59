# 导入：无。
"""练习 ch02-standardize-rows 编目的错误写法：检查器对每一条必须恰好报出给定的代码（tests/test_exercise_layout.py、
tests/test_simple_checks.py 逐条检查）。每条是 (说明, 代码列表, 学习者写的函数)。
"""


def _mean(x, dim=-1):
    return x.mean(dim=dim, keepdim=True)


def _var(x, dim=-1, unbiased=False):
    return x.var(dim=dim, keepdim=True, unbiased=unbiased)


MISTAKES = [
    ('normalized_columns', ['normalized_columns'], lambda x: (x - _mean(x, 0)) / _var(x, 0).sqrt()),
    ('normalized_all', ['normalized_all'], lambda x: (x - x.mean()) / x.std(unbiased=False)),
    ('no_centering', ['no_centering'], lambda x: x / _var(x).sqrt()),
    ('no_scaling', ['no_scaling'], lambda x: x - _mean(x)),
    ('divided_by_var', ['divided_by_var'], lambda x: (x - _mean(x)) / _var(x)),
    ('unbiased_var', ['unbiased_var'], lambda x: (x - _mean(x)) / _var(x, unbiased=True).sqrt()),
    ('broadcast_error', ['broadcast_error'], lambda x: (x - x.mean(dim=-1)) / x.var(dim=-1, unbiased=False).sqrt()),
    ('modified_input', ['modified_input'], lambda x: x.sub_(_mean(x)).div_(_var(x).sqrt())),
]

# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
REQUIREMENTS = [
    ("有偏估计（除以 H）", "unbiased=False", "unbiased=True", "unbiased_var", "H−1"),
    ("每一行各自标准化", "x.mean(dim=-1, keepdim=True)", "x.mean(dim=0, keepdim=True)", "wrong_output", "最大相差"),
]

# 每条写明的要求的「邻居」：看起来也说得通的另一种写法（另一个维度、顺序、默认值、估计量……）。
# 检查用的输入要让每个邻居都得出不同的结果：把它当作答案交给检查器，必须不通过（tests/test_neighbours.py）。
# (要求, 参考答案里的原文片段, 换成的邻居写法)
NEIGHBOURS = [
    ('有偏估计', 'unbiased=False)', 'unbiased=True)'),
    ('每一行（最后一维）而不是每一列', 'mean = x.mean(dim=-1, keepdim=True)\n    var = x.var(dim=-1, keepdim=True, unbiased=False)', 'mean = x.mean(dim=0, keepdim=True)\n    var = x.var(dim=0, keepdim=True, unbiased=False)'),
    ('除以标准差而不是方差', '/ torch.sqrt(var)', '/ var'),
    ('整个张量一起标准化', 'mean = x.mean(dim=-1, keepdim=True)\n    var = x.var(dim=-1, keepdim=True, unbiased=False)', 'mean = x.mean()\n    var = x.var(unbiased=False)'),
]
