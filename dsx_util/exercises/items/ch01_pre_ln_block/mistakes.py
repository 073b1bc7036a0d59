# 导入：无。
"""练习 ch01-pre-ln-block 编目的错误写法：检查器对每一条必须恰好报出给定的代码（tests/test_exercise_layout.py、
tests/test_simple_checks.py 逐条检查）。每条是 (说明, 代码列表, 学习者写的函数)。
"""


def _block_pre(x, a, f, n1, n2):
    h = x + a(n1(x))
    return h + f(n2(h))


def _block_post(x, a, f, n1, n2):
    h = n1(x + a(x))
    return n2(h + f(h))


MISTAKES = [
    ('post_ln_order', ['post_ln_order'], _block_post),
    ('missing_residual', ['missing_residual'], lambda x, a, f, n1, n2: f(n2(a(n1(x))))),
    ('residual_after_norm', ['residual_after_norm'], lambda x, a, f, n1, n2: (lambda h: n2(h) + f(n2(h)))(n1(x) + a(n1(x)))),
    ('norm_reused', ['norm_reused'], lambda x, a, f, n1, n2: _block_pre(x, a, f, n1, n1)),
    ('swapped_norms', ['swapped_norms'], lambda x, a, f, n1, n2: _block_pre(x, a, f, n2, n1)),
    ('swapped_sublayers', ['swapped_sublayers'], lambda x, a, f, n1, n2: _block_pre(x, f, a, n1, n2)),
    ('wrong_output', ['wrong_output'], lambda x, a, f, n1, n2: x + a(n1(x))),
]

# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
REQUIREMENTS = [
    ("norm1 给注意力、norm2 给前馈", "att(norm1(x))", "att(norm2(x))", "norm_reused", "都是 norm2"),
    ("两个子层各带残差连接", "x = x + att(norm1(x))", "x = att(norm1(x))", "missing_residual", "注意力子层"),
    ("前置归一化：先归一化再进子层", "x = x + att(norm1(x))", "x = norm1(x + att(x))", "post_ln_order", "前置"),
]

# 每条写明的要求的「邻居」：看起来也说得通的另一种写法（另一个维度、顺序、默认值、估计量……）。
# 检查用的输入要让每个邻居都得出不同的结果：把它当作答案交给检查器，必须不通过（tests/test_neighbours.py）。
# (要求, 参考答案里的原文片段, 换成的邻居写法)
NEIGHBOURS = [
    ('norm1 给注意力、norm2 给前馈（不对调）', 'att(norm1(x))', 'att(norm2(x))'),
    ('先注意力后前馈', '    x = x + att(norm1(x))   # 先归一化，再进注意力，最后加回残差\n    x = x + ff(norm2(x))    # 前馈子层同样如此', '    x = x + ff(norm2(x))\n    x = x + att(norm1(x))'),
    ('后置归一化不是前置', 'x = x + att(norm1(x))', 'x = norm1(x + att(x))'),
    ('残差加的是归一化之前的 x', 'x = x + att(norm1(x))', 'x = norm1(x) + att(norm1(x))'),
]
