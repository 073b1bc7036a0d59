# 导入：feedback、shared.blocks。
"""练习 ch09-post-ln-block 的检查器（题目、模板、参考答案在同一个文件夹；编目的错误写法在 mistakes.py）。"""
from ...feedback import checker
from ...shared.blocks import check_block

CODES = {
    "pre_ln_order": "你写的是前置归一化（Pre-LN）：后置归一化要先把子层输出加回残差，再做层归一化。",
    "missing_residual": "缺少残差连接：子层的输出要先加回该子层的输入，再归一化。",
    "norm_before_add": "层归一化只作用在了子层输出上：后置归一化归一化的是“输入 + 子层输出”的和。",
    "swapped_norms": "norm1 和 norm2 用反了：norm1 接在注意力子层的残差之后，norm2 接在前馈子层的残差之后。",
    "norm_reused": "两个子层用了同一个层归一化（都是 {which}）：norm1 接在注意力子层之后，norm2 接在前馈子层之后。",
    "swapped_sublayers": "两个子层的顺序反了：先注意力 att，再前馈网络 ff。",
}


@checker(__name__, CODES, each=True)
def check_post_ln_block(fn):
    """检查 post_ln_block(x, att, ff, norm1, norm2)：后置归一化 Transformer 块的前向传播（不含 dropout）。"""
    return check_block(fn, "post", CODES)
