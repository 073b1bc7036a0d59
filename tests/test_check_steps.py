"""逐步诊断：错误目录里没有的错误，检查器也要说出错在哪一步（一条性质一个代码），且不冤枉目录里的错误。

这里的每个错误实现都是目录（catalogue）之外的新写法；每个都断言：
预期的步骤代码在 result.codes 里，result.codes 里没有任何目录代码，反馈里有数字。
"""
import re

import pytest
import torch
import torch.nn as nn

from dsx_util.exercises import check_batch_norm
from dsx_util.exercises import check_layer_norm
from dsx_util.exercises import check_rms_norm
from dsx_util.exercises import check_mean_var
from dsx_util.exercises.items.ch03_mean_var.check import CODES as STATS_CODES
from dsx_util.exercises.items.ch03_mean_var.mistakes import MISTAKES as STATS_MISTAKES
from dsx_util.exercises.items.ch07_batch_norm.check import CODES as BN_CODES
from dsx_util.exercises.items.ch07_batch_norm.mistakes import MISTAKES as BN_MISTAKES
from dsx_util.exercises.items.ch08_rms_norm.check import CODES as RMS_CODES
from dsx_util.exercises.items.ch08_rms_norm.mistakes import MISTAKES as RMS_MISTAKES

# 各检查器目录里的错误代码（逐步诊断绝不能报出这些，除非代码真的犯了那种错）
LN_CATALOGUE = {"unbiased_variance", "eps_outside_sqrt", "eps_missing", "wrong_dim", "missing_keepdim",
                "single_pass_variance", "scale_shift_swapped", "wrong_output"}
RMS_CATALOGUE = {"subtracts_mean", "eps_outside_sqrt", "eps_missing", "sum_not_mean", "wrong_dim", "wrong_output"}
BN_CATALOGUE = {"wrong_axis", "unbiased_normalize", "running_var_biased", "no_running_update", "wrong_momentum",
                "eval_uses_batch_stats", "wrong_output"}
STATS_CATALOGUE = {"wrong_dim", "missing_keepdim", "unbiased_variance", "wrong_output"}


class LN(nn.Module):
    """层归一化的骨架：子类只改 normalize 或 forward。"""

    def __init__(self, emb_dim, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.scale = nn.Parameter(torch.ones(emb_dim))
        self.shift = nn.Parameter(torch.zeros(emb_dim))

    def normalize(self, x):
        mean = x.mean(-1, keepdim=True)
        return (x - mean) / torch.sqrt(x.var(-1, keepdim=True, unbiased=False) + self.eps)

    def forward(self, x):
        return self.scale * self.normalize(x) + self.shift


def ln(normalize=None, forward=None):
    body = {}
    if normalize:
        body["normalize"] = lambda self, x: normalize(x, self.eps)
    if forward:
        body["forward"] = lambda self, x: forward(self, x)
    return type("Novel", (LN,), body)


def _mean(x):
    return x.mean(-1, keepdim=True)


def _var(x):
    return x.var(-1, keepdim=True, unbiased=False)


NOVEL_LN = {
    # 除以 σ² + ε，而不是它的平方根
    "divide_by_variance": (ln(normalize=lambda x, e: (x - _mean(x)) / (_var(x) + e)),
                           "row_variance_not_one", "平方根"),
    # β 放进了括号里：γ·(x̂ + β)
    "beta_inside": (ln(forward=lambda s, x: s.scale * (s.normalize(x) + s.shift)), "beta_not_featurewise", "β 被 γ 乘到了"),
    # 最小-最大缩放，而不是标准化
    "min_max": (ln(normalize=lambda x, e: (x - x.amin(-1, keepdim=True))
                   / (x.amax(-1, keepdim=True) - x.amin(-1, keepdim=True) + e)), "row_mean_not_zero", "均值"),
    # 忘了减均值（分母对）
    "no_centering": (ln(normalize=lambda x, e: x / torch.sqrt(_var(x) + e)), "not_shift_invariant", "加上一个常数"),
    # 除以均值绝对偏差，而不是标准差
    "mean_abs_dev": (ln(normalize=lambda x, e: (x - _mean(x)) / ((x - _mean(x)).abs().mean(-1, keepdim=True) + e)),
                     "row_variance_not_one", "不是标准差"),
    # 均值用了整个张量，方差按行
    "global_mean": (ln(normalize=lambda x, e: (x - x.mean()) / torch.sqrt(_var(x) + e)), "rows_mixed", "(0, 0)"),
    # γ 用了平方
    "gamma_squared": (ln(forward=lambda s, x: s.scale ** 2 * s.normalize(x) + s.shift), "gamma_not_featurewise", "倍"),
    # 分母用了 √(方差 + 1)：就是 ε 写死成 1，检查器点名 ε（不说第三步错了）
    "divide_by_var_plus_one": (ln(normalize=lambda x, e: (x - _mean(x)) / torch.sqrt(_var(x) + 1.0)),
                               "eps_wrong_value", "ε ≈ 1 "),
    # 分母用了方差加 1（不开根号）：不是某个 ε 的层归一化，逐步诊断说缩放不对
    "divide_by_var_plus_one_no_sqrt": (ln(normalize=lambda x, e: (x - _mean(x)) / (_var(x) + 1.0)),
                                       "not_scale_invariant", "乘以 4"),
    # 平移量写成 β 的均值（所有特征同一个平移）
    "beta_mean": (ln(forward=lambda s, x: s.scale * s.normalize(x) + s.shift.mean()), "beta_not_featurewise", "应整体加上 β["),
}


def no_catalogue_blame(result, catalogue):
    blamed = set(result.codes) & catalogue
    assert not blamed, f"冤枉了目录里的错误 {blamed}：{result.text()}"


def has_numbers(msg):
    return re.search(r"\d", msg) is not None


def test_divide_by_variance_quotes_the_row_variance():
    impl = NOVEL_LN["divide_by_variance"][0]
    r = check_layer_norm(impl, show=False)
    msg = r.messages[r.codes.index("row_variance_not_one")]
    # 偏差最大的是第 0 行，σ² = 0.25：除以 σ² 后方差 ≈ 1/0.25 = 4，消息里报出的是量出来的数
    assert re.search(r"第 0 行的方差是 (4|3\.99\d*)，", msg) and "σ² = 0.25" in msg, msg


def test_at_least_eight_distinct_novel_layer_norm_mistakes():
    assert len(NOVEL_LN) >= 8
    assert {"row_mean_not_zero", "row_variance_not_one", "not_shift_invariant", "not_scale_invariant",
            "gamma_not_featurewise", "beta_not_featurewise", "rows_mixed"} <= {c for _, c, _ in NOVEL_LN.values()}


# ---------------------------------------------------------------- RMSNorm
class RMS(nn.Module):
    def __init__(self, emb_dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.scale = nn.Parameter(torch.ones(emb_dim))


def rms(forward):
    return type("NovelRMS", (RMS,), {"forward": lambda self, x: forward(self, x)})


NOVEL_RMS = {
    # 除以均方本身，没有开平方
    "no_sqrt": (rms(lambda s, x: s.scale * x / (x.pow(2).mean(-1, keepdim=True) + s.eps)), "row_rms_not_one", "没有开平方"),
    # 除以最大绝对值
    "max_abs": (rms(lambda s, x: s.scale * x / x.abs().amax(-1, keepdim=True)), "row_rms_not_one", "均方"),
    # 归一化之后又加了一个小常数
    "plus_one": (rms(lambda s, x: s.scale * x / torch.sqrt(x.pow(2).mean(-1, keepdim=True) + s.eps) + 0.1),
                 "not_proportional", "之比"),
    # 各行的均方根算对了，却除以了它们的平均值
    "mean_of_row_rms": (rms(lambda s, x: s.scale * x / torch.sqrt(x.pow(2).mean(-1, keepdim=True) + s.eps).mean()),
                        "rows_mixed", "(0, 0)"),
    # scale 用了平方
    "scale_squared": (rms(lambda s, x: s.scale ** 2 * x / torch.sqrt(x.pow(2).mean(-1, keepdim=True) + s.eps)),
                      "gamma_not_featurewise", "倍"),
}


# ---------------------------------------------------------------- BatchNorm1d
class BN(nn.Module):
    def __init__(self, num_features, eps=1e-5, momentum=0.1):
        super().__init__()
        self.eps, self.momentum = eps, momentum
        self.register_buffer("running_mean", torch.zeros(num_features))
        self.register_buffer("running_var", torch.ones(num_features))

    def forward(self, x):
        if self.training:
            mean, var = x.mean(0), x.var(0, unbiased=False)
            with torch.no_grad():
                m = self.momentum
                self.running_mean.mul_(1 - m).add_(m * mean)
                self.running_var.mul_(1 - m).add_(m * x.var(0, unbiased=True))
            return self.normalize(x, mean, var)
        return self.normalize(x, self.running_mean, self.running_var)

    def normalize(self, x, mean, var):
        return (x - mean) / torch.sqrt(var + self.eps)


def bn(normalize):
    return type("NovelBN", (BN,), {"normalize": lambda self, x, mean, var: normalize(self, x, mean, var)})


NOVEL_BN = {
    "divide_by_variance": (bn(lambda s, x, m, v: (x - m) / (v + s.eps)), "feature_variance_not_one", "平方根"),
    "global_mean": (bn(lambda s, x, m, v: (x - x.mean()) / torch.sqrt(v + s.eps)), "feature_mean_not_zero", "均值"),
    "global_mean_mixes": (bn(lambda s, x, m, v: (x - x.mean()) / torch.sqrt(v + s.eps)), "features_mixed", "第 0 列"),
    "min_max": (bn(lambda s, x, m, v: (x - x.amin(0)) / (x.amax(0) - x.amin(0) + s.eps)), "feature_mean_not_zero", "应为 0"),
}


# ---------------------------------------------------------------- 均值与方差
def mean_var(mean, var):
    return lambda x: (mean(x), var(x))


def good_mean(x):
    return x.mean(-1, keepdim=True)


def good_var(x):
    return x.var(-1, keepdim=True, unbiased=False)


NOVEL_STATS = {
    "mean_is_sum": (mean_var(lambda x: x.sum(-1, keepdim=True), good_var), "mean_of_constant_wrong", "H = 8 倍"),
    "mean_plus_one": (mean_var(lambda x: x.mean(-1, keepdim=True) * 1.5, good_var), "mean_not_shift_equivariant", "增加"),
    "var_not_centred": (mean_var(good_mean, lambda x: x.pow(2).mean(-1, keepdim=True)),
                        "variance_of_constant_not_zero", "没有先减去均值"),
    "var_mean_abs_dev": (mean_var(good_mean, lambda x: (x - good_mean(x)).abs().mean(-1, keepdim=True)),
                         "variance_not_quadratic", "没有平方"),
    "var_around_global_mean": (mean_var(good_mean, lambda x: (x - x.mean()).pow(2).mean(-1, keepdim=True)),
                               "rows_mixed", "(0, 0)"),
}


def test_every_step_code_is_demonstrated_by_a_novel_mistake():
    """每个检查器的每个逐步诊断代码，都至少被上面的一个新错误触发过。"""
    from dsx_util.exercises.items.ch07_batch_norm.check import CODES as BATCH_NORM_CODES
    from dsx_util.exercises.items.ch05_layer_norm.check import CODES as LAYER_NORM_CODES
    from dsx_util.exercises.items.ch08_rms_norm.check import CODES as RMS_NORM_CODES
    from dsx_util.exercises.items.ch03_mean_var.check import CODES as MEAN_VAR_CODES

    common = {"not_parameters", "wrong_init", "wrong_param_shape", "inplace_input", "wrong_shape_or_dtype",
              "not_differentiable", "raised", "timeout", "not_done",
              # 题目写明的要求：各自的测试文件里逐个演示（test_check_layer_norm.py 等）
              "eps_ignored", "extra_parameters", "wrong_param_names", "buffers_not_registered", "eval_updates_running",
              "momentum_ignored", "running_stats_in_graph", "no_batches_tracked", "batches_not_counted",
              "momentum_none_wrong", "state_dict_incompatible"}
    for check, novel, codes, catalogue in (
            (check_layer_norm, NOVEL_LN, LAYER_NORM_CODES, LN_CATALOGUE),
            (check_rms_norm, NOVEL_RMS, RMS_NORM_CODES, RMS_CATALOGUE),
            (check_batch_norm, NOVEL_BN, BATCH_NORM_CODES, BN_CATALOGUE),
            (check_mean_var, NOVEL_STATS, MEAN_VAR_CODES, STATS_CATALOGUE)):
        seen = set()
        for impl, _, _ in novel.values():
            seen |= set(check(impl, show=False).codes)
        steps = set(codes) - catalogue - common
        assert steps and steps <= seen, (check.__name__, steps - seen)


# 四个模块类检查器：目录之外的错误（NOVEL_*）得到正确那一步的代码与带数字的说明，不冤枉目录里的错误
NOVEL = {"layer_norm": (NOVEL_LN, check_layer_norm, LN_CATALOGUE), "rms_norm": (NOVEL_RMS, check_rms_norm, RMS_CATALOGUE),
         "batch_norm": (NOVEL_BN, check_batch_norm, BN_CATALOGUE), "mean_var": (NOVEL_STATS, check_mean_var, STATS_CATALOGUE)}


@pytest.mark.parametrize("kind, name", [(k, n) for k, (table, _, _) in NOVEL.items() for n in sorted(table)])
def test_novel_mistakes_get_the_right_step(kind, name):
    table, check, catalogue = NOVEL[kind]
    impl, code, word = table[name]
    r = check(impl, show=False)
    assert not r.passed
    assert code in r.codes, r.text()
    no_catalogue_blame(r, catalogue)
    msg = r.messages[r.codes.index(code)]
    assert word in msg and has_numbers(msg), msg
    assert all("\n" not in m for m in r.messages)

# ---------------------------------------------------------------- 编目的错误（三道模块类练习的 mistakes.py）
# 检查器 -> (检查函数, 代码表, 编目的错误, 逐步诊断的代码（上面用目录之外的错误演示）, 说明里不该出现的代码写法)
CATALOGUED = {
    "batch_norm": (check_batch_norm, BN_CODES, BN_MISTAKES, {"feature_mean_not_zero", "feature_variance_not_one", "not_shift_invariant", "features_mixed"}, ["unbiased=", "dim=0"]),
    "rms_norm": (check_rms_norm, RMS_CODES, RMS_MISTAKES, {"row_rms_not_one", "not_proportional", "not_scale_invariant", "gamma_not_featurewise", "rows_mixed"}, ["keepdim=True", "sqrt("]),
    "mean_var": (check_mean_var, STATS_CODES, STATS_MISTAKES, {"mean_of_constant_wrong", "mean_not_shift_equivariant", "variance_of_constant_not_zero",
              "variance_not_shift_invariant", "variance_not_quadratic", "rows_mixed"}, ["unbiased=False", "keepdim=True"]),
}


def faulty(kind):
    """代码 -> 犯了它的实现（错误写法在练习文件夹的 mistakes.py 里）。"""
    return {codes[0]: attempt for _, codes, attempt in CATALOGUED[kind][2]}


@pytest.mark.parametrize("kind", sorted(CATALOGUED))
def test_every_code_has_a_faulty_implementation(kind):
    """每个代码都有一个犯了它的实现；通用代码（说明在 feedback.MESSAGES）也算，逐步诊断的代码另有上面的测试。"""
    _, codes, _, steps, _ = CATALOGUED[kind]
    assert set(faulty(kind)) | steps == set(codes) | {"not_done", "raised", "timeout", "wrong_output"}
    assert not set(faulty(kind)) & steps


@pytest.mark.parametrize("kind, code", [(k, c) for k in sorted(CATALOGUED) for c in sorted(faulty(k))])
def test_each_mistake_is_named(kind, code):
    """编目的错误：结论只有这一个代码；说明是一行中文，不含代码写法。"""
    check, _, _, _, absent = CATALOGUED[kind]
    r = check(faulty(kind)[code], timeout=0.5 if code == "timeout" else 1.0, show=False)   # 死循环只等 0.5 秒
    assert not r.passed and r.codes == [code], r.text()
    msg = r.messages[0]
    assert re.search(r"[\u4e00-\u9fff]", msg) and msg.count("\n") <= 1
    assert not [a for a in absent if a in msg], msg
