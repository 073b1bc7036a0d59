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
