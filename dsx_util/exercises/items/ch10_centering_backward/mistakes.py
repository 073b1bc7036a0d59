# 导入：无。
"""练习 ch10-centering-backward 编目的错误写法：检查器对每一条必须恰好报出给定的代码（tests/test_exercise_layout.py、
tests/test_simple_checks.py 逐条检查）。每条是 (说明, 代码列表, 学习者写的函数)。
"""


def _mean(x, dim=-1):
    return x.mean(dim=dim, keepdim=True)


MISTAKES = [
    ('missing_mean_term', ['missing_mean_term'], lambda g: g.clone()),
    ('sign_flipped', ['sign_flipped'], lambda g: _mean(g) - g),
    ('wrong_dim', ['wrong_dim'], lambda g: g - _mean(g, 0)),
    ('wrong_scale', ['wrong_scale'], lambda g: g - g.sum(dim=-1, keepdim=True)),
]

# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
REQUIREMENTS = [
    ("不要用 autograd", "    return grad_out - grad_out.mean(dim=-1, keepdim=True)",
     "    import torch\n    x = torch.zeros_like(grad_out, requires_grad=True)\n"
     "    (g,) = torch.autograd.grad((x - x.mean(dim=-1, keepdim=True)), x, grad_out)\n    return g",
     "forbidden_call", "autograd"),
    ("均值沿最后一维", "grad_out.mean(dim=-1, keepdim=True)", "grad_out.mean(dim=0, keepdim=True)", "wrong_dim", "最后一维"),
]

# 每条写明的要求的「邻居」：看起来也说得通的另一种写法（另一个维度、顺序、默认值、估计量……）。
# 检查用的输入要让每个邻居都得出不同的结果：把它当作答案交给检查器，必须不通过（tests/test_neighbours.py）。
# (要求, 参考答案里的原文片段, 换成的邻居写法)
NEIGHBOURS = [
    ('均值沿最后一维', 'grad_out.mean(dim=-1, keepdim=True)', 'grad_out.mean(dim=0, keepdim=True)'),
    ('减去均值（不是减去总和）', 'grad_out.mean(dim=-1, keepdim=True)', 'grad_out.sum(dim=-1, keepdim=True)'),
]
