# 导入：torch、dsx_util.seed、feedback、torch_checks。
"""练习 ch00-seeded-noise 的检查器（题目、模板、参考答案在同一个文件夹；编目的错误写法在 mistakes.py）。"""
from ...feedback import checker, message
from ...torch_checks import try_call

CODES = {
    "not_reproducible": "用同一个种子调用两次，得到的随机数却不同：要在生成随机数之前设定种子。",
    "seed_ignored": "换了种子，结果却没有变：种子应当来自参数 seed，而不是写死的数。",
    "wrong_values": "结果可以复现，但和“设定种子后生成 3×4 的标准正态随机数”不一致：检查用的随机函数和调用顺序。",
}


@checker(__name__, CODES, each=True)
def check_seeded_noise(fn):
    """检查 make_noise(seed)：设定种子后返回形状 (3, 4) 的标准正态随机张量，同一种子结果相同。"""
    import torch
    # 学习者的函数会调用 set_seed；检查结束后 _checker 恢复原来的全局随机状态
    a, failure = try_call(fn, 7)
    if failure is None:
        b, failure = try_call(fn, 7)
    if failure is None:
        c, failure = try_call(fn, 8)
    if failure is not None:
        return [failure]
    for value in (a, b, c):
        if not isinstance(value, torch.Tensor):
            return [("not_tensor", message(CODES, "not_tensor", kind=type(value).__name__))]
        if tuple(value.shape) != (3, 4):
            return [("wrong_shape", message(CODES, "wrong_shape", label="", expected=(3, 4), actual=tuple(value.shape)))]
    if not torch.equal(a, b):
        return [("not_reproducible", CODES["not_reproducible"])]
    if torch.equal(a, c):
        return [("seed_ignored", CODES["seed_ignored"])]
    from dsx_util.seed import set_seed
    set_seed(7)
    expected = torch.randn(3, 4)
    if not torch.equal(a.detach().to(expected.dtype), expected):
        return [("wrong_values", CODES["wrong_values"])]
    return []
