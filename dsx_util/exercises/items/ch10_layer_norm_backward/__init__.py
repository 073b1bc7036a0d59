"""练习 ch10-layer-norm-backward：手推层归一化的反向传播。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "手推层归一化的反向传播"
CHECKER = "check_layer_norm_backward"
CHAPTER = "ch10_backward"
