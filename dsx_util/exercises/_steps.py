"""逐步诊断的共用小工具：没有任何错误模型吻合时，用“每个正确实现都有的性质”找出错在哪一步。

每个检查器自己决定检查哪些性质（均值为 0、方差约为 1、加常数不变、乘正数不变、各行互不影响……），
这里只提供：在已知参数下安全地调用学习者的模块，以及找出偏差最大的那一行。
"""
from __future__ import annotations


def set_params(m, values):
    """把 {属性名: 张量} 写进学习者模块的参数；失败时返回 False（此时不做依赖参数的检查）。"""
    import torch
    try:
        with torch.no_grad():
            for name, value in values.items():
                getattr(m, name).copy_(value)
    except Exception:  # noqa: BLE001 -- 学习者的参数可能是任何东西
        return False
    return True


def output(run, m, x):
    """m(x) 的 float64 结果；报错、超时、形状不对或有 NaN/inf 时返回 None（这一条性质就不检查）。"""
    import torch
    out = run.call(m, x.clone())
    y = out.value if out.ok else None
    if not isinstance(y, torch.Tensor) or tuple(y.shape) != tuple(x.shape) or not bool(torch.isfinite(y).all()):
        return None   # NaN/inf 由检查器原有的说明处理
    return y.detach().double()


def worst(values):
    """一维张量里绝对值最大的位置与值：(下标, 值)。"""
    i = int(values.abs().nan_to_num(float("inf")).argmax())
    return i, float(values[i])


def rows_mixed(run, m, x3, tol=1e-5):
    """只改动三维输入 x3[0, 0] 这一行时，其他行的输出是否也变了；返回最大变化（无法检查时返回 None）。"""
    a = output(run, m, x3)
    changed = x3.clone()
    changed[0, 0] = changed[0, 0] * 3.0 + 7.0
    b = output(run, m, changed)
    if a is None or b is None:
        return None
    d = (a - b).abs()
    d[0, 0] = 0.0
    d = float(d.nan_to_num(float("inf")).max())
    return d if d > tol else None
