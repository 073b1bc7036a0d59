"""练习 ch00-table-rows：为 print_table 准备表格行。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "为 print_table 准备表格行"
CHECKER = "check_table_rows"
CHAPTER = "ch00_environment"
