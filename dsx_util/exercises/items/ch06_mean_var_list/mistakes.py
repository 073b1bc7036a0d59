# 导入：无。
"""练习 ch06-mean-var-list 编目的错误写法：检查器对每一条必须恰好报出给定的代码（按顺序）。

每条是 (说明, 代码列表, 学习者的整段代码)；CPython 的测试（tests/test_exercise_layout.py、test_inpage_checks.py）
和浏览器测试（test_inpage_browser.py，把代码敲进网页）用同一批代码。
"""
MISTAKES = [
    ('unbiased_ignored', ['unbiased_ignored'], """def mean_var_list(values, unbiased=False):
    m = sum(values) / len(values)
    s = sum((v - m) ** 2 for v in values)
    return m, s / len(values)
"""),
    ('unbiased_var', ['unbiased_var'], """def mean_var_list(values, unbiased=False):
    m = sum(values) / len(values)
    s = sum((v - m) ** 2 for v in values)
    return m, s / (len(values) - 1)
"""),
    ('returned_std', ['returned_std'], """def mean_var_list(values, unbiased=False):
    m = sum(values) / len(values)
    s = sum((v - m) ** 2 for v in values)
    return m, (s / (len(values) - 1 if unbiased else len(values))) ** 0.5
"""),
    ('wrong_mean', ['wrong_mean'], """def mean_var_list(values, unbiased=False):
    h = len(values)
    m = sum(values) / h
    s = sum((v - m) ** 2 for v in values)
    return sum(values) / (h - 1), s / (h - 1 if unbiased else h)
"""),
    ('swapped_order', ['swapped_order'], """def mean_var_list(values, unbiased=False):
    m = sum(values) / len(values)
    s = sum((v - m) ** 2 for v in values)
    return s / (len(values) - 1 if unbiased else len(values)), m
"""),
    ('not_pair', ['not_pair'], """def mean_var_list(values, unbiased=False):
    return sum(values) / len(values)
"""),
]

# 目录里没有专门对应的“错误模型”：检查要靠逐步诊断（性质）或“两处典型错误的组合”认出来
NOVEL = [
    ('方差用了偏差的绝对值', ['variance_not_quadratic'], """def mean_var_list(values, unbiased=False):
    m = sum(values) / len(values)
    s = sum((v - m) ** 2 for v in values)
    return m, sum(abs(v - m) for v in values) / len(values)
"""),
    ('方差用了 x² 的平均（没减均值）', ['variance_of_constant_not_zero', 'variance_not_shift_invariant'], """def mean_var_list(values, unbiased=False):
    m = sum(values) / len(values)
    s = sum((v - m) ** 2 for v in values)
    return m, sum(v * v for v in values) / len(values)
"""),
    # 评审 r39 的尝试：以前第二条说「分子对了，分母不对」，而分母是对的、分子随均值错了
    ('均值用了整数除法 //（方差按这个均值算）', ['wrong_mean'], """def mean_var_list(values, unbiased=False):
    h = len(values)
    m = sum(values) // h
    ss = sum((v - m) ** 2 for v in values)
    return m, ss / (h - 1 if unbiased else h)
"""),
    ('有偏方差除以了 H+1', ['variance_wrong_divisor'], """def mean_var_list(values, unbiased=False):
    m = sum(values) / len(values)
    s = sum((v - m) ** 2 for v in values)
    return m, s / (len(values) - 1 if unbiased else len(values) + 1)
"""),
    # 评审 r40 的尝试（逐字）：以前只说「方差应为 0，你的是 -1」和「变为 10.66 倍」，没说出是少了括号
    ('少了括号：ss / H - 1', ['divisor_precedence'], """def mean_var_list(values, unbiased=False):
    n = len(values)
    m = sum(values) / n
    ss = sum((v - m) ** 2 for v in values)
    return m, ss / n - 1 if unbiased else ss / n
"""),
    # 评审 r41 的尝试（逐字）：以前只说「检查它们的类型（例如列表不能直接和数相乘再相加）」
    ('h = len 少了括号（函数本身参与了除法）', ['raised'], """def mean_var_list(values, unbiased=False):
    h = len
    mu = sum(values) / h
    ss = sum((v - mu) ** 2 for v in values)
    return mu, ss / (h - 1 if unbiased else h)
"""),
    # 评审 r42 的尝试（逐字）：列表以前通过了检查，而题目写明返回元组 (均值, 方差)（ch03 的列表形状不通过）
    ('返回列表 [均值, 方差]', ['list_not_tuple'], """def mean_var_list(values, unbiased=False):
    n = len(values)
    mean = sum(values) / n
    ss = sum((v - mean) ** 2 for v in values)
    var = ss / (n - 1) if unbiased else ss / n
    return [mean, var]
"""),
    # 评审 r44 的尝试（逐字）：以前说「实际返回的是 tuple」（题目要的正是元组），没说多了一个值
    ('评审 r44：返回了 3 个值 (均值, 方差, H)', ['not_pair'], """def mean_var_list(values, unbiased=False):
    n = len(values)
    mu = sum(values) / n
    if unbiased:
        n -= 1
    ss = sum((v - mu) ** 2 for v in values)
    return mu, ss / n, n
"""),
    # 评审 r44 的尝试（逐字）：以前只说「方差应为 5.8125，你的是 0」
    ('评审 r44：先把偏差加起来再平方 (Σ(x−μ))²', ['variance_zero'], """def mean_var_list(values, unbiased=False):
    n = len(values)
    mu = sum(values) / n
    ss = sum((v - mu) for v in values) ** 2
    return mu, ss / (n - 1 if unbiased else n)
"""),
    # 评审 r46 的尝试（条件那一行逐字）：以前只说「传 unbiased=True 和 unbiased=False 得到的方差一样」，没说为什么
    ('评审 r46：unbiased == "True"（和字符串比较）', ['unbiased_string'], """def mean_var_list(values, unbiased=False):
    n = len(values)
    mu = sum(values) / n
    ss = sum((v - mu) ** 2 for v in values)
    if unbiased == "True":
        return mu, ss / (n - 1)
    return mu, ss / n
"""),
    # 评审 r46 的尝试（条件那一行逐字）：以前是通用的语法错误说明（「少了逗号、括号或冒号」），而 Python 说的是 Maybe you meant '=='
    ('评审 r46：if unbiased = True:（= 写成了赋值）', ['assign_not_compare'], """def mean_var_list(values, unbiased=False):
    h = len(values)
    mu = sum(values) / h
    ss = sum((v - mu) ** 2 for v in values)
    if unbiased = True:
        return mu, ss / (h - 1)
    return mu, ss / h
"""),
    # 评审 r47 的尝试（逐字）：以前得到 3 条症状，没说出 μ 没有平方
    ('评审 r47：单遍公式 mean(x²) − μ，μ 没有平方', ['mu_not_squared'], """def mean_var_list(values, unbiased=False):
    n = len(values)
    m = sum(values) / n
    var = sum(v ** 2 for v in values) / n - m
    if unbiased:
        var = var * n / (n - 1)
    return m, var
"""),
]

# 评审找到的说明：上面的尝试里，说明必须说出这些词（tests/test_review_messages.py）
WORDS = {
    '均值用了整数除法 //（方差按这个均值算）': ["整数除法 //", "方差是用这个均值算的"],
    '有偏方差除以了 H+1': ["分母不对", "相当于除以 7"],
    '少了括号：ss / H - 1': ["unbiased=True", "再减 1", "ss / (H - 1)", "括号"],
    'h = len 少了括号（函数本身参与了除法）': ["函数本身", "加上括号", "len(values)"],
    '返回列表 [均值, 方差]': ["列表 [5.25, 5.8125]", "元组 (均值, 方差)", "return 均值, 方差", "(5.25, 5.8125)"],
    '评审 r44：返回了 3 个值 (均值, 方差, H)': ['3 个值', '(5.25, 5.8125, 6)', '恰好两个'],
    '评审 r44：先把偏差加起来再平方 (Σ(x−μ))²': ['先把偏差加起来再平方', '总是 0', '每个偏差'],
    '评审 r46：unbiased == "True"（和字符串比较）': ['字符串', '"True"', '永远不成立', '`if unbiased:`'],
    '评审 r46：if unbiased = True:（= 写成了赋值）': ['= 是赋值', '==', '`if unbiased:`'],
    '评审 r47：单遍公式 mean(x²) − μ，μ 没有平方': ['mean(x²) − μ²', '没有平方', '`- mu ** 2`'],
}

# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
REQUIREMENTS = [
    ("默认 unbiased=False", "unbiased=False):", "unbiased=True):", "wrong_signature", "默认值"),
    ("返回 (均值, 方差)", "return mean, squares / (h - 1 if unbiased else h)",
     "return squares / (h - 1 if unbiased else h), mean", "swapped_order", "位置反了"),
    ("返回元组 (均值, 方差)", "return mean, squares / (h - 1 if unbiased else h)",
     "return [mean, squares / (h - 1 if unbiased else h)]", "list_not_tuple", "元组"),
    ("按参数 unbiased 选择", "(h - 1 if unbiased else h)", "h", "unbiased_ignored", "unbiased"),
    ("只用纯 Python", "    h = len(values)", "    import numpy as np\n    np.zeros(1)\n    h = len(values)",
     "forbidden_call", "纯 Python"),
]

# 每条写明的要求的「邻居」：看起来也说得通的另一种写法（另一个维度、顺序、默认值、估计量……）。
# 检查用的输入要让每个邻居都得出不同的结果：把它当作答案交给检查器，必须不通过（tests/test_neighbours.py）。
# (要求, 参考答案里的原文片段, 换成的邻居写法)
NEIGHBOURS = [
    ('默认 unbiased=False', 'unbiased=False', 'unbiased=True'),
    ('按参数选择（方向）', '(h - 1 if unbiased else h)', '(h if unbiased else h - 1)'),
    ('返回顺序 (均值, 方差)', 'return mean, squares', 'return squares / (h - 1 if unbiased else h), mean\n    return mean, squares'),
]
