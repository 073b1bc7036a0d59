# 导入：无。
"""练习 ch09-post-ln-block 编目的错误写法：检查器对每一条必须恰好报出给定的代码（tests/test_exercise_layout.py、
tests/test_simple_checks.py 逐条检查）。每条是 (说明, 代码列表, 学习者写的函数)。
"""


def _block_pre(x, a, f, n1, n2):
    h = x + a(n1(x))
    return h + f(n2(h))


def _block_post(x, a, f, n1, n2):
    h = n1(x + a(x))
    return n2(h + f(h))


MISTAKES = [
    ('pre_ln_order', ['pre_ln_order'], _block_pre),
    ('missing_residual', ['missing_residual'], lambda x, a, f, n1, n2: n2(f(n1(a(x))))),
    ('norm_before_add', ['norm_before_add'], lambda x, a, f, n1, n2: (lambda h: h + n2(f(h)))(x + n1(a(x)))),
    ('norm_reused', ['norm_reused'], lambda x, a, f, n1, n2: _block_post(x, a, f, n2, n2)),
    ('swapped_norms', ['swapped_norms'], lambda x, a, f, n1, n2: _block_post(x, a, f, n2, n1)),
    ('swapped_sublayers', ['swapped_sublayers'], lambda x, a, f, n1, n2: _block_post(x, f, a, n1, n2)),
]

# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
REQUIREMENTS = [
    ("先加残差再归一化", "x = norm1(x + att(x))", "x = x + att(norm1(x))", "pre_ln_order", "注意力子层"),
    ("norm1 在注意力之后、norm2 在前馈之后", "x = norm1(x + att(x))", "x = norm2(x + att(x))", "norm_reused", "norm1"),
]

# 每条写明的要求的「邻居」：看起来也说得通的另一种写法（另一个维度、顺序、默认值、估计量……）。
# 检查用的输入要让每个邻居都得出不同的结果：把它当作答案交给检查器，必须不通过（tests/test_neighbours.py）。
# (要求, 参考答案里的原文片段, 换成的邻居写法)
NEIGHBOURS = [
    ('先加残差再归一化', 'x = norm1(x + att(x))', 'x = x + att(norm1(x))'),
    ('norm1、norm2 不对调', 'x = norm1(x + att(x))', 'x = norm2(x + att(x))'),
    ('先注意力后前馈', '    x = norm1(x + att(x))   # 先加残差，再归一化\n    x = norm2(x + ff(x))', '    x = norm2(x + ff(x))\n    x = norm1(x + att(x))'),
    ('残差只加子层的输入', 'x = norm1(x + att(x))', 'x = norm1(att(x))'),
]
