# 导入：torch。
"""练习 ch07-batch-norm 编目的错误写法：检查器对每一条必须恰好报出给定的代码（tests/test_exercise_layout.py、
tests/test_check_batch_norm.py 逐条检查）。每条是 (说明, 代码列表, 学习者写的类或函数)；Good… 是正确的基准实现，
每个有错的版本只改动一处。
"""
import torch
import torch.nn as nn


class GoodBN(nn.Module):
    """正确的基准实现（题目要求的 weight、bias 与两个缓冲区）；有错的版本改写 core、batch_stats 或 update。"""

    def __init__(self, num_features, eps=1e-5, momentum=0.1):
        super().__init__()
        self.eps, self.momentum = eps, momentum
        self.weight = nn.Parameter(torch.ones(num_features))
        self.bias = nn.Parameter(torch.zeros(num_features))
        self.register_buffer("running_mean", torch.zeros(num_features))
        self.register_buffer("running_var", torch.ones(num_features))
        self.register_buffer("num_batches_tracked", torch.tensor(0, dtype=torch.long))

    def forward(self, x):
        return self.weight * self.core(x) + self.bias

    def count(self):
        with torch.no_grad():
            self.num_batches_tracked += 1

    def factor(self):
        """这一步的动量：momentum 为 None 时取 1/num_batches_tracked（累计平均）。"""
        return self.momentum if self.momentum is not None else 1.0 / float(self.num_batches_tracked)

    def batch_stats(self, x):
        return x.mean(dim=0), x.var(dim=0, unbiased=False)

    def update(self, mean, x):
        self.count()
        m = self.factor()
        with torch.no_grad():
            self.running_mean.mul_(1 - m).add_(m * mean)
            self.running_var.mul_(1 - m).add_(m * x.var(dim=0, unbiased=True))

    def core(self, x):
        if self.training:
            mean, var = self.batch_stats(x)
            self.update(mean, x)
        else:
            mean, var = self.running_mean, self.running_var
        return (x - mean) / torch.sqrt(var + self.eps)


class ScaleShiftNames(GoodBN):
    """本书层归一化的名字 scale / shift：题目要求 weight / bias（state_dict 要能与 nn.BatchNorm1d 互相加载）。"""

    def __init__(self, num_features, eps=1e-5, momentum=0.1):
        super().__init__(num_features, eps, momentum)
        self.scale, self.shift = self.weight, self.bias
        del self.weight, self.bias

    def forward(self, x):
        return self.scale * self.core(x) + self.shift


class PlainBuffers(GoodBN):
    def __init__(self, num_features, eps=1e-5, momentum=0.1):
        super().__init__(num_features, eps, momentum)
        del self.running_mean, self.running_var
        self.running_mean, self.running_var = torch.zeros(num_features), torch.ones(num_features)


class EvalUpdates(GoodBN):
    def core(self, x):
        mean, var = self.batch_stats(x)
        self.update(mean, x)
        if not self.training:
            mean, var = self.running_mean, self.running_var
        return (x - mean) / torch.sqrt(var + self.eps)


class EpsIgnored(GoodBN):
    def core(self, x):
        self.eps = 1e-5
        return super().core(x)


class MomentumIgnored(GoodBN):
    def update(self, mean, x):
        self.momentum = 0.1
        super().update(mean, x)


class NoBatchesTracked(GoodBN):
    """没有 num_batches_tracked：自己的 state_dict 能加载进 nn.BatchNorm1d，反过来却报 Unexpected key(s)。"""

    def __init__(self, num_features, eps=1e-5, momentum=0.1):
        super().__init__(num_features, eps, momentum)
        del self.num_batches_tracked

    def count(self):
        pass

    def factor(self):
        return self.momentum


class NotCounting(GoodBN):
    """注册了 num_batches_tracked，却从不计数。"""

    def count(self):
        pass

    def factor(self):
        return self.momentum if self.momentum is not None else 1.0 / max(1.0, float(self.num_batches_tracked))


class CountsInEval(GoodBN):
    """评估模式下也计数。"""

    def core(self, x):
        if not self.training:
            self.count()
        return super().core(x)


class MomentumNoneAsDefault(GoodBN):
    """momentum=None 时退回 0.1，而不是累计平均。"""

    def factor(self):
        return self.momentum if self.momentum is not None else 0.1


class MomentumNoneCrashes(GoodBN):
    """没想到 momentum 可以是 None：1 - None 出错。"""

    def factor(self):
        return self.momentum


class ExtraBuffer(GoodBN):
    """多注册了一个缓冲区：nn.BatchNorm1d 的 state_dict 里没有它，加载时报 Missing key(s)。"""

    def __init__(self, num_features, eps=1e-5, momentum=0.1):
        super().__init__(num_features, eps, momentum)
        self.register_buffer("eps_value", torch.tensor(float(eps)))


class InGraph(GoodBN):
    def update(self, mean, x):
        self.count()
        m = self.momentum
        self.running_mean = (1 - m) * self.running_mean + m * mean
        self.running_var = (1 - m) * self.running_var + m * x.var(dim=0, unbiased=True)


class BadInitBias(GoodBN):
    def __init__(self, num_features, eps=1e-5, momentum=0.1):
        super().__init__(num_features, eps, momentum)
        self.bias = nn.Parameter(torch.ones(num_features))


class PlainWeight(GoodBN):
    def __init__(self, num_features, eps=1e-5, momentum=0.1):
        super().__init__(num_features, eps, momentum)
        del self.weight
        self.weight = torch.ones(num_features)


class WrongAxis(GoodBN):
    def batch_stats(self, x):
        return x.mean(dim=1, keepdim=True), x.var(dim=1, keepdim=True, unbiased=False)

    def update(self, mean, x):
        super().update(x.mean(dim=0), x)


class UnbiasedNormalize(GoodBN):
    def batch_stats(self, x):
        return x.mean(dim=0), x.var(dim=0)


class RunningVarBiased(GoodBN):
    def update(self, mean, x):
        self.count()
        m = self.momentum
        with torch.no_grad():
            self.running_mean.mul_(1 - m).add_(m * mean)
            self.running_var.mul_(1 - m).add_(m * x.var(dim=0, unbiased=False))


class NoUpdate(GoodBN):
    def update(self, mean, x):
        pass


class WrongMomentum(GoodBN):
    def update(self, mean, x):
        self.count()
        m = 1 - self.momentum
        with torch.no_grad():
            self.running_mean.mul_(1 - m).add_(m * mean)
            self.running_var.mul_(1 - m).add_(m * x.var(dim=0, unbiased=True))


class EvalBatch(GoodBN):
    def core(self, x):
        mean, var = self.batch_stats(x)
        if self.training:
            self.update(mean, x)
        return (x - mean) / torch.sqrt(var + self.eps)


class ReturnsNone(GoodBN):
    def forward(self, x):
        super().forward(x)


class EpsTooBig(GoodBN):
    """ε 大了 10 倍：各条性质都还满足，数值却与 nn.BatchNorm1d 不同。"""

    def __init__(self, num_features, eps=1e-5, momentum=0.1):
        super().__init__(num_features, eps=1e-4, momentum=momentum)


class Raises(GoodBN):
    def core(self, x):
        return super().core(x.T)


class Loops(GoodBN):
    def core(self, x):
        while True:
            pass


class Template(GoodBN):
    def core(self, x):
        raise NotImplementedError("请在这里写你的代码")


MISTAKES = [
    ('wrong_axis', ['wrong_axis'], WrongAxis),
    ('unbiased_normalize', ['unbiased_normalize'], UnbiasedNormalize),
    ('running_var_biased', ['running_var_biased'], RunningVarBiased),
    ('no_running_update', ['no_running_update'], NoUpdate),
    ('wrong_momentum', ['wrong_momentum'], WrongMomentum),
    ('eval_uses_batch_stats', ['eval_uses_batch_stats'], EvalBatch),
    ('wrong_shape_or_dtype', ['wrong_shape_or_dtype'], ReturnsNone),
    ('wrong_output', ['wrong_output'], EpsTooBig),
    ('raised', ['raised'], Raises),
    ('timeout', ['timeout'], Loops),
    ('not_done', ['not_done'], Template),
    ('wrong_param_names', ['wrong_param_names'], ScaleShiftNames),
    ('buffers_not_registered', ['buffers_not_registered'], PlainBuffers),
    ('eval_updates_running', ['eval_updates_running'], EvalUpdates),
    ('eps_ignored', ['eps_ignored'], EpsIgnored),
    ('momentum_ignored', ['momentum_ignored'], MomentumIgnored),
    ('running_stats_in_graph', ['running_stats_in_graph'], InGraph),
    ('wrong_init', ['wrong_init'], BadInitBias),
    ('not_parameters', ['not_parameters'], PlainWeight),
    ('no_batches_tracked', ['no_batches_tracked'], NoBatchesTracked),
    ('batches_not_counted', ['batches_not_counted'], NotCounting),
    ('batches_not_counted（评估模式也计数）', ['batches_not_counted'], CountsInEval),
    ('momentum_none_wrong', ['momentum_none_wrong'], MomentumNoneAsDefault),
    ('momentum_none_wrong（None 出错）', ['momentum_none_wrong'], MomentumNoneCrashes),
    ('state_dict_incompatible', ['state_dict_incompatible'], ExtraBuffer),
]

# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
REQUIREMENTS = [
    ("参数名 weight、bias", ("self.weight = nn.Parameter", "self.bias = nn.Parameter", "self.weight * norm_x + self.bias"),
     ("self.scale = nn.Parameter", "self.shift = nn.Parameter", "self.scale * norm_x + self.shift"),
     "wrong_param_names", "weight、bias"),
    ("不调用现成的批量归一化", "        if self.training:\n",
     "        return nn.functional.batch_norm(x, self.running_mean, self.running_var, self.weight, self.bias,"
     " self.training, self.momentum, self.eps)\n        if self.training:\n", "forbidden_call", "现成的批量归一化"),
    ("用构造函数的 eps", "torch.sqrt(var + self.eps)", "torch.sqrt(var + 1e-5)", "eps_ignored", "eps"),
    ("用构造函数的 momentum", "m = self.momentum", "m = 0.1", "momentum_ignored", "momentum"),
    ("running_var 用无偏方差更新", "x.var(dim=0, unbiased=True)", "x.var(dim=0, unbiased=False)", "running_var_biased",
     "无偏"),
    ("滑动统计量的更新不进入计算图", "            with torch.no_grad():                           # 滑动统计量用无偏方差\n"
     "                self.num_batches_tracked += 1\n",
     "            self.num_batches_tracked += 1\n            if True:\n", "running_stats_in_graph",
     "torch.no_grad()"),
    ("评估模式用滑动统计量", "        else:\n            mean, var = self.running_mean, self.running_var\n",
     "        mean, var = x.mean(dim=0), x.var(dim=0, unbiased=False)\n", "eval_uses_batch_stats", "running"),
    ("缓冲区用 register_buffer 注册", 'self.register_buffer("running_mean", torch.zeros(num_features))',
     "self.running_mean = torch.zeros(num_features)", "buffers_not_registered", "register_buffer"),
    ("缓冲区 num_batches_tracked", 'self.register_buffer("num_batches_tracked", torch.tensor(0, dtype=torch.long))',
     'self.num_batches_tracked = torch.tensor(0, dtype=torch.long)', "no_batches_tracked", "num_batches_tracked"),
    ("训练模式下 num_batches_tracked 加 1", "                self.num_batches_tracked += 1\n", "", "batches_not_counted",
     "num_batches_tracked"),
    ("momentum=None 时取累计平均", "                    m = 1.0 / float(self.num_batches_tracked)",
     "                    m = 0.1", "momentum_none_wrong", "累计平均"),
    ("state_dict 与 nn.BatchNorm1d 互相加载", '        self.register_buffer("running_var", torch.ones(num_features))\n',
     '        self.register_buffer("running_var", torch.ones(num_features))\n'
     '        self.register_buffer("step", torch.tensor(0))\n', "state_dict_incompatible", "state_dict"),
    ("签名 (num_features, eps=1e-5, momentum=0.1)", "momentum=0.1):", "momentum=0.9):", "wrong_signature", "默认值"),
]

# 每条写明的要求的「邻居」：看起来也说得通的另一种写法（另一个维度、顺序、默认值、估计量……）。
# 检查用的输入要让每个邻居都得出不同的结果：把它当作答案交给检查器，必须不通过（tests/test_neighbours.py）。
# (要求, 参考答案里的原文片段, 换成的邻居写法)
NEIGHBOURS = [
    ('running_var 用无偏方差', 'x.var(dim=0, unbiased=True)', 'x.var(dim=0, unbiased=False)'),
    ('归一化用有偏方差', 'var = x.var(dim=0, unbiased=False)', 'var = x.var(dim=0, unbiased=True)'),
    ('动量方向', 'self.running_mean.mul_(1 - m).add_(m * mean)', 'self.running_mean.mul_(m).add_((1 - m) * mean)'),
    ('momentum=None 的累计平均用加 1 之后的计数', 'm = 1.0 / float(self.num_batches_tracked)', 'm = 1.0 / float(self.num_batches_tracked + 1)'),
    ('每个特征（dim=0）', 'mean = x.mean(dim=0)', 'mean = x.mean(dim=1, keepdim=True)'),
    ('num_batches_tracked 是整数 0', 'torch.tensor(0, dtype=torch.long)', 'torch.tensor(0.0)'),
    ('num_batches_tracked 形状 ()', 'torch.tensor(0, dtype=torch.long)', 'torch.zeros(1, dtype=torch.long)'),
]
