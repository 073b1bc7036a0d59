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


_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


class Sci(float):
    """一个普通的浮点数，只是在正文里（myst-nb 的 {glue:md}）写成 1.2×10⁻⁷ 而不是 1.2e-07。"""

    digits = 1

    def _repr_markdown_(self):
        return str(self)

    def __str__(self):
        mantissa, exponent = f"{float(self):.{self.digits}e}".split("e")
        exponent = str(int(exponent))
        return mantissa if exponent == "0" else f"{mantissa}×10{exponent.translate(_SUPERSCRIPT)}"


def sci(value, digits=1):
    """把数写成科学记数法的样子交给 glue：sci(3.1e-07) 在正文里显示为 3.1×10⁻⁷。

    它仍然是一个 float（repr 不变），测试读出的 glue 值与原来的数完全相同。正文里用 {glue:md}`名字` 引用。
    """
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"sci() 需要一个数，收到的是 {value!r}（类型 {type(value).__name__}）。") from None
    if not isinstance(digits, int) or digits < 0:
        raise ValueError(f"digits 应当是不小于 0 的整数（小数点后保留几位），收到的是 {digits!r}。")
    result = Sci(number)
    result.digits = digits
    return result
