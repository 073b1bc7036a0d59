import torch


def normalize(x, eps=1e-5):
    """式 (4.1)–(4.3)：沿最后一维减均值、除以 sqrt(方差 + eps)。"""
    raise NotImplementedError("请在这里写你的代码")
