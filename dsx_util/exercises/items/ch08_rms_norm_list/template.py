import math


def rms_norm_list(values, gamma, eps=1e-6):
    """均方根归一化：γ_i · x_i / sqrt(mean(x²) + ε)，返回新列表。"""
    raise NotImplementedError("请在这里写你的代码")
