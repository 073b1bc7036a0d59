"""练习 ch08-rms-norm：从零实现 RMSNorm。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "从零实现 RMSNorm"
CHECKER = "check_rms_norm"
CHAPTER = "ch08_rmsnorm"
