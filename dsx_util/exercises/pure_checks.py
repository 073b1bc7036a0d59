"""纯 Python 练习（输入输出都是列表）的检查器：只用标准库，不导入 torch、numpy。

同一份源码用在两个地方，所以同样的代码在两处得到同样的错误代码（codes）：
- Jupyter / Colab 里：`from dsx_util.exercises import check_relu`，再 `check_relu(relu_list)`；
- 网页里：构建时把本文件原样复制到网站，浏览器里的 Python（Pyodide）载入它，用 run_source() 运行并检查。

每个检查函数找出第一个问题，说出它的名字（英文代码，见检查函数的 `.codes`）和一句中文说明。
学习者的函数每次调用最多运行 TIME_LIMIT 秒（用 sys.settrace 计时，两处都适用），超时报 timeout。
"""
import html
import math
import sys
import time

TIME_LIMIT = 2.0

GENERIC_CODES = {
    "not_done": "练习还没有完成：代码仍在抛出 NotImplementedError。",
    "raised": "你的代码抛出了异常：{error}",
    "timeout": "你的函数运行超过 {limit:g} 秒（可能是死循环），检查已中止。",
    "syntax_error": "第 {line} 行有语法错误：{error}",
    "missing_name": "代码里没有找到函数 {name}：请保留模板里的函数名。",
    "not_list": "应返回一个 Python 列表，实际返回的是 {kind}。",
    "wrong_length": "{what}应有 {expected} 个数，实际有 {actual} 个。",
    "not_number": "{what}应是浮点数，实际是 {value!r}。",
    "wrong_output": "{what}应为 {want:.6g}，你的是 {got:.6g}。",
    "check_failed": "检查你的结果时出错（{error}）：请确认返回值的类型和形状符合题目要求。",
}


# ---------------------------------------------------------------- 检查结果
class PureResult:
    """一次检查的结果：passed、codes（英文代码）、messages（中文说明，与 codes 一一对应）。"""

    def __init__(self, exercise, findings):
        self.exercise = exercise
        self.codes = [code for code, _ in findings]
        self.messages = [message for _, message in findings]
        self.passed = not findings
        self._shown_in = None

    def __bool__(self):
        return self.passed

    def text(self):
        if self.passed:
            return f"✓ {self.exercise}：全部检查通过。"
        lines = [f"✗ {self.exercise}：发现 {len(self.codes)} 个问题"]
        lines += [f"  - [{code}] {msg}" for code, msg in zip(self.codes, self.messages)]
        return "\n".join(lines)

    __repr__ = __str__ = text

    def as_dict(self):
        return {"exercise": self.exercise, "passed": self.passed, "codes": self.codes, "messages": self.messages}

    def _repr_html_(self):
        color = "#2e7d32" if self.passed else "#c62828"
        head, *items = self.text().splitlines()
        rows = "".join(f"<li>{html.escape(msg)} <code>{html.escape(code)}</code></li>"
                       for code, msg in zip(self.codes, self.messages))
        return (f'<div class="dsx-check" style="border-left:4px solid {color};padding:2px 8px">'
                f'<div style="color:{color};font-weight:bold">{html.escape(head)}</div>'
                f'{"<ul>" + rows + "</ul>" if rows else ""}</div>')

    def _ipython_display_(self):
        shell = _ipython_shell()
        if shell is None or self._shown_in != shell.execution_count:
            _display(self)


def _ipython_shell():
    if "IPython" not in sys.modules:
        return None
    from IPython import get_ipython
    return get_ipython()


def _display(result):
    """笔记本里显示 HTML（本单元格只显示一次），终端里打印文字。"""
    shell = _ipython_shell()
    if shell is None:
        print(result.text())
        return
    from IPython.display import display
    display({"text/plain": result.text(), "text/html": result._repr_html_()}, raw=True)
    result._shown_in = shell.execution_count


# ---------------------------------------------------------------- 运行学习者的代码
class _Stop(Exception):
    """检查到第一个问题就停下：args[0] 是 (代码, 说明)。"""


class _TimeUp(BaseException):
    """时间到：继承 BaseException，学习者代码里的 except Exception 接不住它。"""


def _msg(codes, code, **fields):
    return (codes.get(code) or GENERIC_CODES[code]).format(**fields)


def _learner_line(exc):
    """异常发生在学习者代码的第几行（找不到时返回 None）。"""
    tb, line = exc.__traceback__, None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename in ("<你的代码>", "<stdin>") or \
                tb.tb_frame.f_code.co_filename.startswith("<ipython-input") or "ipykernel" in tb.tb_frame.f_code.co_filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _call(fn, *args, **kwargs):
    """调用学习者的函数；未完成、报错、超时都变成 _Stop。"""
    if not callable(fn):
        raise _Stop(("raised", _msg({}, "raised", error=f"{fn!r} 不是函数，不能调用")))
    deadline = time.monotonic() + TIME_LIMIT

    def tracer(frame, event, arg):
        if time.monotonic() > deadline:
            raise _TimeUp
        return tracer
    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        return fn(*args, **kwargs)
    except _TimeUp:
        raise _Stop(("timeout", _msg({}, "timeout", limit=TIME_LIMIT))) from None
    except NotImplementedError:
        raise _Stop(("not_done", GENERIC_CODES["not_done"])) from None
    except Exception as exc:  # noqa: BLE001 -- 学习者代码的任何异常都变成一条反馈
        line = _learner_line(exc)
        where = f"（第 {line} 行）" if line else ""
        error = f"{type(exc).__name__}: {exc}".splitlines()[0][:160] + where
        raise _Stop(("raised", _msg({}, "raised", error=error))) from None
    finally:
        sys.settrace(previous)


def _checker(exercise_id, title, codes):
    """装饰器：检查函数体返回 [(代码, 说明)]（空列表表示通过）；包装后返回并显示 PureResult。"""
    def wrap(body):
        def checker(fn, show=True):
            try:
                findings = body(fn)
            except _Stop as stop:
                findings = [stop.args[0]]
            except Exception as exc:  # noqa: BLE001 -- 检查本身永远不让单元格报错
                error = f"{type(exc).__name__}: {exc}".splitlines()[0][:120]
                findings = [("check_failed", _msg({}, "check_failed", error=error))]
            result = PureResult(title, findings)
            if show:
                _display(result)
            return result
        checker.__name__ = checker.__qualname__ = body.__name__
        checker.__doc__ = body.__doc__
        checker.exercise_id, checker.exercise, checker.codes = exercise_id, title, dict(codes)
        CHECKERS[body.__name__] = checker
        return checker
    return wrap


CHECKERS = {}


# ---------------------------------------------------------------- 比较列表
def _floats(value, length, what):
    """把学习者返回的一维列表变成 float 列表；类型或长度不对时 _Stop。"""
    if not isinstance(value, list):
        raise _Stop(("not_list", _msg({}, "not_list", kind=type(value).__name__)))
    if len(value) != length:
        raise _Stop(("wrong_length", _msg({}, "wrong_length", what=what, expected=length, actual=len(value))))
    out = []
    for v in value:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise _Stop(("not_number", _msg({}, "not_number", what=what + "里的每个值", value=v)))
        out.append(float(v))
    return out


def _rows(value, shape, what="输出"):
    """二维列表 [[...], ...] -> float 列表的列表，形状 shape=(行数, 列数)。"""
    if not isinstance(value, list):
        raise _Stop(("not_list", _msg({}, "not_list", kind=type(value).__name__)))
    if len(value) != shape[0]:
        raise _Stop(("wrong_length", _msg({}, "wrong_length", what=what + "的行数", expected=shape[0],
                                          actual=len(value))))
    return [_floats(row, shape[1], f"{what}第 {i + 1} 行") for i, row in enumerate(value)]


def _flat(x):
    return [v for row in x for v in row] if x and isinstance(x[0], list) else list(x)


def _close(got, want, tol=1e-6):
    return all(math.isclose(g, w, rel_tol=tol, abs_tol=tol) for g, w in zip(_flat(got), _flat(want)))


def _judge(got, want, variants, codes, what="输出", **fields):
    """got 与 want 相同 -> []；与某个典型错误的结果相同 -> 那个错误；否则指出第一个不对的位置。"""
    if _close(got, want):
        return []
    for code, wrong in variants.items():
        if _close(got, wrong):
            return [(code, _msg(codes, code, **fields))]
    flat_got, flat_want = _flat(got), _flat(want)
    width = len(got[0]) if got and isinstance(got[0], list) else 0
    i = next(i for i, (g, w) in enumerate(zip(flat_got, flat_want))
             if not math.isclose(g, w, rel_tol=1e-6, abs_tol=1e-6))
    place = f"第 {i // width + 1} 行第 {i % width + 1} 个值" if width else f"第 {i + 1} 个值"
    return [("wrong_output", _msg({}, "wrong_output", what=f"{what}{place}", want=flat_want[i], got=flat_got[i]))]


def _mean(values):
    return sum(values) / len(values)


def _var(values, unbiased=False):
    mu = _mean(values)
    return sum((v - mu) ** 2 for v in values) / (len(values) - (1 if unbiased else 0))


def _columns(x):
    return [list(col) for col in zip(*x)]


# ---------------------------------------------------------------- 第 2 章：ReLU
_RELU_CODES = {
    "negative_kept": "输入 {value} 是负数，输出却原样保留了它：ReLU 会把负数变成 0。",
    "abs_used": "输入 {value} 变成了 {actual}：ReLU 不是取绝对值，负数应变成 0。",
    "zero_wrong": "输入 0.0 的输出应是 0.0，实际是 {actual!r}。",
    "positive_changed": "输入 {value} 是正数，输出却是 {actual!r}：ReLU 让正数原样通过。",
    "returns_int": "数值对了，但输入 {value} 的输出是整数 {actual!r}：输入是浮点数，输出也应全是浮点数（0.0 而不是 0）。",
    "modified_input": "结果对了，但你改动了传入的列表：请新建一个列表返回，不要修改输入。",
}


@_checker("ch02-relu", "用纯 Python 写 ReLU", _RELU_CODES)
def check_relu(fn):
    """检查 relu_list(values)：纯 Python 实现的 ReLU，输入浮点数列表，返回新列表。"""
    for data in ([-2.5, -1.0, 0.0, 0.5, 3.0], [1.25, -0.25, 7.0]):
        given = list(data)
        out = _call(fn, given)
        if not isinstance(out, list):
            return [("not_list", _msg({}, "not_list", kind=type(out).__name__))]
        if len(out) != len(data):
            return [("wrong_length", _msg({}, "wrong_length", what="输出", expected=len(data), actual=len(out)))]
        for v, y in zip(data, out):
            try:
                y_val = float(y)
            except (TypeError, ValueError):
                y_val = float("nan")
            want = v if v > 0 else 0.0
            if y_val == want:
                continue
            if v < 0 and y_val == v:
                code = "negative_kept"
            elif v < 0 and y_val == -v:
                code = "abs_used"
            elif v == 0:
                code = "zero_wrong"
            elif v > 0:
                code = "positive_changed"
            else:
                return [("wrong_output", f"输入 {v} 的输出 {y!r} 不对：负数应变成 0.0。")]
            return [(code, _msg(_RELU_CODES, code, value=v, actual=y))]
        for v, y in zip(data, out):
            if isinstance(y, bool) or not isinstance(y, float):
                return [("returns_int", _msg(_RELU_CODES, "returns_int", value=v, actual=y))]
        if given != data:
            return [("modified_input", _RELU_CODES["modified_input"])]
    return []


# ---------------------------------------------------------------- 第 4 章：一组行的层归一化
_LN_ROWS_CODES = {
    "unbiased_var": "你用了无偏方差（除以 H−1）：式 (4.2) 的方差是有偏估计，除以 H。",
    "eps_outside_sqrt": "ε 加在了根号外面：按式 (4.3)，ε 先加到方差上，再开平方。",
    "no_eps": "方差很小的那一行算错了：分母里少了 ε（式 (4.3)）。",
    "eps_ignored": "调用时传入 eps={eps}，你的结果却和 eps=1e-5 时一样：请用参数 eps，不要写死。",
    "wrong_axis": "你对每一列（跨行）做了归一化：层归一化对每一行的 H 个值各自归一化。",
    "no_centering": "没有减去均值：式 (4.3) 的分子是 x − μ。",
    "no_gamma_beta": "结果是标准化后的 x̂，还差式 (4.4)：乘缩放参数 γ、加平移参数 β。",
    "gamma_beta_swapped": "γ 和 β 用反了：式 (4.4) 是 γ ⊙ x̂ + β，γ 乘、β 加。",
    "shift_before_scale": "先加 β 再乘 γ 了：式 (4.4) 是先乘 γ、再加 β。",
}


def _ln_row(row, gamma, beta, eps, unbiased=False, eps_outside=False, center=True):
    mu = _mean(row) if center else 0.0
    var = _var(row, unbiased)
    denom = math.sqrt(var) + eps if eps_outside else math.sqrt(var + eps)
    return [g * (v - mu) / denom + b for v, g, b in zip(row, gamma, beta)]


@_checker("ch04-layer-norm-rows", "一组行的层归一化", _LN_ROWS_CODES)
def check_layer_norm_rows(fn):
    """检查 layer_norm_rows(rows, gamma, beta, eps)：对每一行按式 (4.1)–(4.4) 做层归一化。"""
    rows = [[1.0, 2.0, 4.0, 7.0], [0.5, -1.5, 2.5, 0.0], [3.0, 3.001, 2.999, 3.0]]
    gamma, beta = [1.0, 2.0, 0.5, -1.0], [0.0, 0.5, -1.0, 2.0]
    ones, zeros = [1.0] * 4, [0.0] * 4
    for eps in (1e-5, 1e-2):
        got = _rows(_call(fn, [list(r) for r in rows], list(gamma), list(beta), eps=eps), (3, 4))
        want = [_ln_row(r, gamma, beta, eps) for r in rows]
        by_column = _columns([_ln_row(c, ones, zeros, eps) for c in _columns(rows)])
        variants = {
            "eps_ignored": [_ln_row(r, gamma, beta, 1e-5) for r in rows],
            "unbiased_var": [_ln_row(r, gamma, beta, eps, unbiased=True) for r in rows],
            "eps_outside_sqrt": [_ln_row(r, gamma, beta, eps, eps_outside=True) for r in rows],
            "no_eps": [_ln_row(r, gamma, beta, 0.0) for r in rows],
            "wrong_axis": [[g * v + b for v, g, b in zip(row, gamma, beta)] for row in by_column],
            "no_centering": [_ln_row(r, gamma, beta, eps, center=False) for r in rows],
            "no_gamma_beta": [_ln_row(r, ones, zeros, eps) for r in rows],
            "gamma_beta_swapped": [_ln_row(r, beta, gamma, eps) for r in rows],
            "shift_before_scale": [[(v + b) * g for v, g, b in zip(_ln_row(r, ones, zeros, eps), gamma, beta)]
                                   for r in rows],
        }
        if eps == 1e-5:
            del variants["eps_ignored"]
        found = _judge(got, want, variants, _LN_ROWS_CODES, eps=eps)
        if found:
            return found
    return []


# ---------------------------------------------------------------- 第 6 章：均值与两种方差
_MEAN_VAR_CODES = {
    "not_pair": "应返回 (均值, 方差) 两个数，实际返回的是 {kind}。",
    "wrong_mean": "均值应为 {want:.6g}，你的是 {got:.6g}：均值是总和除以 H。",
    "biased_var": "unbiased=True 时要用无偏方差（贝塞尔校正，除以 H−1），你除以了 H。",
    "unbiased_var": "unbiased=False 时要用有偏方差（除以 H），你除以了 H−1。",
    "returned_std": "返回的是标准差（开了平方根），题目要的是方差。",
}


@_checker("ch06-mean-var-list", "均值、有偏方差与无偏方差", _MEAN_VAR_CODES)
def check_mean_var_list(fn):
    """检查 mean_var_list(values, unbiased=False)：返回 (均值, 方差)，unbiased 决定除以 H 还是 H−1。"""
    values = [2.0, 4.0, 4.0, 5.0, 7.0, 9.5]
    for kwargs in ({}, {"unbiased": True}, {"unbiased": False}):
        out = _call(fn, list(values), **kwargs)
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            return [("not_pair", _msg(_MEAN_VAR_CODES, "not_pair", kind=type(out).__name__))]
        mean, var = (_floats(list(out), 2, "返回值"))
        if not math.isclose(mean, _mean(values), rel_tol=1e-9):
            return [("wrong_mean", _msg(_MEAN_VAR_CODES, "wrong_mean", want=_mean(values), got=mean))]
        unbiased = kwargs.get("unbiased", False)
        want = _var(values, unbiased)
        variants = {"unbiased_var" if not unbiased else "biased_var": [_var(values, not unbiased)],
                    "returned_std": [math.sqrt(want)]}
        what = f"unbiased={unbiased} 时的方差"
        found = _judge([var], [want], variants, _MEAN_VAR_CODES, what=what)
        if found:
            return found
    return []


# ---------------------------------------------------------------- 第 7 章：批量归一化的轴
_BN_LISTS_CODES = {
    "wrong_axis": "你对每一行（每个样本）做了归一化，这是层归一化：批量归一化对每一列（每个特征）跨 B 个样本归一化。",
    "normalized_all": "你用整个批量所有元素的均值和方差做了归一化：批量归一化每个特征（每一列）各算各的。",
    "unbiased_var": "你用了无偏方差（除以 B−1）：训练时的批量归一化用有偏方差来归一化。",
    "no_centering": "没有减去均值：归一化后每一列的均值应为 0。",
}


def _standardize(values, eps, unbiased=False, center=True):
    mu = _mean(values) if center else 0.0
    return [(v - mu) / math.sqrt(_var(values, unbiased) + eps) for v in values]


@_checker("ch07-batch-norm-lists", "用嵌套列表比较两种归一化的轴", _BN_LISTS_CODES)
def check_batch_norm_lists(fn):
    """检查 batch_norm_lists(x, eps)：x 是 B 行 H 列的嵌套列表，对每一列跨行标准化（不含 γ、β）。"""
    x = [[1.0, 10.0, -3.0], [2.0, 14.0, -1.0], [4.0, 11.0, 0.5], [3.5, 20.0, -2.5]]
    eps = 1e-5
    got = _rows(_call(fn, [list(r) for r in x], eps=eps), (4, 3))
    want = _columns([_standardize(c, eps) for c in _columns(x)])
    flat = _standardize(_flat(x), eps)
    variants = {
        "wrong_axis": [_standardize(r, eps) for r in x],
        "normalized_all": [flat[i:i + 3] for i in range(0, len(flat), 3)],
        "unbiased_var": _columns([_standardize(c, eps, unbiased=True) for c in _columns(x)]),
        "no_centering": _columns([_standardize(c, eps, center=False) for c in _columns(x)]),
    }
    return _judge(got, want, variants, _BN_LISTS_CODES)


# ---------------------------------------------------------------- 第 8 章：均方根归一化
_RMS_LIST_CODES = {
    "subtracted_mean": "你先减去了均值（算的是标准差）：均方根归一化不减均值，直接对 x² 求平均。",
    "missing_sqrt": "分母是均方（x² 的平均），还差开平方。",
    "eps_outside_sqrt": "ε 加在了根号外面：ε 先加到均方上，再开平方。",
    "no_gamma": "结果没有乘缩放参数 γ。",
    "abs_mean": "你用绝对值的平均做分母：均方根是先平方、再平均、再开方。",
}


def _rms_norm(values, gamma, eps, sqrt=True, eps_outside=False):
    ms = _mean([v * v for v in values])
    denom = math.sqrt(ms) + eps if eps_outside else (math.sqrt(ms + eps) if sqrt else ms + eps)
    return [g * v / denom for v, g in zip(values, gamma)]


@_checker("ch08-rms-norm-list", "一个列表的均方根归一化", _RMS_LIST_CODES)
def check_rms_norm_list(fn):
    """检查 rms_norm_list(values, gamma, eps)：y_i = γ_i · x_i / sqrt(mean(x²) + ε)。"""
    gamma = [1.5, 0.5, -1.0, 2.0]
    for values in ([1.0, -2.0, 3.0, 0.5], [0.001, -0.002, 0.0015, 0.0005]):
        eps = 1e-6
        got = _floats(_call(fn, list(values), list(gamma), eps=eps), 4, "输出")
        want = _rms_norm(values, gamma, eps)
        variants = {
            "subtracted_mean": [g * (v - _mean(values)) / math.sqrt(_var(values) + eps) for v, g in zip(values, gamma)],
            "missing_sqrt": _rms_norm(values, gamma, eps, sqrt=False),
            "eps_outside_sqrt": _rms_norm(values, gamma, eps, eps_outside=True),
            "no_gamma": _rms_norm(values, [1.0] * 4, eps),
            "abs_mean": [g * v / (_mean([abs(u) for u in values]) + eps) for v, g in zip(values, gamma)],
        }
        found = _judge(got, want, variants, _RMS_LIST_CODES)
        if found:
            return found
    return []


# ---------------------------------------------------------------- 第 11 章：数值稳定的方差
_STABLE_VAR_CODES = {
    "single_pass": "均值约为 10⁹ 的数据算错了（应为 {want:.6g}，你的是 {got:.6g}），而均值小的数据是对的："
                   "这是单遍公式 E[x²] − (E[x])² 的相消误差，两个约 10¹⁸ 的数相减丢掉了有效数字。先求均值再求偏差平方（两遍），或用 Welford 算法。",
    "unbiased_var": "你用了无偏方差（除以 H−1）：这里要的是层归一化用的有偏方差（除以 H）。",
    "returned_std": "返回的是标准差（开了平方根），题目要的是方差。",
}


@_checker("ch11-stable-var-list", "数值稳定的方差", _STABLE_VAR_CODES)
def check_stable_var(fn):
    """检查 stable_var(values)：有偏方差，均值很大（约 10⁹）的数据也要算对。"""
    small = [1.0, 2.0, 4.0, 5.0, 8.0]
    big = [1e9 + v for v in (0.5, 1.5, 2.5, 4.0, 6.5)]
    for values in (small, big):
        (got,) = _floats([_call(fn, list(values))], 1, "返回值")
        want = _var(values)
        if math.isclose(got, want, rel_tol=1e-6):
            continue
        variants = {"unbiased_var": [_var(values, unbiased=True)], "returned_std": [math.sqrt(want)]}
        found = _judge([got], [want], variants, _STABLE_VAR_CODES, what="方差")
        if values is big and found[0][0] == "wrong_output":
            return [("single_pass", _msg(_STABLE_VAR_CODES, "single_pass", want=want, got=got))]
        return found
    return []


# ---------------------------------------------------------------- 网页里用：运行整段代码再检查
def run_source(source, checker, entry):
    """运行学习者写的整段代码 source，再用检查函数 checker（名字）检查其中的 entry；返回 dict。

    网页（Pyodide）里调用它；CPython 里调用它得到的 codes 与网页里相同（测试会比较）。
    """
    title = CHECKERS[checker].exercise
    try:
        code = compile(source, "<你的代码>", "exec")
    except SyntaxError as exc:
        return PureResult(title, [("syntax_error", _msg({}, "syntax_error", line=exc.lineno, error=exc.msg))]).as_dict()
    namespace = {"__name__": "__main__"}
    try:
        exec(code, namespace)
    except Exception as exc:  # noqa: BLE001 -- 顶层代码出错也只变成一条反馈
        line = _learner_line(exc)
        error = f"{type(exc).__name__}: {exc}".splitlines()[0][:160] + (f"（第 {line} 行）" if line else "")
        return PureResult(title, [("raised", _msg({}, "raised", error=error))]).as_dict()
    fn = namespace.get(entry)
    if not callable(fn):
        return PureResult(title, [("missing_name", _msg({}, "missing_name", name=entry))]).as_dict()
    return CHECKERS[checker](fn, show=False).as_dict()
