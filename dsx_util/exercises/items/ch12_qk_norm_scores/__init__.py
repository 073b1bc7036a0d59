# 导入：无。
"""练习 ch12-qk-norm-scores：带 QK 归一化的注意力分数。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md，
检查器 check.py，编目的错误写法 mistakes.py。"""
TITLE = "带 QK 归一化的注意力分数"
CHECKER = "check_qk_norm_scores"
CHAPTER = "ch12_modern_variants"
# 题目不许用的名字（检查器看编译后的代码里有没有它们）：名字 -> 题目里的要求
FORBIDDEN = {
    "rms_norm": "自己做均方根归一化，不调用现成的函数",
    "RMSNorm": "自己做均方根归一化，不调用现成的模块",
    "normalize": "按均方根归一化（不是 F.normalize 的单位长度）",
    "scaled_dot_product_attention": "只算分数，不调用现成的注意力",
}
