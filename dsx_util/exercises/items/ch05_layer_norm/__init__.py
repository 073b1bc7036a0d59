"""练习 ch05-layer-norm：从零实现 LayerNorm。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "从零实现 LayerNorm"
CHECKER = "check_layer_norm"
CHAPTER = "ch05_implement_layernorm"
