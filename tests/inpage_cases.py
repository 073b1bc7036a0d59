"""网页练习的测试用例：每道纯 Python 练习的若干段“学习者代码”和检查应给出的错误代码（[] 表示通过）。

CPython 的测试（test_inpage_checks.py）和浏览器测试（test_inpage_browser.py）用同一批代码，
这样才能比较同一段代码在两处得到的错误代码。
"""
import importlib


def _folder_mistakes(ex_id):
    return importlib.import_module(f"dsx_util.exercises.items.{ex_id.replace('-', '_')}.mistakes")


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
    "negative_scaled": "def relu_list(values):\n    return [v if v > 0 else 0.01 * v for v in values]\n",
    "order_changed": "def relu_list(values):\n    return sorted(v if v > 0 else 0.0 for v in values)\n",
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
    "unbiased_ignored": _MV.format(var="s / len(values)"),
    "unbiased_var": _MV.format(var="s / (len(values) - 1)"),
    "returned_std": _MV.format(var="(s / (len(values) - 1 if unbiased else len(values))) ** 0.5"),
    "wrong_mean": ("def mean_var_list(values, unbiased=False):\n    h = len(values)\n    m = sum(values) / h\n"
                   "    s = sum((v - m) ** 2 for v in values)\n    return sum(values) / (h - 1), s / (h - 1 if unbiased else h)\n"),
    "swapped_order": _MV.format(var="s / (len(values) - 1 if unbiased else len(values))").replace("return m, ", "return ")
    .replace("\n", "\n", 1).rstrip("\n") + ", m\n",
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
_BN_COLS = "return [list(r) for r in zip(*[norm(c) for c in zip(*x)])]"


def _bn_denominator(d):
    return _BN.format(div="len(vals)", num="(v - mu)", body=_BN_COLS).replace("math.sqrt(var + eps)", d)


BATCH_NORM_LISTS = {
    "eps_outside_sqrt": _bn_denominator("(math.sqrt(var) + eps)"),
    "no_eps": _bn_denominator("math.sqrt(var)"),
    "eps_ignored": _bn_denominator("math.sqrt(var + 1e-5)"),
    "no_sqrt": _bn_denominator("(var + eps)"),
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
    "no_eps": _RMS.format(d="math.sqrt(ms)", y="g * v / d"),
    "eps_ignored": _RMS.format(d="math.sqrt(ms + 1e-6)", y="g * v / d"),
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
    # 按 issue 21 布局写的练习：错误写法在练习文件夹的 mistakes.py 里，这里只取一个代码的那些
    **{ex_id: {codes[0]: src for _, codes, src in _folder_mistakes(ex_id).MISTAKES if len(codes) == 1}
       for ex_id in ("ch12-dyt-list",)},
}

# 各练习都适用的通用情形：{错误代码: 代码}；{entry} 换成练习要写的函数名
GENERIC = {
    "syntax_error": "def {entry}(values:\n    return values\n",
    "missing_name": "def something_else(values):\n    return values\n",
    "raised": "def {entry}(*args, **kwargs):\n    return 1 / 0\n",
    "timeout": "def {entry}(*args, **kwargs):\n    while True:\n        pass\n",
}

# 新的错误：目录里没有专门对应它们的“错误模型”，检查要靠逐步诊断（性质）或“两处典型错误的组合”认出来。
# (练习 id, 说明, 代码, 应得到的错误代码)；CPython 与浏览器里的 Pyodide 都要得到同样的代码和说明。
NOVEL = [
    ("ch02-relu", "Leaky ReLU：负数乘 0.01", RELU["negative_scaled"], ["negative_scaled"]),
    ("ch02-relu", "排序了输出", RELU["order_changed"], ["order_changed"]),
    ("ch04-layer-norm-rows", "两处典型错误：无偏方差 + ε 在根号外",
     _ln(div="(h - 1)", std="math.sqrt(var) + eps"), ["unbiased_var", "eps_outside_sqrt"]),
    ("ch04-layer-norm-rows", "除以方差而不是标准差", _ln(std="(var + eps)"), ["no_sqrt"]),
    ("ch04-layer-norm-rows", "减去的是行的中位数（第 2 个值）", _ln(y="g * (v - sorted(row)[1]) / std + b"),
     ["row_mean_not_zero"]),
    ("ch04-layer-norm-rows", "除以了行内最大绝对值", _ln(std="max(abs(u - mu) for u in row) + eps"),
     ["row_variance_not_one"]),
    ("ch04-layer-norm-rows", "β 只加到第一个特征上", _ln(y="g * (v - mu) / std + (b if v is row[0] else 0.0)"),
     ["beta_not_featurewise"]),
    ("ch04-layer-norm-rows", "所有特征都乘 γ[0]", _ln(y="gamma[0] * (v - mu) / std + b"), ["gamma_not_featurewise"]),
    ("ch04-layer-norm-rows", "分母多加了 0.1", _ln(std="math.sqrt(var + eps) + 0.1"),
     ["row_variance_not_one", "not_scale_invariant"]),
    ("ch04-layer-norm-rows", "每行都减去第一行的均值", _ln(y="g * (v - sum(rows[0]) / h) / std + b"),
     ["row_mean_not_zero", "not_shift_invariant", "rows_mixed"]),
    ("ch06-mean-var-list", "方差用了偏差的绝对值", _MV.format(var="sum(abs(v - m) for v in values) / len(values)"),
     ["variance_not_quadratic"]),
    ("ch06-mean-var-list", "方差用了 x² 的平均（没减均值）", _MV.format(var="sum(v * v for v in values) / len(values)"),
     ["variance_of_constant_not_zero", "variance_not_shift_invariant"]),
    ("ch06-mean-var-list", "有偏方差除以了 H+1", _MV.format(var="s / (len(values) - 1 if unbiased else len(values) + 1)"),
     ["variance_wrong_divisor"]),
    ("ch07-batch-norm-lists", "两处典型错误：按行归一化 + 无偏方差",
     _BN.format(div="(len(vals) - 1)", num="(v - mu)", body="return [norm(row) for row in x]"),
     ["wrong_axis", "unbiased_var"]),
    ("ch07-batch-norm-lists", "每列减去第一个样本而不是均值",
     _BN.format(div="len(vals)", num="(v - vals[0])", body="return [list(r) for r in zip(*[norm(c) for c in zip(*x)])]"),
     ["row_mean_not_zero"]),
    ("ch07-batch-norm-lists", "用第一列的统计量归一化所有列", '''import math


def batch_norm_lists(x, eps=1e-5):
    col = [r[0] for r in x]
    mu = sum(col) / len(col)
    var = sum((v - mu) ** 2 for v in col) / len(col)
    return [[(v - mu) / math.sqrt(var + eps) for v in r] for r in x]
''', ["row_mean_not_zero", "row_variance_not_one", "not_shift_invariant", "rows_mixed"]),
    ("ch08-rms-norm-list", "除以向量的长度 ‖x‖（最常见的均方根混淆）",
     _RMS.format(d="math.sqrt(sum(v * v for v in values) + eps)", y="g * v / d"), ["divided_by_norm"]),
    ("ch08-rms-norm-list", "两处典型错误：减均值 + 没乘 γ", '''import math


def rms_norm_list(values, gamma, eps=1e-6):
    mu = sum(values) / len(values)
    d = math.sqrt(sum((v - mu) ** 2 for v in values) / len(values) + eps)
    return [(v - mu) / d for v in values]
''', ["subtracted_mean", "no_gamma"]),
    ("ch08-rms-norm-list", "输出整体加了 0.1", _RMS.format(d="math.sqrt(ms + eps)", y="g * v / d + 0.1"),
     ["row_rms_not_one", "not_proportional", "gamma_not_featurewise"]),
    ("ch07-batch-norm-lists", "分母多加了 0.1",
     _BN.format(div="len(vals)", num="(v - mu)", body="return [list(r) for r in zip(*[norm(c) for c in zip(*x)])]")
     .replace("math.sqrt(var + eps)", "(math.sqrt(var + eps) + 0.1)"), ["row_variance_not_one", "not_scale_invariant"]),
    ("ch08-rms-norm-list", "开了四次方根而不是平方根", _RMS.format(d="(ms + eps) ** 0.25", y="g * v / d"),
     ["row_rms_not_one", "not_scale_invariant"]),
    ("ch08-rms-norm-list", "分母用了最大绝对值", _RMS.format(d="max(abs(v) for v in values) + eps", y="g * v / d"),
     ["row_rms_not_one"]),
    ("ch08-rms-norm-list", "γ 加上而不是乘上", _RMS.format(d="math.sqrt(ms + eps)", y="v / d + g - 1.0"),
     ["gamma_not_featurewise"]),
    ("ch11-stable-var-list", "两处典型错误：无偏方差 + 开了平方根",
     "def stable_var(values):\n    m = sum(values) / len(values)\n"
     "    return (sum((v - m) ** 2 for v in values) / (len(values) - 1)) ** 0.5\n", ["unbiased_var", "returned_std"]),
    ("ch11-stable-var-list", "偏差没有平方（用了绝对值）",
     "def stable_var(values):\n    m = sum(values) / len(values)\n    return sum(abs(v - m) for v in values) / len(values)\n",
     ["variance_not_quadratic"]),
    ("ch11-stable-var-list", "没减均值（x² 的平均）", "def stable_var(values):\n    return sum(v * v for v in values) / len(values)\n",
     ["variance_of_constant_not_zero", "variance_not_shift_invariant"]),
    ("ch11-stable-var-list", "除以 H²",
     "def stable_var(values):\n    m = sum(values) / len(values)\n    return sum((v - m) ** 2 for v in values) / len(values) ** 2\n",
     ["variance_wrong_divisor"]),
]
NOVEL += [(ex_id, what, src, codes) for ex_id in ("ch12-dyt-list",)
          for what, codes, src in _folder_mistakes(ex_id).MISTAKES + _folder_mistakes(ex_id).NOVEL
          if len(codes) > 1 or (what, codes, src) in _folder_mistakes(ex_id).NOVEL]
