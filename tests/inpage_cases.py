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
    # 评审 r44：没有 def {entry}( 这一行（改了名字、被覆盖）时说出模板里的那一整行（以前是 missing_name）
    "missing_def": "def something_else(values):\n    return values\n",
    "raised": "def {entry}(*args, **kwargs):\n    return 1 / 0\n",
    "timeout": "def {entry}(*args, **kwargs):\n    while True:\n        pass\n",
}

# 网页里最常见的头几种错误（在 ch02-relu 上试）：{错误代码: [代码, ...]}。CPython 与浏览器里必须得到同一代码与说明
FIRST_ERRORS = {
    "fullwidth_punctuation": [
        "def relu_list(values)：\n    return [max(0.0, v) for v in values]\n",            # 全角冒号
        "def relu_list(values):\n    return [max(0.0，v) for v in values]\n",            # 全角逗号
        "def relu_list（values):\n    return values\n",                                    # 全角括号
        "def relu_list(values):\n    s = “abc”\n    return values\n",                     # 全角引号
    ],
    "unexpected_indent": ["def relu_list(values):\n    out = []\n        for v in values:\n"
                          "            out.append(max(0.0, v))\n    return out\n",
                          # 评审 r40 在手机上逐键敲的（P2）：编辑器回车后已自动缩进，又照书上打了空格
                          "def relu_list(values):\n        out = []\n            for v in values:\n"
                          "                        out.append(v if v > 0 else 0.0)\n                        return out\n"
                          "                    "],
    "missing_indent": ["def relu_list(values):\nreturn [max(0.0, v) for v in values]\n"],
    "uneven_indent": ["def relu_list(values):\n    out = []\n  return out\n"],
    # Tab 与空格混用（评审 r34 在 ch07 上敲的那种：前一行 4 个空格，这一行一个 Tab）
    "mixed_tabs": ["def relu_list(values):\n    out = []\n    for v in values:\n\tout.append(max(0.0, v))\n"
                   "        out.append(v)\n    return out\n",
                   "def relu_list(values):\n    out = []\n\treturn out\n",
                   # 评审 r39：前几行用 Tab，最后一行用空格（以前叫人删掉最后一行开头并不存在的 Tab）
                   "def relu_list(values):\n\tout = []\n\tfor v in values:\n\t\tout.append(v if v > 0 else 0.0)\n"
                   "        return out\n"],
    # 导入题目不许用的模块：代码与笔记本里相同（forbidden_call），说明是 feedback.MESSAGES["forbidden_import"]
    "forbidden_call": ["import torch\n\n\ndef relu_list(values):\n    return [max(0.0, v) for v in values]\n",
                         "import numpy as np\n\n\ndef relu_list(values):\n    return list(np.maximum(values, 0.0))\n"],
}
# 运行时报错里缺了某个名字：中文先说出缺的名字，学习者自己的代码里有相近的名字时说出它（CPython 与浏览器里相同）
# (代码, 说明里应有的词)
NAME_ERRORS = [
    ("import math\n\n\ndef relu_list(values):\n    return [mth.fabs(v) * 0 + max(0.0, v) for v in values]\n",
     ["没有叫 mth 的名字", "是不是把 math 拼错了", "NameError"]),
    ("import math\n\n\ndef relu_list(values):\n    return [max(0.0, v) + math.flor(0.5) for v in values]\n",
     ["模块 math 里没有 flor", "是不是要写 floor", "AttributeError"]),
    ("def relu_list(values):\n    d = {'value': 1}\n    return [max(0.0, v) * d['valeu'] for v in values]\n",
     ["字典里没有键 'valeu'", "'value'", "KeyError"]),
    # 评审 r39：用属性的写法取字典的值（cfg.n_layers）：说出要写 cfg["n_layers"]，而不是「检查拼写」
    ("def relu_list(values):\n    cfg = {'floor': 0.0}\n    return [max(cfg.floor, v) for v in values]\n",
     ["cfg 是字典", 'cfg["floor"]', "AttributeError"]),
    ("def relu_list(values):\n    return [max(0.0, v) / (len(values) - len(values)) for v in values]\n",
     ["除以了 0", "len(v) − 1", "ZeroDivisionError"]),
]
# 只在网页里是错的写法（笔记本里能运行）：(练习 id, 代码, 应得的错误代码, 说明里应有的词)。
# 评审 r39：题目没有禁止 numpy，网页里却没有它：说网页里没有、这道题用 math 就够，不编造题目没写的要求
PAGE_ONLY = [
    ("ch06-std-ratio", "import numpy as np\n\n\ndef std_ratio(h):\n    return float(np.sqrt((h - 1) / h))\n",
     "not_in_page", ["网页里的 Python 只有标准库", "math", "在 Jupyter 里可以用 numpy"]),
]
# 全角字符在字符串或注释里是合法的：不能当成错误
FULLWIDTH_ALLOWED = "def relu_list(values):\n    # 注释里可以有全角标点：，（）\n    s = '你好，世界（测试）'\n" \
                    "    return [max(0.0, v) for v in values]\n"
