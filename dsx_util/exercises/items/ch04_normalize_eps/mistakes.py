# 导入：torch。
"""练习 ch04-normalize-eps 编目的错误写法：检查器对每一条必须恰好报出给定的代码（tests/test_exercise_layout.py、
tests/test_simple_checks.py 逐条检查）。每条是 (说明, 代码列表, 学习者写的函数)。
"""
import torch


def _mean(x, dim=-1):
    return x.mean(dim=dim, keepdim=True)


def _var(x, dim=-1, unbiased=False):
    return x.var(dim=dim, keepdim=True, unbiased=unbiased)


def _normalize(eps_mode="inside", unbiased=False, center=True):
    def normalize(x, eps=1e-5):
        if eps_mode == "fixed":
            eps = 1e-5
        var = _var(x, unbiased=unbiased)
        num = x - _mean(x) if center else x
        if eps_mode == "none":
            return num / torch.sqrt(var)
        if eps_mode == "outside":
            return num / (torch.sqrt(var) + eps)
        return num / torch.sqrt(var + eps)
    return normalize


def _nan_to_num(x, eps=1e-5):
    """常数行另作处理（把 NaN 换成 0），分母里仍没有 ε。"""
    return torch.nan_to_num((x - _mean(x)) / torch.sqrt(_var(x)))


def _where_zero(x, eps=1e-5):
    """标准差为 0 的行直接给 0，其余行除以 √σ²（没有 ε）。"""
    s = torch.sqrt(_var(x))
    return torch.where(s == 0, torch.zeros_like(x), (x - _mean(x)) / s)


MISTAKES = [
    ('nan_on_constant', ['nan_on_constant'], _normalize(eps_mode="none")),
    ('no_eps（NaN 换成 0）', ['no_eps'], _nan_to_num),
    ('no_eps（torch.where 给常数行 0）', ['no_eps'], _where_zero),
    ('eps_outside_sqrt', ['eps_outside_sqrt'], _normalize(eps_mode="outside")),
    ('eps_ignored', ['eps_ignored'], _normalize(eps_mode="fixed")),
    ('unbiased_var', ['unbiased_var'], _normalize(unbiased=True)),
    ('no_centering', ['no_centering'], _normalize(center=False)),
    ('wrong_shape', ['wrong_shape'], lambda x, eps=1e-5: _mean(x)),
]

# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
REQUIREMENTS = [
    ("用参数 eps", "torch.sqrt(var + eps)", "torch.sqrt(var + 1e-5)", "eps_ignored", "eps"),
    ("常数行得到 0 而不是 NaN", "torch.sqrt(var + eps)", "torch.sqrt(var)", "nan_on_constant", "NaN"),
    ("默认 eps=1e-5", "def normalize(x, eps=1e-5):", "def normalize(x, eps=1e-6):", "wrong_signature", "默认值"),
]

# 每条写明的要求的「邻居」：看起来也说得通的另一种写法（另一个维度、顺序、默认值、估计量……）。
# 检查用的输入要让每个邻居都得出不同的结果：把它当作答案交给检查器，必须不通过（tests/test_neighbours.py）。
# (要求, 参考答案里的原文片段, 换成的邻居写法)
NEIGHBOURS = [
    ('ε 在根号里', 'torch.sqrt(var + eps)', '(torch.sqrt(var) + eps)'),
    ('默认 eps=1e-5', 'eps=1e-5', 'eps=1e-6'),
    ('用参数 eps', 'torch.sqrt(var + eps)', 'torch.sqrt(var + 1e-5)'),
    ('有偏方差', 'unbiased=False', 'unbiased=True'),
    ('沿最后一维', 'x.mean(dim=-1, keepdim=True)                 # 式 (4.1)\n    var = x.var(dim=-1,', 'x.mean(dim=0, keepdim=True)                 # 式 (4.1)\n    var = x.var(dim=0,'),
]
