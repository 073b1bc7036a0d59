# 导入：无。
"""练习 ch04-normalize-eps：给分母加上 ε。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "给分母加上 ε"
CHECKER = "check_normalize_eps"
CHAPTER = "ch04_formulas"
