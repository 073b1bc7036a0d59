# 导入：无。
"""练习 ch11-stable-layer-norm：均值为 10⁴ 的行也要算对。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "均值为 10⁴ 的行也要算对"
CHECKER = "check_stable_layer_norm"
CHAPTER = "ch11_speed"
# 题目不许用的名字（检查器看编译后的代码里有没有它们）：名字 -> 题目里的要求
FORBIDDEN = {
    "var": "自己算方差，不调用 torch.var 之类的现成函数",
    "std": "自己算方差，不调用 torch.std 之类的现成函数",
    "var_mean": "自己算方差，不调用现成函数",
    "std_mean": "自己算方差，不调用现成函数",
    "layer_norm": "自己算方差，不调用现成的层归一化",
    "double": "不转换成 float64",
    "float64": "不转换成 float64",
}
