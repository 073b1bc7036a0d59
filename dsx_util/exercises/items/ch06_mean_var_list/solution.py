def mean_var_list(values, unbiased=False):
    """返回 (均值, 方差)；unbiased=True 时方差除以 H−1，否则除以 H。"""
    h = len(values)
    mean = sum(values) / h
    squares = sum((v - mean) ** 2 for v in values)   # 偏差平方和：两种方差的分子相同
    return mean, squares / (h - 1 if unbiased else h)
