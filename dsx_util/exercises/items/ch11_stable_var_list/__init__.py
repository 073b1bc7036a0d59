# 导入：无。
"""练习 ch11-stable-var-list：数值稳定的方差。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "数值稳定的方差"
CHECKER = "check_stable_var"
CHAPTER = "ch11_speed"
IN_PAGE = True
# 题目不许用的名字（检查器看编译后的代码里有没有它们）：名字 -> 题目里的要求
FORBIDDEN = {
    "statistics": "不用 statistics 模块，自己写",
    "pvariance": "不用 statistics 模块，自己写",
    "torch": "只用纯 Python（不用 torch）",
    "numpy": "只用纯 Python（不用 NumPy）",
    "np": "只用纯 Python（不用 NumPy）",
}
