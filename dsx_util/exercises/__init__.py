"""练习与检查器：每道练习一个检查函数，返回 CheckResult（passed、codes、messages）并显示中文反馈。

    from dsx_util.exercises import check_layer_norm
    check_layer_norm(MyLayerNorm)

名字在第一次用到时才从子模块导入（torch、IPython 也是），所以 `import dsx_util.exercises` 很快。
练习目录见 catalog.py 与 items/，检查器见 layernorm_check.py、stats_check.py、batchnorm_check.py、
rmsnorm_check.py、simple_checks.py 和 pure_checks.py（纯 Python 练习，网页里也能运行）。
"""
import importlib

# 名字 -> 定义它的子模块
_EXPORTS = {
    "CheckResult": "_core",
    "NOT_DONE": "_core",
    "EXERCISES": "catalog",
    "Exercise": "catalog",
    "chapter_cells": "catalog",
    "exercises_for": "catalog",
    "fill_exercises": "catalog",
    "get_exercise": "catalog",
    "show_solution": "catalog",
    "check_layer_norm": "layernorm_check",
    "check_mean_var": "stats_check",
    "check_batch_norm": "batchnorm_check",
    "check_rms_norm": "rmsnorm_check",
}
_SIMPLE = (
    "check_seeded_noise", "check_table_rows", "check_count_norms", "check_pre_ln_block",
    "check_standardize_rows", "check_predict_shapes", "check_identity_params", "check_normalize_eps",
    "check_copy_weights", "check_std_ratio", "check_to_biased", "check_batchnorm_axis", "check_rms",
    "check_post_ln_block", "check_gpt_trunk", "check_centering_backward", "check_layer_norm_backward",
    "check_var_from_sums", "check_stable_layer_norm",
)
_EXPORTS.update({name: "simple_checks" for name in _SIMPLE})
# 纯 Python 练习的检查器（不导入 torch、numpy；网页里也用同一份源码）
_PURE = (
    "check_relu", "check_layer_norm_rows", "check_mean_var_list", "check_batch_norm_lists", "check_rms_norm_list",
    "check_stable_var",
)
_EXPORTS.update({name: "pure_checks" for name in _PURE})

__all__ = sorted(_EXPORTS)


def __getattr__(name):
    if name in _EXPORTS:
        module = importlib.import_module(f"{__name__}.{_EXPORTS[name]}")
        value = getattr(module, name)
        globals()[name] = value
        return value
    raise AttributeError(f"dsx_util.exercises 没有 {name!r}；可用的名字：{', '.join(__all__)}")


def __dir__():
    return __all__
