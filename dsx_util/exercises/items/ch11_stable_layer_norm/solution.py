import torch


def stable_normalize(x, eps=1e-5):
    """float32 下数值稳定的标准化：均值很大的行也要算对。"""
    mean = x.mean(dim=-1, keepdim=True)                # 第一遍：均值
    diff = x - mean                                    # 偏差的大小与数据的尺度无关
    var = (diff * diff).mean(dim=-1, keepdim=True)     # 第二遍：偏差平方的平均
    return diff / torch.sqrt(var + eps)
