import torch


def qk_norm_scores(q, k, eps=1e-6):
    """QK 归一化的分数：RMSNorm(q) · RMSNorm(k)ᵀ / √head_dim，[B, 头数, T, T]。"""
    d = q.shape[-1]
    q_hat = q * torch.rsqrt(q.pow(2).mean(dim=-1, keepdim=True) + eps)   # 每个头的 d 个分量
    k_hat = k * torch.rsqrt(k.pow(2).mean(dim=-1, keepdim=True) + eps)
    return q_hat @ k_hat.transpose(-2, -1) / d ** 0.5
