# 导入：无。
"""练习 ch13-frozen-sigma-norm 编目的错误写法：检查器对每一条必须恰好报出给定的代码（按顺序）。

每条是 (说明, 代码列表, 学习者的整段代码)；CPython 的测试（tests/test_exercise_layout.py、test_inpage_checks.py）
和浏览器测试（test_inpage_browser.py，把代码敲进网页）用同一批代码。
"""
_SRC = '''def frozen_sigma_norm(rows, sigma, gamma, beta):
    out = []
    for row in rows:
        mu = {mu}
        out.append([{y} for v, g, b in zip(row, gamma, beta)])
    return out
'''


def _src(mu="sum(row) / len(row)", y="g * (v - mu) / sigma + b"):
    return _SRC.format(mu=mu, y=y)


MISTAKES = [
    ("per_token_sigma", ["per_token_sigma"], '''import math


def frozen_sigma_norm(rows, sigma, gamma, beta):
    out = []
    for row in rows:
        mu = sum(row) / len(row)
        s = math.sqrt(sum((v - mu) ** 2 for v in row) / len(row) + 1e-5)
        out.append([g * (v - mu) / s + b for v, g, b in zip(row, gamma, beta)])
    return out
'''),
    ("no_centering", ["no_centering"], _src(y="g * v / sigma + b")),
    ("global_mean", ["global_mean"], _src(mu="sum(sum(r) for r in rows) / (len(rows) * len(row))")),
    ("feature_mean", ["feature_mean"], '''def frozen_sigma_norm(rows, sigma, gamma, beta):
    means = [sum(col) / len(col) for col in zip(*rows)]
    return [[g * (v - m) / sigma + b for v, m, g, b in zip(row, means, gamma, beta)] for row in rows]
'''),
    ("sigma_squared", ["sigma_squared"], _src(y="g * (v - mu) / sigma ** 2 + b")),
    ("sigma_sqrt", ["sigma_sqrt"], _src(y="g * (v - mu) / sigma ** 0.5 + b")),
    ("eps_added", ["eps_added"], _src(y="g * (v - mu) / (sigma ** 2 + 1e-5) ** 0.5 + b")),
    ("multiplied_by_sigma", ["multiplied_by_sigma"], _src(y="g * (v - mu) * sigma + b")),
    ("no_gamma", ["no_gamma"], _src(y="(v - mu) / sigma + b")),
    ("no_beta", ["no_beta"], _src(y="g * (v - mu) / sigma")),
    ("gamma_beta_swapped", ["gamma_beta_swapped"], _src(y="b * (v - mu) / sigma + g")),
    ("eps_added_to_sigma", ["eps_added_to_sigma"], _src(y="g * (v - mu) / (sigma + 1e-5) + b")),
    ("rows_not_lists", ["rows_not_lists"], '''def frozen_sigma_norm(rows, sigma, gamma, beta):
    out = []
    for row in rows:
        mu = sum(row) / len(row)
        out.append(tuple(g * (v - mu) / sigma + b for v, g, b in zip(row, gamma, beta)))
    return out
'''),
    ("modified_input", ["modified_input"], '''def frozen_sigma_norm(rows, sigma, gamma, beta):
    for row in rows:
        mu = sum(row) / len(row)
        for i in range(len(row)):
            row[i] = gamma[i] * (row[i] - mu) / sigma + beta[i]
    return [list(row) for row in rows]
'''),
]

# 目录里没有专门对应的“错误模型”：检查要靠逐步诊断（性质）或“两处典型错误的组合”认出来
NOVEL = [
    ("两处典型错误：用了各词元自己的 σ + 没加 β", ["per_token_sigma", "no_beta"], '''import math


def frozen_sigma_norm(rows, sigma, gamma, beta):
    out = []
    for row in rows:
        mu = sum(row) / len(row)
        s = math.sqrt(sum((v - mu) ** 2 for v in row) / len(row))
        out.append([g * (v - mu) / s for v, g in zip(row, gamma)])
    return out
'''),
    ("两处典型错误：没减均值 + 把 sigma 平方", ["no_centering", "sigma_squared"], _src(y="g * v / (sigma * sigma) + b")),
    ("取冻结的 σ 与这个词元自己的 σ 中较大的一个", ["sigma_not_frozen"], '''import math


def frozen_sigma_norm(rows, sigma, gamma, beta):
    out = []
    for row in rows:
        mu = sum(row) / len(row)
        s = max(sigma, math.sqrt(sum((v - mu) ** 2 for v in row) / len(row)))
        out.append([g * (v - mu) / s + b for v, g, b in zip(row, gamma, beta)])
    return out
'''),
    ("β 也乘了 γ：γ·((x − μ)/sigma + β)", ["beta_not_featurewise"], _src(y="g * ((v - mu) / sigma + b)")),
    ("μ 用了中位数", ["row_mean_not_zero"], _src(mu="sorted(row)[len(row) // 2]")),
    ("除完 sigma 再多加了 0.1", ["row_mean_not_zero"],
     _src(y="g * (v - mu) / sigma + b + 0.1")),
    ("第一个词元的均值被后面的词元沿用", ["row_mean_not_zero", "not_shift_invariant", "rows_mixed"], '''def frozen_sigma_norm(rows, sigma, gamma, beta):
    mu = sum(rows[0]) / len(rows[0])
    return [[g * (v - mu) / sigma + b for v, g, b in zip(row, gamma, beta)] for row in rows]
'''),
    ("分母写死成 2.5，没用参数 sigma", ["sigma_not_divided"], _src(y="g * (v - mu) / 2.5 + b")),
    ("γ 只用了第一个", ["gamma_not_featurewise"], _src(y="gamma[0] * (v - mu) / sigma + b")),
    # 评审 r40 的尝试（逐字）：题目说能认出「均值的方向不对」，以前只说「第 1 行第 1 个值应为 0.325，你的是 -0.125」
    ("均值减反了：μ − x", ["mean_reversed"], '''def frozen_sigma_norm(rows, sigma, gamma, beta):
    out = []
    for row in rows:
        mu = sum(row) / len(row)
        out.append([g * (mu - v) / sigma + b for v, g, b in zip(row, gamma, beta)])
    return out
'''),
    # 评审 r44 的尝试（逐字）：以前得到 ✓（检查的输入每行都是 4 个数）
    ('评审 r44：H 写死成 4（均值除以 4）', ['h_hard_coded'], """def frozen_sigma_norm(rows, sigma, gamma, beta):
    out = []
    for row in rows:
        mu = sum(row) / 4
        out.append([g * (v - mu) / sigma + b for v, g, b in zip(row, gamma, beta)])
    return out
"""),
    # 评审 r44 的审计：检查用的输入以前都一样大，写死了大小的代码得到 ✓
    ('行数写死成 3（rows[:3]）', ['rows_hard_coded'], """def frozen_sigma_norm(rows, sigma, gamma, beta):
    out = []
    for row in rows[:3]:
        mu = sum(row) / len(row)
        out.append([g * (v - mu) / sigma + b for v, g, b in zip(row, gamma, beta)])
    return out
"""),
    # 评审 r45 的尝试（逐字）：以前得到三条症状（均值不为 0、sigma 没有除、不随平移不变），没说出少了括号
    ('评审 r45：少了括号，γ·(x − μ/σ) + β', ['bracket_mu_over_sigma'], """def frozen_sigma_norm(rows, sigma, gamma, beta):
    out = []
    for row in rows:
        mu = sum(row) / len(row)
        out.append([gamma[i] * (row[i] - mu / sigma) + beta[i] for i in range(len(row))])
    return out
"""),
    # 评审 r45 的审计：γ 也在括号外的写法
    ('少了括号：γ·x − μ/sigma + β', ['bracket_gamma_x'], _src(y="g * v - mu / sigma + b")),
]

# 评审找到的说明：上面的尝试里，说明必须说出这些词（tests/test_review_messages.py）
WORDS = {
    "均值减反了：μ − x": ["减反了", "μ_t − x", "x − μ_t"],
    '评审 r44：H 写死成 4（均值除以 4）': ['H = 6', '均值除以了 4', '写死', 'len(row)'],
    '行数写死成 3（rows[:3]）': ['5 行', '却有 3 行', '写死', 'for row in rows'],
    '评审 r45：少了括号，γ·(x − μ/σ) + β': ['少了括号', '`row[i] - mu / sigma`', '`(row[i] - mu) / sigma`'],
    '少了括号：γ·x − μ/sigma + β': ['少了括号', '`g * v - mu / sigma`', '`g * (v - mu) / sigma`'],
}

# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
REQUIREMENTS = [
    ("均值逐词元计算", "mu = sum(row) / len(row)", "mu = sum(sum(r) for r in rows) / (len(rows) * len(row))",
     "global_mean", "每个词元"),
    ("除以同一个 sigma", "/ sigma + b", "/ (sum((u - mu) ** 2 for u in row) / len(row) + 1e-5) ** 0.5 + b",
     "per_token_sigma", "同一个"),
    ("不再加 ε", "/ sigma + b", "/ (sigma * sigma + 1e-5) ** 0.5 + b", "eps_added", "ε"),
    ("γ 逐特征相乘", "g * (v - mu)", "(v - mu)", "no_gamma", "γ"),
    ("β 逐特征相加", "/ sigma + b", "/ sigma", "no_beta", "β"),
    ("不修改传入的列表", "    return out", "    rows.append([])\n    return out", "modified_input", "改动了传入的"),
]

# 写明的要求的近邻写法（tests/test_neighbours.py）：检查用的输入必须让每一个都得出不同的结果
NEIGHBOURS = [
    ('μ 仍逐词元计算（不是整批一个）', 'mu = sum(row) / len(row)', 'mu = sum(map(sum, rows)) / sum(map(len, rows))'),
    ('除以给定的 sigma（不是每行自己的 σ）', '/ sigma + b', '/ (sum((u - mu) ** 2 for u in row) / len(row)) ** 0.5 + b'),
    ('sigma 里已含 ε，不再加', '/ sigma + b', '/ (sigma ** 2 + 1e-5) ** 0.5 + b'),
    ('除以 σ，不是 σ²', '/ sigma + b', '/ sigma ** 2 + b'),
    ('先乘 γ 再加 β', 'g * (v - mu) / sigma + b', '(g * (v - mu) + b) / sigma'),
    ('γ、β 不对调', 'for v, g, b in zip(row, gamma, beta)', 'for v, b, g in zip(row, gamma, beta)'),
]
