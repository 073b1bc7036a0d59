import math


def rms_norm_list(values, gamma, eps=1e-6):
    """均方根归一化：γ_i · x_i / sqrt(mean(x²) + ε)，返回新列表。"""
    mean_square = sum(v * v for v in values) / len(values)   # 不减均值
    rms = math.sqrt(mean_square + eps)                        # ε 加在根号里面
    return [g * v / rms for v, g in zip(values, gamma)]
