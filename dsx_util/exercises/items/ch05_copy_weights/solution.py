import torch


def copy_weights(my_ln, torch_ln):
    """把 nn.LayerNorm 的参数和 eps 复制进本书的 LayerNorm。"""
    with torch.no_grad():
        my_ln.scale.copy_(torch_ln.weight)   # weight -> 缩放参数 γ
        my_ln.shift.copy_(torch_ln.bias)     # bias -> 平移参数 β
    my_ln.eps = torch_ln.eps
