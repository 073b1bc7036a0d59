def pre_ln_block(x, att, ff, norm1, norm2):
    """前置归一化 Transformer 块：注意力子层、前馈子层，各带一个残差连接。"""
    x = x + att(norm1(x))   # 先归一化，再进注意力，最后加回残差
    x = x + ff(norm2(x))    # 前馈子层同样如此
    return x
