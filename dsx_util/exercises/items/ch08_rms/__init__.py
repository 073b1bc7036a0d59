# 导入：无。
"""练习 ch08-rms：沿最后一维的均方根。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "沿最后一维的均方根"
CHECKER = "check_rms"
CHAPTER = "ch08_rmsnorm"
