import torch


def qk_norm_scores(q, k, eps=1e-6):
    """QK 归一化的分数：RMSNorm(q) · RMSNorm(k)ᵀ / √head_dim，[B, 头数, T, T]。"""
    raise NotImplementedError("请在这里写你的代码")
