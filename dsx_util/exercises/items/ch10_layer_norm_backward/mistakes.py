# 导入：torch。
"""练习 ch10-layer-norm-backward 编目的错误写法：检查器对每一条必须恰好报出给定的代码（tests/test_exercise_layout.py、
tests/test_simple_checks.py 逐条检查）。每条是 (说明, 代码列表, 学习者写的函数)。
"""
import torch


def _mean(x, dim=-1):
    return x.mean(dim=dim, keepdim=True)


def _var(x, dim=-1, unbiased=False):
    return x.var(dim=dim, keepdim=True, unbiased=unbiased)


def _lnb(mean_term=True, proj_term=True, use_gamma=True, unbiased=False, scale=True):
    def layer_norm_backward(x, gamma, grad_out, eps=1e-5):
        std = torch.sqrt(_var(x, unbiased=unbiased) + eps)
        x_hat = (x - _mean(x)) / std
        g = grad_out * gamma if use_gamma else grad_out
        out = g - (_mean(g) if mean_term else 0) - (x_hat * _mean(g * x_hat) if proj_term else 0)
        return out / std if scale else out
    return layer_norm_backward


def _lnb_terms(mean_term, proj_term, fixed_eps=None):
    """手推梯度的变体：mean_term(g)、proj_term(g, x_hat) 给出两项（正确的是 _mean(g) 与 x_hat * _mean(g * x_hat)）。"""
    def layer_norm_backward(x, gamma, grad_out, eps=1e-5):
        std = torch.sqrt(_var(x) + (eps if fixed_eps is None else fixed_eps))
        x_hat = (x - _mean(x)) / std
        g = grad_out * gamma
        return (g - mean_term(g) - proj_term(g, x_hat)) / std
    return layer_norm_backward


def _right_mean_term(g):
    return _mean(g)


def _right_proj_term(g, x_hat):
    return x_hat * _mean(g * x_hat)


MISTAKES = [
    ('missing_mean_term', ['missing_mean_term'], _lnb(mean_term=False)),
    ('missing_projection_term', ['missing_projection_term'], _lnb(proj_term=False)),
    ('wrong_scale', ['wrong_scale'], _lnb(scale=False)),
    ('gamma_ignored', ['gamma_ignored'], _lnb(use_gamma=False)),
    ('unbiased_var', ['unbiased_var'], _lnb(unbiased=True)),
    ('mean_term_sum', ['mean_term_sum'], _lnb_terms(lambda g: g.sum(dim=-1, keepdim=True), _right_proj_term)),
    ('projection_term_sum', ['projection_term_sum'], _lnb_terms(_right_mean_term, lambda g, xh: xh * (g * xh).sum(dim=-1, keepdim=True))),
    ('mean_term_sign', ['mean_term_sign'], _lnb_terms(lambda g: -_mean(g), _right_proj_term)),
    ('projection_term_sign', ['projection_term_sign'], _lnb_terms(_right_mean_term, lambda g, xh: -_right_proj_term(g, xh))),
    ('eps_ignored', ['eps_ignored'], _lnb_terms(_right_mean_term, _right_proj_term, fixed_eps=1e-5)),
    ('no_eps', ['no_eps'], _lnb_terms(_right_mean_term, _right_proj_term, fixed_eps=0.0)),
    ('row_sum_not_zero', ['row_sum_not_zero'], _lnb_terms(lambda g: g[..., :1], _right_proj_term)),
    ('not_orthogonal_to_xhat', ['not_orthogonal_to_xhat'], _lnb_terms(_right_mean_term, lambda g, xh: xh * _mean(g))),
]

# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
REQUIREMENTS = [
    ("不要用 autograd", "    mean = x.mean(dim=-1, keepdim=True)\n",
     "    x = x.detach().requires_grad_()\n    mean = x.mean(dim=-1, keepdim=True)\n", "forbidden_call", "autograd"),
    ("用参数 eps", "torch.sqrt(var + eps)", "torch.sqrt(var + 1e-5)", "eps_ignored", "eps"),
    ("经过 μ 的一项", "(g - g_mean - x_hat * g_proj)", "(g - x_hat * g_proj)", "missing_mean_term", "μ"),
    ("经过 σ² 的一项", "(g - g_mean - x_hat * g_proj)", "(g - g_mean)", "missing_projection_term", "σ²"),
    ("有偏方差", "unbiased=False", "unbiased=True", "unbiased_var", "有偏"),
]

# 每条写明的要求的「邻居」：看起来也说得通的另一种写法（另一个维度、顺序、默认值、估计量……）。
# 检查用的输入要让每个邻居都得出不同的结果：把它当作答案交给检查器，必须不通过（tests/test_neighbours.py）。
# (要求, 参考答案里的原文片段, 换成的邻居写法)
NEIGHBOURS = [
    ('有偏方差', 'unbiased=False', 'unbiased=True'),
    ('用参数 eps', 'torch.sqrt(var + eps)', 'torch.sqrt(var + 1e-5)'),
    ('经过 σ² 的一项乘 x̂', 'x_hat * g_proj', 'g_proj'),
    ('除以 std（不是方差）', ') / std', ') / std ** 2'),
    ('γ 乘在上游梯度上', 'g = grad_out * gamma', 'g = grad_out'),
]
