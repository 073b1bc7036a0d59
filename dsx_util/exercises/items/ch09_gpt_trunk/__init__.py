# 导入：无。
"""练习 ch09-gpt-trunk：所有块之后还要归一化吗。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "所有块之后还要归一化吗"
CHECKER = "check_gpt_trunk"
CHAPTER = "ch09_pre_post_ln"
