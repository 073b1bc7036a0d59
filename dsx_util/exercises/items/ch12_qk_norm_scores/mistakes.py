# 导入：无。
"""这道练习编目的错误写法：检查器对每一条必须恰好报出给定的代码（按顺序）。

每条是 (说明, 代码列表, 学习者写的函数)；函数由一段学习者会写的代码执行得到（_fn）。
"""
_QK = '''import torch


def qk_norm_scores(q, k, eps=1e-6):
    d = q.shape[-1]
    q_hat = {qh}
    k_hat = {kh}
    return {ret}
'''
_RMS = "{z} * torch.rsqrt({z}.pow(2).mean(dim=-1, keepdim=True) + eps)"


def _qk(qh=None, kh=None, ret="q_hat @ k_hat.transpose(-2, -1) / d ** 0.5"):
    return _QK.format(qh=qh or _RMS.format(z="q"), kh=kh or _RMS.format(z="k"), ret=ret)



def _fn(source):
    """执行一段学习者的代码，取出它定义的函数。"""
    namespace = {}
    exec(compile(source, "<学习者的代码>", "exec"), namespace)
    return next(v for k, v in namespace.items() if callable(v) and not k.startswith("_") and k != "torch")


MISTAKES = [
    ("ε 写成了 1（比均方大得多）", ["not_scale_invariant"],
     _qk(qh="q * torch.rsqrt(q.pow(2).mean(dim=-1, keepdim=True) + 1.0)",
         kh="k * torch.rsqrt(k.pow(2).mean(dim=-1, keepdim=True) + 1.0)")),
    ("分数多乘了 2", ["exceeds_bound"], _qk(ret="2 * q_hat @ k_hat.transpose(-2, -1) / d ** 0.5")),
    ("只归一化了 q", ["only_q_normalized"], _qk(kh="k")),
    ("只归一化了 k", ["only_k_normalized"], _qk(qh="q")),
    ("都没归一化", ["no_normalization"], _qk(qh="q", kh="k")),
    ("归一化成单位长度", ["unit_length"], _qk(qh="q / torch.sqrt(q.pow(2).sum(dim=-1, keepdim=True) + eps)",
                                          kh="k / torch.sqrt(k.pow(2).sum(dim=-1, keepdim=True) + eps)")),
    ("忘了除以 √d", ["missing_scale"], _qk(ret="q_hat @ k_hat.transpose(-2, -1)")),
    ("除以 d", ["divided_by_d"], _qk(ret="q_hat @ k_hat.transpose(-2, -1) / d")),
    ("k̂ @ q̂ᵀ", ["transposed"], _qk(ret="k_hat @ q_hat.transpose(-2, -1) / d ** 0.5")),
    ("沿词元那一维归一化", ["wrong_dim"], _qk(qh="q * torch.rsqrt(q.pow(2).mean(dim=-2, keepdim=True) + eps)",
                                            kh="k * torch.rsqrt(k.pow(2).mean(dim=-2, keepdim=True) + eps)")),
    ("做成了层归一化", ["subtracted_mean"],
     _qk(qh="(q - q.mean(-1, keepdim=True)) * torch.rsqrt((q - q.mean(-1, keepdim=True)).pow(2).mean(-1, keepdim=True) + eps)",
         kh="(k - k.mean(-1, keepdim=True)) * torch.rsqrt((k - k.mean(-1, keepdim=True)).pow(2).mean(-1, keepdim=True) + eps)")),
    ("ε 在根号外", ["eps_outside_sqrt"], _qk(qh="q / (q.pow(2).mean(dim=-1, keepdim=True).sqrt() + eps)",
                                          kh="k / (k.pow(2).mean(dim=-1, keepdim=True).sqrt() + eps)")),
    ("ε 写死", ["eps_ignored"], _qk(qh="q * torch.rsqrt(q.pow(2).mean(dim=-1, keepdim=True) + 1e-6)",
                                  kh="k * torch.rsqrt(k.pow(2).mean(dim=-1, keepdim=True) + 1e-6)")),
    ("没有 ε", ["eps_ignored"], _qk(qh="q * torch.rsqrt(q.pow(2).mean(dim=-1, keepdim=True))",
                             kh="k * torch.rsqrt(k.pow(2).mean(dim=-1, keepdim=True))")),
    ("原地修改了 q", ["modified_input"], _qk(qh="q.mul_(torch.rsqrt(q.pow(2).mean(dim=-1, keepdim=True) + eps))")),
]
NOVEL = []

# 上面写成代码，是为了看得出每条错在哪里；检查器拿到的是学习者的函数
MISTAKES = [(what, codes, _fn(source)) for what, codes, source in MISTAKES]
NOVEL = [(what, codes, _fn(source)) for what, codes, source in NOVEL]


# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
REQUIREMENTS = [
    ("q 和 k 都归一化", "k_hat = k * torch.rsqrt(k.pow(2).mean(dim=-1, keepdim=True) + eps)", "k_hat = k",
     "only_q_normalized", "键 k"),
    ("沿最后一维", ("q.pow(2).mean(dim=-1, keepdim=True)", "k.pow(2).mean(dim=-1, keepdim=True)"),
     ("q.pow(2).mean(dim=-2, keepdim=True)", "k.pow(2).mean(dim=-2, keepdim=True)"), "wrong_dim", "最后一维"),
    ("ε 在根号里", "torch.rsqrt(q.pow(2).mean(dim=-1, keepdim=True) + eps)",
     "1 / (q.pow(2).mean(dim=-1, keepdim=True).sqrt() + eps)", "wrong_output", "最大相差"),
    ("用参数 eps", ("q.pow(2).mean(dim=-1, keepdim=True) + eps", "k.pow(2).mean(dim=-1, keepdim=True) + eps"),
     ("q.pow(2).mean(dim=-1, keepdim=True) + 1e-6", "k.pow(2).mean(dim=-1, keepdim=True) + 1e-6"), "eps_ignored", "eps"),
    ("除以 √head_dim", "/ d ** 0.5", "", "missing_scale", "√head_dim"),
    ("第 i 行第 j 列是第 i 个查询与第 j 个键", "q_hat @ k_hat.transpose(-2, -1)", "k_hat @ q_hat.transpose(-2, -1)",
     "transposed", "第 i 个查询"),
    ("不调用 F.normalize", "    d = q.shape[-1]",
     "    import torch.nn.functional as F\n    F.normalize(q)\n    d = q.shape[-1]", "forbidden_call", "均方根"),
    ("不调用现成的均方根归一化", "    d = q.shape[-1]",
     "    torch.nn.functional.rms_norm(q, q.shape[-1:])\n    d = q.shape[-1]", "forbidden_call", "均方根归一化"),
]

# 每条写明的要求的「邻居」：看起来也说得通的另一种写法（另一个维度、顺序、默认值、估计量……）。
# 检查用的输入要让每个邻居都得出不同的结果：把它当作答案交给检查器，必须不通过（tests/test_neighbours.py）。
# (要求, 参考答案里的原文片段, 换成的邻居写法)
NEIGHBOURS = [
    ('除以 √head_dim（不是 head_dim）', '/ d ** 0.5', '/ d'),
    ('第 i 行第 j 列是 q_i·k_j（不转置结果）', 'q_hat @ k_hat.transpose(-2, -1)', '(k_hat @ q_hat.transpose(-2, -1))'),
    ('沿最后一维', 'q.pow(2).mean(dim=-1, keepdim=True)', 'q.pow(2).mean(dim=-2, keepdim=True)'),
    ('ε 在根号里', 'torch.rsqrt(q.pow(2).mean(dim=-1, keepdim=True) + eps)', '1 / (q.pow(2).mean(dim=-1, keepdim=True).sqrt() + eps)'),
    ('k 也归一化', 'k_hat = k * torch.rsqrt(k.pow(2).mean(dim=-1, keepdim=True) + eps)', 'k_hat = k'),
    ('RMS 而不是 L2 归一化', 'q_hat = q * torch.rsqrt(q.pow(2).mean(dim=-1, keepdim=True) + eps)', 'q_hat = q * torch.rsqrt(q.pow(2).sum(dim=-1, keepdim=True) + eps)'),
]
