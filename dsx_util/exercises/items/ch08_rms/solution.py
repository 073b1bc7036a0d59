import torch


def rms_last_dim(x):
    """沿最后一维的均方根，保留维度。"""
    return torch.sqrt(x.pow(2).mean(dim=-1, keepdim=True))
