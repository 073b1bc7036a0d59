# 导入：无。
"""练习 ch12-dyt-list：一个列表的动态 tanh（DyT）。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md，
检查器 check.py，编目的错误写法 mistakes.py。"""
TITLE = "一个列表的动态 tanh（DyT）"
CHECKER = "check_dyt_list"
CHAPTER = "ch12_modern_variants"
IN_PAGE = True
# 题目不许用的名字（检查器看编译后的代码里有没有它们）：名字 -> 题目里的要求
FORBIDDEN = {
    "torch": "只用纯 Python（不用 torch）",
    "numpy": "只用纯 Python（不用 NumPy）",
    "np": "只用纯 Python（不用 NumPy）",
}
