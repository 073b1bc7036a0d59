import torch


def qk_norm_scores(q, k, eps=1e-6):
    """QK 归一化的注意力分数：RMSNorm(q) · RMSNorm(k)ᵀ / √head_dim，形状 [B, 头数, T, T]。"""
    raise NotImplementedError("请在这里写你的代码")
