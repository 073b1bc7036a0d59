# 导入：无。
"""练习 ch06-std-ratio 编目的错误写法：检查器对每一条必须恰好报出给定的代码。

每条是 (说明, 代码列表, 学习者的整段代码)；CPython 的测试（tests/test_exercise_layout.py、test_inpage_checks.py）
和浏览器测试（test_inpage_browser.py，把代码敲进网页）用同一批代码。
"""
MISTAKES = [
    ('not_number', ['not_number'], "def std_ratio(h):\n    return None\n"),
    ('inverted', ['inverted'], "def std_ratio(h):\n    return (h / (h - 1)) ** 0.5\n"),
    ('missing_sqrt', ['missing_sqrt'], "def std_ratio(h):\n    return (h - 1) / h\n"),
    ('wrong_value', ['wrong_value'], "def std_ratio(h):\n    return (h - 2) / h\n"),
    ('整数除法 //', ['integer_division'], "import math\n\n\ndef std_ratio(h):\n    return math.sqrt((h - 1) // h)\n"),
    ('分母写成 h + 1', ['plus_one'], "import math\n\n\ndef std_ratio(h):\n    return math.sqrt(h / (h + 1))\n"),
]

# 目录里没有专门对应的错误：检查器仍要说出哪里不对，而不是只说「不对」
NOVEL = [
    ('分母写成 h + 3', ['wrong_value'], "import math\n\n\ndef std_ratio(h):\n    return math.sqrt((h - 1) / (h + 3))\n"),
    ('两处错误：倒过来且没开方', ['inverted'], "def std_ratio(h):\n    return h / (h - 1)\n"),
    # 评审 r39 的尝试：以前说「不对」并重述公式，没说出 round 和「分子分母都多减了 1」
    ('结果 round 到 3 位小数', ['rounded'], "import math\n\n\ndef std_ratio(h):\n    return round(math.sqrt((h - 1) / h), 3)\n"),
    ('分子分母都多减了 1', ['both_minus_one'], "import math\n\n\ndef std_ratio(h):\n    return math.sqrt((h - 2) / (h - 1))\n"),
    # 评审 r40 的尝试（逐字）：以前第一条叫人「比值也要开方」（代码已经开了方），第二条只说「不对」
    ('括号放错：√(H−1) ÷ H', ['sqrt_numerator_only'], "import math\ndef std_ratio(h):\n    return math.sqrt(h - 1) / h\n"),
    ('运算顺序：(H−1) ÷ √H', ['sqrt_denominator_only'], "import math\ndef std_ratio(h):\n    return (h - 1) / h ** 0.5\n"),
    # 评审 r42 的尝试（逐字）：以前只重述公式，没说「结果不随 h 变」
    ('评审 r42：H 写死成 768（不用参数 h）', ['h_ignored'], "import math\ndef std_ratio(h):\n    return math.sqrt(767 / 768)\n"),
    # 评审 r44 的尝试（逐字）：以前只重述公式
    ('评审 r44：用了一阶近似 1 − 1/(2H)', ['first_order'], """import math
def std_ratio(h):
    return 1 - 1 / (2 * h)
"""),
    # 评审 r44 在手机上敲的（逐字）：点到了 def 那一行，输入把它覆盖了；以前说「第 5 行的缩进多了……把多出来的空格删掉」
    ('评审 r44：手机上 def 那一行被覆盖（第 4 行成了 return）', ['missing_def'], '''import math


return math.sqrt((h-1)/h)
    """同一组 h 个数：有偏标准差 / 无偏标准差。"""
    raise NotImplementedError("请在这里写你的代码")
'''),
    ('评审 r44：def 那一行被覆盖，又把 sqrt 打成了 sqr', ['missing_def'], '''import math


return math.sqr((h - 1) / h)
    """同一组 h 个数：有偏标准差 / 无偏标准差。"""
    raise NotImplementedError("请在这里写你的代码")
'''),
    ('评审 r44：def 那一行被覆盖，又打了全角减号', ['missing_def', 'fullwidth_punctuation'], '''import math


return math.sqrt((h－1)/h)
    """同一组 h 个数：有偏标准差 / 无偏标准差。"""
    raise NotImplementedError("请在这里写你的代码")
'''),
    # 评审 r45 的尝试：以前只说「H=2 时你的结果是 1.22474，不对」并重述公式，没说出少了括号
    ('评审 r45：少了括号，√(h − 1/h)', ['bracket_h_minus_1'], "import math\ndef std_ratio(h):\n    return math.sqrt(h - 1 / h)\n"),
    # 评审 r46 的尝试（逐字）：以前只说「H=2 时你的结果是 0.25，不对」并重述公式，没说 ** 1 / 2 不是开平方
    ('评审 r46：** 1 / 2 不是开平方（((h - 1) / h) ** 1 / 2）', ['pow_half'], """def std_ratio(h):
    return ((h - 1) / h) ** 1 / 2
"""),
    # 评审 r47 的尝试（逐字）：以前只重述公式，没说出分子写成了 H+1
    ('评审 r47：分子写成了 H+1（√((h + 1) / h)）', ['plus_one_numerator'], """import math
def std_ratio(h):
    return math.sqrt((h + 1) / h)
"""),
    ('分子写成了 H+1，也没开方（(h + 1) / h）', ['plus_one_numerator', 'missing_sqrt'], """def std_ratio(h):
    return (h + 1) / h
"""),
]

# 评审找到的说明：上面的尝试里，说明必须说出这些词（tests/test_review_messages.py）
WORDS = {
    '结果 round 到 3 位小数': ["0.707", "四舍五入到 3 位小数", "不要 round"],
    '分子分母都多减了 1': ["都多减了 1", "√((H−1)/H)"],
    '括号放错：√(H−1) ÷ H': ["√(H−1) ÷ H", "只有分子开了方", "math.sqrt((h - 1) / h)"],
    '运算顺序：(H−1) ÷ √H': ["(H−1) ÷ √H", "只有分母开了方", "** 比 / 先算", "((h - 1) / h) ** 0.5"],
    '评审 r42：H 写死成 768（不用参数 h）': ["都是 0.999349", "不随 h 变", "H=768 时的比值", "没有用参数 h"],
    '评审 r44：用了一阶近似 1 − 1/(2H)': ['0.75', '0.707107', '近似', '不需要近似'],
    '评审 r44：手机上 def 那一行被覆盖（第 4 行成了 return）': ['`def std_ratio(h):`', '覆盖', '放回'],
    '评审 r44：def 那一行被覆盖，又把 sqrt 打成了 sqr': ['`def std_ratio(h):`', '覆盖', '放回'],
    '评审 r44：def 那一行被覆盖，又打了全角减号': ['`def std_ratio(h):`', '「－」改成「-」'],
    '评审 r45：少了括号，√(h − 1/h)': ['少了括号', '`h - 1 / h`', 'H − 1/H', '`(h - 1) / h`'],
    '评审 r46：** 1 / 2 不是开平方（((h - 1) / h) ** 1 / 2）': ['`((h - 1) / h) ** 1 / 2`', '** 比 / 先算', '除以 2',
                                                     '`** 0.5`', '`** (1 / 2)`', 'math.sqrt'],
    '评审 r47：分子写成了 H+1（√((h + 1) / h)）': ['√((H+1)/H)', '分子写成了 H+1', '应为 H−1', 'math.sqrt((h - 1) / h)'],
    '分子写成了 H+1，也没开方（(h + 1) / h）': ['(H+1)/H', '分子写成了 H+1', '也要开方'],
}

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
