def stats_rows(data):
    """把 {名称: 浮点数列表} 变成 [[名称, 个数, 均值], ...]，顺序与字典相同。"""
    raise NotImplementedError("请在这里写你的代码")
