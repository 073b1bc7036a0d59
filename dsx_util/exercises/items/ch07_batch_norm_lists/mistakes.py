# 导入：无。
"""练习 ch07-batch-norm-lists 编目的错误写法：检查器对每一条必须恰好报出给定的代码（按顺序）。

每条是 (说明, 代码列表, 学习者的整段代码)；CPython 的测试（tests/test_exercise_layout.py、test_inpage_checks.py）
和浏览器测试（test_inpage_browser.py，把代码敲进网页）用同一批代码。
"""
MISTAKES = [
    ('返回的是列（忘了转置回行）', ['columns_returned'], """import math


def batch_norm_lists(x, eps=1e-5):
    cols = []
    for c in zip(*x):
        mu = sum(c) / len(c)
        var = sum((v - mu) ** 2 for v in c) / len(c)
        cols.append([(v - mu) / math.sqrt(var + eps) for v in c])
    return cols
"""),
    ('eps_outside_sqrt', ['eps_outside_sqrt'], """import math


def batch_norm_lists(x, eps=1e-5):
    def norm(vals):
        mu = sum(vals) / len(vals)
        var = sum((v - mu) ** 2 for v in vals) / len(vals)
        return [(v - mu) / (math.sqrt(var) + eps) for v in vals]
    return [list(r) for r in zip(*[norm(c) for c in zip(*x)])]
"""),
    ('no_eps', ['no_eps'], """import math


def batch_norm_lists(x, eps=1e-5):
    def norm(vals):
        mu = sum(vals) / len(vals)
        var = sum((v - mu) ** 2 for v in vals) / len(vals)
        return [(v - mu) / math.sqrt(var) for v in vals]
    return [list(r) for r in zip(*[norm(c) for c in zip(*x)])]
"""),
    ('eps_ignored', ['eps_ignored'], """import math


def batch_norm_lists(x, eps=1e-5):
    def norm(vals):
        mu = sum(vals) / len(vals)
        var = sum((v - mu) ** 2 for v in vals) / len(vals)
        return [(v - mu) / math.sqrt(var + 1e-5) for v in vals]
    return [list(r) for r in zip(*[norm(c) for c in zip(*x)])]
"""),
    ('no_sqrt', ['no_sqrt'], """import math


def batch_norm_lists(x, eps=1e-5):
    def norm(vals):
        mu = sum(vals) / len(vals)
        var = sum((v - mu) ** 2 for v in vals) / len(vals)
        return [(v - mu) / (var + eps) for v in vals]
    return [list(r) for r in zip(*[norm(c) for c in zip(*x)])]
"""),
    ('wrong_axis', ['wrong_axis'], """import math


def batch_norm_lists(x, eps=1e-5):
    def norm(vals):
        mu = sum(vals) / len(vals)
        var = sum((v - mu) ** 2 for v in vals) / len(vals)
        return [(v - mu) / math.sqrt(var + eps) for v in vals]
    return [norm(row) for row in x]
"""),
    ('unbiased_var', ['unbiased_var'], """import math


def batch_norm_lists(x, eps=1e-5):
    def norm(vals):
        mu = sum(vals) / len(vals)
        var = sum((v - mu) ** 2 for v in vals) / (len(vals) - 1)
        return [(v - mu) / math.sqrt(var + eps) for v in vals]
    return [list(r) for r in zip(*[norm(c) for c in zip(*x)])]
"""),
    ('no_centering', ['no_centering'], """import math


def batch_norm_lists(x, eps=1e-5):
    def norm(vals):
        mu = sum(vals) / len(vals)
        var = sum((v - mu) ** 2 for v in vals) / len(vals)
        return [v / math.sqrt(var + eps) for v in vals]
    return [list(r) for r in zip(*[norm(c) for c in zip(*x)])]
"""),
    ('normalized_all', ['normalized_all'], """import math


def batch_norm_lists(x, eps=1e-5):
    def norm(vals):
        mu = sum(vals) / len(vals)
        var = sum((v - mu) ** 2 for v in vals) / len(vals)
        return [(v - mu) / math.sqrt(var + eps) for v in vals]
    flat = norm([v for r in x for v in r])
    h = len(x[0])
    return [flat[i:i + h] for i in range(0, len(flat), h)]
"""),
]

# 目录里没有专门对应的“错误模型”：检查要靠逐步诊断（性质）或“两处典型错误的组合”认出来
NOVEL = [
    ('两处典型错误：按行归一化 + 无偏方差', ['wrong_axis', 'unbiased_var'], """import math


def batch_norm_lists(x, eps=1e-5):
    def norm(vals):
        mu = sum(vals) / len(vals)
        var = sum((v - mu) ** 2 for v in vals) / (len(vals) - 1)
        return [(v - mu) / math.sqrt(var + eps) for v in vals]
    return [norm(row) for row in x]
"""),
    ('每列减去第一个样本而不是均值', ['row_mean_not_zero'], """import math


def batch_norm_lists(x, eps=1e-5):
    def norm(vals):
        mu = sum(vals) / len(vals)
        var = sum((v - mu) ** 2 for v in vals) / len(vals)
        return [(v - vals[0]) / math.sqrt(var + eps) for v in vals]
    return [list(r) for r in zip(*[norm(c) for c in zip(*x)])]
"""),
    ('用第一列的统计量归一化所有列', ['row_mean_not_zero', 'row_variance_not_one', 'not_shift_invariant', 'rows_mixed'], """import math


def batch_norm_lists(x, eps=1e-5):
    col = [r[0] for r in x]
    mu = sum(col) / len(col)
    var = sum((v - mu) ** 2 for v in col) / len(col)
    return [[(v - mu) / math.sqrt(var + eps) for v in r] for r in x]
"""),
    ('分母多加了 0.1', ['row_variance_not_one', 'not_scale_invariant'], """import math


def batch_norm_lists(x, eps=1e-5):
    def norm(vals):
        mu = sum(vals) / len(vals)
        var = sum((v - mu) ** 2 for v in vals) / len(vals)
        return [(v - mu) / (math.sqrt(var + eps) + 0.1) for v in vals]
    return [list(r) for r in zip(*[norm(c) for c in zip(*x)])]
"""),
    # 评审 r39 的尝试：以前的说明含糊或冤枉了写对的一步
    ('[[0.0] * H] * B：所有行是同一个列表', ['shared_rows'], """import math

def batch_norm_lists(x, eps=1e-5):
    B = len(x); H = len(x[0])
    out = [[0.0] * H] * B
    for j in range(H):
        mu = sum(x[i][j] for i in range(B)) / B
        var = sum((x[i][j] - mu) ** 2 for i in range(B)) / B
        for i in range(B):
            out[i][j] = (x[i][j] - mu) / math.sqrt(var + eps)
    return out
"""),
    ('每一行是 tuple（list(zip(*列))）', ['rows_not_lists'], """import math

def batch_norm_lists(x, eps=1e-5):
    columns = []
    for col in zip(*x):
        mu = sum(col) / len(col)
        var = sum((v - mu) ** 2 for v in col) / len(col)
        columns.append([(v - mu) / math.sqrt(var + eps) for v in col])
    return list(zip(*columns))
"""),
    # 评审 r40 的尝试（逐字）：以前说「你减去的是 4.4×10⁻¹⁶」（代码减去的是 0），并把均值引成了式 (4.2)
    ('列均值用了整数除法 //', ['row_mean_not_zero', 'row_variance_not_one', 'not_scale_invariant'], """import math
def batch_norm_lists(x, eps=1e-5):
    cols = []
    for col in zip(*x):
        mu = sum(col) // len(col)
        var = sum((v - mu) ** 2 for v in col) / len(col)
        cols.append([(v - mu) / math.sqrt(var + eps) for v in col])
    return [list(r) for r in zip(*cols)]
"""),
    # 评审 r41 的尝试（逐字）：以前说「分母里少了 ε」，代码里其实有 ε
    ('评审 r41：ε 加到平方和上再除以 B（ε/B）', ['eps_divided'], """import math


def batch_norm_lists(x, eps=1e-5):
    cols = []
    for col in zip(*x):
        m = sum(col) / len(col)
        ss = sum((c - m) ** 2 for c in col)
        cols.append([(c - m) / math.sqrt((ss + eps) / len(col)) for c in col])
    return [list(r) for r in zip(*cols)]
"""),
    # 评审 r42 的尝试（逐字）：以前只说第 3 列的均值、方差不对，没说出每列只取了前 H 个样本
    ('评审 r42：取一列时用了 range(H)（只取了前 H 行）', ['first_rows_only'], """import math
def batch_norm_lists(x, eps=1e-5):
    B, H = len(x), len(x[0])
    out = [[0.0] * H for _ in range(B)]
    for j in range(H):
        col = [x[i][j] for i in range(H)]
        mu = sum(col) / B
        var = sum((c - mu) ** 2 for c in col) / B
        for i in range(B):
            out[i][j] = (x[i][j] - mu) / math.sqrt(var + eps)
    return out
"""),
    # 同一处 B 与 H 用反，另一种写法：跑特征的循环用了 range(B)，B > H 时下标越界
    ('跑特征用了 range(B)（下标越界）', ['raised', 'rows_cols_swapped'], """import math
def batch_norm_lists(x, eps=1e-5):
    B, H = len(x), len(x[0])
    out = [[0.0] * H for _ in range(B)]
    for j in range(B):
        col = [x[i][j] for i in range(H)]
        mu = sum(col) / H
        var = sum((c - mu) ** 2 for c in col) / H
        for i in range(H):
            out[i][j] = (x[i][j] - mu) / math.sqrt(var + eps)
    return out
"""),
    # 评审 r43 的尝试（逐字）：4×3 的输入里 H = B − 1，以前被说成「无偏方差（除以 B−1）」，代码里并没有 B−1
    ('评审 r43：均值除以 B，方差除以 H', ['var_by_h'], """import math


def batch_norm_lists(x, eps=1e-5):
    B, H = len(x), len(x[0])
    out = [[0.0] * H for _ in range(B)]
    for j in range(H):
        col = [x[i][j] for i in range(B)]
        mu = sum(col) / B
        var = sum((c - mu) ** 2 for c in col) / H
        for i in range(B):
            out[i][j] = (x[i][j] - mu) / math.sqrt(var + eps)
    return out
"""),
    # 评审 r44 的尝试（逐字）：以前得到 ✓（检查的输入都是 4 行）
    ('评审 r44：B 写死成 4（均值、方差都除以 4）', ['b_hard_coded'], """import math
def batch_norm_lists(x, eps=1e-5):
    cols = []
    for col in zip(*x):
        mu = sum(col) / 4
        var = sum((v - mu) ** 2 for v in col) / 4
        cols.append([(v - mu) / math.sqrt(var + eps) for v in col])
    return [list(r) for r in zip(*cols)]
"""),
    # 评审 r44 的尝试（逐字）：以前说第 3 列的方差是 0、要除以 √(σ² + ε)（式 (4.3)）：怪到了写对的除法上
    ('评审 r44：跑特征用了 range(H - 1)（最后一列没有算）', ['column_not_computed'], """import math
def batch_norm_lists(x, eps=1e-5):
    B = len(x)
    H = len(x[0])
    out = [[0.0] * H for _ in range(B)]
    for j in range(H - 1):
        mu = sum(x[i][j] for i in range(B)) / B
        var = sum((x[i][j] - mu) ** 2 for i in range(B)) / B
        for i in range(B):
            out[i][j] = (x[i][j] - mu) / math.sqrt(var + eps)
    return out
"""),
    # 评审 r44 的审计：检查用的输入以前都一样大，写死了大小的代码得到 ✓
    ('H 写死成 3（range(3)）', ['h_hard_coded'], """import math


def batch_norm_lists(x, eps=1e-5):
    B = len(x)
    out = [[0.0] * 3 for _ in range(B)]
    for j in range(3):
        col = [x[i][j] for i in range(B)]
        mu = sum(col) / B
        var = sum((c - mu) ** 2 for c in col) / B
        for i in range(B):
            out[i][j] = (x[i][j] - mu) / math.sqrt(var + eps)
    return out
"""),
]

# 评审找到的说明：上面的尝试里，说明必须说出这些词（tests/test_review_messages.py）
WORDS = {
    '[[0.0] * H] * B：所有行是同一个列表': ['同一个列表对象', '[[0.0] * H for _ in range(B)]'],
    '每一行是 tuple（list(zip(*列))）': ['第 1 行是 tuple', 'list(r) for r in zip'],
    '列均值用了整数除法 //': ['你减去的是 0，', '整数除法 //', '（式 (7.1)）'],
    '评审 r41：ε 加到平方和上再除以 B（ε/B）': ['ε/B', '先除以 B'],
    '评审 r42：取一列时用了 range(H)（只取了前 H 行）': ['只用了前 3 行', 'range(B)', 'range(H)'],
    '跑特征用了 range(B)（下标越界）': ['第 6 行', 'IndexError', 'B = H = 3', '用反了'],
    '评审 r43：均值除以 B，方差除以 H': ['除以了特征数 H', '要除以 B'],
    '评审 r44：B 写死成 4（均值、方差都除以 4）': ['B = 6', '均值和方差都除以了 4', '写死', 'len(x)'],
    '评审 r44：跑特征用了 range(H - 1)（最后一列没有算）': ['第 3 列全是 0.0', '没有算', 'range(H − 1)', 'range(H)'],
    'H 写死成 3（range(3)）': ['H = 5', 'H = 3 写死了', 'len(x[0])'],
}

# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
REQUIREMENTS = [
    ("用参数 eps", "math.sqrt(var + eps)", "math.sqrt(var + 1e-5)", "eps_ignored", "eps"),
    ("对每一列（每个特征）", "for col in zip(*x):", "for col in x:", "columns_returned", "4 行"),
    ("有偏方差（除以 B）", "/ len(col)   # 有偏方差", "/ (len(col) - 1)   # 有偏方差", "unbiased_var", "B−1"),
    ("只用纯 Python", "math.sqrt(var + eps)", "float(__import__('torch').tensor(var + eps).sqrt())", "forbidden_call",
     "纯 Python"),
]

# 每条写明的要求的「邻居」：看起来也说得通的另一种写法（另一个维度、顺序、默认值、估计量……）。
# 检查用的输入要让每个邻居都得出不同的结果：把它当作答案交给检查器，必须不通过（tests/test_neighbours.py）。
# (要求, 参考答案里的原文片段, 换成的邻居写法)
NEIGHBOURS = [
    ('对每一列', 'for col in zip(*x):', 'for col in x:'),
    ('有偏方差', '/ len(col)   # 有偏方差', '/ (len(col) - 1)   # 有偏方差'),
    ('ε 在根号里', 'math.sqrt(var + eps)', '(math.sqrt(var) + eps)'),
    ('用参数 eps', 'math.sqrt(var + eps)', 'math.sqrt(var + 1e-5)'),
]
