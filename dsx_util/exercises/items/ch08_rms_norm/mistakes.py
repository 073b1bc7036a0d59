# 导入：torch。
"""练习 ch08-rms-norm 编目的错误写法：检查器对每一条必须恰好报出给定的代码（tests/test_exercise_layout.py、
tests/test_check_rms_norm.py 逐条检查）。每条是 (说明, 代码列表, 学习者写的类或函数)；Good… 是正确的基准实现，
每个有错的版本只改动一处。
"""
import torch
import torch.nn as nn


class GoodRMS(nn.Module):
    def __init__(self, emb_dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.scale = nn.Parameter(torch.ones(emb_dim))

    def denom(self, x):
        return torch.sqrt(x.pow(2).mean(dim=-1, keepdim=True) + self.eps)

    def forward(self, x):
        return self.scale * x / self.denom(x)


class EpsIgnored(GoodRMS):
    def denom(self, x):
        return torch.sqrt(x.pow(2).mean(dim=-1, keepdim=True) + 1e-6)


class WithShift(GoodRMS):
    """多了平移参数 β（初始全 0，默认情况下输出完全正确）。"""

    def __init__(self, emb_dim, eps=1e-6):
        super().__init__(emb_dim, eps)
        self.shift = nn.Parameter(torch.zeros(emb_dim))

    def forward(self, x):
        return super().forward(x) + self.shift


class SubtractsMean(GoodRMS):
    def forward(self, x):
        x = x - x.mean(dim=-1, keepdim=True)
        return self.scale * x / self.denom(x)


class EpsOutside(GoodRMS):
    def denom(self, x):
        return torch.sqrt(x.pow(2).mean(dim=-1, keepdim=True)) + self.eps


class EpsMissing(GoodRMS):
    def denom(self, x):
        return x.pow(2).mean(dim=-1, keepdim=True).sqrt()


class SumNotMean(GoodRMS):
    def denom(self, x):
        return torch.sqrt(x.pow(2).sum(dim=-1, keepdim=True) + self.eps)


class WrongDim(GoodRMS):
    def denom(self, x):
        return torch.sqrt(x.pow(2).mean(dim=0, keepdim=True) + self.eps)


class Plain(GoodRMS):
    def __init__(self, emb_dim, eps=1e-6):
        super().__init__(emb_dim, eps)
        del self.scale
        self.scale = torch.ones(emb_dim)


class ZeroInit(GoodRMS):
    def __init__(self, emb_dim, eps=1e-6):
        super().__init__(emb_dim, eps)
        self.scale = nn.Parameter(torch.zeros(emb_dim))


class ScalarScale(GoodRMS):
    def __init__(self, emb_dim, eps=1e-6):
        super().__init__(emb_dim, eps)
        self.scale = nn.Parameter(torch.tensor(1.0))


class ReturnsList(GoodRMS):
    def forward(self, x):
        return super().forward(x).tolist()


class EpsTooBig(GoodRMS):
    """ε 大了 100 倍：各条性质都还满足，只有均方根约 10⁻³ 的行上差别明显。"""

    def __init__(self, emb_dim, eps=1e-6):
        super().__init__(emb_dim, eps=1e-4)


class Raises(GoodRMS):
    def forward(self, x):
        return x @ self.scale.reshape(2, -1)


class Loops(GoodRMS):
    def forward(self, x):
        while True:
            pass


class Template(GoodRMS):
    def forward(self, x):
        raise NotImplementedError("请在这里写你的代码")


MISTAKES = [
    ('subtracts_mean', ['subtracts_mean'], SubtractsMean),
    ('eps_outside_sqrt', ['eps_outside_sqrt'], EpsOutside),
    ('eps_missing', ['eps_missing'], EpsMissing),
    ('sum_not_mean', ['sum_not_mean'], SumNotMean),
    ('wrong_dim', ['wrong_dim'], WrongDim),
    ('not_parameters', ['not_parameters'], Plain),
    ('wrong_init', ['wrong_init'], ZeroInit),
    ('wrong_param_shape', ['wrong_param_shape'], ScalarScale),
    ('wrong_shape_or_dtype', ['wrong_shape_or_dtype'], ReturnsList),
    ('wrong_output', ['wrong_output'], EpsTooBig),
    ('raised', ['raised'], Raises),
    ('timeout', ['timeout'], Loops),
    ('not_done', ['not_done'], Template),
    ('eps_ignored', ['eps_ignored'], EpsIgnored),
    ('extra_parameters', ['extra_parameters'], WithShift),
]

# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
REQUIREMENTS = [
    ("只有一个参数 scale，没有 β", "        self.scale = nn.Parameter(torch.ones(emb_dim))   # 缩放参数 γ",
     "        self.scale = nn.Parameter(torch.ones(emb_dim))   # 缩放参数 γ\n"
     "        self.shift = nn.Parameter(torch.zeros(emb_dim))", "extra_parameters", "平移参数 β"),
    ("不调用现成的均方根归一化", "        mean_sq = x.pow(2)",
     "        return nn.functional.rms_norm(x, self.scale.shape, self.scale, self.eps)\n        mean_sq = x.pow(2)",
     "forbidden_call", "均方根归一化"),
    ("用构造函数的 eps", "mean_sq + self.eps", "mean_sq + 1e-6", "eps_ignored", "eps"),
    ("ε 在根号里", "torch.sqrt(mean_sq + self.eps)", "(torch.sqrt(mean_sq) + self.eps)", "eps_outside_sqrt", "ε"),
]

# 每条写明的要求的「邻居」：看起来也说得通的另一种写法（另一个维度、顺序、默认值、估计量……）。
# 检查用的输入要让每个邻居都得出不同的结果：把它当作答案交给检查器，必须不通过（tests/test_neighbours.py）。
# (要求, 参考答案里的原文片段, 换成的邻居写法)
NEIGHBOURS = [
    ('ε 在根号里', 'torch.sqrt(mean_sq + self.eps)', '(torch.sqrt(mean_sq) + self.eps)'),
    ('用构造函数的 eps', 'torch.sqrt(mean_sq + self.eps)', 'torch.sqrt(mean_sq + 1e-6)'),
    ('不减均值', 'mean_sq = x.pow(2).mean(dim=-1, keepdim=True)', 'mean_sq = x.var(dim=-1, keepdim=True, unbiased=False)'),
    ('沿最后一维', 'mean_sq = x.pow(2).mean(dim=-1, keepdim=True)', 'mean_sq = x.pow(2).mean(dim=0, keepdim=True)'),
]
