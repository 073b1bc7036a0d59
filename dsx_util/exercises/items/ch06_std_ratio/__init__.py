# 导入：无。
"""练习 ch06-std-ratio：两种标准差之比。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "两种标准差之比"
CHECKER = "check_std_ratio"
CHAPTER = "ch06_biased_unbiased"
IN_PAGE = True
