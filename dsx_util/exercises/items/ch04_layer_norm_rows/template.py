import math


def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    """对每一行做层归一化：式 (4.1)–(4.4)。rows 是列表的列表，gamma、beta 长度都是 H。"""
    raise NotImplementedError("请在这里写你的代码")
