def predict_shapes():
    """x 的形状是 (2, 3, 4)。返回字典：表达式 -> 结果形状（整数元组）。"""
    return {
        "x.mean(dim=-1)": (2, 3),
        "x.mean(dim=-1, keepdim=True)": (2, 3, 1),
        "x.sum(dim=0)": (3, 4),
        "x.var(dim=1, keepdim=True)": (2, 1, 4),
        "x - x.mean(dim=-1, keepdim=True)": (2, 3, 4),
    }
