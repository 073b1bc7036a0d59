"""评审 r45（网页练习）：只返回了一行时不再一律说「return 缩进到了循环里」；少了括号的写法说出是哪一处的括号。

- 只返回了第 1 行：学习者的 return 确实在 for/while 里时才说缩进；顶层的 `return out[0]` 原样引用，告诉他写 `return out`；
  看不到源码时两种可能都说。
- 运算顺序（/ 比 − 先算）：ch04 的 γ·x − μ/σ + β、ch06 的 √(h − 1/h)、ch13 的 γ·(x − μ/σ) + β 以前只得到症状
  （均值不为 0、方差没变……，甚至说「没有除以标准差」）；现在按值认出这种写法（任何拼法都算），引用学习者写的那一段，
  给出加了括号的写法。写对的代码（参考答案和另外两种写法，其中一种也含 `a - b / c`）仍然通过。

评审的原样代码在各练习 mistakes.py 的 NOVEL 里（说明必须有的词在 WORDS 里，tests/test_review_messages.py 逐条核对）。
"""
import pytest

from review_cases import assert_named, run_attempt as _run, says as _says

# (练习 id, NOVEL 里的说明, 应得的代码, 说明里应有的词, 说明里不许有的词)
REVIEW45 = [
    ("ch04-layer-norm-rows", "评审 r45：return out[0]（只返回了第 1 行，return 不在循环里）", ["wrong_length"],
     ["`return out[0]`", "只返回了第 1 行", "`return out`"], ["缩进"]),
    ("ch04-layer-norm-rows", "评审 r45：少了括号，γ·x − μ/σ + β", ["bracket_gamma_x"],
     ["少了括号", "`gamma[i] * row[i] - mu / std`", "γ·x − μ/√(σ² + ε)", "`gamma[i] * (row[i] - mu) / std`"], ["没有除以标准差"]),
    ("ch06-std-ratio", "评审 r45：少了括号，√(h − 1/h)", ["bracket_h_minus_1"],
     ["少了括号", "`h - 1 / h`", "H − 1/H", "`(h - 1) / h`"], ["不对："]),
    ("ch13-frozen-sigma-norm", "评审 r45：少了括号，γ·(x − μ/σ) + β", ["bracket_mu_over_sigma"],
     ["少了括号", "`row[i] - mu / sigma`", "x − μ/sigma", "`(row[i] - mu) / sigma`"], ["sigma_not_divided", "倍"]),
]


@pytest.mark.parametrize("ex_id,what,codes,words,never", REVIEW45, ids=[f"{r[0]}-{r[2][-1]}" for r in REVIEW45])
def test_review45_attempt_is_named(ex_id, what, codes, words, never):
    assert_named(ex_id, what, codes, words, never)


# ---------------------------------------------------------------- 只返回了一行：看学习者的 return 在哪里
_LN = """import math
def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    {name} = []
    for row in rows:
        H = len(row)
        mu = sum(row) / H
        var = sum((x - mu) ** 2 for x in row) / H
        std = {std}
        {name}.append([{expr} for i in range(H)])
    return {ret}
"""
_LN_OK = dict(name="out", std="math.sqrt(var + eps)", expr="gamma[i] * (row[i] - mu) / std + beta[i]", ret="out")


def _ln(**kw):
    return _LN.format(**dict(_LN_OK, **kw))


ONE_ROW = [
    ("ch04-layer-norm-rows", _ln(ret="out[0]"), "wrong_length", ["`return out[0]`", "只返回了第 1 行", "`return out`"], ["缩进"]),
    ("ch04-layer-norm-rows", _ln(name="result", ret="result[0]"), "wrong_length",
     ["`return result[0]`", "`return result`"], ["缩进"]),
    ("ch04-layer-norm-rows", _ln(ret="out[-1]"), "wrong_length",
     ["`return out[-1]`", "只返回了最后一行", "`return out`"], ["缩进", "循环变量"]),
    ("ch04-layer-norm-rows", _ln().replace("    return out", "        return out"), "wrong_rows_in_loop",
     ["return 缩进到了 for 循环里面"], []),
    ("ch07-batch-norm-lists", """import math
def batch_norm_lists(x, eps=1e-5):
    columns = []
    for col in zip(*x):
        mu = sum(col) / len(col)
        var = sum((v - mu) ** 2 for v in col) / len(col)
        columns.append([(v - mu) / math.sqrt(var + eps) for v in col])
    rows = [list(row) for row in zip(*columns)]
    return rows[0]
""", "wrong_length", ["`return rows[0]`", "只返回了第 1 行", "`return rows`"], ["缩进"]),
    ("ch00-table-rows", """def stats_rows(data):
    rows = []
    for name, values in data.items():
        rows.append([name, len(values), sum(values) / len(values)])
    return rows[:1]
""", "wrong_row_count", ["`return rows[:1]`", "`return rows`"], ["缩进"]),
    ("ch00-table-rows", """def stats_rows(data):
    rows = []
    for name, values in data.items():
        rows.append([name, len(values), sum(values) / len(values)])
        return rows
""", "wrong_row_count", ["return 缩进到了 for 循环里面"], []),
]


@pytest.mark.parametrize("ex_id,source,code,words,never", ONE_ROW, ids=[f"{r[0]}-{i}" for i, r in enumerate(ONE_ROW)])
def test_one_row_hint_follows_the_learners_return(ex_id, source, code, words, never):
    result = _run(ex_id, source)
    assert result["codes"] == [{"wrong_rows_in_loop": "wrong_length"}.get(code, code)], result["messages"]
    text = "\n".join(result["messages"])
    for word in words:
        assert word in text, (word, text)
    for word in never:
        assert word not in text, (word, text)


def test_one_row_hint_without_source_names_both_possibilities():
    """看不到源码（例如函数由 exec 从一段没有登记的字符串里生成）：不断言 return 在循环里，两种可能都说。"""
    from dsx_util.exercises import check_layer_norm_rows
    namespace = {}
    exec(compile(_ln(ret="out[0]"), "<没有登记>", "exec"), namespace)
    result = check_layer_norm_rows(namespace["layer_norm_rows"], show=False)
    text = "\n".join(result.messages)
    assert result.codes == ["wrong_length"], text
    assert "第 1 行的结果" in text and "for 循环里面" in text and "out[0]" in text and "要么" in text, text


# ---------------------------------------------------------------- 少了括号：同一种错误的别的写法
SLIPS = [
    ("ch04-layer-norm-rows", _ln(expr="gamma[i] * row[i] - mu / std + beta[i]"), ["bracket_gamma_x"],
     ["`gamma[i] * row[i] - mu / std`", "`gamma[i] * (row[i] - mu) / std`"]),
    ("ch04-layer-norm-rows", """import math
def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        m = sum(row) / len(row)
        s = math.sqrt(sum((v - m) ** 2 for v in row) / len(row) + eps)
        out.append([g * v - m / s + b for v, g, b in zip(row, gamma, beta)])
    return out
""", ["bracket_gamma_x"], ["`g * v - m / s`", "`g * (v - m) / s`"]),
    ("ch04-layer-norm-rows", _ln(expr="gamma[i] * (row[i] - mu / std) + beta[i]"), ["bracket_mu_over_std"],
     ["少了括号", "`row[i] - mu / std`", "`(row[i] - mu) / std`"]),
    ("ch04-layer-norm-rows", _ln(expr="(row[i] - mu / std) * gamma[i] + beta[i]"), ["bracket_mu_over_std"],
     ["`(row[i] - mu) / std`"]),
    ("ch04-layer-norm-rows", _ln(std="var + eps ** 0.5"), ["bracket_sqrt_eps"],
     ["少了括号", "`var + eps ** 0.5`", "`(var + eps) ** 0.5`"]),
    ("ch04-layer-norm-rows", _ln(expr="gamma[i] * (row[i] - mu) / math.sqrt(var) + eps + beta[i]"),
     ["bracket_eps_after_div"], ["少了括号", "√(σ² + ε)"]),
    ("ch06-std-ratio", "import math\ndef std_ratio(h):\n    return (h - 1 / h) ** 0.5\n", ["bracket_h_minus_1"],
     ["`h - 1 / h`", "`(h - 1) / h`"]),
    ("ch06-std-ratio", "import math\ndef std_ratio(h):\n    return math.sqrt(h-1/h)\n", ["bracket_h_minus_1"],
     ["`h-1/h`", "`(h - 1) / h`"]),
    ("ch06-std-ratio", "def std_ratio(h):\n    return h - 1 / h\n", ["bracket_h_minus_1", "missing_sqrt"],
     ["`h - 1 / h`", "开方"]),
    ("ch13-frozen-sigma-norm", """def frozen_sigma_norm(rows, sigma, gamma, beta):
    out = []
    for row in rows:
        mu = sum(row) / len(row)
        out.append([g * (v - mu / sigma) + b for v, g, b in zip(row, gamma, beta)])
    return out
""", ["bracket_mu_over_sigma"], ["`v - mu / sigma`", "`(v - mu) / sigma`"]),
    ("ch13-frozen-sigma-norm", """def frozen_sigma_norm(rows, sigma, gamma, beta):
    out = []
    for row in rows:
        mu = sum(row) / len(row)
        out.append([gamma[i] * row[i] - mu / sigma + beta[i] for i in range(len(row))])
    return out
""", ["bracket_gamma_x"], ["`gamma[i] * row[i] - mu / sigma`", "`gamma[i] * (row[i] - mu) / sigma`"]),
]


@pytest.mark.parametrize("ex_id,source,codes,words", SLIPS, ids=[f"{r[0]}-{i}" for i, r in enumerate(SLIPS)])
def test_dropped_brackets_are_named(ex_id, source, codes, words):
    _says(ex_id, source, codes, words)


# ---------------------------------------------------------------- 写对的代码仍然通过（新诊断不冤枉它们）
CORRECT = [
    ("ch04-layer-norm-rows", _ln()),
    ("ch04-layer-norm-rows", _ln(expr="(row[i] - mu) / math.sqrt(var + eps) * gamma[i] + beta[i]")),
    ("ch04-layer-norm-rows", _ln(expr="gamma[i] * (row[i] / std - mu / std) + beta[i]", std="(var + eps) ** 0.5")),
    ("ch06-std-ratio", "def std_ratio(h):\n    return ((h - 1) / h) ** 0.5\n"),
    ("ch06-std-ratio", "import math\ndef std_ratio(h):\n    return math.sqrt(1 - 1 / h)\n"),
    ("ch13-frozen-sigma-norm", """def frozen_sigma_norm(rows, sigma, gamma, beta):
    out = []
    for row in rows:
        mu = sum(row) / len(row)
        out.append([(row[i] - mu) / sigma * gamma[i] + beta[i] for i in range(len(row))])
    return out
"""),
    ("ch13-frozen-sigma-norm", """def frozen_sigma_norm(rows, sigma, gamma, beta):
    return [[g * (v / sigma - sum(r) / len(r) / sigma) + b for v, g, b in zip(r, gamma, beta)] for r in rows]
"""),
]


@pytest.mark.parametrize("ex_id,source", CORRECT + [(e, None) for e in ("ch04-layer-norm-rows", "ch06-std-ratio",
                                                                         "ch13-frozen-sigma-norm", "ch00-table-rows",
                                                                         "ch07-batch-norm-lists")],
                         ids=lambda v: v if isinstance(v, str) and len(v) < 40 else None)
def test_correct_code_still_passes(ex_id, source):
    if source is None:
        from dsx_util.exercises.catalog import get_exercise
        source = get_exercise(ex_id).solution
    result = _run(ex_id, source)
    assert result["passed"] and result["codes"] == [], result["messages"]
