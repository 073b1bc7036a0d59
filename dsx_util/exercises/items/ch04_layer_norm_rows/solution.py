import math


def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    """对每一行做层归一化：式 (4.1)–(4.4)。rows 是列表的列表，gamma、beta 长度都是 H。"""
    out = []
    for row in rows:
        h = len(row)
        mu = sum(row) / h                                   # 式 (4.1)
        var = sum((v - mu) ** 2 for v in row) / h           # 式 (4.2)：有偏方差，除以 H
        std = math.sqrt(var + eps)                          # 式 (4.3)：ε 加在根号里面
        out.append([g * (v - mu) / std + b for v, g, b in zip(row, gamma, beta)])   # 式 (4.4)
    return out
