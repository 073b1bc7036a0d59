# 导入：无。
"""练习 ch11-stable-var-list 编目的错误写法：检查器对每一条必须恰好报出给定的代码（按顺序）。

每条是 (说明, 代码列表, 学习者的整段代码)；CPython 的测试（tests/test_exercise_layout.py、test_inpage_checks.py）
和浏览器测试（test_inpage_browser.py，把代码敲进网页）用同一批代码。
"""
MISTAKES = [
    ('single_pass', ['single_pass'], """def stable_var(values):
    h = len(values)
    return sum(v * v for v in values) / h - (sum(values) / h) ** 2
"""),
    ('unbiased_var', ['unbiased_var'], """def stable_var(values):
    m = sum(values) / len(values)
    return sum((v - m) ** 2 for v in values) / (len(values) - 1)
"""),
    ('returned_std', ['returned_std'], """def stable_var(values):
    m = sum(values) / len(values)
    return (sum((v - m) ** 2 for v in values) / len(values)) ** 0.5
"""),
]

# 目录里没有专门对应的“错误模型”：检查要靠逐步诊断（性质）或“两处典型错误的组合”认出来
NOVEL = [
    ('两处典型错误：无偏方差 + 开了平方根', ['unbiased_var', 'returned_std'], """def stable_var(values):
    m = sum(values) / len(values)
    return (sum((v - m) ** 2 for v in values) / (len(values) - 1)) ** 0.5
"""),
    ('偏差没有平方（用了绝对值）', ['variance_not_quadratic'], """def stable_var(values):
    m = sum(values) / len(values)
    return sum(abs(v - m) for v in values) / len(values)
"""),
    ('没减均值（x² 的平均）', ['variance_of_constant_not_zero', 'variance_not_shift_invariant'], """def stable_var(values):
    return sum(v * v for v in values) / len(values)
"""),
    # 评审 r39 的尝试：以前说「偏差平方和对了，分母不对」，而错的是分子
    ('平移公式里 (Σd)² 少除了 H（方差是负数）', ['shifted_sum_not_divided'], """def stable_var(values):
    k = values[0]
    h = len(values)
    s1 = sum(v - k for v in values)
    s2 = sum((v - k) ** 2 for v in values)
    return (s2 - s1 * s1) / h
"""),
    ('偏差平方和漏了第一个数（values[1:]）', ['missing_term'], """def stable_var(values):
    mean = sum(values) / len(values)
    return sum((v - mean) ** 2 for v in values[1:]) / len(values)
"""),
    ('Welford 的 M2 加了 d²', ['welford_update'], """def stable_var(values):
    h = 0
    mean = 0.0
    m2 = 0.0
    for x in values:
        h += 1
        d = x - mean
        mean += d / h
        m2 += d * d
    return m2 / h
"""),
    ('忘了 return（返回 None）', ['no_return'], """def stable_var(values):
    mean = sum(values) / len(values)
    var = sum((v - mean) ** 2 for v in values) / len(values)
"""),
    ('方差是负数（减去的一项太大）', ['negative_variance'], """def stable_var(values):
    mean = sum(values) / len(values)
    return sum((v - mean) ** 2 for v in values) / len(values) - sum(v * v for v in values)
"""),
    ('除以 H²', ['variance_wrong_divisor'], """def stable_var(values):
    m = sum(values) / len(values)
    return sum((v - m) ** 2 for v in values) / len(values) ** 2
"""),
    # 评审 r40 的尝试（逐字）：取整的均值以前通过了检查（检查用的两组数均值都是整数），先求和再平方只说「应为 6，你的是 0」
    ('均值用了整数除法 //', ['mean_rounded'], """def stable_var(values):
    n = len(values)
    m = sum(values) // n
    return sum((v - m) ** 2 for v in values) / n
"""),
    ('均值用 round() 取整', ['mean_rounded'], """def stable_var(values):
    n = len(values)
    m = round(sum(values) / n)
    return sum((v - m) ** 2 for v in values) / n
"""),
    ('偏差先求平均再平方', ['variance_always_zero'], """def stable_var(values):
    n = len(values)
    m = sum(values) / n
    return (sum(v - m for v in values) / n) ** 2
"""),
    # 评审 r41 的尝试（逐字）：以前说「返回值里的每个值应是浮点数」（两个值都是浮点数），或只说「应为 6，你的是 6.25」
    ('把均值和方差一起返回（元组）', ['returned_several'], """def stable_var(values):
    n = len(values)
    mu = sum(values) / n
    return mu, sum((v - mu) ** 2 for v in values) / n
"""),
    ('用 (最小值 + 最大值) / 2 当均值', ['shift_not_mean'], """def stable_var(values):
    n = len(values)
    mu = (min(values) + max(values)) / 2
    return sum((v - mu) ** 2 for v in values) / n
"""),
    ('减去第一个数、少了修正项', ['shift_not_mean'], """def stable_var(values):
    k = values[0]
    return sum((v - k) ** 2 for v in values) / len(values)
"""),
    # 评审 r44 的尝试（逐字）：以前只说出两个症状（常数的方差是 −1、乘 3 后变为 10.6 倍）
    ('评审 r44：`/ n - 1`（少了括号，结果减了 1）', ['minus_one'], """def stable_var(values):
    n = len(values)
    mu = sum(values) / n
    return sum((v - mu) ** 2 for v in values) / n - 1
"""),
    # 评审 r44 的审计：检查用的输入以前都一样大，写死了大小的代码得到 ✓
    ('个数写死成 5（均值、方差都除以 5）', ['size_hard_coded'], """def stable_var(values):
    mu = sum(values) / 5
    return sum((v - mu) ** 2 for v in values) / 5
"""),
    # 评审 r46 的尝试（逐字）：以前只说「方差应为 6，你的是 1.8」
    ('评审 r46：return 缩进到了 for 循环里（只加了第一个数）', ['first_round_only'], """def stable_var(values):
    n = len(values)
    mu = sum(values) / n
    total = 0
    for v in values:
        total += (v - mu) ** 2
        return total / n
"""),
    # 评审 r47 的尝试（逐字）：以前只说「方差应为 6，你的是 4.60556」
    ('评审 r47：Welford 的 M2 加了 (x − 更新后的均值)²', ['welford_new_mean_only'], """def stable_var(values):
    mean = 0.0
    m2 = 0.0
    k = 0
    for x in values:
        k += 1
        mean += (x - mean) / k
        m2 += (x - mean) ** 2
    return m2 / k
"""),
]

# 评审找到的说明：上面的尝试里，说明必须说出这些词（tests/test_review_messages.py）
WORDS = {
    '平移公式里 (Σd)² 少除了 H（方差是负数）': ["(Σd)²/H"],
    '偏差平方和漏了第一个数（values[1:]）': ["少了一项", "第 1 个数", "values[1:]", "分母 H 是对的"],
    'Welford 的 M2 加了 d²': ["Welford", "更新后的均值"],
    '忘了 return（返回 None）': ["return", "None"],
    '方差是负数（减去的一项太大）': ["负数"],
    '除以 H²': ["相当于除以 25"],
    '均值用了整数除法 //': ["整数除法 //", "向下取整", "均值是 3.75", "按 3 算"],
    '均值用 round() 取整': ["round", "四舍五入", "均值是 3.75", "按 4 算"],
    '偏差先求平均再平方': ["都是 0", "先把每个偏差平方"],
    '把均值和方差一起返回（元组）': ["只返回一个数", "2 个值", "均值和方差一起", "只 return 方差"],
    '用 (最小值 + 最大值) / 2 当均值': ["不是均值", "c 等于均值", "(最小值 + 最大值) / 2"],
    '减去第一个数、少了修正项': ["不是均值", "values[0]", "修正项", "(Σd)²/H"],
    '评审 r44：`/ n - 1`（少了括号，结果减了 1）': ['正好比方差小 1', '`/ n - 1`', '`/ (n - 1)`', '除以 H'],
    '个数写死成 5（均值、方差都除以 5）': ['4 个数', '均值和方差都除以了 5', '写死', 'len(values)'],
    '评审 r46：return 缩进到了 for 循环里（只加了第一个数）': ['(x₁ − μ)²/H', 'return 缩进到了 for 循环里面', '与 for 对齐'],
    '评审 r47：Welford 的 M2 加了 (x − 更新后的均值)²': ['Welford', '(x − 更新前的均值)·(x − 更新后的均值)', '偏小', 'm2 += d * (x - mean)'],
}

# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
REQUIREMENTS = [
    ("不要用 statistics 模块", '    mean = sum(values)',
     '    import statistics\n    return statistics.pvariance(values)\n    mean = sum(values)', "forbidden_call",
     "statistics"),
    ("均值约 10⁹ 也算对（不用单遍公式）", "    mean = sum(values) / len(values)",
     "    return sum(v * v for v in values) / len(values) - (sum(values) / len(values)) ** 2\n"
     "    mean = sum(values) / len(values)", "single_pass", "10⁹"),
    ("有偏方差", "/ len(values)      # 第二遍", "/ (len(values) - 1)      # 第二遍", "unbiased_var", "H−1"),
]

# 每条写明的要求的「邻居」：看起来也说得通的另一种写法（另一个维度、顺序、默认值、估计量……）。
# 检查用的输入要让每个邻居都得出不同的结果：把它当作答案交给检查器，必须不通过（tests/test_neighbours.py）。
# (要求, 参考答案里的原文片段, 换成的邻居写法)
NEIGHBOURS = [
    ('有偏方差', '/ len(values)      # 第二遍', '/ (len(values) - 1)      # 第二遍'),
    ('均值不取整（//）', 'mean = sum(values) / len(values)', 'mean = sum(values) // len(values)'),
    ('均值不取整（round）', 'mean = sum(values) / len(values)', 'mean = round(sum(values) / len(values))'),
    ('单遍公式不行', 'return sum((v - mean) ** 2 for v in values) / len(values)', 'return sum(v * v for v in values) / len(values) - mean * mean'),
]
