# 导入：无。
"""练习 ch11-var-from-sums：由两个累加和算方差。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "由两个累加和算方差"
CHECKER = "check_var_from_sums"
CHAPTER = "ch11_speed"
