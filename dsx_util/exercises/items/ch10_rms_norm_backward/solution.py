import torch


def rms_norm_backward(x, gamma, grad_out, eps=1e-5):
    """RMSNorm 对 x 和 gamma 的梯度（不用 autograd），返回 (grad_x, grad_gamma)。"""
    ms = (x * x).mean(dim=-1, keepdim=True)
    r = 1 / torch.sqrt(ms + eps)                         # r = 1/RMS，每行一个数
    x_hat = x * r
    rows = tuple(range(x.dim() - 1))                     # 除最后一维外的所有维度
    grad_gamma = (grad_out * x_hat).sum(dim=rows)        # γ 被所有行共用
    g = grad_out * gamma                                 # 传到 x_hat 的梯度
    g_proj = (g * x_hat).mean(dim=-1, keepdim=True)      # 经过 RMS 的一项
    grad_x = r * (g - x_hat * g_proj)
    return grad_x, grad_gamma
