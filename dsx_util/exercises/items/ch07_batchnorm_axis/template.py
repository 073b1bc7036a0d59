import torch


def batch_normalize(x, eps=1e-5):
    """对形状 [B, H] 的 x 做批量归一化的标准化步骤。"""
    raise NotImplementedError("请在这里写你的代码")
