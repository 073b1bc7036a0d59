def mean_var_list(values, unbiased=False):
    """返回 (均值, 方差)；unbiased=True 时方差除以 H−1，否则除以 H。"""
    raise NotImplementedError("请在这里写你的代码")
