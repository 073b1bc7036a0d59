"""set_seed：一次设定所有随机数生成器的种子，让结果可复现。"""
import random


def set_seed(seed=123):
    """为 random、NumPy 和 PyTorch（以及可用的 CUDA 设备）设定同一个种子，返回该种子。"""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"set_seed 需要一个整数种子，收到的是 {seed!r}（类型 {type(seed).__name__}）。请传入如 123 这样的整数。")
    if not 0 <= seed < 2**32:
        raise ValueError(f"种子 {seed} 超出范围：请使用 0 到 2**32 - 1 之间的整数。")
    random.seed(seed)
    try:
        import numpy as np
        np.random.seed(seed)
    except ImportError:
        pass
    import torch
    torch.manual_seed(seed)  # 同时为所有 CUDA 设备设定种子
    if torch.cuda.is_available():
        torch.cuda.manual_seed_all(seed)
    return seed
