# 导入：无。
"""练习 ch00-seeded-noise：可复现的随机数。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "可复现的随机数"
CHECKER = "check_seeded_noise"
CHAPTER = "ch00_environment"
# 题目要求用到的名字：学习者的代码里没有它就不算通过
REQUIRED_NAMES = {
    "set_seed": "先用 dsx_util.set_seed 设定种子",
}
