# 导入：torch、dsx_util.layernorm、feedback、torch_checks。
"""练习 ch09-gpt-trunk 的检查器（题目、模板、参考答案在同一个文件夹；编目的错误写法在 mistakes.py）。"""
from ...feedback import checker
from ...torch_checks import generator, judge_tensor, try_call

CODES = {
    "missing_final_norm": "前置归一化（Pre-LN）的模型在所有块之后还要再做一次层归一化（GPT-2 的 ln_f）。",
    "extra_final_norm": "后置归一化（Post-LN）的每个块本身就以层归一化结尾，所有块之后不再需要 final_norm。",
    "final_norm_first": "final_norm 放在了所有块之前：它应在最后一个块之后。",
    "reversed_blocks": "块的顺序反了：按列表顺序，从 blocks[0] 依次经过每个块。",
    "bad_position": "norm_position 只会是 \"pre\" 或 \"post\"：两种情况都要处理。",
}


@checker(__name__, CODES, each=True)
def check_gpt_trunk(fn):
    """检查 gpt_trunk(x, blocks, final_norm, norm_position)：依次经过所有块，Pre-LN 时最后再做 final_norm。"""
    import torch
    import torch.nn as nn
    from dsx_util.layernorm import LayerNorm
    gen = generator(3)
    e = 6
    blocks = [nn.Linear(e, e) for _ in range(3)]
    final_norm = LayerNorm(e)
    with torch.no_grad():
        for m in (*blocks, final_norm):
            for p in m.parameters():
                p.copy_(torch.randn(p.shape, generator=gen) * 0.7)
            m.requires_grad_(False)
    x = torch.randn(2, 4, e, generator=gen) + 2.0

    def run(seq, with_norm, norm_first=False):
        h = final_norm(x) if norm_first else x
        for b in seq:
            h = b(h)
        return final_norm(h) if with_norm else h
    with torch.no_grad():
        cases = [
            ("norm_position=\"pre\"：", "pre", run(blocks, True),
             {"missing_final_norm": run(blocks, False), "final_norm_first": run(blocks, False, True),
              "reversed_blocks": run(blocks[::-1], True)}),
            ("norm_position=\"post\"：", "post", run(blocks, False),
             {"extra_final_norm": run(blocks, True), "reversed_blocks": run(blocks[::-1], False)}),
        ]
    for label, position, expected, wrong in cases:
        value, failure = try_call(fn, x.clone(), list(blocks), final_norm, position)
        if failure is None:
            if value is None:
                failure = ("bad_position", CODES["bad_position"])
            else:
                failure = judge_tensor(value, expected, wrong, CODES, label=label)
        if failure is not None:
            return [failure]
    return []
