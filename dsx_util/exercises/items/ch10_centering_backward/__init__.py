"""练习 ch10-centering-backward：减均值这一步的梯度。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "减均值这一步的梯度"
CHECKER = "check_centering_backward"
CHAPTER = "ch10_backward"
