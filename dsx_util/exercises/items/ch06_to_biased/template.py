def to_biased(var_unbiased, h):
    """无偏方差（除以 H−1）换算成有偏方差（除以 H）。"""
    raise NotImplementedError("请在这里写你的代码")
