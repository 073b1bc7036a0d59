# 导入：shared.requirements。
"""练习 ch10-rms-norm-backward：手推 RMSNorm 的反向传播。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
from ...shared.requirements import NO_AUTOGRAD

TITLE = "手推 RMSNorm 的反向传播"
CHECKER = "check_rms_norm_backward"
CHAPTER = "ch10_backward"
# 题目不许用的名字（检查器看编译后的代码里有没有它们）：名字 -> 题目里的要求
FORBIDDEN = NO_AUTOGRAD
