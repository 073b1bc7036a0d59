import torch


def layer_norm_backward(x, gamma, grad_out, eps=1e-5):
    """层归一化对 x 的梯度（不用 autograd）。"""
    raise NotImplementedError("请在这里写你的代码")
