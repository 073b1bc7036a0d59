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
