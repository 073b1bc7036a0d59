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
