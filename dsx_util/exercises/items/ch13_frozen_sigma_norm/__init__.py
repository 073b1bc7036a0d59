# 导入：无。
"""练习 ch13-frozen-sigma-norm：冻结 σ 的层归一化（一层里的 T 个词元）。题目 task.md，模板 template.py，参考答案 solution.py，
提示 hint.md，检查器 check.py，编目的错误写法 mistakes.py。"""
TITLE = "冻结 σ 的层归一化"
CHECKER = "check_frozen_sigma_norm"
CHAPTER = "ch13_trained_model"
IN_PAGE = True
# 题目不许用的名字（检查器看编译后的代码里有没有它们）：名字 -> 题目里的要求
FORBIDDEN = {
    "torch": "只用纯 Python（不用 torch）",
    "numpy": "只用纯 Python（不用 NumPy）",
    "np": "只用纯 Python（不用 NumPy）",
}
