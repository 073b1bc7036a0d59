"""练习 ch04-layer-norm-rows：一组行的层归一化。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "一组行的层归一化"
CHECKER = "check_layer_norm_rows"
CHAPTER = "ch04_formulas"
IN_PAGE = True
