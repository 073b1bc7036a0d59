"""练习 ch02-relu：用纯 Python 写 ReLU。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "用纯 Python 写 ReLU"
CHECKER = "check_relu"
CHAPTER = "ch02_why_normalize"
IN_PAGE = True
