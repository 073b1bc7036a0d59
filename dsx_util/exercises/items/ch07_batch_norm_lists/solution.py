import math


def batch_norm_lists(x, eps=1e-5):
    """x 是 B 行 H 列的嵌套列表；对每一列（每个特征）跨行标准化，返回同样形状的新列表。"""
    columns = []
    for col in zip(*x):                                  # 每一列是一个特征在 B 个样本上的值
        mu = sum(col) / len(col)
        var = sum((v - mu) ** 2 for v in col) / len(col)   # 有偏方差，除以 B
        columns.append([(v - mu) / math.sqrt(var + eps) for v in col])
    return [list(row) for row in zip(*columns)]          # 列转回行
