# 导入：无。
"""练习 ch07-batch-norm：批量归一化的训练步与滑动统计量。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "批量归一化的训练步与滑动统计量"
CHECKER = "check_batch_norm"
CHAPTER = "ch07_layernorm_vs_batchnorm"
# 题目不许用的名字（检查器看编译后的代码里有没有它们）：名字 -> 题目里的要求
FORBIDDEN = {
    "batch_norm": "不调用 PyTorch 现成的批量归一化",
    "BatchNorm1d": "不调用 PyTorch 现成的批量归一化",
    "native_batch_norm": "不调用 PyTorch 现成的批量归一化",
}
