# 导入：无。
"""练习 ch06-to-biased 编目的错误写法：检查器对每一条必须恰好报出给定的代码（tests/test_exercise_layout.py、
tests/test_simple_checks.py 逐条检查）。每条是 (说明, 代码列表, 学习者写的函数)。
"""

MISTAKES = [
    ('inverted', ['inverted'], lambda v, n: v * n / (n - 1)),
    ('used_sqrt', ['used_sqrt'], lambda v, n: v * ((n - 1) / n) ** 0.5),
    ('ignored_n', ['ignored_n'], lambda v, n: v),
    ('wrong_output', ['wrong_output'], lambda v, n: v * (n - 2) / n),
]

# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
REQUIREMENTS = [
    ("用到 h", "var_unbiased * (h - 1) / h", "var_unbiased * (768 - 1) / 768", "wrong_output", "最大相差"),
    ("方向：有偏更小", "var_unbiased * (h - 1) / h", "var_unbiased * h / (h - 1)", "inverted", "反了"),
]

# 每条写明的要求的「邻居」：看起来也说得通的另一种写法（另一个维度、顺序、默认值、估计量……）。
# 检查用的输入要让每个邻居都得出不同的结果：把它当作答案交给检查器，必须不通过（tests/test_neighbours.py）。
# (要求, 参考答案里的原文片段, 换成的邻居写法)
NEIGHBOURS = [
    ('方向：有偏更小', 'var_unbiased * (h - 1) / h', 'var_unbiased * h / (h - 1)'),
    ('用到 h（比例不是 1/2）', 'var_unbiased * (h - 1) / h', 'var_unbiased / 2'),
    ('不开根号', 'var_unbiased * (h - 1) / h', 'var_unbiased * ((h - 1) / h) ** 0.5'),
]
