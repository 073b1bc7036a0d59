def stable_var(values):
    """有偏方差（除以 H），均值很大时也要算对。"""
    mean = sum(values) / len(values)                               # 第一遍：均值
    return sum((v - mean) ** 2 for v in values) / len(values)      # 第二遍：偏差平方的平均
