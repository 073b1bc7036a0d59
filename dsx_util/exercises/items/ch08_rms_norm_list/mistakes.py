# 导入：无。
"""练习 ch08-rms-norm-list 编目的错误写法：检查器对每一条必须恰好报出给定的代码（按顺序）。

每条是 (说明, 代码列表, 学习者的整段代码)；CPython 的测试（tests/test_exercise_layout.py、test_inpage_checks.py）
和浏览器测试（test_inpage_browser.py，把代码敲进网页）用同一批代码。
"""
MISTAKES = [
    ('no_eps', ['no_eps'], """import math


def rms_norm_list(values, gamma, eps=1e-6):
    ms = sum(v * v for v in values) / len(values)
    d = math.sqrt(ms)
    return [g * v / d for v, g in zip(values, gamma)]
"""),
    ('eps_ignored', ['eps_ignored'], """import math


def rms_norm_list(values, gamma, eps=1e-6):
    ms = sum(v * v for v in values) / len(values)
    d = math.sqrt(ms + 1e-6)
    return [g * v / d for v, g in zip(values, gamma)]
"""),
    ('eps_outside_sqrt', ['eps_outside_sqrt'], """import math


def rms_norm_list(values, gamma, eps=1e-6):
    ms = sum(v * v for v in values) / len(values)
    d = math.sqrt(ms) + eps
    return [g * v / d for v, g in zip(values, gamma)]
"""),
    ('missing_sqrt', ['missing_sqrt'], """import math


def rms_norm_list(values, gamma, eps=1e-6):
    ms = sum(v * v for v in values) / len(values)
    d = ms + eps
    return [g * v / d for v, g in zip(values, gamma)]
"""),
    ('no_gamma', ['no_gamma'], """import math


def rms_norm_list(values, gamma, eps=1e-6):
    ms = sum(v * v for v in values) / len(values)
    d = math.sqrt(ms + eps)
    return [v / d for v, g in zip(values, gamma)]
"""),
    ('abs_mean', ['abs_mean'], """import math


def rms_norm_list(values, gamma, eps=1e-6):
    ms = sum(v * v for v in values) / len(values)
    d = sum(abs(v) for v in values) / len(values) + eps
    return [g * v / d for v, g in zip(values, gamma)]
"""),
    ('subtracted_mean', ['subtracted_mean'], """import math


def rms_norm_list(values, gamma, eps=1e-6):
    mu = sum(values) / len(values)
    d = math.sqrt(sum((v - mu) ** 2 for v in values) / len(values) + eps)
    return [g * (v - mu) / d for v, g in zip(values, gamma)]
"""),
]

# 目录里没有专门对应的“错误模型”：检查要靠逐步诊断（性质）或“两处典型错误的组合”认出来
NOVEL = [
    # 与 ch02、ch12 同一种说法（评审 r46 见到各章说法不一）：只返回了第 1 个数，return 在循环里
    ('return 缩进到了 for 循环里（只有 1 个输出）', ['wrong_length'], """import math


def rms_norm_list(values, gamma, eps=1e-6):
    ms = sum(v * v for v in values) / len(values)
    r = math.sqrt(ms + eps)
    out = []
    for v, g in zip(values, gamma):
        out.append(g * v / r)
        return out
"""),
    ('除以向量的长度 ‖x‖（最常见的均方根混淆）', ['divided_by_norm'], """import math


def rms_norm_list(values, gamma, eps=1e-6):
    ms = sum(v * v for v in values) / len(values)
    d = math.sqrt(sum(v * v for v in values) + eps)
    return [g * v / d for v, g in zip(values, gamma)]
"""),
    ('两处典型错误：减均值 + 没乘 γ', ['subtracted_mean', 'no_gamma'], """import math


def rms_norm_list(values, gamma, eps=1e-6):
    mu = sum(values) / len(values)
    d = math.sqrt(sum((v - mu) ** 2 for v in values) / len(values) + eps)
    return [(v - mu) / d for v in values]
"""),
    ('输出整体加了 0.1', ['constant_added'], """import math


def rms_norm_list(values, gamma, eps=1e-6):
    ms = sum(v * v for v in values) / len(values)
    d = math.sqrt(ms + eps)
    return [g * v / d + 0.1 for v, g in zip(values, gamma)]
"""),
    ('开了四次方根而不是平方根', ['row_rms_not_one', 'not_scale_invariant'], """import math


def rms_norm_list(values, gamma, eps=1e-6):
    ms = sum(v * v for v in values) / len(values)
    d = (ms + eps) ** 0.25
    return [g * v / d for v, g in zip(values, gamma)]
"""),
    ('分母用了最大绝对值', ['row_rms_not_one'], """import math


def rms_norm_list(values, gamma, eps=1e-6):
    ms = sum(v * v for v in values) / len(values)
    d = max(abs(v) for v in values) + eps
    return [g * v / d for v, g in zip(values, gamma)]
"""),
    ('γ 加上而不是乘上', ['gamma_not_featurewise'], """import math


def rms_norm_list(values, gamma, eps=1e-6):
    ms = sum(v * v for v in values) / len(values)
    d = math.sqrt(ms + eps)
    return [v / d + g - 1.0 for v, g in zip(values, gamma)]
"""),
    ('每个数除以自己的绝对值（逐个变换）', ['not_proportional'], """import math


def rms_norm_list(values, gamma, eps=1e-6):
    return [g * v / math.sqrt(v * v + eps) for v, g in zip(values, gamma)]
"""),
    # 评审 r39 的尝试：以前的说明含糊或冤枉了写对的一步
    ('根号里加的是 ε²', ['eps_squared'], """import math

def rms_norm_list(values, gamma, eps=1e-6):
    ms = sum(v * v for v in values) / len(values)
    return [g * v / math.sqrt(ms + eps * eps) for v, g in zip(values, gamma)]
"""),
    ('ε 加到了每个输出上', ['constant_added'], """import math

def rms_norm_list(values, gamma, eps=1e-6):
    ms = sum(v * v for v in values) / len(values)
    return [g * v / math.sqrt(ms) + eps for v, g in zip(values, gamma)]
"""),
    ('均方除以了 H−1', ['row_rms_not_one'], """import math

def rms_norm_list(values, gamma, eps=1e-6):
    ms = sum(v * v for v in values) / (len(values) - 1)
    return [g * v / math.sqrt(ms + eps) for v, g in zip(values, gamma)]
"""),
    ('用了 (x 的平均)²', ['row_rms_not_one'], """import math

def rms_norm_list(values, gamma, eps=1e-6):
    m = sum(values) / len(values)
    return [g * v / math.sqrt(m * m + eps) for v, g in zip(values, gamma)]
"""),
    ('γ 是加上去的', ['gamma_added'], """import math

def rms_norm_list(values, gamma, eps=1e-6):
    ms = sum(v * v for v in values) / len(values)
    return [v / math.sqrt(ms + eps) + g for v, g in zip(values, gamma)]
"""),
    # 评审 r41 的尝试（逐字）：以前只说第一个不同的值，没说 ε 放错了位置
    ('评审 r41：ε 加到平方和上再除以 H（ε/H）', ['eps_divided'], """import math


def rms_norm_list(values, gamma, eps=1e-6):
    ss = sum(v * v for v in values)
    d = math.sqrt((ss + eps) / len(values))
    return [g * v / d for v, g in zip(values, gamma)]
"""),
    # 评审 r44 的尝试（逐字）：以前得到 ✓（检查的输入都是 4 个数）
    ('评审 r44：H 写死成 4（均方除以 4）', ['h_hard_coded'], """import math
def rms_norm_list(values, gamma, eps=1e-6):
    ms = sum(v * v for v in values) / 4
    return [g * v / math.sqrt(ms + eps) for v, g in zip(values, gamma)]
"""),
    # 评审 r45 的尝试（逐字）：以前只说「输出的均方是 16.5，应为 …≈ 1：要除以 √(mean(x²) + ε)」，学习者以为自己正是这样做的
    ('评审 r45：和的平方 (Σx)²/H（不是平方的平均）', ['square_of_sum'], """import math
def rms_norm_list(values, gamma, eps=1e-6):
    ms = sum(v for v in values) ** 2 / len(values)
    r = math.sqrt(ms + eps)
    return [g * v / r for g, v in zip(gamma, values)]
"""),
    # 评审 r45 的尝试（逐字）：以前只有 Python 的原话 can't multiply sequence by non-int of type 'float'
    ('评审 r45：γ 当成一个数来乘（gamma * v）', ['raised'], """import math
def rms_norm_list(values, gamma, eps=1e-6):
    ms = sum(v * v for v in values) / len(values)
    r = math.sqrt(ms + eps)
    return [gamma * v / r for v in values]
"""),
    ('和的平方 (Σx)²，也没有除以 H', ['square_of_sum_total'], """import math


def rms_norm_list(values, gamma, eps=1e-6):
    ms = sum(values) ** 2
    return [g * v / math.sqrt(ms + eps) for v, g in zip(values, gamma)]
"""),
    ('x 乘以了均方根（没有除）', ['times_rms'], """import math


def rms_norm_list(values, gamma, eps=1e-6):
    ms = sum(v * v for v in values) / len(values)
    r = math.sqrt(ms + eps)
    return [g * v * r for g, v in zip(gamma, values)]
"""),
    ('乘完 γ 又加了 γ', ['constant_added'], """import math


def rms_norm_list(values, gamma, eps=1e-6):
    ms = sum(v * v for v in values) / len(values)
    r = math.sqrt(ms + eps)
    return [g * v / r + g for g, v in zip(gamma, values)]
"""),
    # 评审 r46 的尝试（逐字）：ε 写死成 1e-5（抄自层归一化）以前被说成「ε 加在了根号外面」，而 ε 正在根号里
    ('评审 r46：ε 写死成 1e-5（层归一化的默认值），不用参数 eps', ['eps_ignored'], """import math


def rms_norm_list(values, gamma, eps=1e-6):
    ms = sum(v * v for v in values) / len(values)
    d = math.sqrt(ms + 1e-5)
    return [g * v / d for v, g in zip(values, gamma)]
"""),
    # 评审 r46 的尝试（逐字）：以前只有两条症状（输出的均方不是 1、不随倍数抵消），没说只给 ε 开了方
    ('评审 r46：只给 ε 开了方（ms + eps ** 0.5）', ['bracket_sqrt_eps'], """import math


def rms_norm_list(values, gamma, eps=1e-6):
    ms = sum(v * v for v in values) / len(values) + eps ** 0.5
    d = ms
    return [g * v / d for v, g in zip(values, gamma)]
"""),
    # 与评审 r46 在 ch06 的 ** 1 / 2 同一种错误：** 比 / 先算，是除以 2 而不是开平方
    ('** 1 / 2 不是开平方（(ms + eps) ** 1 / 2）', ['pow_half'], """import math


def rms_norm_list(values, gamma, eps=1e-6):
    ms = sum(v * v for v in values) / len(values)
    d = (ms + eps) ** 1 / 2
    return [g * v / d for v, g in zip(values, gamma)]
"""),
    # 评审 r47 的尝试（逐字）：以前说「γ 逐个特征相乘」（学习者正是逐个相乘的），没说出 γ 乘早了
    ('评审 r47：先乘 γ，再对 γ·x 求均方', ['gamma_before_rms'], """import math


def rms_norm_list(values, gamma, eps=1e-6):
    y = [g * v for v, g in zip(values, gamma)]
    ms = sum(t * t for t in y) / len(y)
    return [t / math.sqrt(ms + eps) for t in y]
"""),
]

# 评审找到的说明：上面的尝试里，说明必须说出这些词（tests/test_review_messages.py）
WORDS = {
    'return 缩进到了 for 循环里（只有 1 个输出）': ['第 1 个输入的结果', 'return 缩进到了 for 循环里面', '与 for 对齐'],
    '根号里加的是 ε²': ['ε²', '√(mean(x²) + ε)'],
    'ε 加到了每个输出上': ['同一个常数', '正好是 ε', '根号里面'],
    '均方除以了 H−1': ['除以了 H−1'],
    '用了 (x 的平均)²': ['(x 的平均)²', '先平方、再平均'],
    'γ 是加上去的': ['γ 是加上去的', 'γ 要乘'],
    '输出整体加了 0.1': ['同一个常数 0.1'],
    '评审 r41：ε 加到平方和上再除以 H（ε/H）': ['ε/H', '先除以 H', 'ε 放错了位置'],
    '评审 r44：H 写死成 4（均方除以 4）': ['H = 6', '均方除以了 4', '写死', 'len(values)'],
    '评审 r45：和的平方 (Σx)²/H（不是平方的平均）': ['和的平方', '(Σx)²/H', 'Σx²/H', '`sum(v * v for v in values) / len(values)`'],
    '评审 r45：γ 当成一个数来乘（gamma * v）': ['gamma 是列表', '不能当成一个数', 'gamma[i]', 'zip(values, gamma)'],
    '和的平方 (Σx)²，也没有除以 H': ['(Σx)²', '和的平方', '再除以 H'],
    'x 乘以了均方根（没有除）': ['乘以了均方根', '要除以它'],
    '乘完 γ 又加了 γ': ['正好是 γ', '又加了一次 γ'],
    '评审 r46：ε 写死成 1e-5（层归一化的默认值），不用参数 eps': ['请用参数 eps', '写死成了 1e-5', '√(mean(x²) + 1e-5)'],
    '评审 r46：只给 ε 开了方（ms + eps ** 0.5）': ['少了括号', '** 比 + 先算', '只有 ε 开了方', '均方没有开方',
                                          '`(sum(v * v for v in values) / len(values) + eps) ** 0.5`'],
    '** 1 / 2 不是开平方（(ms + eps) ** 1 / 2）': ['`(ms + eps) ** 1 / 2`', '** 比 / 先算', '除以 2', '`** 0.5`'],
    '评审 r47：先乘 γ，再对 γ·x 求均方': ['γ 乘早了', 'mean((γ·x)²)', '原始的 x', '最后再逐个乘 γ'],
}

# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
REQUIREMENTS = [
    ("用参数 eps", "math.sqrt(mean_square + eps)", "math.sqrt(mean_square + 1e-6)", "eps_ignored", "eps"),
    ("不减均值", "v * v for v in values", "(v - sum(values) / len(values)) ** 2 for v in values", "row_rms_not_one",
     "均方"),
    ("乘 γ", "g * v / rms", "v / rms", "no_gamma", "γ"),
    ("默认 eps=1e-6", "eps=1e-6):", "eps=1e-5):", "wrong_signature", "默认值"),
]

# 每条写明的要求的「邻居」：看起来也说得通的另一种写法（另一个维度、顺序、默认值、估计量……）。
# 检查用的输入要让每个邻居都得出不同的结果：把它当作答案交给检查器，必须不通过（tests/test_neighbours.py）。
# (要求, 参考答案里的原文片段, 换成的邻居写法)
NEIGHBOURS = [
    ('不减均值', 'mean_square = sum(v * v for v in values) / len(values)', 'mean_square = sum((v - sum(values) / len(values)) ** 2 for v in values) / len(values)'),
    ('ε 在根号里', 'math.sqrt(mean_square + eps)', '(math.sqrt(mean_square) + eps)'),
    ('默认 eps=1e-6', 'eps=1e-6', 'eps=1e-5'),
    ('用参数 eps', 'math.sqrt(mean_square + eps)', 'math.sqrt(mean_square + 1e-6)'),
    ('乘 γ（不是 1 + γ）', 'g * v / rms', '(1 + g) * v / rms'),
]
