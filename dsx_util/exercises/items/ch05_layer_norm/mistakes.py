# 导入：torch、numpy。
"""练习 ch05-layer-norm 编目的错误写法：检查器对每一条必须恰好报出给定的代码（tests/test_exercise_layout.py、
tests/test_check_layer_norm.py 逐条检查）。每条是 (说明, 代码列表, 学习者写的类或函数)；Good… 是正确的基准实现，
每个有错的版本只改动一处。
"""
import torch
import torch.nn as nn


class GoodLN(nn.Module):
    """正确的基准实现；下面每个有错的版本只改动一处。"""

    def __init__(self, emb_dim, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.scale = nn.Parameter(torch.ones(emb_dim))
        self.shift = nn.Parameter(torch.zeros(emb_dim))

    def stats(self, x):
        return x.mean(dim=-1, keepdim=True), x.var(dim=-1, keepdim=True, unbiased=False)

    def normalize(self, x, mean, var):
        return (x - mean) / torch.sqrt(var + self.eps)

    def forward(self, x):
        mean, var = self.stats(x)
        return self.scale * self.normalize(x, mean, var) + self.shift


class EpsIgnored(GoodLN):
    """构造函数收下了 eps，forward 里却写死 1e-5（默认值下完全正确，换一个 eps 才看得出）。"""

    def normalize(self, x, mean, var):
        return (x - mean) / torch.sqrt(var + 1e-5)


class Unbiased(GoodLN):
    def stats(self, x):
        return x.mean(dim=-1, keepdim=True), x.var(dim=-1, keepdim=True)


class EpsOutside(GoodLN):
    def normalize(self, x, mean, var):
        return (x - mean) / (torch.sqrt(var) + self.eps)


class EpsMissing(GoodLN):
    def normalize(self, x, mean, var):
        return (x - mean) / x.std(dim=-1, keepdim=True, unbiased=False)


class WrongDim(GoodLN):
    def stats(self, x):
        return x.mean(dim=0, keepdim=True), x.var(dim=0, keepdim=True, unbiased=False)


class NoKeepdim(GoodLN):
    def stats(self, x):
        return x.mean(dim=-1), x.var(dim=-1, unbiased=False)


class SinglePass(GoodLN):
    def stats(self, x):
        mean = x.mean(dim=-1, keepdim=True)
        return mean, (x * x).mean(dim=-1, keepdim=True) - mean ** 2


class PlainTensors(GoodLN):
    def __init__(self, emb_dim, eps=1e-5):
        super().__init__(emb_dim, eps)
        del self.scale, self.shift
        self.scale = torch.ones(emb_dim)
        self.shift = torch.zeros(emb_dim)


class ZeroScale(GoodLN):
    def __init__(self, emb_dim, eps=1e-5):
        super().__init__(emb_dim, eps)
        self.scale = nn.Parameter(torch.zeros(emb_dim))


class RowParam(GoodLN):
    def __init__(self, emb_dim, eps=1e-5):
        super().__init__(emb_dim, eps)
        self.scale = nn.Parameter(torch.ones(1, emb_dim))


class Swapped(GoodLN):
    def forward(self, x):
        mean, var = self.stats(x)
        return self.shift * self.normalize(x, mean, var) + self.scale


class Inplace(GoodLN):
    def forward(self, x):
        mean, var = self.stats(x)
        x -= mean
        x /= torch.sqrt(var + self.eps)
        return self.scale * x + self.shift


class Float64(GoodLN):
    def forward(self, x):
        return super().forward(x.double())


class Detached(GoodLN):
    def forward(self, x):
        import numpy as np
        a = x.detach().numpy()
        norm = (a - a.mean(-1, keepdims=True)) / np.sqrt(a.var(-1, keepdims=True) + self.eps)
        return self.scale * torch.from_numpy(norm) + self.shift


class EpsTooBig(GoodLN):
    """ε 大了 10 倍：各步的性质都还满足，只有标准差约 10⁻³ 的行上差别明显；检查器要点名 ε，而不是某一步。"""

    def __init__(self, emb_dim, eps=1e-5):
        super().__init__(emb_dim, eps=1e-4)


class EpsHardCoded(GoodLN):
    """ε 写死成 0.1（不是构造函数的参数）：方差明显小于 1，但错的是 ε，不是第三步。"""

    def normalize(self, x, mean, var):
        return (x - mean) / torch.sqrt(var + 0.1)


class SlightlyScaled(GoodLN):
    """输出多乘了 1.003：均值 0、方差约 1 等性质都在容差之内，数值却不对。"""

    def normalize(self, x, mean, var):
        return 1.003 * super().normalize(x, mean, var)


class Raises(GoodLN):
    def forward(self, x):
        return x / self.missing_attribute


class Loops(GoodLN):
    def forward(self, x):
        while True:
            pass


class Template(GoodLN):
    def forward(self, x):
        raise NotImplementedError("请在这里写你的代码")


MISTAKES = [
    ('unbiased_variance', ['unbiased_variance'], Unbiased),
    ('eps_outside_sqrt', ['eps_outside_sqrt'], EpsOutside),
    ('eps_missing', ['eps_missing'], EpsMissing),
    ('wrong_dim', ['wrong_dim'], WrongDim),
    ('missing_keepdim', ['missing_keepdim'], NoKeepdim),
    ('single_pass_variance', ['single_pass_variance'], SinglePass),
    ('not_parameters', ['not_parameters'], PlainTensors),
    ('wrong_init', ['wrong_init'], ZeroScale),
    ('wrong_param_shape', ['wrong_param_shape'], RowParam),
    ('scale_shift_swapped', ['scale_shift_swapped'], Swapped),
    ('inplace_input', ['inplace_input'], Inplace),
    ('wrong_shape_or_dtype', ['wrong_shape_or_dtype'], Float64),
    ('not_differentiable', ['not_differentiable'], Detached),
    ('wrong_output', ['wrong_output'], SlightlyScaled),
    ('eps_wrong_value', ['eps_wrong_value'], EpsTooBig),
    ('eps_wrong_value（写死 0.1）', ['eps_wrong_value'], EpsHardCoded),
    ('raised', ['raised'], Raises),
    ('timeout', ['timeout'], Loops),
    ('not_done', ['not_done'], Template),
    ('eps_ignored', ['eps_ignored'], EpsIgnored),
]

# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
REQUIREMENTS = [
    ("不要调用 PyTorch 现成的层归一化", "        mean = x.mean(dim=-1, keepdim=True)\n",
     "        return nn.functional.layer_norm(x, self.scale.shape, self.scale, self.shift, self.eps)\n", "forbidden_call",
     "现成的层归一化"),
    ("用构造函数的 eps", "torch.sqrt(var + self.eps)", "torch.sqrt(var + 1e-5)", "eps_ignored", "eps"),
    ("签名 MyLayerNorm(emb_dim, eps=1e-5)", "def __init__(self, emb_dim, eps=1e-5):", "def __init__(self, emb_dim, eps):",
     "wrong_signature", "默认值"),
    ("scale 初始全 1", "nn.Parameter(torch.ones(emb_dim))", "nn.Parameter(torch.zeros(emb_dim))", "wrong_init", "1"),
    ("scale、shift 是可学习参数", "self.shift = nn.Parameter(torch.zeros(emb_dim))", "self.shift = torch.zeros(emb_dim)",
     "not_parameters", "parameters()"),
    ("沿最后一维", "var = x.var(dim=-1,", "var = x.var(dim=0,", "rows_mixed", "最后一维"),
    ("不修改输入", "        norm_x = (x - mean)", "        x -= 0\n        x.mul_(1.0).add_(0.5)\n        norm_x = (x - 0.5 - mean)",
     "inplace_input", "不应修改"),
]

# 每条写明的要求的「邻居」：看起来也说得通的另一种写法（另一个维度、顺序、默认值、估计量……）。
# 检查用的输入要让每个邻居都得出不同的结果：把它当作答案交给检查器，必须不通过（tests/test_neighbours.py）。
# (要求, 参考答案里的原文片段, 换成的邻居写法)
NEIGHBOURS = [
    ('有偏方差', 'unbiased=False', 'unbiased=True'),
    ('ε 在根号里', 'torch.sqrt(var + self.eps)', '(torch.sqrt(var) + self.eps)'),
    ('用构造函数的 eps（写死别的数）', 'torch.sqrt(var + self.eps)', 'torch.sqrt(var + 1e-3)'),
    ('沿最后一维', 'mean = x.mean(dim=-1, keepdim=True)\n        var = x.var(dim=-1,', 'mean = x.mean(dim=0, keepdim=True)\n        var = x.var(dim=0,'),
    ('β 在乘完 γ 之后加', 'self.scale * norm_x + self.shift', 'self.scale * (norm_x + self.shift)'),
    ('γ、β 不对调', 'self.scale * norm_x + self.shift', 'self.shift * norm_x + self.scale'),
    ('保留维度', 'mean = x.mean(dim=-1, keepdim=True)', 'mean = x.mean(dim=-1)'),
]
