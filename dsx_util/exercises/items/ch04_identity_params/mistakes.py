# 导入：torch。
"""练习 ch04-identity-params 编目的错误写法：检查器对每一条必须恰好报出给定的代码（tests/test_exercise_layout.py、
tests/test_simple_checks.py 逐条检查）。每条是 (说明, 代码列表, 学习者写的函数)。
"""
import torch


def _identity(gamma_fn, beta_fn, shape=True):
    def identity_params(x, eps=1e-5):
        mean, var = x.mean(), x.var(unbiased=False)
        g, b = gamma_fn(x, mean, var, eps), beta_fn(x, mean, var, eps)
        if shape:
            return g * torch.ones_like(x), b * torch.ones_like(x)
        return g, b
    return identity_params


def _sqrt_var_eps(x, m, v, eps):
    return torch.sqrt(v + eps)


MISTAKES = [
    ('not_pair', ['not_pair'], lambda x, eps=1e-5: torch.ones_like(x)),
    ('wrong_param_shape', ['wrong_param_shape'], _identity(_sqrt_var_eps, lambda x, m, v, e: m, shape=False)),
    ('gamma_is_var', ['gamma_is_var'], _identity(lambda x, m, v, e: v + e, lambda x, m, v, e: m)),
    ('missing_eps', ['missing_eps'], _identity(lambda x, m, v, e: v.sqrt(), lambda x, m, v, e: m)),
    ('unbiased_var', ['unbiased_var'], _identity(lambda x, m, v, e: (x.var() + e).sqrt(), lambda x, m, v, e: m)),
    ('swapped', ['swapped'], _identity(lambda x, m, v, e: m, _sqrt_var_eps)),
    ('beta_missing', ['beta_missing'], _identity(_sqrt_var_eps, lambda x, m, v, e: 0 * m)),
    ('not_identity', ['not_identity'], _identity(lambda x, m, v, e: 2 * (v + e).sqrt(), lambda x, m, v, e: m)),
    ('eps_ignored', ['eps_ignored'], _identity(lambda x, m, v, e: torch.sqrt(v + 1e-5), lambda x, m, v, e: m)),
]

# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
REQUIREMENTS = [
    ("用参数 eps", "torch.sqrt(var + eps)", "torch.sqrt(var + 1e-5)", "eps_ignored", "eps"),
    ("gamma、beta 形状都是 (H,)", "beta = mean * torch.ones_like(x)", "beta = mean", "wrong_param_shape", "形状"),
]

# 每条写明的要求的「邻居」：看起来也说得通的另一种写法（另一个维度、顺序、默认值、估计量……）。
# 检查用的输入要让每个邻居都得出不同的结果：把它当作答案交给检查器，必须不通过（tests/test_neighbours.py）。
# (要求, 参考答案里的原文片段, 换成的邻居写法)
NEIGHBOURS = [
    ('γ 含 ε', 'torch.sqrt(var + eps)', 'torch.sqrt(var)'),
    ('用参数 eps', 'torch.sqrt(var + eps)', 'torch.sqrt(var + 1e-5)'),
    ('有偏方差', 'x.var(unbiased=False)', 'x.var(unbiased=True)'),
    ('γ 与 β 不对调', 'return gamma, beta', 'return beta, gamma'),
    ('形状 (H,) 而不是标量', 'gamma = torch.sqrt(var + eps) * torch.ones_like(x)', 'gamma = torch.sqrt(var + eps)'),
]
