"""练习与检查器：每道练习一个检查函数，返回 CheckResult（passed、codes、messages）并显示中文反馈。

    from dsx_util.exercises import check_layer_norm
    check_layer_norm(MyLayerNorm)

名字在第一次用到时才从子模块导入（torch、IPython 也是），所以 `import dsx_util.exercises` 很快。
练习目录见 catalog.py 与 items/（一道练习一个文件夹）；检查器的共同核心是 core.py（只用标准库，网页里也用它），
各检查器在 layernorm_check.py、stats_check.py、batchnorm_check.py、rmsnorm_check.py、simple_checks.py 和
pure_checks.py（纯 Python 练习，网页里也能运行）。
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
}
# 各练习的检查函数：名字来自练习文件夹（items/<id>/__init__.py 的 CHECKER），定义它的模块按规则推出——
# 纯 Python 练习（IN_PAGE）在 pure_checks，四个模块类的检查器各有一个模块，其余在 simple_checks。新增练习不用改这里。
_CLASS_CHECKERS = {"check_layer_norm": "layernorm_check", "check_mean_var": "stats_check",
                   "check_batch_norm": "batchnorm_check", "check_rms_norm": "rmsnorm_check"}


def _checker_exports():
    from pathlib import Path

    from .catalog import EXERCISES
    items = Path(__file__).parent / "items"

    def module(ex):   # 文件夹里有 check.py（issue 21 的布局）就从那里取
        folder = ex.id.replace("-", "_")
        if (items / folder / "check.py").exists():
            return f"items.{folder}.check"
        return "pure_checks" if ex.in_page else _CLASS_CHECKERS.get(ex.checker, "simple_checks")
    return {ex.checker: module(ex) for ex in EXERCISES}


_EXPORTS.update(_checker_exports())
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
