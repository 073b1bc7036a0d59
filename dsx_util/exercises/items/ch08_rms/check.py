# 导入：feedback、torch_checks。
"""练习 ch08-rms 的检查器（题目、模板、参考答案在同一个文件夹；编目的错误写法在 mistakes.py）。"""
from ...feedback import checker
from ...torch_checks import case, randn, run_cases

CODES = {
    "subtracted_mean": "你先减去了均值，算出的是标准差：均方根直接对 x² 求平均，不减均值。",
    "missing_sqrt": "这是均方（x² 的平均），还差开平方。",
    "no_keepdim": "数值对了，但形状是 {actual}：请保留被归约的最后一维（长度 1），这样结果才能和 x 逐元素相除。",
    "wrong_dim": "你在第 0 维上求了平均：均方根要对最后一维（每个词元的所有特征）求。",
    "abs_mean": "你算的是绝对值的平均：均方根是先平方、再平均、再开方。",
}


@checker(__name__, CODES, each=True)
def check_rms(fn):
    """检查 rms_last_dim(x)：沿最后一维的均方根 sqrt(mean(x²))，保留维度（keepdim）。"""
    inputs = [randn(0, 3, 5) * 2 + 0.5, randn(1, 2, 4, 6) * 2 + 0.5]
    return run_cases(fn, [_case(x) for x in inputs], CODES, atol=1e-4, rtol=1e-4)


def _case(x):
    """输入 x 的用例：正确的均方根，以及每种典型错误算出的结果（先比较的在前）。"""
    squares = x.pow(2)
    wrong = {"no_keepdim": squares.mean(-1).sqrt(), "subtracted_mean": x.var(-1, keepdim=True, unbiased=False).sqrt(),
             "missing_sqrt": squares.mean(-1, keepdim=True), "wrong_dim": squares.mean(0, keepdim=True).sqrt(),
             "abs_mean": x.abs().mean(-1, keepdim=True), "wrong_dim#no_keepdim": squares.mean(0).sqrt()}
    return case((x,), squares.mean(-1, keepdim=True).sqrt(), wrong)
