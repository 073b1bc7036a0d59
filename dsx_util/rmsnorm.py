"""本书第 8 章实现的 RMSNorm；章节里展示的类与这里的代码逐字相同（由测试保证）。"""
import torch
import torch.nn as nn


class RMSNorm(nn.Module):
    """均方根归一化：去掉减均值，只按均方根缩放；LLaMA 等模型用它代替 LayerNorm。"""

    def __init__(self, emb_dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.scale = nn.Parameter(torch.ones(emb_dim))  # 缩放参数 γ；没有平移参数 β

    def forward(self, x):
        mean_sq = x.pow(2).mean(dim=-1, keepdim=True)   # 均方 mean(x²)
        norm_x = x * torch.rsqrt(mean_sq + self.eps)    # 除以均方根
        return self.scale * norm_x
