# 导入：无。
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

# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
REQUIREMENTS = [
    ("保留被归约的维度", "mean(dim=-1, keepdim=True)", "mean(dim=-1)", "no_keepdim", "保留"),
    ("不减均值", "x.pow(2)", "(x - x.mean(dim=-1, keepdim=True)).pow(2)", "subtracted_mean", "均值"),
]

# 每条写明的要求的「邻居」：看起来也说得通的另一种写法（另一个维度、顺序、默认值、估计量……）。
# 检查用的输入要让每个邻居都得出不同的结果：把它当作答案交给检查器，必须不通过（tests/test_neighbours.py）。
# (要求, 参考答案里的原文片段, 换成的邻居写法)
NEIGHBOURS = [
    ('保留维度', 'mean(dim=-1, keepdim=True)', 'mean(dim=-1)'),
    ('不减均值', 'x.pow(2).mean(dim=-1, keepdim=True)', '(x - x.mean(dim=-1, keepdim=True)).pow(2).mean(dim=-1, keepdim=True)'),
    ('沿最后一维', 'mean(dim=-1, keepdim=True)', 'mean(dim=0, keepdim=True)'),
    ('开根号', 'torch.sqrt(x.pow(2).mean(dim=-1, keepdim=True))', 'x.pow(2).mean(dim=-1, keepdim=True)'),
]
