def centering_backward(grad_out):
    """y = x - x.mean(dim=-1, keepdim=True) 时，由 dL/dy 求 dL/dx。"""
    return grad_out - grad_out.mean(dim=-1, keepdim=True)
