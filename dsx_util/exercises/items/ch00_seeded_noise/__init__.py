"""练习 ch00-seeded-noise：可复现的随机数。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "可复现的随机数"
CHECKER = "check_seeded_noise"
CHAPTER = "ch00_environment"
