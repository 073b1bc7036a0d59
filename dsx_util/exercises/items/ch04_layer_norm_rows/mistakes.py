# 导入：无。
"""练习 ch04-layer-norm-rows 编目的错误写法：检查器对每一条必须恰好报出给定的代码（按顺序）。

每条是 (说明, 代码列表, 学习者的整段代码)；CPython 的测试（tests/test_exercise_layout.py、test_inpage_checks.py）
和浏览器测试（test_inpage_browser.py，把代码敲进网页）用同一批代码。
"""
MISTAKES = [
    ('unbiased_var', ['unbiased_var'], """import math


def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        h = len(row)
        mu = sum(row) / h
        var = sum((v - mu) ** 2 for v in row) / (h - 1)
        std = math.sqrt(var + eps)
        out.append([g * (v - mu) / std + b for v, g, b in zip(row, gamma, beta)])
    return out
"""),
    ('eps_outside_sqrt', ['eps_outside_sqrt'], """import math


def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        h = len(row)
        mu = sum(row) / h
        var = sum((v - mu) ** 2 for v in row) / h
        std = math.sqrt(var) + eps
        out.append([g * (v - mu) / std + b for v, g, b in zip(row, gamma, beta)])
    return out
"""),
    ('no_eps', ['no_eps'], """import math


def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        h = len(row)
        mu = sum(row) / h
        var = sum((v - mu) ** 2 for v in row) / h
        std = math.sqrt(var)
        out.append([g * (v - mu) / std + b for v, g, b in zip(row, gamma, beta)])
    return out
"""),
    ('eps_ignored', ['eps_ignored'], """import math


def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        h = len(row)
        mu = sum(row) / h
        var = sum((v - mu) ** 2 for v in row) / h
        std = math.sqrt(var + 1e-5)
        out.append([g * (v - mu) / std + b for v, g, b in zip(row, gamma, beta)])
    return out
"""),
    ('no_centering', ['no_centering'], """import math


def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        h = len(row)
        mu = sum(row) / h
        var = sum((v - mu) ** 2 for v in row) / h
        std = math.sqrt(var + eps)
        out.append([g * v / std + b for v, g, b in zip(row, gamma, beta)])
    return out
"""),
    ('no_gamma_beta', ['no_gamma_beta'], """import math


def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        h = len(row)
        mu = sum(row) / h
        var = sum((v - mu) ** 2 for v in row) / h
        std = math.sqrt(var + eps)
        out.append([(v - mu) / std for v, g, b in zip(row, gamma, beta)])
    return out
"""),
    ('gamma_beta_swapped', ['gamma_beta_swapped'], """import math


def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        h = len(row)
        mu = sum(row) / h
        var = sum((v - mu) ** 2 for v in row) / h
        std = math.sqrt(var + eps)
        out.append([b * (v - mu) / std + g for v, g, b in zip(row, gamma, beta)])
    return out
"""),
    ('shift_before_scale', ['shift_before_scale'], """import math


def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        h = len(row)
        mu = sum(row) / h
        var = sum((v - mu) ** 2 for v in row) / h
        std = math.sqrt(var + eps)
        out.append([((v - mu) / std + b) * g for v, g, b in zip(row, gamma, beta)])
    return out
"""),
    ('wrong_axis', ['wrong_axis'], """import math


def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    cols = []
    for col in zip(*rows):
        mu = sum(col) / len(col)
        var = sum((v - mu) ** 2 for v in col) / len(col)
        cols.append([(v - mu) / math.sqrt(var + eps) for v in col])
    return [[g * v + b for v, g, b in zip(row, gamma, beta)] for row in zip(*cols)]
"""),
]

# 目录里没有专门对应的“错误模型”：检查要靠逐步诊断（性质）或“两处典型错误的组合”认出来
NOVEL = [
    ('两处典型错误：无偏方差 + ε 在根号外', ['unbiased_var', 'eps_outside_sqrt'], """import math


def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        h = len(row)
        mu = sum(row) / h
        var = sum((v - mu) ** 2 for v in row) / (h - 1)
        std = math.sqrt(var) + eps
        out.append([g * (v - mu) / std + b for v, g, b in zip(row, gamma, beta)])
    return out
"""),
    ('除以方差而不是标准差', ['no_sqrt'], """import math


def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        h = len(row)
        mu = sum(row) / h
        var = sum((v - mu) ** 2 for v in row) / h
        std = (var + eps)
        out.append([g * (v - mu) / std + b for v, g, b in zip(row, gamma, beta)])
    return out
"""),
    ('减去的是行的中位数（第 2 个值）', ['row_mean_not_zero'], """import math


def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        h = len(row)
        mu = sum(row) / h
        var = sum((v - mu) ** 2 for v in row) / h
        std = math.sqrt(var + eps)
        out.append([g * (v - sorted(row)[1]) / std + b for v, g, b in zip(row, gamma, beta)])
    return out
"""),
    ('除以了行内最大绝对值', ['row_variance_not_one'], """import math


def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        h = len(row)
        mu = sum(row) / h
        var = sum((v - mu) ** 2 for v in row) / h
        std = max(abs(u - mu) for u in row) + eps
        out.append([g * (v - mu) / std + b for v, g, b in zip(row, gamma, beta)])
    return out
"""),
    ('β 只加到第一个特征上', ['beta_not_featurewise'], """import math


def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        h = len(row)
        mu = sum(row) / h
        var = sum((v - mu) ** 2 for v in row) / h
        std = math.sqrt(var + eps)
        out.append([g * (v - mu) / std + (b if v is row[0] else 0.0) for v, g, b in zip(row, gamma, beta)])
    return out
"""),
    ('所有特征都乘 γ[0]', ['gamma_not_featurewise'], """import math


def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        h = len(row)
        mu = sum(row) / h
        var = sum((v - mu) ** 2 for v in row) / h
        std = math.sqrt(var + eps)
        out.append([gamma[0] * (v - mu) / std + b for v, g, b in zip(row, gamma, beta)])
    return out
"""),
    ('分母多加了 0.1', ['row_variance_not_one', 'not_scale_invariant'], """import math


def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        h = len(row)
        mu = sum(row) / h
        var = sum((v - mu) ** 2 for v in row) / h
        std = math.sqrt(var + eps) + 0.1
        out.append([g * (v - mu) / std + b for v, g, b in zip(row, gamma, beta)])
    return out
"""),
    ('每行都减去第一行的均值', ['row_mean_not_zero', 'not_shift_invariant', 'rows_mixed'], """import math


def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        h = len(row)
        mu = sum(row) / h
        var = sum((v - mu) ** 2 for v in row) / h
        std = math.sqrt(var + eps)
        out.append([g * (v - sum(rows[0]) / h) / std + b for v, g, b in zip(row, gamma, beta)])
    return out
"""),
    # 评审 r39 的尝试：以前的说明含糊或冤枉了写对的一步
    ('所有特征都用 γ[0]、β[0]', ['gamma_beta_first_only'], """import math

def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        h = len(row)
        mu = sum(row) / h
        var = sum((v - mu) ** 2 for v in row) / h
        std = math.sqrt(var + eps)
        out.append([gamma[0] * (v - mu) / std + beta[0] for v in row])
    return out
"""),
    ('ε 加了两次（根号里外各一次）', ['eps_twice'], """import math

def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        h = len(row)
        mu = sum(row) / h
        var = sum((v - mu) ** 2 for v in row) / h
        std = math.sqrt(var + eps) + eps
        out.append([g * (v - mu) / std + b for v, g, b in zip(row, gamma, beta)])
    return out
"""),
    ('return 缩进到了 for 循环里（只有 1 行）', ['wrong_length'], """import math

def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        h = len(row)
        mu = sum(row) / h
        var = sum((v - mu) ** 2 for v in row) / h
        std = math.sqrt(var + eps)
        out.append([g * (v - mu) / std + b for v, g, b in zip(row, gamma, beta)])
        return out
"""),
    ('均值除以了 H−1', ['row_mean_not_zero', 'row_variance_not_one', 'not_shift_invariant'], """import math

def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        h = len(row)
        mu = sum(row) / (h - 1)
        var = sum((v - mu) ** 2 for v in row) / h
        std = math.sqrt(var + eps)
        out.append([g * (v - mu) / std + b for v, g, b in zip(row, gamma, beta)])
    return out
"""),
    ('方差是 x² 的平均（没减均值）', ['row_variance_not_one', 'not_shift_invariant'], """import math

def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        h = len(row)
        mu = sum(row) / h
        var = sum(v * v for v in row) / h
        std = math.sqrt(var + eps)
        out.append([g * (v - mu) / std + b for v, g, b in zip(row, gamma, beta)])
    return out
"""),
    # 评审 r40 的尝试（逐字）：return 在循环里、返回的是第一行本身（4 个数），以前说「实际有 4 行」；
    # 另外两条以前把均值引成了式 (4.2)（均值是式 (4.1)）
    ('return 在循环里，返回的是第一行（一维列表）', ['wrong_length'], """import math
def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    for row in rows:
        n = len(row)
        mu = sum(row) / n
        var = sum((x - mu) ** 2 for x in row) / n
        return [g * (x - mu) / math.sqrt(var + eps) + b for x, g, b in zip(row, gamma, beta)]
"""),
    ('每行都用第一行的均值和方差', ['row_mean_not_zero', 'row_variance_not_one', 'not_shift_invariant', 'rows_mixed'],
     """import math
def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    n = len(rows[0])
    mu = sum(rows[0]) / n
    var = sum((x - mu) ** 2 for x in rows[0]) / n
    return [[g * (x - mu) / math.sqrt(var + eps) + b for x, g, b in zip(row, gamma, beta)] for row in rows]
"""),
    ('均值用了整数除法 //', ['row_mean_not_zero', 'row_variance_not_one', 'not_scale_invariant'], """import math
def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        n = len(row)
        mu = sum(row) // n
        var = sum((x - mu) ** 2 for x in row) / n
        out.append([g * (x - mu) / math.sqrt(var + eps) + b for x, g, b in zip(row, gamma, beta)])
    return out
"""),
    # 评审 r41 的尝试（逐字）：以前只说第 1 行第一个不同的值（差在第 7 位，像是舍入）
    ('评审 r41：√max(σ², ε) 代替 √(σ² + ε)', ['eps_max'], """import math


def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        h = len(row)
        mu = sum(row) / h
        var = sum((v - mu) ** 2 for v in row) / h
        d = math.sqrt(max(var, eps))
        out.append([g * (v - mu) / d + b for v, g, b in zip(row, gamma, beta)])
    return out
"""),
    ('评审 r41：ε 加到偏差平方和上再除以 H（ε/H）', ['eps_divided'], """import math


def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        h = len(row)
        mu = sum(row) / h
        ss = sum((v - mu) ** 2 for v in row)
        d = math.sqrt((ss + eps) / h)
        out.append([g * (v - mu) / d + b for v, g, b in zip(row, gamma, beta)])
    return out
"""),
    # 评审 r44 的尝试（逐字）：以前得到 ✓（检查的输入每行都是 4 个数）
    ('评审 r44：H 写死成 4（均值、方差都除以 4）', ['h_hard_coded'], """import math
def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        mu = sum(row) / 4
        var = sum((v - mu) ** 2 for v in row) / 4
        out.append([g * (v - mu) / math.sqrt(var + eps) + b for v, g, b in zip(row, gamma, beta)])
    return out
"""),
    # 评审 r44 的审计：检查用的输入以前都一样大，写死了大小的代码得到 ✓
    ('行数写死成 3（range(3)）', ['rows_hard_coded'], """import math


def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for t in range(3):
        row = rows[t]
        mu = sum(row) / len(row)
        var = sum((v - mu) ** 2 for v in row) / len(row)
        out.append([g * (v - mu) / math.sqrt(var + eps) + b for v, g, b in zip(row, gamma, beta)])
    return out
"""),
    # 评审 r45 的尝试（逐字）：以前第一条说「像是 return 缩进到了 for 循环里面」（return 并不在循环里），
    # 第二条只得到五条症状（还说「像是没有除以标准差」）
    ('评审 r45：return out[0]（只返回了第 1 行，return 不在循环里）', ['wrong_length'], """import math
def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        H = len(row)
        mu = sum(row) / H
        var = sum((x - mu) ** 2 for x in row) / H
        std = math.sqrt(var + eps)
        out.append([gamma[i] * (row[i] - mu) / std + beta[i] for i in range(H)])
    return out[0]
"""),
    ('评审 r45：少了括号，γ·x − μ/σ + β', ['bracket_gamma_x'], """import math
def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        H = len(row)
        mu = sum(row) / H
        var = sum((x - mu) ** 2 for x in row) / H
        std = math.sqrt(var + eps)
        out.append([gamma[i] * row[i] - mu / std + beta[i] for i in range(H)])
    return out
"""),
    # 评审 r45 的审计：别的少了括号的写法（以前只得到症状）
    ('少了括号：γ·(x − μ/σ) + β', ['bracket_mu_over_std'], """import math
def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        H = len(row)
        mu = sum(row) / H
        var = sum((x - mu) ** 2 for x in row) / H
        std = math.sqrt(var + eps)
        out.append([gamma[i] * (row[i] - mu / std) + beta[i] for i in range(H)])
    return out
"""),
    ('少了括号：var + eps ** 0.5（只有 ε 开了方）', ['bracket_sqrt_eps'], """import math
def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        H = len(row)
        mu = sum(row) / H
        var = sum((x - mu) ** 2 for x in row) / H
        std = var + eps ** 0.5
        out.append([gamma[i] * (row[i] - mu) / std + beta[i] for i in range(H)])
    return out
"""),
    ('少了括号：… / math.sqrt(var) + eps（ε 加在了除法之后）', ['bracket_eps_after_div'], """import math
def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        H = len(row)
        mu = sum(row) / H
        var = sum((x - mu) ** 2 for x in row) / H
        std = math.sqrt(var + eps)
        out.append([gamma[i] * (row[i] - mu) / math.sqrt(var) + eps + beta[i] for i in range(H)])
    return out
"""),
    # 评审 r46 的尝试：以前得到 4 条症状（其中一条说第 3 行的方差是 0.001692）
    ('评审 r46：均值和方差用所有行一起算', ['normalized_all'], """import math
def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    flat = [x for row in rows for x in row]
    mu = sum(flat) / len(flat)
    var = sum((x - mu) ** 2 for x in flat) / len(flat)
    std = math.sqrt(var + eps)
    return [[g * (x - mu) / std + b for x, g, b in zip(row, gamma, beta)] for row in rows]
"""),
    # 评审 r47 的尝试（逐字）：以前得到 3 条症状（说除法和减均值错了），没说出 μ 没有平方
    ('评审 r47：单遍公式 mean(x²) − μ，μ 没有平方', ['mu_not_squared'], """import math


def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        H = len(row)
        mu = sum(row) / H
        var = sum(x ** 2 for x in row) / H - mu
        d = math.sqrt(var + eps)
        out.append([gamma[i] * (row[i] - mu) / d + beta[i] for i in range(H)])
    return out
"""),
]

# 评审找到的说明：上面的尝试里，说明必须说出这些词（tests/test_review_messages.py）
WORDS = {
    '所有特征都用 γ[0]、β[0]': ['γ[0]', 'β[0]', '逐特征'],
    'ε 加了两次（根号里外各一次）': ['ε 加了两次'],
    'return 缩进到了 for 循环里（只有 1 行）': ['实际有 1 行', 'return', 'for 循环'],
    '均值除以了 H−1': ['你减去的是', '除以了 H−1', '方差是用你减去的那个数'],
    '方差是 x² 的平均（没减均值）': ['x² 的平均', 'σ² = mean((x − μ)²)'],
    '减去的是行的中位数（第 2 个值）': ['你减去的是'],
    'return 在循环里，返回的是第一行（一维列表）': ['一维列表', '只有一行', '第 1 行的结果', 'return', 'for'],
    '每行都用第一行的均值和方差': ['不是这一行的均值', '（式 (4.1)）'],
    '均值用了整数除法 //': ['整数除法 //', '（式 (4.1)）'],
    '评审 r41：√max(σ², ε) 代替 √(σ² + ε)': ['max(σ², ε)', '√(σ² + ε)', '第 3 行'],
    '评审 r41：ε 加到偏差平方和上再除以 H（ε/H）': ['ε/H', '先除以 H', '第 3 行'],
    '评审 r44：H 写死成 4（均值、方差都除以 4）': ['H = 6', '均值和方差都除以了 4', '写死', 'len(row)'],
    '行数写死成 3（range(3)）': ['5 行', '却有 3 行', '写死', 'for row in rows'],
    '评审 r45：return out[0]（只返回了第 1 行，return 不在循环里）': ['第 1 行的结果', '`return out[0]`', '`return out`'],
    '评审 r45：少了括号，γ·x − μ/σ + β': ['少了括号', '`gamma[i] * row[i] - mu / std`', '`gamma[i] * (row[i] - mu) / std`'],
    '少了括号：γ·(x − μ/σ) + β': ['少了括号', '`row[i] - mu / std`', '`(row[i] - mu) / std`'],
    '少了括号：var + eps ** 0.5（只有 ε 开了方）': ['** 比 + 先算', '`var + eps ** 0.5`', '`(var + eps) ** 0.5`'],
    '少了括号：… / math.sqrt(var) + eps（ε 加在了除法之后）': ['ε 没有进分母', '√(σ² + ε)'],
    '评审 r46：均值和方差用所有行一起算': ['所有行一起算', '每一行里算', 'H 个数'],
    '评审 r47：单遍公式 mean(x²) − μ，μ 没有平方': ['mean(x²) − μ²', '没有平方', '`- mu ** 2`'],
}

# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
REQUIREMENTS = [
    ("只用纯 Python（不用 torch）", "std = math.sqrt(var + eps)", "import torch\n        std = float(torch.tensor(var + eps).sqrt())",
     "forbidden_call", "不用 torch"),
    ("用参数 eps", "math.sqrt(var + eps)", "math.sqrt(var + 1e-5)", "eps_ignored", "eps"),
    ("有偏方差（除以 H）", "/ h           # 式 (4.2)", "/ (h - 1)     # 式 (4.2)", "unbiased_var", "H−1"),
    ("默认 eps=1e-5", "eps=1e-5):", "eps):", "wrong_signature", "默认值"),
    ("返回新列表、不修改输入", "    return out", "    rows[:] = out\n    return out", "modified_input", "不要修改输入"),
]

# 每条写明的要求的「邻居」：看起来也说得通的另一种写法（另一个维度、顺序、默认值、估计量……）。
# 检查用的输入要让每个邻居都得出不同的结果：把它当作答案交给检查器，必须不通过（tests/test_neighbours.py）。
# (要求, 参考答案里的原文片段, 换成的邻居写法)
NEIGHBOURS = [
    ('有偏方差', '/ h           # 式 (4.2)', '/ (h - 1)           # 式 (4.2)'),
    ('ε 在根号里', 'math.sqrt(var + eps)', '(math.sqrt(var) + eps)'),
    ('用参数 eps', 'math.sqrt(var + eps)', 'math.sqrt(var + 1e-5)'),
    ('默认 eps=1e-5', 'eps=1e-5', 'eps=1e-6'),
    ('β 在乘完 γ 之后加', 'g * (v - mu) / std + b', 'g * ((v - mu) / std + b)'),
    ('γ、β 不对调', 'g * (v - mu) / std + b for v, g, b in zip(row, gamma, beta)', 'b * (v - mu) / std + g for v, g, b in zip(row, gamma, beta)'),
]
