"""练习 ch07-batch-norm：批量归一化的训练步与滑动统计量。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "批量归一化的训练步与滑动统计量"
CHECKER = "check_batch_norm"
CHAPTER = "ch07_layernorm_vs_batchnorm"
