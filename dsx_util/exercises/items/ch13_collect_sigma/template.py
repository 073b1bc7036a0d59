import torch
import torch.nn as nn

from dsx_util.layernorm import LayerNorm


def collect_sigma(model, idx):
    """model 读 idx（[B, T] 的词元 ID）时，每个层归一化输入的逐词元 σ。

    返回 {模块名: 形状 [B, T] 的张量}。
    """
    raise NotImplementedError("请在这里写你的代码")
