def frozen_sigma_norm(rows, sigma, gamma, beta):
    """冻结 σ 的层归一化。

    每个词元（每一行）减去自己的均值 μ，再除以同一个给定的 sigma，乘 γ、加 β。
    """
    out = []
    for row in rows:
        mu = sum(row) / len(row)                      # μ 仍逐词元计算
        out.append([g * (v - mu) / sigma + b for v, g, b in zip(row, gamma, beta)])
    return out
