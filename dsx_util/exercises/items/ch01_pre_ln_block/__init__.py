# 导入：无。
"""练习 ch01-pre-ln-block：前置归一化块的前向传播。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "前置归一化块的前向传播"
CHECKER = "check_pre_ln_block"
CHAPTER = "ch01_gpt_architecture"
