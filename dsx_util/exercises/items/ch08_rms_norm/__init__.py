# 导入：无。
"""练习 ch08-rms-norm：从零实现 RMSNorm。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "从零实现 RMSNorm"
CHECKER = "check_rms_norm"
CHAPTER = "ch08_rmsnorm"
# 题目不许用的名字（检查器看编译后的代码里有没有它们）：名字 -> 题目里的要求
FORBIDDEN = {
    "rms_norm": "不调用现成的均方根归一化",
    "RMSNorm": "不调用现成的均方根归一化",
}
