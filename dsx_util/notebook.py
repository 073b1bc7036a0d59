"""与笔记本环境有关的小工具：判断输出位置，以及没有 myst-nb 时也能运行的 glue。"""
import sys


def in_notebook():
    """当前代码是否运行在 Jupyter / Colab 内核里（而不是终端或普通脚本）。"""
    if "IPython" not in sys.modules:
        return False
    from IPython import get_ipython
    shell = get_ipython()
    return shell is not None and shell.__class__.__name__ != "TerminalInteractiveShell"


def glue(name, value, display=False):
    """把代码算出的值交给书中正文引用（myst-nb 的 glue）。

    构建 HTML 时 myst-nb 已安装，正文里的 {glue:text}`name` 会被换成这个值；
    在 Colab 等没有 myst-nb 的环境里，它什么也不做，章节照样能运行。
    返回 None，这样单元格最后一行写 glue(...) 时不会多显示一个输出。
    """
    try:
        from myst_nb import glue as _glue
    except ImportError:
        return None
    _glue(name, value, display=display)
    return None
