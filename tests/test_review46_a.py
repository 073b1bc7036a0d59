"""评审 r46（网页练习 ch08-rms-norm-list、ch06-std-ratio、ch01-count-norms）：说明说出真正错的那一步。

- ch08：ε 写死成别的常数（1e-5 抄自层归一化）以前被说成「ε 加在了根号外面」，而 ε 正在根号里：结果不随参数 eps
  变时说「请用参数 eps，不要写死」（写死成 0 与没有 ε 相同，仍说少了 ε）；「ε 加在根号外面」只在传入大的 ε 时
  结果也正是 √(mean(x²)) + ε 时才说。
- ch08：`ms + eps ** 0.5` 只给 ε 开了方，以前只得到两条症状；现在说出 ** 比 + 先算、均方也要开方。
- ch06、ch08：`x ** 1 / 2` 不是开平方（** 比 / 先算，是 x/2），说出来并给出 `** 0.5`、`** (1 / 2)`、math.sqrt。
- ch01：`2*L+1*2*E` 少了括号（* 比 + 先算），以前只给出正确的式子、没说括号。

写对的代码（参考答案和另外的写法：`** 0.5`、`** (1/2)`、math.sqrt、按关键字传 eps）仍然通过。
评审的原样代码在各练习 mistakes.py 的 NOVEL 里（说明必须有的词在 WORDS 里，tests/test_review_messages.py 逐条核对）。
"""
import pytest

from review_cases import assert_named, run_attempt as _run, says as _says

# (练习 id, NOVEL 里的说明, 应得的代码, 说明里应有的词, 说明里不许有的词)
REVIEW46 = [
    ("ch08-rms-norm-list", "评审 r46：ε 写死成 1e-5（层归一化的默认值），不用参数 eps", ["eps_ignored"],
     ["请用参数 eps", "不要写死", "写死成了 1e-5", "√(mean(x²) + 1e-5)"], ["根号外面"]),
    ("ch08-rms-norm-list", "评审 r46：只给 ε 开了方（ms + eps ** 0.5）", ["bracket_sqrt_eps"],
     ["少了括号", "** 比 + 先算", "只有 ε 开了方", "均方没有开方", "`sum(v * v for v in values) / len(values) + eps ** 0.5`",
      "`(sum(v * v for v in values) / len(values) + eps) ** 0.5`"], ["ms/(ms", "倍数会被抵消"]),
    ("ch06-std-ratio", "评审 r46：** 1 / 2 不是开平方（((h - 1) / h) ** 1 / 2）", ["pow_half"],
     ["`((h - 1) / h) ** 1 / 2`", "** 比 / 先算", "除以 2", "`** 0.5`", "`** (1 / 2)`", "math.sqrt"], ["不对："]),
    ("ch08-rms-norm-list", "** 1 / 2 不是开平方（(ms + eps) ** 1 / 2）", ["pow_half"],
     ["`(ms + eps) ** 1 / 2`", "** 比 / 先算", "除以 2", "`** 0.5`", "`** (1 / 2)`", "math.sqrt"], ["倍数会被抵消"]),
    ("ch01-count-norms", "评审 r46：少了括号，2*L+1*2*E", ["params_brackets"],
     ["少了括号", "* 比 + 先算", "`2*L+1*2*E`", "`(2*L+1)*2*E`", "2 × n_layers + 2 × emb_dim"], []),
]


@pytest.mark.parametrize("ex_id,what,codes,words,never", REVIEW46, ids=[f"{r[0]}-{r[2][-1]}" for r in REVIEW46])
def test_review46_attempt_is_named(ex_id, what, codes, words, never):
    assert_named(ex_id, what, codes, words, never)


_RMS = """import math


def rms_norm_list(values, gamma, eps=1e-6):
    ms = sum(v * v for v in values) / len(values)
    d = {d}
    return [g * v / d for v, g in zip(values, gamma)]
"""


def _rms(d):
    return _RMS.format(d=d)


# ---------------------------------------------------------------- 同一种错误的别的写法（以及不该被新诊断抢走的旧诊断）
SLIPS = [
    # ε 写死：任何常数都说「不要写死」，能认出常数时说出它
    ("ch08-rms-norm-list", _rms("math.sqrt(ms + 0.00001)"), ["eps_ignored"], ["写死成了 1e-5", "请用参数 eps"], ["根号外面"]),
    ("ch08-rms-norm-list", _rms("math.sqrt(ms + 1e-8)"), ["eps_ignored"], ["写死成了 1e-8", "请用参数 eps"], ["根号外面"]),
    ("ch08-rms-norm-list", _RMS.replace("    ms =", "    eps = 1e-5\n    ms =").format(d="math.sqrt(ms + eps)"),
     ["eps_ignored"], ["写死成了 1e-5", "请用参数 eps"], ["根号外面"]),
    ("ch08-rms-norm-list", _rms("math.sqrt(ms) + 1e-5"), ["eps_ignored"], ["请用参数 eps", "不要写死"], []),
    # 写死成 1e-6（默认值）：以前的说法不变
    ("ch08-rms-norm-list", _rms("math.sqrt(ms + 1e-6)"), ["eps_ignored"],
     ["调用时传入 eps=0.001，你的结果却和 eps=1e-6 时一样", "请用参数 eps"], []),
    # 写死成 0 与没有 ε 分不开：仍说少了 ε
    ("ch08-rms-norm-list", _rms("math.sqrt(ms + 0)"), ["no_eps"], ["少了 ε"], ["写死"]),
    ("ch08-rms-norm-list", _rms("math.sqrt(ms)"), ["no_eps"], ["少了 ε"], ["写死"]),
    # ε 真的在根号外面（传入大的 ε 时也吻合）：仍这样说
    ("ch08-rms-norm-list", _rms("math.sqrt(ms) + eps"), ["eps_outside_sqrt"], ["根号外面"], []),
    # 只给 ε 开了方：别的拼法
    ("ch08-rms-norm-list", _rms("ms + eps ** 0.5"), ["bracket_sqrt_eps"],
     ["少了括号", "`ms + eps ** 0.5`", "`(ms + eps) ** 0.5`"], []),
    ("ch08-rms-norm-list", _rms("ms + eps ** (1 / 2)"), ["bracket_sqrt_eps"], ["`(ms + eps) ** (1 / 2)`"], []),
    ("ch08-rms-norm-list", _rms("ms + math.sqrt(eps)"), ["bracket_sqrt_eps"],
     ["只有 ε 开了方", "均方没有开方", "`math.sqrt(ms + eps)`"], ["少了括号", "** 比 + 先算"]),
    # 没开方的其他写法：ε 照常加上时仍是 missing_sqrt
    ("ch08-rms-norm-list", _rms("ms + eps"), ["missing_sqrt"], ["还差开平方"], []),
    ("ch08-rms-norm-list", _rms("ms"), ["missing_sqrt"], ["还差开平方"], ["写死"]),
    # ** 1 / 2
    ("ch08-rms-norm-list", _rms("(ms + eps) ** 1/2"), ["pow_half"], ["`(ms + eps) ** 1/2`", "** 比 / 先算"], []),
    ("ch06-std-ratio", "def std_ratio(h):\n    return ((h-1)/h)**1/2\n", ["pow_half"], ["`((h-1)/h)**1/2`", "`** 0.5`"], []),
    ("ch06-std-ratio", "def std_ratio(h):\n    return (h - 1) / h ** 1 / 2\n", ["pow_half"],
     ["`(h - 1) / h ** 1 / 2`", "** 比 / 先算", "`((h - 1) / h) ** 0.5`"], []),
    ("ch06-std-ratio", "def std_ratio(h):\n    r = (h - 1) / h\n    return r ** 1 / 2\n", ["pow_half"],
     ["`r ** 1 / 2`", "`r ** 0.5`"], []),
    # 旧的括号代码不受影响
    ("ch06-std-ratio", "import math\ndef std_ratio(h):\n    return math.sqrt(h - 1 / h)\n", ["bracket_h_minus_1"],
     ["`h - 1 / h`"], []),
    ("ch06-std-ratio", "def std_ratio(h):\n    return (h - 1) / h ** 0.5\n", ["sqrt_denominator_only"], ["只有分母开了方"], []),
    # ch01：少了括号的别的拼法
    ("ch01-count-norms", 'def count_norms(cfg):\n    n = 2 * cfg["n_layers"] + 1\n'
                         '    return n, 2 * cfg["n_layers"] + 1 * 2 * cfg["emb_dim"]\n', ["params_brackets"],
     ["少了括号", '`2 * cfg["n_layers"] + 1 * 2 * cfg["emb_dim"]`', '`(2 * cfg["n_layers"] + 1) * 2 * cfg["emb_dim"]`'], []),
    ("ch01-count-norms", 'def count_norms(cfg):\n    L, E = cfg["n_layers"], cfg["emb_dim"]\n    return 2 * L + 1, 2 * L + 1 * E * 2\n',
     ["params_brackets"], ["少了括号", "`2 * L + 1 * E * 2`", "`(2 * L + 1) * E * 2`"], []),
]


@pytest.mark.parametrize("ex_id,source,codes,words,never", SLIPS, ids=[f"{r[0]}-{i}" for i, r in enumerate(SLIPS)])
def test_other_spellings_are_named(ex_id, source, codes, words, never):
    _says(ex_id, source, codes, words, never)


# ---------------------------------------------------------------- 写对的代码仍然通过（新诊断不冤枉它们）
CORRECT = [
    ("ch08-rms-norm-list", _rms("(ms + eps) ** 0.5")),
    ("ch08-rms-norm-list", _rms("(ms + eps) ** (1 / 2)")),
    ("ch08-rms-norm-list", """import math


def _rms(values, eps):
    return math.sqrt(sum(v ** 2 for v in values) / len(values) + eps)


def rms_norm_list(values, gamma, eps=1e-6):
    r = _rms(values, eps=eps)
    return [g * v / r for v, g in zip(values, gamma)]
"""),
    ("ch06-std-ratio", "def std_ratio(h):\n    return ((h - 1) / h) ** 0.5\n"),
    ("ch06-std-ratio", "def std_ratio(h):\n    return ((h - 1) / h) ** (1 / 2)\n"),
    ("ch06-std-ratio", "import math\ndef std_ratio(h):\n    return math.sqrt(1 - 1 / h)\n"),
    ("ch01-count-norms", 'def count_norms(cfg):\n    L, E = cfg["n_layers"], cfg["emb_dim"]\n    return 2*L+1, (2*L+1)*2*E\n'),
    ("ch01-count-norms", 'def count_norms(cfg):\n    L, E = cfg["n_layers"], cfg["emb_dim"]\n    return 2 * L + 1, 2 * (2 * L + 1) * E\n'),
]


@pytest.mark.parametrize("ex_id,source", CORRECT + [(e, None) for e in ("ch08-rms-norm-list", "ch06-std-ratio",
                                                                         "ch01-count-norms")],
                         ids=lambda v: v if isinstance(v, str) and len(v) < 40 else None)
def test_correct_code_still_passes(ex_id, source):
    if source is None:
        from dsx_util.exercises.catalog import get_exercise
        source = get_exercise(ex_id).solution
    result = _run(ex_id, source)
    assert result["passed"] and result["codes"] == [], result["messages"]


def test_ch04_root_of_eps_only_keeps_the_exponent_brackets_in_the_fix():
    """`var + eps ** (1 / 2)`：建议的写法保留指数的括号（`(var + eps) ** (1 / 2)`），不是又一个 `** 1 / 2`；`** 0.5` 不加括号。"""
    template = """import math
def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        mu = sum(row) / len(row)
        var = sum((x - mu) ** 2 for x in row) / len(row)
        out.append([gamma[i] * (row[i] - mu) / (var + eps ** {p}) + beta[i] for i in range(len(row))])
    return out
"""
    for power, fix in (("(1 / 2)", "`(var + eps) ** (1 / 2)`"), ("0.5", "`(var + eps) ** 0.5`")):
        result = _run("ch04-layer-norm-rows", template.format(p=power))
        assert result["codes"] == ["bracket_sqrt_eps"], result["messages"]
        assert fix in result["messages"][0], result["messages"]
