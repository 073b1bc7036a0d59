# 导入：torch、dsx_util.seed。
"""练习 ch00-seeded-noise 编目的错误写法：检查器对每一条必须恰好报出给定的代码（tests/test_exercise_layout.py、
tests/test_simple_checks.py 逐条检查）。每条是 (说明, 代码列表, 学习者写的函数)。
"""
import torch
from dsx_util.seed import set_seed

MISTAKES = [
    ('not_tensor', ['not_tensor'], lambda seed: (set_seed(seed), torch.randn(3, 4).tolist())[1]),
    ('wrong_shape', ['wrong_shape'], lambda seed: (set_seed(seed), torch.randn(4, 3))[1]),
    ('not_reproducible', ['not_reproducible'], lambda seed: (torch.randn(3, 4), set_seed(seed))[0]),
    ('seed_ignored', ['seed_ignored'], lambda seed: (set_seed(123), torch.randn(3, 4))[1]),
    ('wrong_values', ['wrong_values'], lambda seed: (set_seed(seed), torch.rand(3, 4))[1]),
]

# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
SIG = "参数"   # 签名不符的说明里都有“参数”
REQUIREMENTS = [
    ("先用 dsx_util.set_seed 设定种子", "set_seed(seed)              # 先设定种子", "torch.manual_seed(seed)",
     "missing_call", "set_seed"),
    ("种子来自参数 seed", "set_seed(seed)  ", "set_seed(0)  ", "seed_ignored", "参数 seed"),
    ("形状 (3, 4)", "torch.randn(3, 4)", "torch.randn(4, 3)", "wrong_shape", "(3, 4)"),
    ("签名 make_noise(seed)", "def make_noise(seed):", "def make_noise():", "wrong_signature", SIG),
]

# 每条写明的要求的「邻居」：看起来也说得通的另一种写法（另一个维度、顺序、默认值、估计量……）。
# 检查用的输入要让每个邻居都得出不同的结果：把它当作答案交给检查器，必须不通过（tests/test_neighbours.py）。
# (要求, 参考答案里的原文片段, 换成的邻居写法)
NEIGHBOURS = [
    ('先设种子再生成', '    set_seed(seed)              # 先设定种子\n    return torch.randn(3, 4)    # 再生成随机数', '    out = torch.randn(3, 4)\n    set_seed(seed)\n    return out'),
    ('种子来自参数', 'set_seed(seed)', 'set_seed(0)'),
    ('形状 (3, 4) 而不是 (4, 3)', 'torch.randn(3, 4)', 'torch.randn(4, 3)'),
    ('正态而不是均匀分布', 'torch.randn(3, 4)', 'torch.rand(3, 4)'),
    ('torch.manual_seed 代替 set_seed 也要得到同样的数', 'set_seed(seed)', 'torch.manual_seed(seed + 1)'),
]
