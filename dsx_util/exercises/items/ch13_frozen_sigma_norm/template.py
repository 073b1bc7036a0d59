def frozen_sigma_norm(rows, sigma, gamma, beta):
    """冻结 σ 的层归一化。

    每个词元（每一行）减去自己的均值 μ，再除以同一个给定的 sigma，乘 γ、加 β。
    """
    raise NotImplementedError("请在这里写你的代码")
