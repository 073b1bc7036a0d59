import torch
import torch.nn as nn


class MyRMSNorm(nn.Module):
    def __init__(self, emb_dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.scale = nn.Parameter(torch.ones(emb_dim))   # 缩放参数 γ

    def forward(self, x):
        mean_sq = x.pow(2).mean(dim=-1, keepdim=True)
        return self.scale * x / torch.sqrt(mean_sq + self.eps)
