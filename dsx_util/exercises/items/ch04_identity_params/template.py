import torch


def identity_params(x, eps=1e-5):
    """返回 (gamma, beta)，使层归一化对这一行 x 的输出恰好是 x。"""
    raise NotImplementedError("请在这里写你的代码")
