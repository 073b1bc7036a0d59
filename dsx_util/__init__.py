"""《动手学 GPT 层归一化》的配套工具包。

`import dsx_util` 只加载本文件：torch、matplotlib、ipywidgets、IPython 都在第一次用到时才导入，
所以导入本包几乎不花时间。
"""
import importlib

__version__ = "0.1.0"

# 名字 -> 定义它的子模块。第一次访问 dsx_util.<名字> 时才导入对应子模块。
_EXPORTS = {
    "show_version": "info",
    "set_seed": "seed",
    "print_table": "table",
    "glue": "notebook",
    "sci": "notebook",
    "LayerNorm": "layernorm",
    "RMSNorm": "rmsnorm",
    "use_cjk_font": "plotting",
}
_SUBMODULES = {"info", "seed", "table", "notebook", "layernorm", "rmsnorm",
               "plotting", "gpt", "widgets", "exercises", "timing"}

__all__ = sorted(_EXPORTS) + sorted(_SUBMODULES)


def __getattr__(name):
    if name in _EXPORTS:
        module = importlib.import_module(f"{__name__}.{_EXPORTS[name]}")
        value = getattr(module, name)
        globals()[name] = value
        return value
    if name in _SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"模块 dsx_util 没有属性 {name!r}；可用的名字：{', '.join(__all__)}")


def __dir__():
    return __all__
