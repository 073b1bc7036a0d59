import torch


def identity_params(x, eps=1e-5):
    """返回 (gamma, beta)，使层归一化对这一行 x 的输出恰好是 x。"""
    mean = x.mean()
    var = x.var(unbiased=False)
    gamma = torch.sqrt(var + eps) * torch.ones_like(x)   # 乘回标准差（含 ε）
    beta = mean * torch.ones_like(x)                     # 加回均值
    return gamma, beta
