# 导入：无。
"""练习 ch05-copy-weights：把 nn.LayerNorm 的参数搬过来。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "把 nn.LayerNorm 的参数搬过来"
CHECKER = "check_copy_weights"
CHAPTER = "ch05_implement_layernorm"
