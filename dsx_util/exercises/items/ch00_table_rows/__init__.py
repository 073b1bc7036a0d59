# 导入：无。
"""练习 ch00-table-rows：为 print_table 准备表格行。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "为 print_table 准备表格行"
CHECKER = "check_table_rows"
CHAPTER = "ch00_environment"
IN_PAGE = True
# 题目不许用的名字（检查器看编译后的代码里有没有它们）：名字 -> 题目里的要求
FORBIDDEN = {
    "torch": "只用纯 Python（不用 torch）",
    "numpy": "只用纯 Python（不用 NumPy）",
    "np": "只用纯 Python（不用 NumPy）",
}
