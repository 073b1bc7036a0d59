# 导入：无。
"""练习 ch04-identity-params：让层归一化原样输出。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "让层归一化原样输出"
CHECKER = "check_identity_params"
CHAPTER = "ch04_formulas"
