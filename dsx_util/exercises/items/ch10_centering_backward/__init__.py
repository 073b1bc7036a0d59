# 导入：shared.requirements。
"""练习 ch10-centering-backward：减均值这一步的梯度。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
from ...shared.requirements import NO_AUTOGRAD

TITLE = "减均值这一步的梯度"
CHECKER = "check_centering_backward"
CHAPTER = "ch10_backward"
# 题目不许用的名字（检查器看编译后的代码里有没有它们）：名字 -> 题目里的要求
FORBIDDEN = NO_AUTOGRAD
