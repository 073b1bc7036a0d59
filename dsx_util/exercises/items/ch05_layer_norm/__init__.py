# 导入：无。
"""练习 ch05-layer-norm：从零实现 LayerNorm。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "从零实现 LayerNorm"
CHECKER = "check_layer_norm"
CHAPTER = "ch05_implement_layernorm"
# 题目不许用的名字（检查器看编译后的代码里有没有它们）：名字 -> 题目里的要求
FORBIDDEN = {
    "layer_norm": "不调用 PyTorch 现成的层归一化",
    "LayerNorm": "不调用现成的层归一化",
    "native_layer_norm": "不调用 PyTorch 现成的层归一化",
    "group_norm": "不调用 PyTorch 现成的归一化",
    "GroupNorm": "不调用 PyTorch 现成的归一化",
}
