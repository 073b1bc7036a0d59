# 导入：无。
"""练习 ch09-post-ln-block：后置归一化块的前向传播。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "后置归一化块的前向传播"
CHECKER = "check_post_ln_block"
CHAPTER = "ch09_pre_post_ln"
