import torch


def copy_weights(my_ln, torch_ln):
    """把 nn.LayerNorm 的参数和 eps 复制进本书的 LayerNorm。"""
    raise NotImplementedError("请在这里写你的代码")
