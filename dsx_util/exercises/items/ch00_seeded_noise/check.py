"""练习 ch00-seeded-noise 的检查器（题目、模板、参考答案在同一个文件夹；编目的错误写法在 mistakes.py）。"""
from ...simple_checks import (checker, _call, _msg, _torch, finish)

CODES = {
    "not_reproducible": "用同一个种子调用两次，得到的随机数却不同：要在生成随机数之前设定种子。",
    "seed_ignored": "换了种子，结果却没有变：种子应当来自参数 seed，而不是写死的数。",
    "wrong_values": "结果可以复现，但和“设定种子后生成 3×4 的标准正态随机数”不一致：检查用的随机函数和调用顺序。",
}


@checker(__name__, CODES)
def check_seeded_noise(fn):
    """检查 make_noise(seed)：设定种子后返回形状 (3, 4) 的标准正态随机张量，同一种子结果相同。"""
    torch = _torch()
    exercise = check_seeded_noise.exercise
    # 学习者的函数会调用 set_seed；检查结束后 _checker 恢复原来的全局随机状态
    a, failure = _call(fn, 7)
    if failure is None:
        b, failure = _call(fn, 7)
    if failure is None:
        c, failure = _call(fn, 8)
    if failure is not None:
        return finish(exercise, [failure])
    for value in (a, b, c):
        if not isinstance(value, torch.Tensor):
            return finish(exercise, [("not_tensor", _msg(CODES, "not_tensor", kind=type(value).__name__))])
        if tuple(value.shape) != (3, 4):
            return finish(exercise, [("wrong_shape", _msg(CODES, "wrong_shape", label="", expected=(3, 4), actual=tuple(value.shape)))])
    if not torch.equal(a, b):
        return finish(exercise, [("not_reproducible", CODES["not_reproducible"])])
    if torch.equal(a, c):
        return finish(exercise, [("seed_ignored", CODES["seed_ignored"])])
    from dsx_util.seed import set_seed
    set_seed(7)
    expected = torch.randn(3, 4)
    if not torch.equal(a.detach().to(expected.dtype), expected):
        return finish(exercise, [("wrong_values", CODES["wrong_values"])])
    return finish(exercise, [])
