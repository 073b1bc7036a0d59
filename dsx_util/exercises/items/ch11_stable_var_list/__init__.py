"""练习 ch11-stable-var-list：数值稳定的方差。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "数值稳定的方差"
CHECKER = "check_stable_var"
CHAPTER = "ch11_speed"
IN_PAGE = True
