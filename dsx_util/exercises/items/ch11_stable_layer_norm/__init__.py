"""练习 ch11-stable-layer-norm：均值为 10⁴ 的行也要算对。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "均值为 10⁴ 的行也要算对"
CHECKER = "check_stable_layer_norm"
CHAPTER = "ch11_speed"
