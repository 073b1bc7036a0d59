"""评审 r44（网页练习，手机上）的几条误导、含糊说明改好之后：说明说出真正错的那一步，不冤枉写对的那一步。

评审的原样代码在各练习 mistakes.py 的 NOVEL 里（说明必须有的词在 WORDS 里，tests/test_review_messages.py 逐条核对）；
这里核对这几条确实在目录里、得到新的代码，并核对同一种错误的别的写法、以及新诊断不冤枉写对的代码。
"""
import importlib
import re

import pytest

from dsx_util.exercises import list_checks
from dsx_util.exercises.catalog import EXERCISES, get_exercise
from review_cases import assert_named, run_attempt as _run

# (练习 id, NOVEL 里的说明, 应得的代码, 说明里应有的词, 说明里不应有的词)
REVIEW44 = [
    ("ch01-count-norms", "评审 r44：个数与每个的参数用 + 连起来（应是 ×）", ["params_added"],
     ["1561", "25 + 1536", "×", "不是加"], ["每个层归一化有多少个可学习参数"]),
    ("ch01-count-norms", "评审 r44：参数总数多加了 cfg[\"vocab_size\"]", ["extra_term"],
     ["88657", "38400", "多了 50257", 'cfg["vocab_size"]'], ["每个层归一化有多少个可学习参数"]),
    ("ch03-predict-shapes", "评审 r44：三个键里逗号后都少了空格", ["near_key", "near_key", "near_key"],
     ["'x.var(dim=1,keepdim=True)'", "'x - x.mean(dim=-1,keepdim=True)'", "只差空格"], ["两者很像"]),
    ("ch06-mean-var-list", "评审 r44：返回了 3 个值 (均值, 方差, H)", ["not_pair"],
     ["3 个值", "(5.25, 5.8125, 6)", "恰好两个"], ["实际返回的是 tuple"]),
    ("ch06-mean-var-list", "评审 r44：先把偏差加起来再平方 (Σ(x−μ))²", ["variance_zero"],
     ["5.8125", "你的是 0", "先把偏差加起来再平方", "总是 0", "每个偏差"], []),
    ("ch06-std-ratio", "评审 r44：用了一阶近似 1 − 1/(2H)", ["first_order"],
     ["H=2 时你的结果是 0.75", "0.707107", "近似", "不需要近似"], ["标准差之比是方差之比的平方根"]),
    ("ch06-std-ratio", "评审 r44：手机上 def 那一行被覆盖（第 4 行成了 return）", ["missing_def"],
     ["`def std_ratio(h):`", "覆盖", "放回"], ["缩进多了", "空格删掉"]),
    ("ch06-std-ratio", "评审 r44：def 那一行被覆盖，又把 sqrt 打成了 sqr", ["missing_def"],
     ["`def std_ratio(h):`", "覆盖", "放回"], ["缩进多了", "空格删掉"]),
    ("ch06-std-ratio", "评审 r44：def 那一行被覆盖，又打了全角减号", ["missing_def", "fullwidth_punctuation"],
     ["`def std_ratio(h):`", "「－」改成「-」"], ["缩进多了", "空格删掉"]),
]


@pytest.mark.parametrize("ex_id,what,codes,words,absent", REVIEW44, ids=[f"{r[0]}-{i}" for i, r in enumerate(REVIEW44)])
def test_review44_attempt_is_named(ex_id, what, codes, words, absent):
    assert_named(ex_id, what, codes, words, absent)


def _solutions(ex_id, *others):
    return [get_exercise(ex_id).solution, *others]


# ---------------------------------------------------------------- ch01：参数总数错在哪里
_COUNT = 'def count_norms(cfg):\n    n = 2 * cfg["n_layers"] + 1\n    return n, {}\n'


@pytest.mark.parametrize("params,code,words", [
    ('2 * cfg["emb_dim"] + n', "params_added", ["25 + 1536", "不是加"]),
    ('n + cfg["emb_dim"] + cfg["emb_dim"]', "params_added", ["25 + 1536"]),
    ('n * 2 * cfg["emb_dim"] + cfg["context_length"]', "extra_term", ["多了 1024", 'cfg["context_length"]']),
    ('n * 2 * cfg["emb_dim"] - cfg["n_heads"]', "extra_term", ["少了 12", 'cfg["n_heads"]']),
    ('n * 2 * cfg["emb_dim"] + 7', "wrong_total", ["38407", "38400", "多了 7"]),
    ('n * 2 * cfg["emb_dim"] * 2', "wrong_params", ["每个层归一化有多少个可学习参数", "3072"]),
])
def test_count_norms_total_says_what_is_wrong_in_the_total(params, code, words):
    """每个层归一化的 2·emb_dim 对了、总数错了：说总数错在哪里（+ 而不是 ×、多加了一项），
    只有总数像是「个数 × 另一个每个的参数」时才问每个层归一化有多少个参数。"""
    result = _run("ch01-count-norms", _COUNT.format(params))
    assert result["codes"] == [code], result["messages"]
    text = result["messages"][0]
    for word in words:
        assert word in text, (word, text)
    if code != "wrong_params":
        assert "每个层归一化有多少个可学习参数" not in text, text


@pytest.mark.parametrize("source", _solutions(
    "ch01-count-norms",
    'def count_norms(cfg):\n    n = 2 * cfg["n_layers"] + 1\n    return (n, n * 2 * cfg["emb_dim"])\n',
    'def count_norms(cfg):\n    count = 2 * cfg["n_layers"] + 1\n    each = cfg["emb_dim"] + cfg["emb_dim"]\n'
    '    total = 0\n    for _ in range(count):\n        total += each\n    return count, total\n'))
def test_count_norms_correct_solutions_pass(source):
    assert _run("ch01-count-norms", source)["passed"] is True


# ---------------------------------------------------------------- ch03：很像的键按「只差空格」配对，一个键只用一次
_SHAPES_BODY = ('def predict_shapes():\n    return {{\n        "x.mean(dim=-1)": (2, 3),\n'
                '        {b!r}: (2, 3, 1),\n        "x.sum(dim=0)": (3, 4),\n        {d!r}: (2, 1, 4),\n'
                '        {e!r}: (2, 3, 4),\n    }}\n')


@pytest.mark.parametrize("b,d,e", [
    ("x.mean(dim=-1,keepdim=True)", "x.var(dim=1,keepdim=True)", "x - x.mean(dim=-1,keepdim=True)"),
    ("x.mean(dim=-1, keepdim=True)", "x.var(dim=1,keepdim=True)", "x-x.mean(dim=-1,keepdim=True)"),
    ("x.mean(dim = -1, keepdim = True)", "x.var(dim=1 , keepdim=True)", "x - x.mean(dim=-1, keepdim=True)"),
])
def test_predict_shapes_near_keys_pair_with_the_key_that_differs_only_in_spaces(b, d, e):
    source = _SHAPES_BODY.format(b=b, d=d, e=e)
    result = _run("ch03-predict-shapes", source)
    asked = {"x.mean(dim=-1, keepdim=True)": b, "x.var(dim=1, keepdim=True)": d,
             "x - x.mean(dim=-1, keepdim=True)": e}
    wrong = {k: v for k, v in asked.items() if k != v}
    assert result["codes"] == ["near_key"] * len(wrong), result["messages"]
    for msg, (expr, key) in zip(result["messages"], wrong.items()):
        assert f"没有 {expr!r}" in msg and f"很像的键 {key!r}" in msg and "只差空格" in msg, msg


def test_predict_shapes_a_near_key_is_not_used_twice():
    """只有一个很像的键、却有两个表达式缺了：那个键只配给它真正对应的表达式，另一个说缺少。"""
    source = ('def predict_shapes():\n    return {\n        "x.mean(dim=-1)": (2, 3),\n'
              '        "x.mean(dim=-1,keepdim=True)": (2, 3, 1),\n        "x.sum(dim=0)": (3, 4),\n'
              '        "x - x.mean(dim=-1, keepdim=True)": (2, 3, 4),\n    }\n')
    result = _run("ch03-predict-shapes", source)
    assert result["codes"] == ["near_key", "missing_key"], result["messages"]
    assert "'x.var(dim=1, keepdim=True)'" in result["messages"][1]


def test_predict_shapes_bad_value_gives_no_example_that_reads_like_an_answer():
    """评审 r44：每一行都写「例如 (2, 3)」，读起来像是这个键的答案：不给例子。"""
    source = ('def predict_shapes():\n    return {\n        "x.mean(dim=-1)": "(2, 3)",\n'
              '        "x.mean(dim=-1, keepdim=True)": "(2, 3, 1)",\n        "x.sum(dim=0)": "(3, 4)",\n'
              '        "x.var(dim=1, keepdim=True)": "(2, 1, 4)",\n        "x - x.mean(dim=-1, keepdim=True)": "(2, 3, 4)",\n'
              '    }\n')
    result = _run("ch03-predict-shapes", source)
    assert result["codes"] == ["bad_shape_value"] * 5, result["messages"]
    for text in result["messages"]:
        assert "例如" not in text and "整数" in text and "元组" in text and "引号" in text, text


@pytest.mark.parametrize("source", _solutions(
    "ch03-predict-shapes",
    'def predict_shapes():\n    s = (2, 3, 4)\n    return {"x.mean(dim=-1)": s[:2], "x.mean(dim=-1, keepdim=True)": s[:2] + (1,),\n'
    '            "x.sum(dim=0)": s[1:], "x.var(dim=1, keepdim=True)": (s[0], 1, s[2]),\n'
    '            "x - x.mean(dim=-1, keepdim=True)": s}\n',
    'def predict_shapes():\n    d = dict()\n    d["x.mean(dim=-1)"] = (2, 3)\n    d["x.mean(dim=-1, keepdim=True)"] = (2, 3, 1)\n'
    '    d["x.sum(dim=0)"] = (3, 4)\n    d["x.var(dim=1, keepdim=True)"] = (2, 1, 4)\n'
    '    d["x - x.mean(dim=-1, keepdim=True)"] = (2, 3, 4)\n    return d\n'))
def test_predict_shapes_correct_solutions_pass(source):
    assert _run("ch03-predict-shapes", source)["passed"] is True


# ---------------------------------------------------------------- ch06：返回的个数、偏差先加后平方
_MV = ("def mean_var_list(values, unbiased=False):\n    n = len(values)\n    mu = sum(values) / n\n"
       "    ss = {ss}\n    return {ret}\n")


@pytest.mark.parametrize("ret,words", [
    ("mu, ss / (n - 1 if unbiased else n), n", ["3 个值", "(5.25, 5.8125, 6)"]),
    ("(mu, ss / (n - 1 if unbiased else n), ss)", ["3 个值", "(5.25, 5.8125, 34.875)"]),
    ("(mu,)", ["1 个值", "(5.25,)"]),
])
def test_mean_var_list_wrong_number_of_values_is_counted(ret, words):
    result = _run("ch06-mean-var-list", _MV.format(ss="sum((v - mu) ** 2 for v in values)", ret=ret))
    assert result["codes"] == ["not_pair"], result["messages"]
    text = result["messages"][0]
    for word in words + ["恰好两个"]:
        assert word in text, (word, text)
    assert "实际返回的是 tuple" not in text


@pytest.mark.parametrize("ss", ["sum((v - mu) for v in values) ** 2", "sum(v - mu for v in values)",
                                "(sum(values) - n * mu) ** 2"])
def test_mean_var_list_deviations_summed_before_squaring(ss):
    result = _run("ch06-mean-var-list", _MV.format(ss=ss, ret="mu, ss / (n - 1 if unbiased else n)"))
    assert result["codes"] == ["variance_zero"], result["messages"]
    assert "先把偏差加起来再平方" in result["messages"][0]


@pytest.mark.parametrize("source", _solutions(
    "ch06-mean-var-list",
    "def mean_var_list(values, unbiased=False):\n    n = len(values)\n    mu = sum(values) / n\n"
    "    ss = sum(v * v for v in values) - n * mu * mu\n    return mu, ss / (n - 1 if unbiased else n)\n",
    "def mean_var_list(values, unbiased=False):\n    n = len(values)\n    mean = sum(values) / n\n    total = 0.0\n"
    "    for v in values:\n        total += (v - mean) ** 2\n    if unbiased:\n        return (mean, total / (n - 1))\n"
    "    return (mean, total / n)\n"))
def test_mean_var_list_correct_solutions_pass(source):
    assert _run("ch06-mean-var-list", source)["passed"] is True


# ---------------------------------------------------------------- ch06：一阶近似
@pytest.mark.parametrize("body", ["1 - 1 / (2 * h)", "1 - 0.5 / h", "(2 * h - 1) / (2 * h)"])
def test_std_ratio_first_order_approximation_is_named(body):
    result = _run("ch06-std-ratio", f"import math\n\n\ndef std_ratio(h):\n    return {body}\n")
    assert result["codes"] == ["first_order"], result["messages"]
    assert "近似" in result["messages"][0] and "0.707107" in result["messages"][0]


@pytest.mark.parametrize("source", _solutions(
    "ch06-std-ratio", "def std_ratio(h):\n    return (1 - 1 / h) ** 0.5\n",
    "import math\n\n\ndef std_ratio(h):\n    xs = list(range(h))\n    mu = sum(xs) / h\n"
    "    ss = sum((x - mu) ** 2 for x in xs)\n    return math.sqrt(ss / h) / math.sqrt(ss / (h - 1))\n"))
def test_std_ratio_correct_solutions_pass(source):
    assert _run("ch06-std-ratio", source)["passed"] is True


# ---------------------------------------------------------------- 所有网页练习：def 那一行不见了
IN_PAGE = [ex for ex in EXERCISES if ex.in_page]


def _def_line(ex):
    return next(line for line in ex.template.splitlines() if line.startswith(("def ", "class ")))


@pytest.mark.parametrize("ex", IN_PAGE, ids=[ex.id for ex in IN_PAGE])
def test_missing_def_line_is_named_with_the_template_line(ex):
    """模板的 def 那一行被覆盖（手机上点错了行）：不论随后是什么错误，第一条说明都说出缺了模板里的那一整行，
    不给缩进的建议（删空格并不能改好）。"""
    body = [line for line in ex.solution.splitlines() if line.startswith("    ")]
    imports = [line for line in ex.solution.splitlines() if line.startswith(("import ", "from "))]
    head = _def_line(ex)
    for first in ("return 0", "x = 1"):   # 覆盖成一行顶格的代码：随后的函数体缩进多了（或顶层 return 出错）
        source = "\n".join(imports + ["", "", first] + body[1:]) + "\n"
        result = _run(ex.id, source)
        assert result["codes"][0] == "missing_def", (ex.id, result)
        text = result["messages"][0]
        assert f"`{head}`" in text and "缩进多了" not in text, text
    # 整个 def 行删掉、函数体顶格写：能运行，只是没有这个函数
    source = "\n".join(imports + [line[4:] for line in body if not line.lstrip().startswith("return")]) + "\n"
    result = _run(ex.id, source)
    assert result["codes"][0] == "missing_def", (ex.id, result)


@pytest.mark.parametrize("ex", IN_PAGE, ids=[ex.id for ex in IN_PAGE])
def test_missing_def_message_quotes_the_template_line_exactly(ex):
    """说明里写出的那一行由写明的要求（spec，网页里也有）拼出，必须与模板里的那一行一字不差。"""
    result = list_checks.run_source("x = 1\n", ex.checker, ex.entry, ex.spec)
    assert result["codes"] == ["missing_def"], result
    assert f"`{_def_line(ex)}`" in result["messages"][0], result["messages"][0]


def test_missing_def_not_said_when_the_def_line_is_there():
    """def 那一行在、只是缩进多了：仍是缩进的说明。"""
    source = "import math\n\n\ndef std_ratio(h):\n    x = 1\n        return math.sqrt((h - 1) / h)\n"
    assert _run("ch06-std-ratio", source)["codes"] == ["unexpected_indent"]
    lam = "import math\n\nstd_ratio = lambda h: math.sqrt((h - 1) / h)\n"
    assert _run("ch06-std-ratio", lam)["passed"] is True


def test_missing_def_text_is_pure_python():
    """说明只由 spec 拼出，不含 Python 版本的原话（CPython 与 Pyodide 相同）。"""
    ex = get_exercise("ch06-std-ratio")
    (case,) = [src for what, _, src in importlib.import_module(
        "dsx_util.exercises.items.ch06_std_ratio.mistakes").NOVEL if "def 那一行被覆盖（第 4 行" in what]
    text = list_checks.run_source(case, ex.checker, ex.entry, ex.spec)["messages"][0]
    assert not re.search(r"[A-Za-z]{4,}", text.replace("std_ratio", "").replace("def", "")), text


# ---------------------------------------------------------------- 语法错误：先有一句中文
@pytest.mark.parametrize("ex_id,source,line", [
    # 评审 r44 的两段代码（逐字）：以前只有「第 5 行有语法错误：invalid syntax」
    ("ch06-mean-var-list", "def mean_var_list(values, unbiased=False):\n    n = len(values)\n    mu = sum(values) / n\n"
     "    ss = sum((v - mu) ** 2 for v in values)\n    retrun mu, ss / (n - 1 if unbiased else n)\n", 5),
    ("ch03-predict-shapes", 'def predict_shapes():\n    return {\n        "x.mean(dim=-1)": (2, 3),\n'
     '        "x.mean(dim=-1, keepdim=True)": (2, 3, 1),\n        "x.sum(dim=0)": (3, 4),\n'
     '        "x.var(dim=1, keepdim=True)": (2, 1, 4),\n        "x - x.mean(dim=-1, keepdim=True)": (2, 3, 4)\n'
     '        "x.sum()": ()\n    }\n', 7),
])
def test_syntax_error_has_a_chinese_lead_in(ex_id, source, line):
    result = _run(ex_id, source)
    assert result["codes"] == ["syntax_error"], result
    text = result["messages"][0]
    assert text.startswith(f"第 {line} 行有语法错误：Python 读不懂这里的写法"), text
    assert "少了逗号" in text and "Python 的报错是 SyntaxError：" in text, text
