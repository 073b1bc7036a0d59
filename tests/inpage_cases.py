"""网页练习的测试用例：每道纯 Python 练习的若干段“学习者代码”和检查应给出的错误代码（[] 表示通过）。

CPython 的测试（test_inpage_checks.py）和浏览器测试（test_inpage_browser.py）用同一批代码，
这样才能比较同一段代码在两处得到的错误代码。
"""
RELU = {
    "negative_kept": "def relu_list(values):\n    return list(values)\n",
    "abs_used": "def relu_list(values):\n    return [abs(v) for v in values]\n",
    "returns_int": "def relu_list(values):\n    return [max(0, v) for v in values]\n",
    "modified_input": ("def relu_list(values):\n    for i, v in enumerate(values):\n        if v < 0:\n"
                       "            values[i] = 0.0\n    return values\n"),
    "zero_wrong": "def relu_list(values):\n    return [v if v > 0 else (0.0 if v < 0 else 1.0) for v in values]\n",
    "positive_changed": "def relu_list(values):\n    return [1.0 if v > 0 else 0.0 for v in values]\n",
    "not_list": "def relu_list(values):\n    return tuple(v if v > 0 else 0.0 for v in values)\n",
    "wrong_length": "def relu_list(values):\n    return [v for v in values if v > 0]\n",
}

_LN = '''import math


def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        h = len(row)
        mu = sum(row) / h
        var = sum((v - mu) ** 2 for v in row) / {div}
        std = {std}
        out.append([{y} for v, g, b in zip(row, gamma, beta)])
    return out
'''


def _ln(div="h", std="math.sqrt(var + eps)", y="g * (v - mu) / std + b"):
    return _LN.format(div=div, std=std, y=y)


LAYER_NORM_ROWS = {
    "unbiased_var": _ln(div="(h - 1)"),
    "eps_outside_sqrt": _ln(std="math.sqrt(var) + eps"),
    "no_eps": _ln(std="math.sqrt(var)"),
    "eps_ignored": _ln(std="math.sqrt(var + 1e-5)"),
    "no_centering": _ln(y="g * v / std + b"),
    "no_gamma_beta": _ln(y="(v - mu) / std"),
    "gamma_beta_swapped": _ln(y="b * (v - mu) / std + g"),
    "shift_before_scale": _ln(y="((v - mu) / std + b) * g"),
    "wrong_axis": '''import math


def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    cols = []
    for col in zip(*rows):
        mu = sum(col) / len(col)
        var = sum((v - mu) ** 2 for v in col) / len(col)
        cols.append([(v - mu) / math.sqrt(var + eps) for v in col])
    return [[g * v + b for v, g, b in zip(row, gamma, beta)] for row in zip(*cols)]
''',
}

_MV = "def mean_var_list(values, unbiased=False):\n    m = sum(values) / len(values)\n    s = sum((v - m) ** 2 for v in values)\n    return m, {var}\n"
MEAN_VAR_LIST = {
    "biased_var": _MV.format(var="s / len(values)"),
    "unbiased_var": _MV.format(var="s / (len(values) - 1)"),
    "returned_std": _MV.format(var="(s / (len(values) - 1 if unbiased else len(values))) ** 0.5"),
    "wrong_mean": "def mean_var_list(values, unbiased=False):\n    return sum(values), 0.0\n",
    "not_pair": "def mean_var_list(values, unbiased=False):\n    return sum(values) / len(values)\n",
}

_BN = '''import math


def batch_norm_lists(x, eps=1e-5):
    def norm(vals):
        mu = sum(vals) / len(vals)
        var = sum((v - mu) ** 2 for v in vals) / {div}
        return [{num} / math.sqrt(var + eps) for v in vals]
    {body}
'''
BATCH_NORM_LISTS = {
    "wrong_axis": _BN.format(div="len(vals)", num="(v - mu)", body="return [norm(row) for row in x]"),
    "unbiased_var": _BN.format(div="(len(vals) - 1)", num="(v - mu)",
                               body="return [list(r) for r in zip(*[norm(c) for c in zip(*x)])]"),
    "no_centering": _BN.format(div="len(vals)", num="v",
                               body="return [list(r) for r in zip(*[norm(c) for c in zip(*x)])]"),
    "normalized_all": _BN.format(div="len(vals)", num="(v - mu)",
                                 body="flat = norm([v for r in x for v in r])\n    h = len(x[0])\n"
                                      "    return [flat[i:i + h] for i in range(0, len(flat), h)]"),
}

_RMS = '''import math


def rms_norm_list(values, gamma, eps=1e-6):
    ms = sum(v * v for v in values) / len(values)
    d = {d}
    return [{y} for v, g in zip(values, gamma)]
'''
RMS_NORM_LIST = {
    "eps_outside_sqrt": _RMS.format(d="math.sqrt(ms) + eps", y="g * v / d"),
    "missing_sqrt": _RMS.format(d="ms + eps", y="g * v / d"),
    "no_gamma": _RMS.format(d="math.sqrt(ms + eps)", y="v / d"),
    "abs_mean": _RMS.format(d="sum(abs(v) for v in values) / len(values) + eps", y="g * v / d"),
    "subtracted_mean": '''import math


def rms_norm_list(values, gamma, eps=1e-6):
    mu = sum(values) / len(values)
    d = math.sqrt(sum((v - mu) ** 2 for v in values) / len(values) + eps)
    return [g * (v - mu) / d for v, g in zip(values, gamma)]
''',
}

STABLE_VAR = {
    "single_pass": ("def stable_var(values):\n    n = len(values)\n"
                    "    return sum(v * v for v in values) / n - (sum(values) / n) ** 2\n"),
    "unbiased_var": ("def stable_var(values):\n    m = sum(values) / len(values)\n"
                     "    return sum((v - m) ** 2 for v in values) / (len(values) - 1)\n"),
    "returned_std": ("def stable_var(values):\n    m = sum(values) / len(values)\n"
                     "    return (sum((v - m) ** 2 for v in values) / len(values)) ** 0.5\n"),
}

# 练习 id -> {错误代码: 恰好犯了这个错误的代码}
MISTAKES = {
    "ch02-relu": RELU,
    "ch04-layer-norm-rows": LAYER_NORM_ROWS,
    "ch06-mean-var-list": MEAN_VAR_LIST,
    "ch07-batch-norm-lists": BATCH_NORM_LISTS,
    "ch08-rms-norm-list": RMS_NORM_LIST,
    "ch11-stable-var-list": STABLE_VAR,
}

# 各练习都适用的通用情形：{错误代码: 代码}；{entry} 换成练习要写的函数名
GENERIC = {
    "syntax_error": "def {entry}(values:\n    return values\n",
    "missing_name": "def something_else(values):\n    return values\n",
    "raised": "def {entry}(*args, **kwargs):\n    return 1 / 0\n",
    "timeout": "def {entry}(*args, **kwargs):\n    while True:\n        pass\n",
}
