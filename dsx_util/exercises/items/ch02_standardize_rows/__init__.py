# 导入：无。
"""练习 ch02-standardize-rows：按行标准化。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "按行标准化"
CHECKER = "check_standardize_rows"
CHAPTER = "ch02_why_normalize"
