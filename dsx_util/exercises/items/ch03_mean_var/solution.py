

def mean_var(x):
    """沿最后一维的均值和有偏方差，保留维度。"""
    mean = x.mean(dim=-1, keepdim=True)
    var = x.var(dim=-1, keepdim=True, unbiased=False)
    return mean, var
