# 导入：无。
"""练习 ch03-mean-var 编目的错误写法：检查器对每一条必须恰好报出给定的代码（tests/test_exercise_layout.py、
tests/test_check_stats.py 逐条检查）。每条是 (说明, 代码列表, 学习者写的类或函数)；Good… 是正确的基准实现，
每个有错的版本只改动一处。
"""


def good(x):
    return x.mean(dim=-1, keepdim=True), x.var(dim=-1, keepdim=True, unbiased=False)


def wrong_dim(x):
    return x.mean(dim=0, keepdim=True), x.var(dim=0, keepdim=True, unbiased=False)


def missing_keepdim(x):
    return x.mean(dim=-1), x.var(dim=-1, unbiased=False)


def unbiased(x):
    return x.mean(dim=-1, keepdim=True), x.var(dim=-1, keepdim=True)


def float64(x):
    return good(x.double())


def divides_by_h_minus_2(x):
    """除以 H−2：各条性质（常数行方差 0、平移不变、乘 a 变 a² 倍）都满足，数值却不对。"""
    m = x.mean(dim=-1, keepdim=True)
    return m, ((x - m) ** 2).sum(dim=-1, keepdim=True) / (x.shape[-1] - 2)


def raises(x):
    return x.mean(dim=-1, keepdims=True, bogus=1)


def loops(x):
    while True:
        pass


def template(x):
    raise NotImplementedError("请在这里写你的代码")


MISTAKES = [
    ('wrong_dim', ['wrong_dim'], wrong_dim),
    ('missing_keepdim', ['missing_keepdim'], missing_keepdim),
    ('unbiased_variance', ['unbiased_variance'], unbiased),
    ('wrong_shape_or_dtype', ['wrong_shape_or_dtype'], float64),
    ('wrong_output', ['wrong_output'], divides_by_h_minus_2),
    ('raised', ['raised'], raises),
    ('timeout', ['timeout'], loops),
    ('not_done', ['not_done'], template),
]

# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
REQUIREMENTS = [
    ("保留被归约的维度", "mean = x.mean(dim=-1, keepdim=True)", "mean = x.mean(dim=-1)", "missing_keepdim", "少了"),
    ("沿最后一维", "var = x.var(dim=-1,", "var = x.var(dim=0,", "wrong_dim", "最后一维"),
    ("有偏估计", "unbiased=False", "unbiased=True", "unbiased_variance", "有偏"),
]

# 每条写明的要求的「邻居」：看起来也说得通的另一种写法（另一个维度、顺序、默认值、估计量……）。
# 检查用的输入要让每个邻居都得出不同的结果：把它当作答案交给检查器，必须不通过（tests/test_neighbours.py）。
# (要求, 参考答案里的原文片段, 换成的邻居写法)
NEIGHBOURS = [
    ('保留维度', 'mean = x.mean(dim=-1, keepdim=True)', 'mean = x.mean(dim=-1)'),
    ('沿最后一维而不是第 0 维', 'x.mean(dim=-1, keepdim=True)\n    var = x.var(dim=-1,', 'x.mean(dim=0, keepdim=True)\n    var = x.var(dim=0,'),
    ('沿最后一维而不是第 1 维', 'x.mean(dim=-1, keepdim=True)\n    var = x.var(dim=-1,', 'x.mean(dim=1, keepdim=True)\n    var = x.var(dim=1,'),
    ('有偏估计', 'unbiased=False', 'unbiased=True'),
    ('返回顺序 (均值, 方差)', 'return mean, var', 'return var, mean'),
]
