def centering_backward(grad_out):
    """y = x - x.mean(dim=-1, keepdim=True) 时，由 dL/dy 求 dL/dx。"""
    raise NotImplementedError("请在这里写你的代码")
