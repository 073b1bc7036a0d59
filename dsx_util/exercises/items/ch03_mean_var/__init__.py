# 导入：无。
"""练习 ch03-mean-var：沿最后一维求均值和方差。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "沿最后一维求均值和方差"
CHECKER = "check_mean_var"
CHAPTER = "ch03_dim_keepdim"
