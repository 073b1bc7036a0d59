"""练习 ch08-rms-norm-list：一个列表的均方根归一化。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "一个列表的均方根归一化"
CHECKER = "check_rms_norm_list"
CHAPTER = "ch08_rmsnorm"
IN_PAGE = True
