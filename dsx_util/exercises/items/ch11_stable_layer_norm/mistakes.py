# 导入：torch。
"""练习 ch11-stable-layer-norm 编目的错误写法：检查器对每一条必须恰好报出给定的代码（tests/test_exercise_layout.py、
tests/test_simple_checks.py 逐条检查）。每条是 (说明, 代码列表, 学习者写的函数)。
"""
import torch


def _mean(x, dim=-1):
    return x.mean(dim=dim, keepdim=True)


def _own_var(x, unbiased=False):
    """第 11 章的练习不许调用现成的方差函数：自己算（两遍）。"""
    d = x - x.mean(dim=-1, keepdim=True)
    return (d * d).sum(dim=-1, keepdim=True) / (x.shape[-1] - (1 if unbiased else 0))


def _single_pass(x, eps=1e-5):
    mean = _mean(x)
    var = _mean(x * x) - mean ** 2
    return (x - mean) / torch.sqrt(var + eps)


def _two_pass_in(dtype):
    """两遍法本身没错，却先把输入换成低精度类型，最后再转回 float32（返回类型对了，有效数字已经丢了）。"""
    def stable_normalize(x, eps=1e-5):
        y = x.to(dtype)
        d = y - _mean(y)
        return (d / torch.sqrt(_mean(d * d) + eps)).float()
    return stable_normalize


MISTAKES = [
    ('single_pass_variance', ['single_pass_variance'], _single_pass),
    ('unbiased_var', ['unbiased_var'], lambda x, eps=1e-5: (x - _mean(x)) / torch.sqrt(_own_var(x, unbiased=True) + eps)),
    ('low_precision（float16 里两遍法）', ['low_precision'], _two_pass_in(torch.float16)),
    ('low_precision（bfloat16 里两遍法）', ['low_precision'], _two_pass_in(torch.bfloat16)),
    ('wrong_dtype', ['wrong_dtype'], lambda x, eps=1e-5: (lambda y: (y - _mean(y)) / torch.sqrt(_own_var(y) + eps))(x.to(torch.float16))),
    ('no_centering', ['no_centering'], lambda x, eps=1e-5: x / torch.sqrt(_own_var(x) + eps)),
    ('eps_ignored', ['eps_ignored'], lambda x, eps=1e-5: (x - _mean(x)) / torch.sqrt(_own_var(x) + 1e-5)),
    ('eps_misplaced', ['eps_misplaced'], lambda x, eps=1e-5: (x - _mean(x)) / (torch.sqrt(_own_var(x)) + eps)),
]

# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
REQUIREMENTS = [
    ("不调用 torch.var 之类的现成函数", "var = (diff * diff).mean(dim=-1, keepdim=True)",
     "var = x.var(dim=-1, keepdim=True, unbiased=False)", "forbidden_call", "torch.var"),
    ("不转换成 float64", "    mean = x.mean(dim=-1, keepdim=True)                # 第一遍",
     "    x = x.double()\n    mean = x.mean(dim=-1, keepdim=True)                # 第一遍", "forbidden_call", "float64"),
    ("均值约 10⁴ 的行也算对", "diff = x - mean", "diff = x - mean\n    var = (x * x).mean(dim=-1, keepdim=True) - mean ** 2"
     "\n    return diff / torch.sqrt(var + eps)", "single_pass_variance", "10⁴"),
    ("用参数 eps", "torch.sqrt(var + eps)", "torch.sqrt(var + 1e-5)", "eps_ignored", "eps"),
]

# 每条写明的要求的「邻居」：看起来也说得通的另一种写法（另一个维度、顺序、默认值、估计量……）。
# 检查用的输入要让每个邻居都得出不同的结果：把它当作答案交给检查器，必须不通过（tests/test_neighbours.py）。
# (要求, 参考答案里的原文片段, 换成的邻居写法)
NEIGHBOURS = [
    ('有偏方差', '(diff * diff).mean(dim=-1, keepdim=True)', '(diff * diff).sum(dim=-1, keepdim=True) / (x.shape[-1] - 1)'),
    ('ε 在根号里', 'torch.sqrt(var + eps)', '(torch.sqrt(var) + eps)'),
    ('单遍公式不行', 'var = (diff * diff).mean(dim=-1, keepdim=True)', 'var = (x * x).mean(dim=-1, keepdim=True) - mean * mean'),
    ('沿最后一维', 'mean = x.mean(dim=-1, keepdim=True)', 'mean = x.mean(dim=0, keepdim=True)'),
]
