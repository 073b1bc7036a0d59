import torch


def batch_normalize(x, eps=1e-5):
    """对形状 [B, H] 的 x 做批量归一化的标准化步骤。"""
    mean = x.mean(dim=0, keepdim=True)                  # 每个特征跨样本求均值
    var = x.var(dim=0, keepdim=True, unbiased=False)
    return (x - mean) / torch.sqrt(var + eps)
