# 导入：无。
"""练习 ch13-collect-sigma：用前向钩子收集每个层归一化输入的逐词元 σ。题目 task.md，模板 template.py，参考答案 solution.py，
提示 hint.md，检查器 check.py，编目的错误写法 mistakes.py。"""
TITLE = "用前向钩子收集每个层归一化输入的 σ"
CHECKER = "check_collect_sigma"
CHAPTER = "ch13_trained_model"
# 题目要求必须用到的名字：名字 -> 题目里的要求
REQUIRED_NAMES = {"register_forward_hook": "用前向钩子 register_forward_hook 记下输入"}
