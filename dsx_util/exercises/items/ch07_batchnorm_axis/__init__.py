# 导入：无。
"""练习 ch07-batchnorm-axis：批量归一化沿哪一维。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "批量归一化沿哪一维"
CHECKER = "check_batchnorm_axis"
CHAPTER = "ch07_layernorm_vs_batchnorm"
