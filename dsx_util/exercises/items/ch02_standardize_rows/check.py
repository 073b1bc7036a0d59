# 导入：torch、feedback、torch_checks。
"""练习 ch02-standardize-rows 的检查器（题目、模板、参考答案在同一个文件夹；编目的错误写法在 mistakes.py）。"""
from ...feedback import checker
from ...torch_checks import randn, run_cases

CODES = {
    "normalized_columns": "你按列（dim=0）做了标准化：这里要让每一行（同一个样本的所有特征）均值为 0、方差为 1。",
    "normalized_all": "你用整个张量的均值和方差做了标准化：这里要每一行各用自己的均值和方差。",
    "no_centering": "没有减去均值：标准化后每一行的均值应为 0。",
    "no_scaling": "减去了均值，但没有除以标准差：标准化后每一行的方差应为 1。",
    "divided_by_var": "除以的是方差，不是标准差：方差的单位是原数据单位的平方。",
    "unbiased_var": "你用了无偏方差（除以 H−1）：本书的归一化用有偏方差（除以 H）。",
}


def _standardize(x, dim=-1, unbiased=False):
    mean = x.mean(dim=dim, keepdim=True)
    var = x.var(dim=dim, keepdim=True, unbiased=unbiased)
    return (x - mean) / var.sqrt()


@checker(__name__, CODES, each=True)
def check_standardize_rows(fn):
    """检查 standardize_rows(x)：x 形状 [B, H]，把每一行变成均值 0、（有偏）方差 1。"""
    import torch
    cases = []
    for seed, shape in ((0, (4, 6)), (1, (3, 5))):
        x = randn(seed, *shape) * torch.tensor([3.0] * shape[1]) + torch.arange(shape[1], dtype=torch.float32)
        wrong = {
            "normalized_columns": _standardize(x, dim=0),
            "normalized_all": (x - x.mean()) / x.var(unbiased=False).sqrt(),
            "no_centering": x / x.var(dim=-1, keepdim=True, unbiased=False).sqrt(),
            "no_scaling": x - x.mean(dim=-1, keepdim=True),
            "divided_by_var": (x - x.mean(dim=-1, keepdim=True)) / x.var(dim=-1, keepdim=True, unbiased=False),
            "unbiased_var": _standardize(x, unbiased=True),
        }
        cases.append(("", (x.clone(),), {}, _standardize(x), wrong))
    return run_cases(fn, cases, CODES, atol=1e-3, rtol=1e-3)
