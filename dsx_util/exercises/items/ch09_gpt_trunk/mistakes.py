# 导入：无。
"""练习 ch09-gpt-trunk 编目的错误写法：检查器对每一条必须恰好报出给定的代码（tests/test_exercise_layout.py、
tests/test_simple_checks.py 逐条检查）。每条是 (说明, 代码列表, 学习者写的函数)。
"""


def _trunk(norm_mode):
    def gpt_trunk(x, blocks, final_norm, norm_position):
        if norm_mode == "first":
            x = final_norm(x)
        seq = blocks[::-1] if norm_mode == "reversed" else blocks
        for b in seq:
            x = b(x)
        if norm_mode == "always" or (norm_mode == "reversed" and norm_position == "pre"):
            x = final_norm(x)
        return x
    return gpt_trunk


def _only_pre(x, blocks, final_norm, norm_position):
    if norm_position == "pre":
        for b in blocks:
            x = b(x)
        return final_norm(x)


MISTAKES = [
    ('missing_final_norm', ['missing_final_norm'], _trunk("never")),
    ('extra_final_norm', ['extra_final_norm'], _trunk("always")),
    ('final_norm_first', ['final_norm_first'], _trunk("first")),
    ('reversed_blocks', ['reversed_blocks'], _trunk("reversed")),
    ('bad_position', ['bad_position'], _only_pre),
]

# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
REQUIREMENTS = [
    ("Pre-LN 最后还要 final_norm", '    if norm_position == "pre":', '    if norm_position == "never":',
     "missing_final_norm", "ln_f"),
    ("Post-LN 不再 final_norm", '    if norm_position == "pre":', '    if True:', "extra_final_norm", "Post-LN"),
    ("依次经过 blocks", "for block in blocks:", "for block in blocks[::-1]:", "reversed_blocks", "顺序"),
]

# 每条写明的要求的「邻居」：看起来也说得通的另一种写法（另一个维度、顺序、默认值、估计量……）。
# 检查用的输入要让每个邻居都得出不同的结果：把它当作答案交给检查器，必须不通过（tests/test_neighbours.py）。
# (要求, 参考答案里的原文片段, 换成的邻居写法)
NEIGHBOURS = [
    ('Pre-LN 最后还要 final_norm', 'if norm_position == "pre":', 'if norm_position == "post":'),
    ('final_norm 在所有块之后', '    for block in blocks:\n        x = block(x)\n    if norm_position == "pre":   # 前置归一化的残差主干没有归一化过，输出头之前补一次\n        x = final_norm(x)', '    if norm_position == "pre":\n        x = final_norm(x)\n    for block in blocks:\n        x = block(x)'),
    ('块的顺序', 'for block in blocks:', 'for block in reversed(list(blocks)):'),
]
