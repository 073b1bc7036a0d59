import torch


def normalize(x, eps=1e-5):
    """式 (4.1)–(4.3)：沿最后一维减均值、除以 sqrt(方差 + eps)。"""
    mean = x.mean(dim=-1, keepdim=True)                 # 式 (4.1)
    var = x.var(dim=-1, keepdim=True, unbiased=False)   # 式 (4.2)
    return (x - mean) / torch.sqrt(var + eps)           # 式 (4.3)
