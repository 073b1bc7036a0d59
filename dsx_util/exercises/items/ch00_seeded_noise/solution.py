import torch
from dsx_util import set_seed


def make_noise(seed):
    """设定种子后，返回形状为 (3, 4) 的标准正态随机张量。"""
    set_seed(seed)              # 先设定种子
    return torch.randn(3, 4)    # 再生成随机数
