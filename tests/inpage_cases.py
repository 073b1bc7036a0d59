"""网页练习的测试用例：从每道纯 Python 练习文件夹的 mistakes.py 读出（练习的错误写法只写在它自己的文件夹里）。

CPython 的测试（test_inpage_checks.py）和浏览器测试（test_inpage_browser.py）用同一批代码，
这样才能比较同一段代码在两处得到的错误代码。
"""
import importlib

from dsx_util.exercises.catalog import EXERCISES


def _mistakes(ex):
    return importlib.import_module(f"dsx_util.exercises.items.{ex.id.replace('-', '_')}.mistakes")


_IN_PAGE = [ex for ex in EXERCISES if ex.in_page]
# {练习 id: {错误代码: 代码}}：编目的错误，每条恰好得到一个代码
MISTAKES = {ex.id: {codes[0]: src for _, codes, src in _mistakes(ex).MISTAKES} for ex in _IN_PAGE}
# (练习 id, 说明, 代码, 应得到的错误代码)：目录里没有的新错误（逐步诊断或两处典型错误的组合）
NOVEL = [(ex.id, what, src, codes) for ex in _IN_PAGE for what, codes, src in getattr(_mistakes(ex), "NOVEL", [])]

# 各练习都适用的通用情形：{错误代码: 代码}；{entry} 换成练习要写的函数名
GENERIC = {
    "syntax_error": "def {entry}(values:\n    return values\n",
    "missing_name": "def something_else(values):\n    return values\n",
    "raised": "def {entry}(*args, **kwargs):\n    return 1 / 0\n",
    "timeout": "def {entry}(*args, **kwargs):\n    while True:\n        pass\n",
}
