import math


def dyt_list(values, alpha, gamma, beta):
    """动态 tanh：γ_i · tanh(α · x_i) + β_i，返回新列表。"""
    return [g * math.tanh(alpha * v) + b for v, g, b in zip(values, gamma, beta)]
