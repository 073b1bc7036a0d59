# 导入：无。
"""练习 ch06-to-biased：把无偏方差换算成有偏方差。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "把无偏方差换算成有偏方差"
CHECKER = "check_to_biased"
CHAPTER = "ch06_biased_unbiased"
