def count_norms(cfg):
    """返回 (层归一化的个数, 参数总数)。"""
    n_norms = 2 * cfg["n_layers"] + 1          # 每个块 2 个（norm1、norm2），再加最后的 final_norm
    n_params = n_norms * 2 * cfg["emb_dim"]    # 每个都有 scale 和 shift 两个向量
    return n_norms, n_params
