import torch


def standardize_rows(x):
    """让 x 的每一行均值为 0、方差为 1。"""
    raise NotImplementedError("请在这里写你的代码")
