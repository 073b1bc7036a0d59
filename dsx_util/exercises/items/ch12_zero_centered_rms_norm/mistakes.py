# 导入：无。
"""这道练习编目的错误写法：检查器对每一条必须恰好报出给定的代码（按顺序）。

每条是 (说明, 代码列表, 学习者写的函数)；函数由一段学习者会写的代码执行得到（_fn）。
"""
_ZC = '''import torch


def zero_centered_rms_norm(x, gamma, eps=1e-6):
    x32 = {x32}
    mean_sq = x32.pow(2).mean(dim={dim}, keepdim=True)
    y = x32 * {inv} * {scale}
    return {ret}
'''


def _zc(x32="x.float()", dim="-1", inv="torch.rsqrt(mean_sq + eps)", scale="(1 + gamma.float())", ret="y.to(x.dtype)"):
    return _ZC.format(x32=x32, dim=dim, inv=inv, scale=scale, ret=ret)



def _fn(source):
    """执行一段学习者的代码，取出它定义的函数。"""
    namespace = {}
    exec(compile(source, "<学习者的代码>", "exec"), namespace)
    return next(v for k, v in namespace.items() if callable(v) and not k.startswith("_") and k != "torch")


MISTAKES = [
    ("只给 float16 转 float32，bfloat16 仍在 bfloat16 里算", ["low_precision_error"], '''import torch


def zero_centered_rms_norm(x, gamma, eps=1e-6):
    x32 = x.float() if x.dtype == torch.float16 else x
    mean_sq = x32.pow(2).mean(dim=-1, keepdim=True)
    y = x32 * torch.rsqrt(mean_sq + eps) * (1 + gamma.to(x32.dtype))
    return y.to(x.dtype)
'''),
    ("均方在 float32 里算，乘法却在 float16 里做", ["low_precision_error"], '''import torch


def zero_centered_rms_norm(x, gamma, eps=1e-6):
    inv = torch.rsqrt(x.float().pow(2).mean(dim=-1, keepdim=True) + eps).to(x.dtype)
    return x * inv * (1 + gamma).to(x.dtype)
'''),
    ("乘了 γ 而不是 1 + γ", ["gamma_not_zero_centered"], _zc(scale="gamma.float()")),
    ("没乘缩放参数", ["no_gamma"], _zc(scale="1.0")),
    ("没转回输入的类型", ["wrong_dtype"], _zc(ret="y")),
    ("直接在 float16 里算", ["computed_in_low_precision"], _zc(x32="x", scale="(1 + gamma.to(x.dtype))")),
    ("减去了均值", ["subtracted_mean"], _zc(x32="x.float() - x.float().mean(dim=-1, keepdim=True)")),
    ("ε 在根号外", ["eps_outside_sqrt"], _zc(inv="1 / (torch.sqrt(mean_sq) + eps)")),
    ("ε 写死成 1e-6", ["eps_ignored"], _zc(inv="torch.rsqrt(mean_sq + 1e-6)")),
    ("没有 ε", ["no_eps"], _zc(inv="torch.rsqrt(mean_sq)")),
    ("少开平方", ["missing_sqrt"], _zc(inv="1 / (mean_sq + eps)")),
    ("沿第 0 维求均方", ["wrong_dim"], _zc(dim="0")),
    ("原地修改了 gamma", ["modified_input"], '''import torch


def zero_centered_rms_norm(x, gamma, eps=1e-6):
    x32 = x.float()
    gamma.add_(1)
    return (x32 * torch.rsqrt(x32.pow(2).mean(dim=-1, keepdim=True) + eps) * gamma.float()).to(x.dtype)
'''),
    ("原地修改了输入", ["modified_input"], '''import torch


def zero_centered_rms_norm(x, gamma, eps=1e-6):
    x32 = x.float()
    y = (x32 * torch.rsqrt(x32.pow(2).mean(dim=-1, keepdim=True) + eps) * (1 + gamma.float())).to(x.dtype)
    x.zero_()
    return y
'''),
]
NOVEL = []

# 上面写成代码，是为了看得出每条错在哪里；检查器拿到的是学习者的函数
MISTAKES = [(what, codes, _fn(source)) for what, codes, source in MISTAKES]
NOVEL = [(what, codes, _fn(source)) for what, codes, source in NOVEL]


# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
REQUIREMENTS = [
    ("乘的是 (1 + γ)", "* (1 + gamma.float())", "* gamma.float()", "gamma_not_zero_centered", "(1 + γ)"),
    ("在 float32 里计算", "x32 = x.float()  ", "x32 = x  ", "computed_in_low_precision", "float32"),
    ("不转换成 float64", "x32 = x.float()  ", "x32 = x.double()  ", "forbidden_call", "float64"),
    ("转回 x 原来的类型", "return y.to(x.dtype)", "return y", "wrong_dtype", "x.dtype"),
    ("ε 在根号里", "torch.rsqrt(mean_sq + eps)", "1 / (torch.sqrt(mean_sq) + eps)", "eps_outside_sqrt", "根号"),
    ("用参数 eps", "torch.rsqrt(mean_sq + eps)", "torch.rsqrt(mean_sq + 1e-6)", "eps_ignored", "eps"),
    ("不调用现成的均方根归一化", "    x32 = x.float()  ",
     "    return torch.nn.functional.rms_norm(x.float(), x.shape[-1:], 1 + gamma.float(), eps).to(x.dtype)\n"
     "    x32 = x.float()  ", "forbidden_call", "均方根归一化"),
    ("不修改传入的张量", "    return y.to(x.dtype)", "    out = y.to(x.dtype)\n    x.zero_()\n    return out",
     "modified_input", "改动了传入的"),
]

# 每条写明的要求的「邻居」：看起来也说得通的另一种写法（另一个维度、顺序、默认值、估计量……）。
# 检查用的输入要让每个邻居都得出不同的结果：把它当作答案交给检查器，必须不通过（tests/test_neighbours.py）。
# (要求, 参考答案里的原文片段, 换成的邻居写法)
NEIGHBOURS = [
    ('乘 (1 + γ) 而不是 γ', '* (1 + gamma.float())', '* gamma.float()'),
    ('ε 在根号里', 'torch.rsqrt(mean_sq + eps)', '1 / (torch.sqrt(mean_sq) + eps)'),
    ('在 float32 里计算', 'x32 = x.float()', 'x32 = x'),
    ('转回原来的类型', 'return y.to(x.dtype)', 'return y'),
    ('不减均值', 'mean_sq = x32.pow(2).mean(dim=-1, keepdim=True)', 'mean_sq = x32.var(dim=-1, keepdim=True, unbiased=False)'),
]
