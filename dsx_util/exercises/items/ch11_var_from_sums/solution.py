def var_from_sums(s1, s2, h):
    """由 Σx 与 Σx² 算出有偏方差（逐元素）。"""
    mean = s1 / h
    return s2 / h - mean ** 2
