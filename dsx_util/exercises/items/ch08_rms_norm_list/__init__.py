# 导入：无。
"""练习 ch08-rms-norm-list：一个列表的均方根归一化。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "一个列表的均方根归一化"
CHECKER = "check_rms_norm_list"
CHAPTER = "ch08_rmsnorm"
IN_PAGE = True
# 题目不许用的名字（检查器看编译后的代码里有没有它们）：名字 -> 题目里的要求
FORBIDDEN = {
    "torch": "只用纯 Python（不用 torch）",
    "numpy": "只用纯 Python（不用 NumPy）",
    "np": "只用纯 Python（不用 NumPy）",
}
