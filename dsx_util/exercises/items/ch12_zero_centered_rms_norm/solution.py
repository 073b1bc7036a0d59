import torch


def zero_centered_rms_norm(x, gamma, eps=1e-6):
    """零中心 RMSNorm：x / √(mean(x²) + ε) · (1 + γ)，返回 x 的类型。"""
    x32 = x.float()                                      # 平方和在 float32 里不会溢出
    mean_sq = x32.pow(2).mean(dim=-1, keepdim=True)
    y = x32 * torch.rsqrt(mean_sq + eps) * (1 + gamma.float())
    return y.to(x.dtype)                                 # 转回输入的类型
