# 导入：无。
"""练习 ch11-var-from-sums 编目的错误写法：检查器对每一条必须恰好报出给定的代码（tests/test_exercise_layout.py、
tests/test_simple_checks.py 逐条检查）。每条是 (说明, 代码列表, 学习者写的函数)。
"""

MISTAKES = [
    ('unbiased_var', ['unbiased_var'], lambda s1, s2, n: (s2 - s1 ** 2 / n) / (n - 1)),
    ('missing_mean_square', ['missing_mean_square'], lambda s1, s2, n: s2 / n),
    ('sign_flipped', ['sign_flipped'], lambda s1, s2, n: (s1 / n) ** 2 - s2 / n),
    ('forgot_divide', ['forgot_divide'], lambda s1, s2, n: s2 - s1 ** 2),
]

# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
REQUIREMENTS = [
    ("有偏方差（除以 H）", "return s2 / h - mean ** 2", "return (s2 / h - mean ** 2) * h / (h - 1)", "unbiased_var", "H−1"),
    ("减去均值的平方", "return s2 / h - mean ** 2", "return s2 / h", "missing_mean_square", "平方"),
]

# 每条写明的要求的「邻居」：看起来也说得通的另一种写法（另一个维度、顺序、默认值、估计量……）。
# 检查用的输入要让每个邻居都得出不同的结果：把它当作答案交给检查器，必须不通过（tests/test_neighbours.py）。
# (要求, 参考答案里的原文片段, 换成的邻居写法)
NEIGHBOURS = [
    ('有偏方差（除以 H）', 'return s2 / h - mean ** 2', 'return (s2 - h * mean ** 2) / (h - 1)'),
    ('减去均值的平方（不是均值）', 'mean ** 2', 'mean'),
]
