# 导入：标准库、torch、feedback、torch_checks。
"""练习 ch06-to-biased 的检查器（题目、模板、参考答案在同一个文件夹；编目的错误写法在 mistakes.py）。"""
import math

from ...feedback import checker
from ...torch_checks import case, randn, run_cases

CODES = {
    "inverted": "换算方向反了：有偏方差除以 H，无偏方差除以 H−1，所以有偏方差更小。",
    "used_sqrt": "这里换算的是方差，不是标准差：不需要开方。",
    "ignored_n": "结果没有用到 h：换算系数取决于每组有多少个数。",
}


@checker(__name__, CODES, each=True)
def check_to_biased(fn):
    """检查 to_biased(var_unbiased, h)：把无偏方差换算成有偏方差（张量逐元素）。"""
    import torch
    inputs = [(torch.tensor([1.0, 2.5, 0.3]), 4), (randn(0, 2, 3).abs() + 0.5, 768)]
    return run_cases(fn, [_case(v, n) for v, n in inputs], CODES, atol=1e-7, rtol=1e-6)


def _case(v, n):
    """无偏方差 v、个数 H 的用例：正确的换算 v·(H−1)/H，以及三种典型错误。"""
    wrong = {"inverted": v * n / (n - 1), "used_sqrt": v * math.sqrt((n - 1) / n), "ignored_n": v}
    return case((v, n), v * (n - 1) / n, wrong)
