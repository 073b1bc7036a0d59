# 导入：torch。
"""练习 ch10-rms-norm-backward 编目的错误写法：检查器对每一条必须恰好报出给定的代码（tests/test_exercise_layout.py
逐条检查）。每条是 (说明, 代码列表, 学习者写的函数)。
"""
import torch


def _rms_b(proj="ok", mean_term=False, use_gamma=True, scale=True, eps_mode="in", dgamma="ok"):
    """手推梯度的变体：每个参数对应一处典型错误（默认值是正确写法）。"""
    def rms_norm_backward(x, gamma, grad_out, eps=1e-5):
        ms = (x * x).mean(dim=-1, keepdim=True)
        if eps_mode == "out":
            s = 1 / (torch.sqrt(ms) + eps)
        else:
            s = 1 / torch.sqrt(ms + (1e-5 if eps_mode == "fixed" else eps))
        x_hat = x * s
        rows = tuple(range(x.dim() - 1))
        grad_gamma = {"ok": lambda: (grad_out * x_hat).sum(dim=rows),
                      "last": lambda: (grad_out * x_hat).sum(dim=-1),
                      "first": lambda: (grad_out * x_hat).sum(dim=0),
                      "no_xhat": lambda: grad_out.sum(dim=rows),
                      "times_gamma": lambda: (grad_out * gamma * x_hat).sum(dim=rows)}[dgamma]()
        g = grad_out * gamma if use_gamma else grad_out
        p = (g * x_hat).mean(dim=-1, keepdim=True)
        p = {"ok": p, "none": 0.0, "sum": p * x.shape[-1], "sign": -p}[proj]
        core = g - x_hat * p - (g.mean(dim=-1, keepdim=True) if mean_term else 0.0)
        return (s * core if scale else core), grad_gamma
    return rms_norm_backward


def _only_dx(x, gamma, grad_out, eps=1e-5):
    return _rms_b()(x, gamma, grad_out, eps)[0]


MISTAKES = [
    ("漏掉经过 RMS 的投影项", ["missing_projection_term"], _rms_b(proj="none")),
    ("投影项用了求和", ["projection_term_sum"], _rms_b(proj="sum")),
    ("投影项符号反了", ["projection_term_sign"], _rms_b(proj="sign")),
    ("照搬层归一化，多减了均值项", ["layer_norm_mean_term"], _rms_b(mean_term=True)),
    ("没有乘 γ", ["gamma_ignored"], _rms_b(use_gamma=False)),
    ("整体没有乘 1/RMS", ["wrong_scale"], _rms_b(scale=False)),
    ("ε 加在根号外", ["eps_outside_root"], _rms_b(eps_mode="out")),
    ("ε 写死成 1e-5", ["eps_ignored"], _rms_b(eps_mode="fixed")),
    ("dγ 沿最后一维求和", ["dgamma_wrong_axes"], _rms_b(dgamma="last")),
    ("dγ 只对第 0 维求和（二维对、三维错）", ["dgamma_wrong_axes"], _rms_b(dgamma="first")),
    ("dγ 求的是 grad_out 的和（β 的梯度）", ["dgamma_missing_xhat"], _rms_b(dgamma="no_xhat")),
    ("dγ 多乘了 γ", ["dgamma_times_gamma"], _rms_b(dgamma="times_gamma")),
    ("只返回 grad_x", ["not_pair"], _only_dx),
]


def _proj_with_x(x, gamma, grad_out, eps=1e-5):
    """投影项用了 x 而不是 x̂（少乘了两次 1/RMS）。"""
    s = 1 / torch.sqrt((x * x).mean(dim=-1, keepdim=True) + eps)
    g = grad_out * gamma
    grad_gamma = (grad_out * x * s).sum(dim=tuple(range(x.dim() - 1)))
    return s * (g - x * (g * x).mean(dim=-1, keepdim=True)), grad_gamma


def _proj_over_rows(x, gamma, grad_out, eps=1e-5):
    """投影项的平均沿错了维度（对整批的行平均，而不是每行自己的 H 个数）。"""
    s = 1 / torch.sqrt((x * x).mean(dim=-1, keepdim=True) + eps)
    x_hat = x * s
    g = grad_out * gamma
    grad_gamma = (grad_out * x_hat).sum(dim=tuple(range(x.dim() - 1)))
    return s * (g - x_hat * (g * x_hat).mean(dim=0, keepdim=True)), grad_gamma


def _dgamma_unnormalized(x, gamma, grad_out, eps=1e-5):
    """dγ 用了 x 而不是 x̂（忘了除以 RMS）。"""
    dx, _ = _rms_b()(x, gamma, grad_out, eps)
    return dx, (grad_out * x).sum(dim=tuple(range(x.dim() - 1)))


MISTAKES.append(("投影项用了 x 而不是 x̂", ["not_orthogonal_to_x"], _proj_with_x))


def _proj_x_dgamma_mean(x, gamma, grad_out, eps=1e-5):
    """两处无关的错：投影项用了 x，dγ 用了平均而不是求和。"""
    dx, _ = _proj_with_x(x, gamma, grad_out, eps)
    s = 1 / torch.sqrt((x * x).mean(dim=-1, keepdim=True) + eps)
    return dx, (grad_out * x * s).mean(dim=tuple(range(x.dim() - 1)))


def _rms_from(mean_square):
    """r 的均方换成别的算法（投影项和 dγ 都照正确公式写）。"""
    def rms_norm_backward(x, gamma, grad_out, eps=1e-5):
        s = 1 / torch.sqrt(mean_square(x, eps))
        x_hat = x * s
        g = grad_out * gamma
        grad_x = s * (g - x_hat * (g * x_hat).mean(dim=-1, keepdim=True))
        return grad_x, (grad_out * x_hat).sum(dim=tuple(range(x.dim() - 1)))
    return rms_norm_backward

# 这三条的代码只由 r 或 ε 的用法引出（review36 F1、F2）
MISTAKES += [
    ("RMS 用了减均值的方差", ["rms_not_per_row"],
     _rms_from(lambda x, eps: x.var(dim=-1, keepdim=True, unbiased=False) + eps)),
    ("RMS 沿第 0 维（跨行）求", ["rms_suspect"], _rms_from(lambda x, eps: (x * x).mean(dim=0, keepdim=True) + eps)),
    ("ε 平方后加在根号里", ["eps_misused"], _rms_from(lambda x, eps: (x * x).mean(dim=-1, keepdim=True) + eps ** 2)),
]

NOVEL = [
    ("投影项对整批的行平均", ["not_orthogonal_to_x"], _proj_over_rows),
    ("dγ 忘了除以 RMS", ["wrong_output"], _dgamma_unnormalized),
    ("投影项漏掉、dγ 也沿错了维度", ["missing_projection_term", "dgamma_wrong_axes"], _rms_b(proj="none", dgamma="last")),
    ("RMS 对整个张量求（跨了行）", ["rms_not_per_row"], _rms_from(lambda x, eps: (x * x).mean() + eps)),
    ("投影项用了 x、dγ 求了平均（x̂ 是对的，不指向 r）", ["not_orthogonal_to_x", "wrong_output"], _proj_x_dgamma_mean),
    ("ε 写死成 1e-6", ["eps_misused"], _rms_from(lambda x, eps: (x * x).mean(dim=-1, keepdim=True) + 1e-6)),
]

# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
REQUIREMENTS = [
    ("不要用 autograd", "    ms = (x * x).mean(dim=-1, keepdim=True)\n",
     "    x = x.detach().requires_grad_()\n    ms = (x * x).mean(dim=-1, keepdim=True)\n", "forbidden_call", "autograd"),
    ("ε 在根号里", "1 / torch.sqrt(ms + eps)", "1 / (torch.sqrt(ms) + eps)", "eps_outside_root", "根号"),
    ("用参数 eps", "torch.sqrt(ms + eps)", "torch.sqrt(ms + 1e-5)", "eps_ignored", "eps"),
    ("经过 RMS 的一项", "r * (g - x_hat * g_proj)", "r * g", "missing_projection_term", "RMS"),
    ("γ 的梯度形状与 gamma 相同（对所有行求和）", "tuple(range(x.dim() - 1))", "-1", "dgamma_wrong_axes", "所有维度"),
    ("返回 (grad_x, grad_gamma)", "return grad_x, grad_gamma", "return grad_x", "not_pair", "grad_gamma"),
]

# 每条写明的要求的「邻居」：看起来也说得通的另一种写法（另一个维度、位置、默认值……）。
# 检查用的输入要让每个邻居都得出不同的结果：把它当作答案交给检查器，必须不通过（tests/test_neighbours.py）。
# (要求, 参考答案里的原文片段, 换成的邻居写法)
NEIGHBOURS = [
    ("ε 在根号里", "1 / torch.sqrt(ms + eps)", "1 / (torch.sqrt(ms) + eps)"),
    ("ε 不写死", "torch.sqrt(ms + eps)", "torch.sqrt(ms + 1e-6)"),
    ("γ 的梯度对除最后一维外的所有维度求和", "tuple(range(x.dim() - 1))", "0"),
    ("γ 的梯度对除最后一维外的所有维度求和", "tuple(range(x.dim() - 1))", "(0, 1)"),
    ("投影项乘 x̂", "x_hat * g_proj", "g_proj"),
    ("投影项是平均", "(g * x_hat).mean(dim=-1, keepdim=True)", "(g * x_hat).sum(dim=-1, keepdim=True)"),
    ("均方（不是方差）", "(x * x).mean(dim=-1, keepdim=True)", "x.var(dim=-1, keepdim=True, unbiased=False)"),
    ("γ 乘在上游梯度上", "g = grad_out * gamma", "g = grad_out"),
]
