"""练习 ch01-count-norms：数一数层归一化。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "数一数层归一化"
CHECKER = "check_count_norms"
CHAPTER = "ch01_gpt_architecture"
