"""评审 r41（手机上的学习者）找到的误导或含糊的报错说明，改好之后：说明说出真正错在哪里。

这里是别的练习（ch04、ch12、ch06）里评审逐字写下的代码：它们的报错由 feedback.explain_error 解释，
说明必须说出这些词（网页与 CPython 用同一个 feedback.py）。ch03、ch11 的尝试写在各自 mistakes.py 的 NOVEL / WORDS 里
（tests/test_review_messages.py）。另有设置单元格的一句话：缺中文字体时不自相矛盾。
"""
import pytest

from dsx_util.exercises import list_checks
from dsx_util.exercises.catalog import get_exercise
from dsx_util.exercises.feedback import explain_error

# (练习, 说明, 评审的代码, 说明里必须有的词, 说明里不能有的词)
ATTEMPTS = [
    ("ch04-layer-norm-rows", "^ 当作乘方（04-W18）", """import math


def layer_norm_rows(rows, gamma, beta, eps=1e-5):
    out = []
    for row in rows:
        h = len(row)
        mu = sum(row) / h
        var = sum((v - mu) ^ 2 for v in row) / h
        out.append([g * (v - mu) / math.sqrt(var + eps) + b for v, g, b in zip(row, gamma, beta)])
    return out
""", ["按位异或", "**", "第 9 行"], ["检查它们的类型"]),
    ("ch06-mean-var-list", "h = len 少了括号（06b-W11）", """def mean_var_list(values, unbiased=False):
    h = len
    mu = sum(values) / h
    ss = sum((v - mu) ** 2 for v in values)
    return mu, ss / (h - 1 if unbiased else h)
""", ["函数本身", "len(values)", "加上括号"], ["列表不能直接和数相乘"]),
    ("ch12-dyt-list", "α 当成列表取下标（12-W7）", """import math


def dyt_list(values, alpha, gamma, beta):
    return [gamma[i] * math.tanh(alpha[i] * values[i]) + beta[i] for i in range(len(values))]
""", ["单个数", "不是列表", "[i]"], []),
]


@pytest.mark.parametrize("ex_id,what,source,words,absent", ATTEMPTS, ids=[a[1] for a in ATTEMPTS])
def test_the_raised_error_is_explained(ex_id, what, source, words, absent):
    ex = get_exercise(ex_id)
    result = list_checks.run_source(source, ex.checker, ex.entry)
    assert result["codes"] == ["raised"], (what, result)
    text = "\n".join(result["messages"])
    for word in words:
        assert word in text, (what, word, text)
    for word in absent:
        assert word not in text, (what, word, text)


def _raise(code):
    try:
        exec(code, {})
    except Exception as exc:   # noqa: BLE001  要的就是这个异常
        return exc
    raise AssertionError(code)


@pytest.mark.parametrize("code,words,absent", [
    ("2.5 ^ 2", ["按位异或", "**"], []),
    ("[1.0] - 2.0", ["检查它们的类型"], ["按位异或", "函数本身"]),     # 别的运算符、别的类型：原来的说明
    ("1.0 + len", ["函数本身", "加上括号"], ["按位异或"]),
    ("def f(v):\n    return v\n3.0 - f", ["函数本身"], []),
    ("x = 2.0\nx[0]", ["单个数", "不是列表"], []),
    ("x = 3\nx[1]", ["单个数", "不是列表"], []),
    ("x = None\nx[0]", [], ["单个数"]),     # None 不是「一个数」：不说这句
])
def test_generic_type_error_hints(code, words, absent):
    exc = _raise(code)
    assert isinstance(exc, TypeError)
    text = explain_error(exc) or ""
    for word in words:
        assert word in text, (code, word, text)
    for word in absent:
        assert word not in text, (code, word, text)


def test_setup_cell_without_the_font_does_not_contradict_itself(tmp_path):
    """其余依赖都在、只缺中文字体时：「依赖都能导入」后面不列「（缺）」的包；字体单独说，说明它只影响图里的中文。
    对照：字体也装着时，它照常列在能导入的依赖里。"""
    from test_release import DEPS, VERSION, installed, run_setup_cell
    font = "noto-cjk-sans-otc"
    for with_font in (False, True):
        site = tmp_path / str(with_font) / "fake"
        installed(site, "dsx_util", VERSION, requires=[d + ">=0" for d in DEPS.split()])
        for dep in DEPS.split()[1:]:
            if dep != font or with_font:
                installed(site, dep, "9.0")
        done, tried = run_setup_cell(tmp_path / str(with_font), works="none")
        out = done.stdout
        assert done.returncode == 0 and tried == [], (tried, done.stderr)
        ready, _, rest = out.partition("依赖都能导入：")
        assert ready == f"环境已就绪：dsx_util {VERSION} 已经安装；", out
        listed = rest.split("；")[0]
        assert "（缺）" not in listed, out
        if with_font:
            assert f"{font} 9.0" in listed and "没装上" not in out, out
        else:
            assert font not in listed and f"图用的中文字体 {font} 没装上" in out, out
            assert "可选" in out and "显示成方框" in out, out
