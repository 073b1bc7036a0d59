# 导入：feedback、shared.blocks。
"""练习 ch01-pre-ln-block 的检查器（题目、模板、参考答案在同一个文件夹；编目的错误写法在 mistakes.py）。"""
from ...feedback import checker
from ...shared.blocks import check_block

CODES = {
    "post_ln_order": "你写的是后置归一化（Post-LN）：先加残差再归一化。前置归一化要在进入子层之前归一化。",
    "missing_residual": "缺少残差连接：子层的输出要加回到进入这个子层之前的 x 上。",
    "residual_after_norm": "残差加在了归一化之后的张量上：残差连接应当绕过层归一化，加回未归一化的 x。",
    "swapped_norms": "norm1 和 norm2 用反了：norm1 属于注意力子层（先用），norm2 属于前馈子层（后用）。",
    "norm_reused": "两个子层用了同一个层归一化（都是 {which}）：norm1 给注意力子层，norm2 给前馈子层，各有各的参数。",
    "swapped_sublayers": "两个子层的顺序反了：先注意力 att，再前馈网络 ff。",
}


@checker(__name__, CODES, each=True)
def check_pre_ln_block(fn):
    """检查 pre_ln_block(x, att, ff, norm1, norm2)：前置归一化 Transformer 块的前向传播（不含 dropout）。

    与正确结果不同时，和一处或两处接错（写成后置、两个层归一化对调或重复用一个、子层对调、残差缺失或加错地方）
    的组合比较，说出是哪几处。
    """
    return check_block(fn, "pre", CODES)
