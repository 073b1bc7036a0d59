"""simple_checks 的每个错误代码都能被识别：为每个代码写一个恰好犯了这个错误的实现，检查必须报出这个代码。

另外检查：通用代码（未完成、报错、超时、返回 None / NaN / 列表……）不会让检查崩溃；
检查不改动学习者的全局随机状态；反馈简短。
"""
import random

import pytest
import torch

from dsx_util.exercises import simple_checks as sc
from dsx_util.seed import set_seed


def _mean(x, dim=-1):
    return x.mean(dim=dim, keepdim=True)


def _var(x, dim=-1, unbiased=False):
    return x.var(dim=dim, keepdim=True, unbiased=unbiased)


def _own_var(x, unbiased=False):
    """第 11 章的练习不许调用现成的方差函数：自己算（两遍）。"""
    d = x - x.mean(dim=-1, keepdim=True)
    return (d * d).sum(dim=-1, keepdim=True) / (x.shape[-1] - (1 if unbiased else 0))


def _rows(order=None, count=None, mean=None, length3=True):
    def stats_rows(data):
        items = list(data.items())
        if order == "reversed":
            items = items[::-1]
        rows = []
        for name, values in items:
            c = count(values) if count else len(values)
            m = mean(values) if mean else sum(values) / len(values)
            rows.append([name, c, m] if length3 else [name, m])
        return rows
    return stats_rows


def _block_pre(x, a, f, n1, n2):
    h = x + a(n1(x))
    return h + f(n2(h))


def _block_post(x, a, f, n1, n2):
    h = n1(x + a(x))
    return n2(h + f(h))


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


def _identity(gamma_fn, beta_fn, shape=True):
    def identity_params(x, eps=1e-5):
        mean, var = x.mean(), x.var(unbiased=False)
        g, b = gamma_fn(x, mean, var, eps), beta_fn(x, mean, var, eps)
        if shape:
            return g * torch.ones_like(x), b * torch.ones_like(x)
        return g, b
    return identity_params


def _sqrt_var_eps(x, m, v, eps):
    return torch.sqrt(v + eps)


def _copy(mode):
    def copy_weights(my_ln, torch_ln):
        with torch.no_grad():
            if mode == "swapped":
                my_ln.scale.copy_(torch_ln.bias)
                my_ln.shift.copy_(torch_ln.weight)
            if mode in ("shift_missing", "no_eps", "double"):
                my_ln.scale.copy_(torch_ln.weight * (2 if mode == "double" else 1))
            if mode in ("scale_missing", "no_eps", "double"):
                my_ln.shift.copy_(torch_ln.bias)
        if mode == "shares":
            my_ln.scale = torch_ln.weight
            my_ln.shift = torch_ln.bias
        if mode == "plain":
            del my_ln.scale, my_ln.shift
            my_ln.scale = torch_ln.weight.detach().clone()
            my_ln.shift = torch_ln.bias.detach().clone()
        if mode == "double":
            my_ln.eps = torch_ln.eps
    return copy_weights


def _lnb(mean_term=True, proj_term=True, use_gamma=True, unbiased=False, scale=True):
    def layer_norm_backward(x, gamma, grad_out, eps=1e-5):
        std = torch.sqrt(_var(x, unbiased=unbiased) + eps)
        x_hat = (x - _mean(x)) / std
        g = grad_out * gamma if use_gamma else grad_out
        out = g - (_mean(g) if mean_term else 0) - (x_hat * _mean(g * x_hat) if proj_term else 0)
        return out / std if scale else out
    return layer_norm_backward


def _lnb_terms(mean_term, proj_term, fixed_eps=None):
    """手推梯度的变体：mean_term(g)、proj_term(g, x_hat) 给出两项（正确的是 _mean(g) 与 x_hat * _mean(g * x_hat)）。"""
    def layer_norm_backward(x, gamma, grad_out, eps=1e-5):
        std = torch.sqrt(_var(x) + (eps if fixed_eps is None else fixed_eps))
        x_hat = (x - _mean(x)) / std
        g = grad_out * gamma
        return (g - mean_term(g) - proj_term(g, x_hat)) / std
    return layer_norm_backward


def _right_mean_term(g):
    return _mean(g)


def _right_proj_term(g, x_hat):
    return x_hat * _mean(g * x_hat)


def _single_pass(x, eps=1e-5):
    mean = _mean(x)
    var = _mean(x * x) - mean ** 2
    return (x - mean) / torch.sqrt(var + eps)


_SHAPES = {
    "x.mean(dim=-1)": (2, 3),
    "x.mean(dim=-1, keepdim=True)": (2, 3, 1),
    "x.sum(dim=0)": (3, 4),
    "x.var(dim=1, keepdim=True)": (2, 1, 4),
    "x - x.mean(dim=-1, keepdim=True)": (2, 3, 4),
}


def _shapes(**changes):
    answer = dict(_SHAPES)
    for key, value in changes.items():
        expr = {"a": "x.mean(dim=-1)", "b": "x.mean(dim=-1, keepdim=True)", "c": "x.sum(dim=0)",
                "d": "x.var(dim=1, keepdim=True)", "e": "x - x.mean(dim=-1, keepdim=True)"}[key]
        if value is None:
            del answer[expr]
        else:
            answer[expr] = value
    return lambda: answer


def _normalize(eps_mode="inside", unbiased=False, center=True):
    def normalize(x, eps=1e-5):
        if eps_mode == "fixed":
            eps = 1e-5
        var = _var(x, unbiased=unbiased)
        num = x - _mean(x) if center else x
        if eps_mode == "none":
            return num / torch.sqrt(var)
        if eps_mode == "outside":
            return num / (torch.sqrt(var) + eps)
        return num / torch.sqrt(var + eps)
    return normalize


# (检查函数名, 错误代码, 恰好犯这个错误的实现)
FAULTS = [
    ("check_seeded_noise", "not_tensor", lambda seed: (set_seed(seed), torch.randn(3, 4).tolist())[1]),
    ("check_seeded_noise", "wrong_shape", lambda seed: (set_seed(seed), torch.randn(4, 3))[1]),
    ("check_seeded_noise", "not_reproducible", lambda seed: (torch.randn(3, 4), set_seed(seed))[0]),
    ("check_seeded_noise", "seed_ignored", lambda seed: (set_seed(123), torch.randn(3, 4))[1]),
    ("check_seeded_noise", "wrong_values", lambda seed: (set_seed(seed), torch.rand(3, 4))[1]),

    ("check_table_rows", "not_rows", lambda data: {k: sum(v) / len(v) for k, v in data.items()}),
    ("check_table_rows", "wrong_row_count", lambda data: _rows()(data)[:1]),
    ("check_table_rows", "wrong_row_length", _rows(length3=False)),
    ("check_table_rows", "wrong_name_order", _rows(order="reversed")),
    ("check_table_rows", "wrong_count", _rows(count=lambda v: sum(v))),
    ("check_table_rows", "wrong_mean", _rows(mean=lambda v: sum(v) / (len(v) + 1))),

    ("check_count_norms", "not_pair", lambda cfg: 2 * cfg["n_layers"] + 1),
    ("check_count_norms", "forgot_final_norm",
     lambda cfg: (2 * cfg["n_layers"], 2 * cfg["n_layers"] * 2 * cfg["emb_dim"])),
    ("check_count_norms", "one_norm_per_block",
     lambda cfg: (cfg["n_layers"] + 1, (cfg["n_layers"] + 1) * 2 * cfg["emb_dim"])),
    ("check_count_norms", "params_missing_shift",
     lambda cfg: (2 * cfg["n_layers"] + 1, (2 * cfg["n_layers"] + 1) * cfg["emb_dim"])),
    ("check_count_norms", "hard_coded", lambda cfg: (25, 38400)),
    ("check_count_norms", "wrong_count",
     lambda cfg: (3 * cfg["n_layers"] + 1, (3 * cfg["n_layers"] + 1) * 2 * cfg["emb_dim"])),
    ("check_count_norms", "wrong_params",
     lambda cfg: (2 * cfg["n_layers"] + 1, (2 * cfg["n_layers"] + 1) * 4 * cfg["emb_dim"])),

    ("check_pre_ln_block", "post_ln_order", _block_post),
    ("check_pre_ln_block", "missing_residual", lambda x, a, f, n1, n2: f(n2(a(n1(x))))),
    ("check_pre_ln_block", "residual_after_norm",
     lambda x, a, f, n1, n2: (lambda h: n2(h) + f(n2(h)))(n1(x) + a(n1(x)))),
    ("check_pre_ln_block", "norm_reused", lambda x, a, f, n1, n2: _block_pre(x, a, f, n1, n1)),
    ("check_pre_ln_block", "swapped_norms", lambda x, a, f, n1, n2: _block_pre(x, a, f, n2, n1)),
    ("check_pre_ln_block", "swapped_sublayers", lambda x, a, f, n1, n2: _block_pre(x, f, a, n1, n2)),
    ("check_pre_ln_block", "wrong_output", lambda x, a, f, n1, n2: x + a(n1(x))),

    ("check_post_ln_block", "pre_ln_order", _block_pre),
    ("check_post_ln_block", "missing_residual", lambda x, a, f, n1, n2: n2(f(n1(a(x))))),
    ("check_post_ln_block", "norm_before_add",
     lambda x, a, f, n1, n2: (lambda h: h + n2(f(h)))(x + n1(a(x)))),
    ("check_post_ln_block", "norm_reused", lambda x, a, f, n1, n2: _block_post(x, a, f, n2, n2)),
    ("check_post_ln_block", "swapped_norms", lambda x, a, f, n1, n2: _block_post(x, a, f, n2, n1)),
    ("check_post_ln_block", "swapped_sublayers", lambda x, a, f, n1, n2: _block_post(x, f, a, n1, n2)),

    ("check_standardize_rows", "normalized_columns", lambda x: (x - _mean(x, 0)) / _var(x, 0).sqrt()),
    ("check_standardize_rows", "normalized_all", lambda x: (x - x.mean()) / x.std(unbiased=False)),
    ("check_standardize_rows", "no_centering", lambda x: x / _var(x).sqrt()),
    ("check_standardize_rows", "no_scaling", lambda x: x - _mean(x)),
    ("check_standardize_rows", "divided_by_var", lambda x: (x - _mean(x)) / _var(x)),
    ("check_standardize_rows", "unbiased_var", lambda x: (x - _mean(x)) / _var(x, unbiased=True).sqrt()),
    ("check_standardize_rows", "broadcast_error",
     lambda x: (x - x.mean(dim=-1)) / x.var(dim=-1, unbiased=False).sqrt()),

    ("check_predict_shapes", "not_dict", lambda: [(2, 3), (2, 3, 1), (3, 4), (2, 1, 4), (2, 3, 4)]),
    ("check_predict_shapes", "missing_key", _shapes(c=None)),
    ("check_predict_shapes", "bad_shape_value", _shapes(a="(2, 3)")),
    ("check_predict_shapes", "keepdim_dropped", _shapes(b=(2, 3))),
    ("check_predict_shapes", "keepdim_added", _shapes(a=(2, 3, 1))),
    ("check_predict_shapes", "wrong_axis", _shapes(c=(2, 4))),
    ("check_predict_shapes", "broadcast_misread", _shapes(e=(2, 3, 1))),
    ("check_predict_shapes", "wrong_shape", _shapes(c=(4, 3))),

    ("check_identity_params", "not_pair", lambda x, eps=1e-5: torch.ones_like(x)),
    ("check_identity_params", "wrong_shape", _identity(_sqrt_var_eps, lambda x, m, v, e: m, shape=False)),
    ("check_identity_params", "gamma_is_var", _identity(lambda x, m, v, e: v + e, lambda x, m, v, e: m)),
    ("check_identity_params", "missing_eps", _identity(lambda x, m, v, e: v.sqrt(), lambda x, m, v, e: m)),
    ("check_identity_params", "unbiased_var",
     _identity(lambda x, m, v, e: (x.var() + e).sqrt(), lambda x, m, v, e: m)),
    ("check_identity_params", "swapped", _identity(lambda x, m, v, e: m, _sqrt_var_eps)),
    ("check_identity_params", "beta_missing", _identity(_sqrt_var_eps, lambda x, m, v, e: 0 * m)),
    ("check_identity_params", "wrong_output", _identity(lambda x, m, v, e: 2 * (v + e).sqrt(), lambda x, m, v, e: m)),

    ("check_normalize_eps", "nan_on_constant", _normalize(eps_mode="none")),
    ("check_normalize_eps", "eps_outside_sqrt", _normalize(eps_mode="outside")),
    ("check_normalize_eps", "eps_ignored", _normalize(eps_mode="fixed")),
    ("check_normalize_eps", "unbiased_var", _normalize(unbiased=True)),
    ("check_normalize_eps", "no_centering", _normalize(center=False)),
    ("check_normalize_eps", "wrong_shape", lambda x, eps=1e-5: _mean(x)),

    ("check_copy_weights", "not_copied", lambda my_ln, torch_ln: None),
    ("check_copy_weights", "swapped", _copy("swapped")),
    ("check_copy_weights", "shift_missing", _copy("shift_missing")),
    ("check_copy_weights", "scale_missing", _copy("scale_missing")),
    ("check_copy_weights", "eps_not_copied", _copy("no_eps")),
    ("check_copy_weights", "shares_memory", _copy("shares")),
    ("check_copy_weights", "not_parameter", _copy("plain")),
    ("check_copy_weights", "wrong_output", _copy("double")),

    ("check_std_ratio", "not_number", lambda h: None),
    ("check_std_ratio", "inverted", lambda h: (h / (h - 1)) ** 0.5),
    ("check_std_ratio", "missing_sqrt", lambda h: (h - 1) / h),
    ("check_std_ratio", "wrong_value", lambda h: (h - 2) / h),

    ("check_to_biased", "inverted", lambda v, n: v * n / (n - 1)),
    ("check_to_biased", "used_sqrt", lambda v, n: v * ((n - 1) / n) ** 0.5),
    ("check_to_biased", "ignored_n", lambda v, n: v),
    ("check_to_biased", "wrong_output", lambda v, n: v * (n - 2) / n),

    ("check_batchnorm_axis", "normalized_rows", lambda x, eps=1e-5: (x - _mean(x)) / (_var(x) + eps).sqrt()),
    ("check_batchnorm_axis", "normalized_all",
     lambda x, eps=1e-5: (x - x.mean()) / (x.var(unbiased=False) + eps).sqrt()),
    ("check_batchnorm_axis", "unbiased_var",
     lambda x, eps=1e-5: (x - _mean(x, 0)) / (_var(x, 0, unbiased=True) + eps).sqrt()),
    ("check_batchnorm_axis", "no_centering", lambda x, eps=1e-5: x / (_var(x, 0) + eps).sqrt()),

    ("check_rms", "subtracted_mean", lambda x: x.std(dim=-1, keepdim=True, unbiased=False)),
    ("check_rms", "missing_sqrt", lambda x: (x ** 2).mean(dim=-1, keepdim=True)),
    ("check_rms", "no_keepdim", lambda x: (x ** 2).mean(dim=-1).sqrt()),
    ("check_rms", "wrong_dim", lambda x: (x ** 2).mean(dim=0).sqrt()),
    ("check_rms", "abs_mean", lambda x: x.abs().mean(dim=-1, keepdim=True)),

    ("check_gpt_trunk", "missing_final_norm", _trunk("never")),
    ("check_gpt_trunk", "extra_final_norm", _trunk("always")),
    ("check_gpt_trunk", "final_norm_first", _trunk("first")),
    ("check_gpt_trunk", "reversed_blocks", _trunk("reversed")),
    ("check_gpt_trunk", "bad_position", _only_pre),

    ("check_centering_backward", "missing_mean_term", lambda g: g.clone()),
    ("check_centering_backward", "sign_flipped", lambda g: _mean(g) - g),
    ("check_centering_backward", "wrong_dim", lambda g: g - _mean(g, 0)),
    ("check_centering_backward", "wrong_scale", lambda g: g - g.sum(dim=-1, keepdim=True)),

    ("check_layer_norm_backward", "missing_mean_term", _lnb(mean_term=False)),
    ("check_layer_norm_backward", "missing_projection_term", _lnb(proj_term=False)),
    ("check_layer_norm_backward", "wrong_scale", _lnb(scale=False)),
    ("check_layer_norm_backward", "gamma_ignored", _lnb(use_gamma=False)),
    ("check_layer_norm_backward", "unbiased_var", _lnb(unbiased=True)),

    ("check_layer_norm_backward", "mean_term_sum",
     _lnb_terms(lambda g: g.sum(dim=-1, keepdim=True), _right_proj_term)),
    ("check_layer_norm_backward", "projection_term_sum",
     _lnb_terms(_right_mean_term, lambda g, xh: xh * (g * xh).sum(dim=-1, keepdim=True))),
    ("check_layer_norm_backward", "mean_term_sign", _lnb_terms(lambda g: -_mean(g), _right_proj_term)),
    ("check_layer_norm_backward", "projection_term_sign", _lnb_terms(_right_mean_term, lambda g, xh: -_right_proj_term(g, xh))),
    ("check_layer_norm_backward", "eps_ignored", _lnb_terms(_right_mean_term, _right_proj_term, fixed_eps=1e-5)),
    # 新错误：不像任何一种典型错误，由两条性质（每行和为 0、与 x̂ 正交）说出是哪一项不对
    ("check_layer_norm_backward", "row_sum_not_zero", _lnb_terms(lambda g: g[..., :1], _right_proj_term)),
    ("check_layer_norm_backward", "not_orthogonal_to_xhat", _lnb_terms(_right_mean_term, lambda g, xh: xh * _mean(g))),
    ("check_standardize_rows", "modified_input", lambda x: x.sub_(_mean(x)).div_(_var(x).sqrt())),
    ("check_identity_params", "eps_ignored", _identity(lambda x, m, v, e: torch.sqrt(v + 1e-5), lambda x, m, v, e: m)),
    ("check_batchnorm_axis", "eps_ignored",
     lambda x, eps=1e-5: (x - _mean(x, 0)) / torch.sqrt(_var(x, 0) + 1e-5)),
    ("check_batchnorm_axis", "eps_misplaced",
     lambda x, eps=1e-5: (x - _mean(x, 0)) / (torch.sqrt(_var(x, 0)) + eps)),

    ("check_var_from_sums", "unbiased_var", lambda s1, s2, n: (s2 - s1 ** 2 / n) / (n - 1)),
    ("check_var_from_sums", "missing_mean_square", lambda s1, s2, n: s2 / n),
    ("check_var_from_sums", "sign_flipped", lambda s1, s2, n: (s1 / n) ** 2 - s2 / n),
    ("check_var_from_sums", "forgot_divide", lambda s1, s2, n: s2 - s1 ** 2),

    ("check_stable_layer_norm", "single_pass_variance", _single_pass),
    ("check_stable_layer_norm", "unbiased_var",
     lambda x, eps=1e-5: (x - _mean(x)) / torch.sqrt(_own_var(x, unbiased=True) + eps)),
    ("check_stable_layer_norm", "wrong_dtype",
     lambda x, eps=1e-5: (lambda y: (y - _mean(y)) / torch.sqrt(_own_var(y) + eps))(x.to(torch.float16))),
    ("check_stable_layer_norm", "no_centering", lambda x, eps=1e-5: x / torch.sqrt(_own_var(x) + eps)),
    ("check_stable_layer_norm", "eps_ignored", lambda x, eps=1e-5: (x - _mean(x)) / torch.sqrt(_own_var(x) + 1e-5)),
    ("check_stable_layer_norm", "eps_misplaced", lambda x, eps=1e-5: (x - _mean(x)) / (torch.sqrt(_own_var(x)) + eps)),
]


def _folder_faults(ex_id):
    """按 issue 21 布局写的练习：错误写法在练习文件夹的 mistakes.py 里（学习者的函数），取只有一个代码的那些。"""
    import importlib
    from dsx_util.exercises.catalog import get_exercise
    ex = get_exercise(ex_id)
    module = importlib.import_module(f"dsx_util.exercises.items.{ex_id.replace('-', '_')}.mistakes")
    out = []
    for _, codes, source in module.MISTAKES + getattr(module, "NOVEL", []):
        if len(codes) == 1:
            out.append((ex.checker, codes[0], source))
    return out


FAULTS += [f for ex_id in ("ch12-zero-centered-rms-norm", "ch12-qk-norm-scores") for f in _folder_faults(ex_id)]


@pytest.mark.parametrize("checker, code, fn", FAULTS, ids=[f"{c}-{code}" for c, code, _ in FAULTS])
def test_fault_gets_its_code(checker, code, fn, capsys):
    result = sc.CHECKERS[checker](fn)
    assert result.passed is False
    assert result.codes == [code], result.messages
    # 反馈是一两行中文，不是长篇大论（报错时会附上学习者出错的那一行代码）
    assert all(0 < len(m) <= 240 for m in result.messages), result.messages
    assert result.messages[0] in capsys.readouterr().out   # 终端里显示了反馈（中文说明；错误代码只在 codes 里）


def test_every_catalog_code_has_a_fault():
    tested = {(c, code) for c, code, _ in FAULTS}
    for name, checker in sc.CHECKERS.items():
        assert checker.codes, f"{name} 没有错误代码表"
        missing = [code for code in checker.codes if (name, code) not in tested]
        assert not missing, f"{name} 的这些错误代码没有测试：{missing}"
    # 通用代码至少在某个检查上测过一次（这里的和下面的健壮性测试合起来）
    generic_here = {code for _, code, _ in FAULTS} | {"not_done", "raised", "timeout", "nan_output", "check_failed"}
    assert set(sc.GENERIC_CODES) <= generic_here


def test_checker_exercise_ids_are_in_catalog():
    from dsx_util.exercises.catalog import EXERCISES
    ids = {ex.id for ex in EXERCISES}
    for name, checker in sc.CHECKERS.items():
        assert checker.exercise_id in ids, name


# ---------------------------------------------------------------- 健壮性：检查永远不抛出异常


def _not_done(x):
    raise NotImplementedError("请在这里写你的代码")


def _raises(x):
    return x / undefined_name  # noqa: F821


def _loops(x):
    while True:
        pass


@pytest.mark.parametrize("fn, code", [
    (_not_done, "not_done"),
    (_raises, "raised"),
    (lambda x: None, "not_tensor"),
    (lambda x: x.tolist(), "not_tensor"),
    (lambda x: torch.full_like(x, float("nan")), "nan_output"),
    (lambda x: x[0], "wrong_shape"),
    (lambda x: x * 0, "wrong_output"),
    (None, "raised"),
    ("不是函数", "raised"),
], ids=["not_done", "raised", "none", "list", "nan", "shape", "zeros", "none_fn", "str_fn"])
def test_robust_tensor_checker(fn, code, capsys):
    result = sc.check_standardize_rows(fn)
    assert result.passed is False and result.codes == [code], result.messages


def test_timeout(monkeypatch, capsys):
    monkeypatch.setattr(sc, "_TIMEOUT", 0.3)
    result = sc.check_batchnorm_axis(lambda x, eps=1e-5: _loops(x))
    assert result.codes == ["timeout"]


class _Weird(list):
    """一个看起来像列表、取长度时却出错的返回值。"""

    def __len__(self):
        raise RuntimeError("坏对象")


def test_check_itself_never_raises(capsys):
    assert sc.check_table_rows(lambda data: [_Weird()] * len(data)).codes == ["check_failed"]
    # 复数张量：不能拿去和实数结果比较，要说清楚，而不是报错或给出警告
    result = sc.check_rms(lambda x: x.pow(2).mean(-1, keepdim=True).sqrt().to(torch.complex64))
    assert result.codes == ["not_tensor"] and "复数" in result.messages[0]


def test_checks_do_not_touch_global_rng(capsys):
    torch.manual_seed(2024)
    random.seed(2024)
    expected = (torch.rand(3), random.random())
    torch.manual_seed(2024)
    random.seed(2024)
    sc.check_seeded_noise(lambda seed: (set_seed(seed), torch.randn(3, 4))[1])
    sc.check_standardize_rows(lambda x: x)
    sc.check_gpt_trunk(_trunk("never"))
    assert torch.equal(torch.rand(3), expected[0]) and random.random() == expected[1]


def test_count_norms_formula_matches_real_model():
    """检查器用的公式 2L+1 个、每个 2E 个参数，与真正构建的 GPTModel 一致（两种配置）。"""
    from dsx_util.gpt import GPT_CONFIG_124M, GPTModel, count_layer_norms
    for n_layers, emb_dim in ((3, 64), (2, 32)):
        cfg = dict(GPT_CONFIG_124M, vocab_size=50, context_length=8, n_layers=n_layers, emb_dim=emb_dim, n_heads=4)
        n = 2 * n_layers + 1
        assert count_layer_norms(GPTModel(cfg)) == (n, n * 2 * emb_dim)


def test_predict_shapes_questions_are_real_pytorch_shapes():
    x = torch.zeros(sc.SHAPE_X)
    for expr, _, _ in sc.SHAPE_QUESTIONS:
        assert tuple(eval(expr, {"x": x}).shape) == _SHAPES[expr]
