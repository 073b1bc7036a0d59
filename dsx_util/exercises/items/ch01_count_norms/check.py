"""练习 ch01-count-norms 的检查器（题目、模板、参考答案在同一个文件夹；编目的错误写法在 mistakes.py）。"""
from ...simple_checks import (checker, _call, _msg, finish)

CODES = {
    "not_pair": "应返回两个整数组成的元组 (层归一化个数, 参数总数)，实际返回的是 {value!r:.60}。",
    "forgot_final_norm": "层归一化少算了 1 个：最后一个 Transformer 块之后、输出头之前还有一个。",
    "one_norm_per_block": "每个 Transformer 块里有两个层归一化（注意力前一个、前馈神经网络前一个），不是一个。",
    "params_missing_shift": "个数对了，参数总数只有应有的一半：每个层归一化除了缩放参数 γ，还有平移参数 β。",
    "hard_coded": "GPT-2 small 的配置算对了，换一个配置（n_layers={n_layers}，emb_dim={emb_dim}）就错了：请用 cfg 里的值来算。",
    "wrong_count": "层归一化的个数不对（配置 n_layers={n_layers}）：数一数每个块里有几个，块外还有几个。",
    "wrong_params": "参数总数不对（配置 emb_dim={emb_dim}）：每个层归一化有多少个可学习参数？",
}


@checker(__name__, CODES)
def check_count_norms(fn):
    """检查 count_norms(cfg)：前置归一化 GPT 模型里层归一化的个数与参数总数（不构建模型，用公式算）。"""
    from dsx_util.gpt import GPT_CONFIG_124M
    exercise = check_count_norms.exercise
    configs = [dict(GPT_CONFIG_124M),
               dict(GPT_CONFIG_124M, n_layers=3, emb_dim=64, n_heads=4),
               dict(GPT_CONFIG_124M, n_layers=24, emb_dim=1024, n_heads=16)]
    for k, cfg in enumerate(configs):
        value, failure = _call(fn, dict(cfg))
        if failure is not None:
            return finish(exercise, [failure])
        try:
            count, params = value
            count, params = int(count), int(params)
            if count != value[0] or params != value[1]:
                raise ValueError
        except (TypeError, ValueError):
            return finish(exercise, [("not_pair", _msg(CODES, "not_pair", value=value))])
        n, e = cfg["n_layers"], cfg["emb_dim"]
        want_count, want_params = 2 * n + 1, (2 * n + 1) * 2 * e
        if (count, params) == (want_count, want_params):
            continue
        fields = {"n_layers": n, "emb_dim": e}
        if k > 0 and (count, params) == (25, 38400):
            code = "hard_coded"
        elif count == 2 * n:
            code = "forgot_final_norm"
        elif count in (n, n + 1):
            code = "one_norm_per_block"
        elif count != want_count:
            code = "wrong_count"
        elif params == want_count * e:
            code = "params_missing_shift"
        else:
            code = "wrong_params"
        return finish(exercise, [(code, _msg(CODES, code, **fields))])
    return finish(exercise, [])
