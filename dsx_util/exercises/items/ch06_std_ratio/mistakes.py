"""练习 ch06-std-ratio 编目的错误写法：检查器对每一条必须恰好报出给定的代码（tests/test_exercise_layout.py、
tests/test_simple_checks.py 逐条检查）。每条是 (说明, 代码列表, 学习者写的函数)。
"""

MISTAKES = [
    ('not_number', ['not_number'], lambda h: None),
    ('inverted', ['inverted'], lambda h: (h / (h - 1)) ** 0.5),
    ('missing_sqrt', ['missing_sqrt'], lambda h: (h - 1) / h),
    ('wrong_value', ['wrong_value'], lambda h: (h - 2) / h),
]

# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
REQUIREMENTS = [
    ("返回一个数", "return math.sqrt((h - 1) / h)", "return str(math.sqrt((h - 1) / h))", "not_number", "浮点数"),
    ("有偏 ÷ 无偏", "return math.sqrt((h - 1) / h)", "return math.sqrt(h / (h - 1))", "inverted", "倒过来"),
]

# 每条写明的要求的「邻居」：看起来也说得通的另一种写法（另一个维度、顺序、默认值、估计量……）。
# 检查用的输入要让每个邻居都得出不同的结果：把它当作答案交给检查器，必须不通过（tests/test_neighbours.py）。
# (要求, 参考答案里的原文片段, 换成的邻居写法)
NEIGHBOURS = [
    ('有偏 ÷ 无偏（方向）', 'math.sqrt((h - 1) / h)', 'math.sqrt(h / (h - 1))'),
    ('标准差之比要开根号', 'math.sqrt((h - 1) / h)', '(h - 1) / h'),
]
