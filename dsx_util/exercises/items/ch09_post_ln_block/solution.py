def post_ln_block(x, att, ff, norm1, norm2):
    """后置归一化 Transformer 块：子层输出加回残差之后再归一化。"""
    x = norm1(x + att(x))   # 先加残差，再归一化
    x = norm2(x + ff(x))
    return x
