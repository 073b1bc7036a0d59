# 导入：无。
"""练习 ch12-zero-centered-rms-norm：零中心缩放参数的 RMSNorm，在 float32 里算。题目 task.md，模板 template.py，
参考答案 solution.py，提示 hint.md，检查器 check.py，编目的错误写法 mistakes.py。"""
TITLE = "零中心缩放参数的 RMSNorm，在 float32 里算"
CHECKER = "check_zero_centered_rms_norm"
CHAPTER = "ch12_modern_variants"
# 题目不许用的名字（检查器看编译后的代码里有没有它们）：名字 -> 题目里的要求
FORBIDDEN = {
    "rms_norm": "不调用现成的均方根归一化",
    "RMSNorm": "不调用现成的均方根归一化",
    "ZeroCenteredRMSNorm": "不调用本章现成的实现",
    "double": "在 float32 里算（不转换成 float64）",
    "float64": "在 float32 里算（不转换成 float64）",
}
