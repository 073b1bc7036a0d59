# 导入：torch、feedback、torch_checks。
"""练习 ch11-var-from-sums 的检查器（题目、模板、参考答案在同一个文件夹；编目的错误写法在 mistakes.py）。"""
from ...feedback import checker
from ...torch_checks import randn, run_cases

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
    cases = []
    for seed, n in ((0, 8), (1, 50)):
        x = randn(seed, 3, n, dtype=torch.float64) * 2 + 1
        s1, s2 = x.sum(-1), x.pow(2).sum(-1)
        wrong = {
            "unbiased_var": (s2 - s1 ** 2 / n) / (n - 1),
            "missing_mean_square": s2 / n,
            "sign_flipped": (s1 / n) ** 2 - s2 / n,
            "forgot_divide": s2 - s1 ** 2,
        }
        cases.append(("", (s1.clone(), s2.clone(), n), {}, x.var(-1, unbiased=False), wrong))
    return run_cases(fn, cases, CODES, atol=1e-8, rtol=1e-7)
