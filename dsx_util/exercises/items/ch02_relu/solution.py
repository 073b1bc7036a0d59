def relu_list(values):
    """对列表里的每个数做 ReLU，返回新列表。"""
    return [v if v > 0 else 0.0 for v in values]
