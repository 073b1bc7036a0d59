import torch
import torch.nn as nn

from dsx_util.layernorm import LayerNorm


def collect_sigma(model, idx):
    """model 读 idx（[B, T] 的词元 ID）时，每个层归一化输入的逐词元 σ。

    返回 {模块名: 形状 [B, T] 的张量}。
    """
    sigmas = {}
    handles = []
    for name, module in model.named_modules():
        if isinstance(module, (LayerNorm, nn.LayerNorm)):
            def hook(mod, inputs, output, name=name):          # name=name：记下此刻的名字
                x = inputs[0]                                    # 钩子拿到的输入是一个元组
                var = x.var(dim=-1, unbiased=False)              # 每个词元一个有偏方差
                sigmas[name] = torch.sqrt(var + mod.eps)         # 用这个模块自己的 ε
            handles.append(module.register_forward_hook(hook))
    try:
        with torch.no_grad():
            model(idx)
    finally:                                                     # 出错也要移除钩子
        for handle in handles:
            handle.remove()
    return sigmas
