def gpt_trunk(x, blocks, final_norm, norm_position):
    """依次经过所有块；按 norm_position 决定是否最后再做一次层归一化。"""
    raise NotImplementedError("请在这里写你的代码")
