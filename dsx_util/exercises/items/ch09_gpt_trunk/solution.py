def gpt_trunk(x, blocks, final_norm, norm_position):
    """依次经过所有块；按 norm_position 决定是否最后再做一次层归一化。"""
    for block in blocks:
        x = block(x)
    if norm_position == "pre":   # 前置归一化的残差主干没有归一化过，输出头之前补一次
        x = final_norm(x)
    return x
