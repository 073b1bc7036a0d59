# 导入：torch、feedback、torch_checks。
"""练习 ch07-batchnorm-axis 的检查器（题目、模板、参考答案在同一个文件夹；编目的错误写法在 mistakes.py）。"""
from ...feedback import checker
from ...torch_checks import case, randn, run_cases

CODES = {
    "normalized_rows": "你对每一行（每个样本）做了归一化，这是层归一化：批量归一化要对每一列（每个特征）跨样本归一化。",
    "normalized_all": "你用整个批量所有元素的均值和方差做了归一化：批量归一化每个特征（每一列）各算各的。",
    "unbiased_var": "你用了无偏方差（除以 B−1）：训练时的批量归一化用有偏方差来归一化。",
    "no_centering": "没有减去均值：归一化后每一列的均值应为 0。",
    "eps_ignored": "eps={eps} 时结果和 eps=1e-5 时一样：请用参数 eps，不要写死。",
    "eps_misplaced": "eps={eps} 时结果不对：ε 要加在方差上、再开平方（√(σ² + ε)），不要漏掉或加在根号外面。",
}


@checker(__name__, CODES, each=True)
def check_batchnorm_axis(fn):
    """检查 batch_normalize(x, eps)：x 形状 [B, H]，对每个特征（dim=0）做标准化（不含 γ、β）。"""
    return run_cases(fn, [_case(0, (5, 3), 1e-5), _case(1, (4, 7), 1e-5), _case(2, (6, 3), 0.5)], CODES,
                     atol=1e-4, rtol=1e-3)


def _case(seed, shape, eps):
    """形状 shape、各特征尺度不同的输入，用 eps 调用：正确结果与典型错误（eps 不是默认值时还查它有没有被用上）。"""
    import torch
    x = randn(seed, *shape) * (torch.arange(shape[1]) + 1.0) + 10 * torch.arange(shape[1])

    def norm(dim, unbiased=False, e=eps):
        return (x - x.mean(dim, keepdim=True)) / (x.var(dim, keepdim=True, unbiased=unbiased) + e).sqrt()
    centered, var = x - x.mean(0, keepdim=True), x.var(0, keepdim=True, unbiased=False)
    std = var.sqrt()
    wrong = {"normalized_rows": norm(-1), "normalized_all": (x - x.mean()) / (x.var(unbiased=False) + eps).sqrt(),
             "unbiased_var": norm(0, unbiased=True), "no_centering": x / (var + eps).sqrt()}
    if eps != 1e-5:
        wrong = {"eps_ignored": norm(0, e=1e-5), "eps_misplaced": centered / (std + eps),
                 "eps_misplaced#none": centered / std, **wrong}
    return case((x,), norm(0), wrong, label=f"eps={eps:g} 时：" if eps != 1e-5 else "", kwargs={"eps": eps})
