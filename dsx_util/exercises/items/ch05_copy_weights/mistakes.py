# 导入：torch。
"""练习 ch05-copy-weights 编目的错误写法：检查器对每一条必须恰好报出给定的代码（tests/test_exercise_layout.py、
tests/test_simple_checks.py 逐条检查）。每条是 (说明, 代码列表, 学习者写的函数)。
"""
import torch


def _copy(mode):
    def copy_weights(my_ln, torch_ln):
        with torch.no_grad():
            if mode == "swapped":
                my_ln.scale.copy_(torch_ln.bias)
                my_ln.shift.copy_(torch_ln.weight)
            if mode in ("shift_missing", "no_eps", "double"):
                my_ln.scale.copy_(torch_ln.weight * (2 if mode == "double" else 1))
            if mode in ("scale_missing", "no_eps", "double"):
                my_ln.shift.copy_(torch_ln.bias)
        if mode == "shares":
            my_ln.scale = torch_ln.weight
            my_ln.shift = torch_ln.bias
        if mode == "plain":
            del my_ln.scale, my_ln.shift
            my_ln.scale = torch_ln.weight.detach().clone()
            my_ln.shift = torch_ln.bias.detach().clone()
        if mode == "double":
            my_ln.eps = torch_ln.eps
    return copy_weights


MISTAKES = [
    ('not_copied', ['not_copied'], lambda my_ln, torch_ln: None),
    ('swapped', ['swapped'], _copy("swapped")),
    ('shift_missing', ['shift_missing'], _copy("shift_missing")),
    ('scale_missing', ['scale_missing'], _copy("scale_missing")),
    ('eps_not_copied', ['eps_not_copied'], _copy("no_eps")),
    ('shares_memory', ['shares_memory'], _copy("shares")),
    ('not_parameter', ['not_parameter'], _copy("plain")),
    ('outputs_differ', ['outputs_differ'], _copy("double")),
]

# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
REQUIREMENTS = [
    ("ε 也复制", "    my_ln.eps = torch_ln.eps", "", "eps_not_copied", "eps"),
    ("scale、shift 仍是自己的参数（不共用内存）", "my_ln.scale.copy_(torch_ln.weight)",
     "my_ln.scale = torch_ln.weight", "shares_memory", "内存"),
    ("weight -> scale、bias -> shift", "my_ln.scale.copy_(torch_ln.weight)", "my_ln.scale.copy_(torch_ln.bias)",
     "outputs_differ", "最大相差"),
    ("就地复制参数（原地操作在 no_grad 里）", "    with torch.no_grad():\n        my_ln.scale.copy_(torch_ln.weight)"
     "   # weight -> 缩放参数 γ\n        my_ln.shift.copy_(torch_ln.bias) ",
     "    if True:\n        my_ln.scale.copy_(torch_ln.weight)\n        my_ln.shift.copy_(torch_ln.bias) ", "raised",
     "torch.no_grad()"),
]

# 每条写明的要求的「邻居」：看起来也说得通的另一种写法（另一个维度、顺序、默认值、估计量……）。
# 检查用的输入要让每个邻居都得出不同的结果：把它当作答案交给检查器，必须不通过（tests/test_neighbours.py）。
# (要求, 参考答案里的原文片段, 换成的邻居写法)
NEIGHBOURS = [
    ('ε 也复制', '    my_ln.eps = torch_ln.eps', '    pass'),
    ('weight -> scale、bias -> shift（不对调）', 'my_ln.scale.copy_(torch_ln.weight)', 'my_ln.scale.copy_(torch_ln.bias)'),
    ('不共用内存', 'my_ln.scale.copy_(torch_ln.weight)', 'my_ln.scale = torch_ln.weight'),
]
