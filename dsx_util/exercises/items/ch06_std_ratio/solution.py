import math


def std_ratio(h):
    """同一组 h 个数：有偏标准差 / 无偏标准差。"""
    return math.sqrt((h - 1) / h)
