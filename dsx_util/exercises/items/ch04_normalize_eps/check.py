# 导入：torch、feedback、torch_checks。
"""练习 ch04-normalize-eps 的检查器（题目、模板、参考答案在同一个文件夹；编目的错误写法在 mistakes.py）。"""
from ...feedback import checker
from ...torch_checks import randn, run_cases

CODES = {
    "nan_on_constant": "分母里没有 ε：所有值都相同的一行方差为 0，会得到 0/0 = NaN。",
    "no_eps": "{label}结果与少了 ε 的 (x − μ)/√σ² 一致：常数行你单独处理成了 0，但按式 (4.3) 每一行都要除以 √(σ² + ε)；"
              "方差很小的行（检查用的输入里有一行方差约 10⁻⁶，比 ε = 10⁻⁵ 还小）和 eps=0.5 时，有没有 ε 结果差得很明显。",
    "eps_outside_sqrt": "ε 加在了根号外面：按式 (4.3)，ε 要先加到方差上，再开平方。",
    "eps_ignored": "换成 eps=0.5 调用，结果没有变：请使用参数 eps，不要写死 1e-5。",
    "unbiased_var": "你用了无偏方差（除以 H−1）：层归一化用有偏方差（除以 H）。",
    "no_centering": "没有减去均值：式 (4.3) 的分子是 x − μ。",
}


def _normalize(x, eps, unbiased=False):
    mean = x.mean(dim=-1, keepdim=True)
    var = x.var(dim=-1, keepdim=True, unbiased=unbiased)
    return (x - mean) / (var + eps).sqrt()


@checker(__name__, CODES, each=True)
def check_normalize_eps(fn):
    """检查 normalize(x, eps)：按式 (4.1)–(4.3) 对最后一维标准化（不含 γ、β），常数行也要给出 0 而不是 NaN。"""
    import torch
    x = randn(0, 3, 8)
    x[1] = x[1] * 1e-3 + 2.0                 # 方差很小的一行：能区分 ε 放在根号里还是外
    const = torch.full((2, 8), 3.0)
    cases = []
    for label, data, eps in (("常数行：", const, 1e-5), ("普通输入：", x, 1e-5), ("eps=0.5 时：", x, 0.5)):
        wrong = {   # 常数行之外的输入没有 0/0：少了 ε 的答案（例如常数行另作处理）在这里说 no_eps，不说 NaN
            "nan_on_constant" if data is const else "no_eps": _normalize(data, 0.0),
            "eps_outside_sqrt": (data - data.mean(-1, keepdim=True)) / (data.var(-1, keepdim=True, unbiased=False).sqrt() + eps),
            "unbiased_var": _normalize(data, eps, unbiased=True),
            "no_centering": data / (data.var(-1, keepdim=True, unbiased=False) + eps).sqrt(),
        }
        if eps != 1e-5:
            wrong = {"eps_ignored": _normalize(data, 1e-5), **wrong}
        cases.append((label, (data.clone(),), {"eps": eps}, _normalize(data, eps), wrong))
    return run_cases(fn, cases, CODES, atol=1e-4, rtol=1e-3,
                      nan_code="nan_on_constant")
