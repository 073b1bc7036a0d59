def var_from_sums(s1, s2, h):
    """由 Σx 与 Σx² 算出有偏方差（逐元素）。"""
    raise NotImplementedError("请在这里写你的代码")
