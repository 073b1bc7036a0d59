def count_norms(cfg):
    """返回 (层归一化的个数, 参数总数)。"""
    raise NotImplementedError("请在这里写你的代码")
