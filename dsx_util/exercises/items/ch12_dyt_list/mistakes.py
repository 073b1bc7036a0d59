# 导入：无。
"""这道练习编目的错误写法：检查器对每一条必须恰好报出给定的代码（按顺序）。

每条是 (说明, 代码列表, 学习者的整段代码)。
"""
_DYT = '''import math


def dyt_list(values, alpha, gamma, beta):
    return [{y} for v, g, b in zip(values, gamma, beta)]
'''

MISTAKES = [
    ("漏了 γ", ["no_gamma"], _DYT.format(y="math.tanh(alpha * v) + b")),
    ("漏了 β", ["no_beta"], _DYT.format(y="g * math.tanh(alpha * v)")),
    ("α 乘在 tanh 外面", ["alpha_outside"], _DYT.format(y="g * alpha * math.tanh(v) + b")),
    ("没用 α", ["no_alpha"], _DYT.format(y="g * math.tanh(v) + b")),
    ("β 放进了 tanh 里", ["beta_inside"], _DYT.format(y="g * math.tanh(alpha * v + b)")),
    ("γ 与 β 对调", ["gamma_beta_swapped"], _DYT.format(y="b * math.tanh(alpha * v) + g")),
    ("γ 放进了 tanh 里", ["gamma_inside"], _DYT.format(y="math.tanh(g * alpha * v) + b")),
    ("用了 sigmoid 而不是 tanh", ["sigmoid_not_tanh"], _DYT.format(y="g / (1 + math.exp(-alpha * v)) + b")),
    ("先做了层归一化", ["normalized_first"], '''import math


def dyt_list(values, alpha, gamma, beta):
    mu = sum(values) / len(values)
    sd = math.sqrt(sum((v - mu) ** 2 for v in values) / len(values) + 1e-5)
    return [g * math.tanh(alpha * (v - mu) / sd) + b for v, g, b in zip(values, gamma, beta)]
'''),
    ("修改了输入", ["modified_input"], '''import math


def dyt_list(values, alpha, gamma, beta):
    for i, (v, g, b) in enumerate(zip(values, gamma, beta)):
        values[i] = g * math.tanh(alpha * v) + b
    return values
'''),
]
NOVEL = [   # 编目之外的错误：两处典型错误同时出现，或靠逐步诊断指出错在哪一步
    ("两处典型错误：漏了 γ 和 β", ["no_gamma", "no_beta"], _DYT.format(y="math.tanh(alpha * v)")),
    ("除以了所有输入的最大绝对值（不是逐元素，大输入也因此不再饱和）", ["not_elementwise", "not_saturating"], '''import math


def dyt_list(values, alpha, gamma, beta):
    m = max(abs(v) for v in values)
    return [g * math.tanh(alpha * v / m) + b for v, g, b in zip(values, gamma, beta)]
'''),
    ("用了没有饱和的近似 tanh(x) ≈ x", ["not_saturating"], _DYT.format(y="g * (alpha * v) + b")),
    # 评审 r39 的尝试：以前只说「输出第 1 个值应为 …，你的是 …」
    ('tanh(x / α)：α 做了除数', ['alpha_divides'], """import math

def dyt_list(values, alpha, gamma, beta):
    return [g * math.tanh(v / alpha) + b for v, g, b in zip(values, gamma, beta)]
"""),
    ('所有分量乘 γ 的平均', ['gamma_mean_for_all'], """import math

def dyt_list(values, alpha, gamma, beta):
    return [sum(gamma) / len(gamma) * math.tanh(alpha * v) + b for v, b in zip(values, beta)]
"""),
    ('α 用了两次（tanh(α²·x)）', ['alpha_twice'], """import math

def dyt_list(values, alpha, gamma, beta):
    return [g * math.tanh(alpha * alpha * v) + b for v, g, b in zip(values, gamma, beta)]
"""),
    ('所有分量乘 γ[0]', ['gamma_first_for_all'], """import math


def dyt_list(values, alpha, gamma, beta):
    return [gamma[0] * math.tanh(alpha * v) + b for v, b in zip(values, beta)]
"""),
    # 评审 r40 的尝试（逐字）：以前只说「输出第 2 个值应为 …，你的是 …」
    ('所有分量都用 γ[0] 和 β[0]', ['gamma_first_for_all', 'beta_first_for_all'], """import math
def dyt_list(values, alpha, gamma, beta):
    return [gamma[0] * math.tanh(alpha * v) + beta[0] for v in values]
"""),
    # 评审 r41 的尝试（逐字）：以前得到 ✓（检查用的 α 都是正数）
    ('评审 r41：α 取了绝对值 abs(alpha)', ['alpha_abs'], """import math


def dyt_list(values, alpha, gamma, beta):
    a = abs(alpha)
    return [g * math.tanh(a * v) + b for v, g, b in zip(values, gamma, beta)]
"""),
    # 评审 r42 的尝试（逐字）：以前两条都只说「输入 20 的输出应约为 tanh(20) = 1」，没说错在哪一步
    ('评审 r42：tanh 拼成了 math.tan', ['tan_not_tanh'], """import math
def dyt_list(values, alpha, gamma, beta):
    return [g * math.tan(alpha * x) + b for x, g, b in zip(values, gamma, beta)]
"""),
    ('评审 r42：tanh(α)·x（α 单独进了 tanh）', ['tanh_alpha_times_x'], """import math
def dyt_list(values, alpha, gamma, beta):
    return [g * math.tanh(alpha) * x + b for x, g, b in zip(values, gamma, beta)]
"""),
    # 评审 r44 的审计：检查用的输入以前都一样大，写死了大小的代码得到 ✓
    ('个数写死成 4（range(4)）', ['h_hard_coded'], """import math


def dyt_list(values, alpha, gamma, beta):
    return [gamma[i] * math.tanh(alpha * values[i]) + beta[i] for i in range(4)]
"""),
    # 评审 r45 的尝试（逐字）：以前只说「输出第 1 个值应为 0.669923，你的是 0.469923」
    ('评审 r45：β 减掉了（γ·tanh(α·x) − β）', ['beta_subtracted'], """import math
def dyt_list(values, alpha, gamma, beta):
    return [g * math.tanh(alpha * x) - b for x, g, b in zip(values, gamma, beta)]
"""),
    # 评审 r45 之后的审计：符号、位置放错的几种写法以前只得到数字（或「不饱和」）
    ('γ 加上而不是乘上', ['gamma_added'], _DYT.format(y="g + math.tanh(alpha * v) + b")),
    ('β 乘上而不是加上', ['beta_multiplied'], _DYT.format(y="g * math.tanh(alpha * v) * b")),
    ('β 也被 γ 乘到（γ·(tanh + β)）', ['beta_times_gamma'], _DYT.format(y="g * (math.tanh(alpha * v) + b)")),
    ('tanh 项的符号反了（β − γ·tanh）', ['negated'], _DYT.format(y="b - g * math.tanh(alpha * v)")),
    ('α 加到 x 上（tanh(α + x)）', ['alpha_added'], _DYT.format(y="g * math.tanh(alpha + v) + b")),
    ('最后加的是 γ 不是 β', ['gamma_for_beta'], _DYT.format(y="g * math.tanh(alpha * v) + g")),
    ('β 当成一个数来加（+ beta）', ['raised'], """import math


def dyt_list(values, alpha, gamma, beta):
    return [g * math.tanh(alpha * v) + beta for v, g in zip(values, gamma)]
"""),
    # 评审 r46 的尝试（逐字）：以前只说「输出应有 4 个数，实际有 1 个」
    ('评审 r46：return 缩进到了 for 循环里（只有 1 个输出）', ['wrong_length'], """import math


def dyt_list(values, alpha, gamma, beta):
    out = []
    for i in range(len(values)):
        out.append(gamma[i] * math.tanh(alpha * values[i]) + beta[i])
        return out
"""),
]


# 评审找到的说明：上面的尝试里，说明必须说出这些词（tests/test_review_messages.py）
WORDS = {
    'tanh(x / α)：α 做了除数': ['tanh(x / α)', 'tanh(α·x)'],
    '所有分量乘 γ 的平均': ['逐分量', 'γ 的平均'],
    'α 用了两次（tanh(α²·x)）': ['α 用了两次'],
    '所有分量乘 γ[0]': ['逐分量', 'γ[0]'],
    '所有分量都用 γ[0] 和 β[0]': ['γ[0]', 'β[0]', '逐分量'],
    '评审 r41：α 取了绝对值 abs(alpha)': ['|α|', 'α 可以是负数'],
    '评审 r42：tanh 拼成了 math.tan': ['不是 tanh', 'γ·tan(α·x) + β', 'math.tanh'],
    '评审 r42：tanh(α)·x（α 单独进了 tanh）': ['γ·tanh(α)·x + β', 'α·x 要一起放进 tanh'],
    '个数写死成 4（range(4)）': ['6 个数', '却有 4 个数', '写死', 'len(values)'],
    '评审 r45：β 减掉了（γ·tanh(α·x) − β）': ['β 是减掉的', 'β 要加上', 'γ·tanh(α·x) + β'],
    'γ 加上而不是乘上': ['γ 是加上去的', 'γ 要乘'],
    'β 乘上而不是加上': ['β 是乘上去的', 'β 要加'],
    'β 也被 γ 乘到（γ·(tanh + β)）': ['γ·(tanh(α·x) + β)', 'β 加在乘完 γ 之后'],
    'tanh 项的符号反了（β − γ·tanh）': ['符号反了', '−γ·tanh(α·x) + β'],
    'α 加到 x 上（tanh(α + x)）': ['tanh(α + x)', 'α 要乘'],
    '最后加的是 γ 不是 β': ['最后加的是 γ', '平移参数 β'],
    'β 当成一个数来加（+ beta）': ['beta 是列表', 'beta[i]', 'zip(values, beta)'],
    '评审 r46：return 缩进到了 for 循环里（只有 1 个输出）': ['第 1 个输入的结果', 'return 缩进到了 for 循环里面', '与 for 对齐'],
}

# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
SIG = "参数"   # 签名不符的说明里都有“参数”
REQUIREMENTS = [
    ("只用纯 Python", "    return [g * math.tanh", "    import torch\n    torch.zeros(1)\n    return [g * math.tanh",
     "forbidden_call", "纯 Python"),
    ("α 乘在输入上、在 tanh 里", "g * math.tanh(alpha * v) + b", "g * alpha * math.tanh(v) + b", "alpha_outside", "tanh(α·x)"),
    ("γ 逐个分量相乘", "g * math.tanh(alpha * v) + b", "math.tanh(alpha * v) + b", "no_gamma", "γ"),
    ("β 逐个分量相加", "g * math.tanh(alpha * v) + b", "g * math.tanh(alpha * v)", "no_beta", "β"),
    ("每个输出只取决于同一位置的输入", "g * math.tanh(alpha * v) + b",
     "g * math.tanh(alpha * v / max(abs(u) for u in values)) + b", "not_elementwise", "同一位置"),
    ("不修改传入的列表", "    return [g * math.tanh(alpha * v) + b for v, g, b in zip(values, gamma, beta)]",
     "    values[:] = [g * math.tanh(alpha * v) + b for v, g, b in zip(values, gamma, beta)]\n    return values",
     "modified_input", "不要修改"),
    ("签名 dyt_list(values, alpha, gamma, beta)", "def dyt_list(values, alpha, gamma, beta):",
     "def dyt_list(values, alpha, gamma):", "wrong_signature", SIG),
]

# 每条写明的要求的「邻居」：看起来也说得通的另一种写法（另一个维度、顺序、默认值、估计量……）。
# 检查用的输入要让每个邻居都得出不同的结果：把它当作答案交给检查器，必须不通过（tests/test_neighbours.py）。
# (要求, 参考答案里的原文片段, 换成的邻居写法)
NEIGHBOURS = [
    ('α 在 tanh 里', 'g * math.tanh(alpha * v) + b', 'g * alpha * math.tanh(v) + b'),
    ('β 在 tanh 外', 'g * math.tanh(alpha * v) + b', 'g * math.tanh(alpha * v + b)'),
    ('γ、β 不对调', 'g * math.tanh(alpha * v) + b', 'b * math.tanh(alpha * v) + g'),
    ('γ 乘在 tanh 外', 'g * math.tanh(alpha * v) + b', 'math.tanh(g * alpha * v) + b'),
    ('α 用它本身（可以是负数），不取绝对值', 'g * math.tanh(alpha * v) + b', 'g * math.tanh(abs(alpha) * v) + b'),
]
