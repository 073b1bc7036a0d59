# 导入：标准库、catalog。
"""练习与检查器：每道练习一个检查函数，返回 CheckResult（passed、codes、messages）并显示中文反馈。

    from dsx_util.exercises import check_layer_norm
    check_layer_norm(MyLayerNorm)

名字在第一次用到时才从子模块导入（torch、IPython 也是），所以 `import dsx_util.exercises` 很快。
练习目录见 catalog.py 与 items/：一道练习一个文件夹，题目、模板、参考答案、检查函数（check.py）和编目的
错误写法（mistakes.py）都在里面。检查器按需要什么分层（每个模块第一行写着它可以导入什么）：
feedback.py（只用标准库：结果、说明、运行学习者的代码、唯一的装饰器 checker；网页里也用它）、
list_checks.py（列表检查，只用标准库，网页里也能运行）、torch_checks.py（张量比较与错误模型）、
module_checks.py（创建模块、前向、逐步诊断）、shared/（两道以上练习共用的检查代码）。
"""
import importlib

# 名字 -> 定义它的子模块
_EXPORTS = {
    "CheckResult": "feedback",
    "NOT_DONE": "feedback",
    "EXERCISES": "catalog",
    "Exercise": "catalog",
    "chapter_cells": "catalog",
    "exercises_for": "catalog",
    "fill_exercises": "catalog",
    "get_exercise": "catalog",
    "show_solution": "catalog",
}
# 各练习的检查函数：名字来自练习文件夹（items/<id>/__init__.py 的 CHECKER），定义在同一个文件夹的 check.py 里。
# 新增练习不用改这里。
def _checker_exports():
    from .catalog import EXERCISES
    return {ex.checker: f"items.{ex.id.replace('-', '_')}.check" for ex in EXERCISES}


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
