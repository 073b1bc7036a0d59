def post_ln_block(x, att, ff, norm1, norm2):
    """后置归一化 Transformer 块：子层输出加回残差之后再归一化。"""
    raise NotImplementedError("请在这里写你的代码")
