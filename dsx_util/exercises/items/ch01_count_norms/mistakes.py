"""练习 ch01-count-norms 编目的错误写法：检查器对每一条必须恰好报出给定的代码（tests/test_exercise_layout.py、
tests/test_simple_checks.py 逐条检查）。每条是 (说明, 代码列表, 学习者写的函数)。
"""

MISTAKES = [
    ('not_pair', ['not_pair'], lambda cfg: 2 * cfg["n_layers"] + 1),
    ('forgot_final_norm', ['forgot_final_norm'], lambda cfg: (2 * cfg["n_layers"], 2 * cfg["n_layers"] * 2 * cfg["emb_dim"])),
    ('one_norm_per_block', ['one_norm_per_block'], lambda cfg: (cfg["n_layers"] + 1, (cfg["n_layers"] + 1) * 2 * cfg["emb_dim"])),
    ('params_missing_shift', ['params_missing_shift'], lambda cfg: (2 * cfg["n_layers"] + 1, (2 * cfg["n_layers"] + 1) * cfg["emb_dim"])),
    ('hard_coded', ['hard_coded'], lambda cfg: (25, 38400)),
    ('wrong_count', ['wrong_count'], lambda cfg: (3 * cfg["n_layers"] + 1, (3 * cfg["n_layers"] + 1) * 2 * cfg["emb_dim"])),
    ('wrong_params', ['wrong_params'], lambda cfg: (2 * cfg["n_layers"] + 1, (2 * cfg["n_layers"] + 1) * 4 * cfg["emb_dim"])),
]
