# 导入：无。
"""练习 ch01-count-norms：数一数层归一化。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "数一数层归一化"
CHECKER = "check_count_norms"
CHAPTER = "ch01_gpt_architecture"
IN_PAGE = True
# 题目不许用的名字（检查器看编译后的代码里有没有它们）：名字 -> 题目里的要求
FORBIDDEN = {
    "GPTModel": "不要真的构建模型，只用 cfg 里的数来算",
    "TransformerBlock": "不要真的构建模型，只用 cfg 里的数来算",
    "parameters": "不要真的构建模型，只用 cfg 里的数来算",
}
