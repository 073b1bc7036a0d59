# 导入：torch、feedback、torch_checks。
"""练习 ch11-var-from-sums 的检查器（题目、模板、参考答案在同一个文件夹；编目的错误写法在 mistakes.py）。"""
from ...feedback import checker
from ...torch_checks import case, randn, run_cases

CODES = {
    "unbiased_var": "你除以了 H−1：这里要的是有偏方差（除以 H），和层归一化一致。",
    "missing_mean_square": "还要减去均值的平方：方差 = x² 的平均 − 平均值的平方。",
    "sign_flipped": "两项的顺序反了：方差不会是负数。",
    "forgot_divide": "s1、s2 是求和，不是平均：先除以 h。",
}


@checker(__name__, CODES, each=True)
def check_var_from_sums(fn):
    """检查 var_from_sums(s1, s2, h)：由一遍扫描得到的 Σx 与 Σx² 算出有偏方差（逐元素）。"""
    import torch
    inputs = [randn(0, 3, 8, dtype=torch.float64) * 2 + 1, randn(1, 3, 50, dtype=torch.float64) * 2 + 1]
    return run_cases(fn, [_case(x) for x in inputs], CODES, atol=1e-8, rtol=1e-7)


def _case(x):
    """数据 x（每行 H 个数）的用例：学习者拿到 Σx、Σx² 与个数 H，正确结果是有偏方差；以及四种典型错误。"""
    n = x.shape[-1]
    s1, s2 = x.sum(-1), x.pow(2).sum(-1)
    wrong = {"unbiased_var": (s2 - s1 ** 2 / n) / (n - 1), "missing_mean_square": s2 / n,
             "sign_flipped": (s1 / n) ** 2 - s2 / n, "forgot_divide": s2 - s1 ** 2}
    return case((s1, s2, n), x.var(-1, unbiased=False), wrong)
