"""纯 Python 练习（输入输出都是列表）的检查器：只用标准库，不导入 torch、numpy。

同一份源码用在两个地方，所以同样的代码在两处得到同样的错误代码（codes）和说明：
- Jupyter / Colab 里：`from dsx_util.exercises import check_relu`，再 `check_relu(relu_list)`；
- 网页里：构建时把本文件和 core.py 复制到网站，浏览器里的 Python（Pyodide）把它们当作一个包载入，
  用 run_source() 运行并检查。

每个检查按三层找问题：
1. 题目写明的要求（参数名与默认值、只用纯 Python、不用现成函数、不修改输入）；
2. 与典型错误（以及两种典型错误同时出现）的结果比较，说出是哪一种；
3. 都不吻合时逐步诊断：用每个正确实现都有的性质（均值为 0、方差约为 1、平移/缩放不变、逐特征乘 γ、
   各行互不影响……）在几组探测输入上说出错在哪一步，带上数字。
学习者的函数每次调用最多运行 TIME_LIMIT 秒（用 sys.settrace 计时，两处都适用），超时报 timeout。
"""
import itertools
import math

from .core import CheckResult, MESSAGES, NOT_DONE, error_text, finish, fmt_num, fmt_pair, learner_line, message
from .core import requirement_findings, run_limited

TIME_LIMIT = 2.0
GENERIC_CODES = MESSAGES   # 旧名字


# ---------------------------------------------------------------- 运行学习者的代码
class _Stop(Exception):
    """检查到无法继续的问题就停下：args[0] 是 findings 列表。"""


def _call(fn, *args, **kwargs):
    """调用学习者的函数（core.run_limited，与 Jupyter 里的检查器同一个办法）；未完成、报错、超时都变成 _Stop。"""
    if not callable(fn):
        raise _Stop([("raised", message(None, "raised", error=f"{fn!r} 不是函数，不能调用"))])
    run = run_limited(fn, args, kwargs, timeout=TIME_LIMIT)
    exc = run["exception"]
    if run["timed_out"]:
        raise _Stop([("timeout", message(None, "timeout", limit=TIME_LIMIT))])
    if isinstance(exc, NotImplementedError):
        raise _Stop([(NOT_DONE, MESSAGES[NOT_DONE])])
    if exc is not None:
        line = learner_line(exc)
        raise _Stop([("raised", message(None, "raised", error=error_text(exc, f"（第 {line} 行）" if line else "")))])
    return run["value"]


CHECKERS = {}
SPECS = {}   # 练习 id -> 题目写明的要求（catalog.Exercise.spec）；网页里由 run_source 传入


def _spec(exercise_id):
    if exercise_id not in SPECS:
        try:   # CPython 里从练习目录读出；网页里没有目录，由 run_source(spec=...) 给出
            from .catalog import get_exercise
            SPECS[exercise_id] = get_exercise(exercise_id).spec
        except ImportError:
            return None
    return SPECS[exercise_id]


class _Checker:
    """一个纯 Python 检查器：先查题目写明的要求，再运行检查函数体，显示并返回 CheckResult。

    标题与要求都来自练习文件夹（CPython 里读目录，网页里由 run_source 的 spec 给出），这里不再写一遍。
    """

    def __init__(self, body, exercise_id, codes):
        self.body, self.exercise_id, self.codes = body, exercise_id, dict(codes)
        self.__name__ = self.__qualname__ = body.__name__
        self.__doc__ = body.__doc__

    @property
    def exercise(self):
        spec = _spec(self.exercise_id)
        return spec.get("title", self.exercise_id) if spec else self.exercise_id

    def __call__(self, fn, show=True):
        findings = []
        try:
            spec = _spec(self.exercise_id)
            findings = requirement_findings(fn, spec, spec["entry"]) if spec and callable(fn) else []
            if not any(code == "wrong_signature" for code, _ in findings):
                findings += self.body(fn)
        except _Stop as stop:
            findings += stop.args[0]
        except Exception as exc:  # noqa: BLE001 -- 检查本身永远不让单元格报错
            error = f"{type(exc).__name__}: {exc}".splitlines()[0][:120]
            findings = [("check_failed", message(None, "check_failed", error=error))]
        if any(code == NOT_DONE for code, _ in findings):
            findings = [(NOT_DONE, MESSAGES[NOT_DONE])]
        return finish(self.exercise, findings, show=show)


def _checker(exercise_id, codes):
    """装饰器：把检查函数体（返回 findings，空列表表示通过）变成 _Checker 并登记到 CHECKERS。"""
    def wrap(body):
        checker = _Checker(body, exercise_id, codes)
        CHECKERS[body.__name__] = checker
        return checker
    return wrap


# ---------------------------------------------------------------- 比较列表
def _floats(value, length, what):
    """把学习者返回的一维列表变成 float 列表；类型或长度不对时 _Stop。"""
    if not isinstance(value, list):
        raise _Stop([("not_list", message(None, "not_list", kind=type(value).__name__))])
    if len(value) != length:
        raise _Stop([("wrong_length", message(None, "wrong_length", what=what, expected=length, actual=len(value)))])
    out = []
    for v in value:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise _Stop([("not_number", message(None, "not_number", what=what + "里的每个值", value=v))])
        out.append(float(v))
    return out


def _rows(value, shape, what="输出"):
    """二维列表 [[...], ...] -> float 列表的列表，形状 shape=(行数, 列数)。"""
    if not isinstance(value, list):
        raise _Stop([("not_list", message(None, "not_list", kind=type(value).__name__))])
    if len(value) != shape[0]:
        flat = len(value) == shape[0] * shape[1] and all(not isinstance(v, list) for v in value)
        hint = "：看起来你把所有行拼成了一个扁平的列表，请每行单独成一个列表" if flat else ""
        raise _Stop([("wrong_length", message(None, "wrong_rows", expected=shape[0], actual=len(value), hint=hint))])
    return [_floats(row, shape[1], f"{what}第 {i + 1} 行") for i, row in enumerate(value)]


def _flat(x):
    return [v for row in x for v in row] if x and isinstance(x[0], list) else list(x)


def _close(got, want, tol=1e-6):
    if want is None:
        return False
    a, b = _flat(got), _flat(want)
    return len(a) == len(b) and all(math.isclose(g, w, rel_tol=tol, abs_tol=tol) for g, w in zip(a, b))


def _first_difference(got, want, what="输出"):
    """第一个不对的位置：一条 wrong_output，两个数写到看得出不同。"""
    flat_got, flat_want = _flat(got), _flat(want)
    width = len(got[0]) if got and isinstance(got[0], list) else 0
    i = next(i for i, (g, w) in enumerate(zip(flat_got, flat_want))
             if not math.isclose(g, w, rel_tol=1e-6, abs_tol=1e-6))
    place = f"第 {i // width + 1} 行第 {i % width + 1} 个值" if width else (f"第 {i + 1} 个值" if len(flat_want) > 1 else "")
    want_s, got_s = fmt_pair(flat_want[i], flat_got[i])
    return ("wrong_output", message(None, "wrong_output", what=f"{what}{place}", want=want_s, got=got_s))


def _judge(got, want, variants, codes, fields=None):
    """got 与 want 相同 -> []；与某个典型错误（或两个典型错误的组合）的结果相同 -> 那些错误；否则 None。

    variants：{代码元组: 结果}，代码元组有一个或两个代码（两个表示同时犯了两种错误）。
    """
    if _close(got, want):
        return []
    for key in sorted(variants, key=len):
        if _close(got, variants[key]):
            found = [(code, message(codes, code, **(fields or {}))) for code in key]
            if len(key) > 1:
                found[0] = (found[0][0], "同时有两处错误。" + found[0][1])
            return found
    return None


def _combine(flags, default, model, names):
    """flags：{旗标: [取值, ...]}（第一个取值是正确的）。返回 {代码元组: 结果}：一处或两处不对的所有组合。

    names(旗标, 取值) 给出这个取值对应的错误代码。model(**取值) 算出结果（出错时返回 None，不参与比较）。
    """
    keys = list(flags)
    out = {}
    for k in (1, 2):
        for chosen in itertools.combinations(keys, k):
            for values in itertools.product(*[flags[c][1:] for c in chosen]):
                setting = dict(default, **dict(zip(chosen, values)))
                codes = tuple(names(c, v) for c, v in zip(chosen, values))
                if len(set(codes)) < len(codes) or codes in out:
                    continue
                try:
                    out[codes] = model(**setting)
                except (ZeroDivisionError, ValueError, OverflowError):
                    continue
    return out


def _unchanged(before, after, what, new="列表"):
    if before != after:
        return [("modified_input", message(None, "modified_input", what=what, new=new))]
    return []


def _copy(x):
    return [list(r) for r in x] if x and isinstance(x[0], list) else list(x)


def _mean(values):
    return sum(values) / len(values)


def _var(values, unbiased=False):
    mu = _mean(values)
    return sum((v - mu) ** 2 for v in values) / (len(values) - (1 if unbiased else 0))


def _columns(x):
    return [list(col) for col in zip(*x)]


def _max_abs(values):
    return max(abs(v) for v in values)


def _worst(values):
    """绝对值最大的位置与值。"""
    i = max(range(len(values)), key=lambda k: abs(values[k]) if not math.isnan(values[k]) else math.inf)
    return i, values[i]


# ---------------------------------------------------------------- 第 2 章：ReLU
_RELU_CODES = {
    "negative_kept": "输入 {value} 是负数，输出却原样保留了它：ReLU 会把负数变成 0。",
    "abs_used": "输入 {value} 变成了 {actual}：ReLU 不是取绝对值，负数应变成 0。",
    "zero_wrong": "输入 0.0 的输出应是 0.0，实际是 {actual!r}。",
    "positive_changed": "输入 {value} 是正数，输出却是 {actual!r}：ReLU 让正数原样通过。",
    "returns_int": "数值对了，但输入 {value} 的输出是整数 {actual!r}：输入是浮点数，输出也应全是浮点数（0.0 而不是 0）。",
    "modified_input": "结果对了，但你改动了传入的列表：请新建一个列表返回，不要修改输入。",
    "negative_scaled": "负数没有变成 0，而是乘了一个系数（输入 {value} 变成了 {actual}，约 {ratio} 倍）：这是 Leaky ReLU；"
                       "ReLU 把负数一律变成 0。",
    "order_changed": "输出里的数都对，顺序却变了（第 {index} 个应为 {want}，你的是 {got}）：第 i 个输出对应第 i 个输入，"
                     "不要排序或重排。",
}


@_checker("ch02-relu", _RELU_CODES)
def check_relu(fn):
    """检查 relu_list(values)：纯 Python 实现的 ReLU，输入浮点数列表，返回新列表。"""
    for data in ([-2.5, -1.0, 0.0, 0.5, 3.0], [1.25, -0.25, 7.0]):
        given = list(data)
        out = _call(fn, given)
        if not isinstance(out, list):
            return [("not_list", message(None, "not_list", kind=type(out).__name__))]
        if len(out) != len(data):
            return [("wrong_length", message(None, "wrong_length", what="输出", expected=len(data), actual=len(out)))]
        want = [v if v > 0 else 0.0 for v in data]
        vals = []
        for y in out:
            try:
                vals.append(float(y))
            except (TypeError, ValueError):
                return [("not_number", message(None, "not_number", what="输出里的每个值", value=y))]
        if vals != want and sorted(vals) == sorted(want):
            i = next(k for k, (a, b) in enumerate(zip(vals, want)) if a != b)
            w, g = fmt_pair(want[i], vals[i])
            return [("order_changed", message(_RELU_CODES, "order_changed", index=i + 1, want=w, got=g))]
        findings = []
        for v, y, y_val in zip(data, out, vals):
            target = v if v > 0 else 0.0
            if y_val == target:
                continue
            if v < 0 and y_val == v:
                code = "negative_kept"
            elif v < 0 and y_val == -v:
                code = "abs_used"
            elif v < 0 and y_val < 0:
                code = "negative_scaled"
            elif v == 0:
                code = "zero_wrong"
            elif v > 0:
                code = "positive_changed"
            else:
                w, g = fmt_pair(target, y_val)
                code, text = "wrong_output", message(None, "wrong_output", what=f"输入 {v} 的输出", want=w, got=g)
                findings.append((code, text))
                continue
            findings.append((code, message(_RELU_CODES, code, value=v, actual=y, ratio=fmt_num(y_val / v, 3) if v else "")))
        if findings:
            return findings
        for v, y in zip(data, out):
            if isinstance(y, bool) or not isinstance(y, float):
                return [("returns_int", message(_RELU_CODES, "returns_int", value=v, actual=y))]
        if given != data:
            return [("modified_input", _RELU_CODES["modified_input"])]
    return []


# ---------------------------------------------------------------- 共用：层归一化一类的逐步诊断
_STEP_CODES = {
    "row_mean_not_zero": "γ = 1、β = 0 时，你的输出第 {row} 行的均值是 {got}，应为 0：第三步（式 (4.3)）要先减去这一行的均值 μ。",
    "row_variance_not_one": "γ = 1、β = 0 时，你的输出第 {row} 行的方差是 {got}，应为 σ²/(σ² + ε) ≈ {want}{hint}",
    "not_shift_invariant": "给每一行加上同一个常数（第 1 行加 3）后，你的输出变了，最大变化 {diff}；应该不变："
                           "减去这一行的均值后，常数会被抵消。",
    "not_scale_invariant": "把每一行乘以 4 后，你的输出变了，最大变化 {diff}；除了 ε 的微小影响，应该不变："
                           "除以这一行的标准差后，倍数会被抵消。",
    "gamma_not_featurewise": "把 γ 设成各不相同的值（β = 0）后，第 {pos} 个特征的输出应是 γ = 1 时的 γ[{j}] = {want} 倍，"
                             "你的是 {got} 倍：第四步（式 (4.4)）是 γ 逐特征乘 x̂。",
    "beta_not_featurewise": "γ 不变、把 β 设成各不相同的值后，第 {pos} 个特征的输出应整体加上 β[{j}] = {want}，你的加了 {got}"
                            "{hint}（式 (4.4)：y = γ ⊙ x̂ + β）。",
    "rows_mixed": "只改动第 1 行的输入后，别的行的输出也变了，最大变化 {diff}：每一行只能用它自己的均值和方差。",
}


def _ln_steps(run, h, eps, codes, unit="行", eps_name="σ²"):
    """run(rows, gamma, beta) -> 输出（二维列表或 None）。返回每条不满足的性质一条 finding。

    层归一化（对每行）的性质；批量归一化把转置后的输入交给 run，同样适用（unit="列"）。
    """
    base = [[(k * 7 % 5) - 2.0 + 0.3 * k for k in range(h)], [3.0 * ((k * 3) % 4) + 10.0 for k in range(h)],
            [0.5 * math.sin(k + 1.0) - 4.0 for k in range(h)]]
    ones, zeros = [1.0] * h, [0.0] * h
    gamma = [0.5 + 0.5 * k for k in range(h)]
    beta = [-1.0 + 0.75 * k for k in range(h)]
    findings = []
    y = run(base, ones, zeros)
    if y is None:
        return findings
    means = [_mean(r) for r in y]
    i, m = _worst(means)
    if abs(m) > 1e-3:
        findings.append(("row_mean_not_zero", message(codes, "row_mean_not_zero", row=i + 1, got=fmt_num(m))))
    var_x = [_var(r) for r in base]
    want_var = [v / (v + eps) for v in var_x]
    var_y = [_var(r) for r in y]
    ratios = [vy / wv - 1 for vy, wv in zip(var_y, want_var)]
    i, _ = _worst(ratios)
    if abs(ratios[i]) > 1e-2:
        hint = f"：要除以这一{unit}的 √(σ² + ε)（式 (4.3)）。"
        if all(abs(vy * (v + eps) - wv) <= 1e-2 * wv for vy, v, wv in zip(var_y, var_x, want_var)):
            hint = "：像是除以了方差 σ² + ε，而不是它的平方根 √(σ² + ε)（式 (4.3)）。"
        elif all(abs(vy - v) <= 1e-2 * v for vy, v in zip(var_y, var_x)):
            hint = "：输出的方差与输入相同，像是没有除以标准差 √(σ² + ε)（式 (4.3)）。"
        elif all(abs(vy / wv - var_y[0] / want_var[0]) < 1e-3 for vy, wv in zip(var_y, want_var)):
            k = var_y[0] / want_var[0]
            hint = f"：每{unit}都差同一个倍数 {fmt_num(k)}"
            if abs(k - h / (h - 1)) < 1e-3:
                hint += " = H/(H−1)，方差用了无偏估计（除以 H−1）"
            elif abs(k - (h - 1) / h) < 1e-3:
                hint += " = (H−1)/H，除以的方差算大了（分母用了 H−1）"
            hint += "（式 (4.2)、(4.3)）。"
        findings.append(("row_variance_not_one", message(codes, "row_variance_not_one", row=i + 1, got=fmt_num(var_y[i]),
                                                          want=fmt_num(want_var[i]), hint=hint)))
    shifted = run([[v + c for v in r] for r, c in zip(base, (3.0, -2.0, 5.0))], ones, zeros)
    if shifted is not None:
        d = _max_abs([a - b for a, b in zip(_flat(shifted), _flat(y))])
        if d > 1e-3:
            findings.append(("not_shift_invariant", message(codes, "not_shift_invariant", diff=fmt_num(d))))
    scaled = run([[v * 4.0 for v in r] for r in base], ones, zeros)
    if scaled is not None:
        d = _max_abs([a - b for a, b in zip(_flat(scaled), _flat(y))])
        if d > 2e-3:
            findings.append(("not_scale_invariant", message(codes, "not_scale_invariant", diff=fmt_num(d))))
    y_g = run(base, gamma, zeros)
    if y_g is not None:
        bad = [(j, sum(a[j] * b[j] for a, b in zip(y_g, y)) / (sum(b[j] ** 2 for b in y) or 1.0)) for j in range(h)]
        bad = [(j, r) for j, r in bad if abs(r - gamma[j]) > 1e-3 * (1 + abs(gamma[j]))]
        if bad:
            j, r = bad[0]
            findings.append(("gamma_not_featurewise", message(codes, "gamma_not_featurewise", j=j, pos=j + 1, want=fmt_num(gamma[j]),
                                                               got=fmt_num(r))))
        y_gb = run(base, gamma, beta)
        if y_gb is not None:
            added = [_mean([a[j] - b[j] for a, b in zip(y_gb, y_g)]) for j in range(h)]
            bad = [j for j in range(h) if abs(added[j] - beta[j]) > 1e-3 * (1 + abs(beta[j]))]
            if bad:
                j = bad[0]
                hint = ""
                if abs(added[j] - gamma[j] * beta[j]) < 1e-3 * (1 + abs(added[j])):
                    hint = f"，恰好是 γ[{j}]·β[{j}]：β 被 γ 乘到了，应在乘完 γ 之后再加"
                findings.append(("beta_not_featurewise", message(codes, "beta_not_featurewise", j=j, pos=j + 1, want=fmt_num(beta[j]),
                                                                  got=fmt_num(added[j]), hint=hint)))
    changed = [list(r) for r in base]
    changed[0] = [v * 3.0 + 7.0 for v in changed[0]]
    y_c = run(changed, ones, zeros)
    if y_c is not None:
        d = _max_abs([a - b for ra, rb in zip(y_c[1:], y[1:]) for a, b in zip(ra, rb)])
        if d > 1e-6:
            findings.append(("rows_mixed", message(codes, "rows_mixed", diff=fmt_num(d))))
    return findings


def _quiet(fn, shape):
    """逐步诊断用：调用学习者函数，结果形状不对或报错时返回 None（这条性质就不查）。"""
    def run(*args, **kwargs):
        try:
            return _rows(_call(fn, *args, **kwargs), shape)
        except _Stop:
            return None
    return run


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
    "no_sqrt": "分母是方差 σ² + ε，没有开平方：式 (4.3) 除以的是标准差 √(σ² + ε)。",
    **_STEP_CODES,
}


def _ln_model(rows, gamma, beta, eps, unbiased=False, eps_kind="inside", center=True, axis="row", affine="ok",
              sqrt=True):
    def norm(vals):
        mu = _mean(vals) if center else 0.0
        var = _var(vals, unbiased)
        e = {"inside": eps, "outside": eps, "missing": 0.0, "fixed": 1e-5}[eps_kind]
        denom = math.sqrt(var) + e if eps_kind == "outside" else (math.sqrt(var + e) if sqrt else var + e)
        return [(v - mu) / denom for v in vals]
    xh = _columns([norm(c) for c in _columns(rows)]) if axis == "col" else [norm(r) for r in rows]
    return [{"ok": [g * v + b for v, g, b in zip(r, gamma, beta)],
             "none": list(r),
             "swapped": [b * v + g for v, g, b in zip(r, gamma, beta)],
             "shift_first": [(v + b) * g for v, g, b in zip(r, gamma, beta)]}[affine] for r in xh]


_LN_FLAG_CODES = {("unbiased", True): "unbiased_var", ("eps_kind", "outside"): "eps_outside_sqrt",
                  ("eps_kind", "missing"): "no_eps", ("eps_kind", "fixed"): "eps_ignored", ("center", False): "no_centering",
                  ("axis", "col"): "wrong_axis", ("affine", "none"): "no_gamma_beta",
                  ("affine", "swapped"): "gamma_beta_swapped", ("affine", "shift_first"): "shift_before_scale",
                  ("sqrt", False): "no_sqrt"}


@_checker("ch04-layer-norm-rows", _LN_ROWS_CODES)
def check_layer_norm_rows(fn):
    """检查 layer_norm_rows(rows, gamma, beta, eps)：对每一行按式 (4.1)–(4.4) 做层归一化。"""
    rows = [[1.0, 2.0, 4.0, 7.0], [0.5, -1.5, 2.5, 0.0], [3.0, 3.001, 2.999, 3.0]]
    gamma, beta = [1.0, 2.0, 0.5, -1.0], [0.0, 0.5, -1.0, 2.0]
    for eps in (1e-5, 1e-2):
        given = (_copy(rows), list(gamma), list(beta))
        got = _rows(_call(fn, *given, eps=eps), (3, 4))
        changed = _unchanged((rows, gamma, beta), given, "列表（rows、gamma 或 beta）", "列表")
        want = _ln_model(rows, gamma, beta, eps)
        flags = {"unbiased": [False, True], "eps_kind": ["inside", "outside", "missing"] + (["fixed"] if eps != 1e-5 else []),
                 "center": [True, False], "axis": ["row", "col"], "affine": ["ok", "none", "swapped", "shift_first"],
                 "sqrt": [True, False]}
        default = {k: v[0] for k, v in flags.items()}
        variants = _combine(flags, default, lambda **s: _ln_model(rows, gamma, beta, eps, **s),
                            lambda k, v: _LN_FLAG_CODES[(k, v)])
        found = _judge(got, want, variants, _LN_ROWS_CODES, {"eps": eps})
        if found is None:
            steps = _ln_steps(lambda r, g, b: _quiet(fn, (3, 4))(r, g, b, eps=eps), 4, eps, _LN_ROWS_CODES)
            found = steps or [_first_difference(got, want)]
        if found or changed:
            return changed + found
    return []


# ---------------------------------------------------------------- 第 6 章：均值与两种方差
_MEAN_OF_CONSTANT = "{h} 个数都是 2.0 时，均值应为 2，你的是 {got}{hint}。"   # wrong_mean 的逐步诊断说明
_MEAN_VAR_CODES = {
    "not_pair": "应返回 (均值, 方差) 两个数，实际返回的是 {kind}。",
    "swapped_order": "均值和方差的位置反了：应返回 (均值, 方差)，你返回的是 (方差, 均值)。两个数本身都对。",
    "wrong_mean": "均值应为 {want}，你的是 {got}：均值是总和除以 H。",
    "unbiased_var": "unbiased=False 时要用有偏方差（除以 H），你除以了 H−1。",
    "returned_std": "返回的是标准差（开了平方根），题目要的是方差。",
    "unbiased_ignored": "传 unbiased=True 和 unbiased=False 得到的方差一样：请按参数 unbiased 选择除以 H−1 还是 H。",
    "variance_of_constant_not_zero": "{h} 个数都是 2.0 时，方差应为 0，你的是 {got}{hint}。",
    "variance_not_shift_invariant": "每个数都加上 3 之后，方差从 {before} 变成了 {after}，应该不变：方差只看各个数离均值有多远"
                                    "（先求均值，再求偏差的平方）。",
    "variance_not_quadratic": "每个数都乘以 3 之后，方差应变为 3² = 9 倍，你的变为 {ratio} 倍{hint}。",
    "variance_wrong_divisor": "方差的分子（偏差平方和）对了，分母不对：unbiased={unbiased} 时应除以 {want}，你的相当于除以 {got}。",
}


def _mv_steps(fn, unbiased):
    """mean_var_list 的逐步诊断：常数列表、平移、缩放。"""
    findings = []
    kwargs = {"unbiased": unbiased}
    values = [2.0, 4.0, 4.0, 5.0, 7.0, 9.5]
    h = len(values)

    def pair(v):
        try:
            out = _call(fn, list(v), **kwargs)
            return [float(out[0]), float(out[1])]
        except (_Stop, TypeError, ValueError, IndexError):
            return None
    const = pair([2.0] * h)
    base, shifted, tripled = pair(values), pair([v + 3.0 for v in values]), pair([v * 3.0 for v in values])
    if const is not None and abs(const[0] - 2.0) > 1e-9:
        hint = f"，正好是 H = {h} 倍：求和之后还要除以 H" if abs(const[0] - 2.0 * h) < 1e-9 else ""
        if abs(const[0] - 2.0 * h / (h - 1)) < 1e-9:
            hint = "：均值要除以 H，不是 H−1"
        findings.append(("wrong_mean", _MEAN_OF_CONSTANT.format(h=h, got=fmt_num(const[0]), hint=hint)))
    if const is not None and abs(const[1]) > 1e-9:
        hint = "：像是没有先减去均值（2² = 4）" if abs(const[1] - 4.0) < 1e-9 else ""
        findings.append(("variance_of_constant_not_zero", message(_MEAN_VAR_CODES, "variance_of_constant_not_zero", h=h,
                                                                  got=fmt_num(const[1]), hint=hint)))
    if base is not None and shifted is not None and abs(shifted[1] - base[1]) > 1e-9 * (1 + abs(base[1])):
        findings.append(("variance_not_shift_invariant", message(_MEAN_VAR_CODES, "variance_not_shift_invariant",
                                                                 before=fmt_num(base[1]), after=fmt_num(shifted[1]))))
    if base is not None and tripled is not None and base[1] != 0 and \
            abs(tripled[1] / base[1] - 9.0) > 1e-6:
        r = tripled[1] / base[1]
        hint = "：像是没有平方（例如用了绝对值）" if abs(r - 3.0) < 1e-6 else ""
        findings.append(("variance_not_quadratic", message(_MEAN_VAR_CODES, "variance_not_quadratic", ratio=fmt_num(r),
                                                           hint=hint)))
    if base is not None and not findings:
        ss = sum((v - _mean(values)) ** 2 for v in values)
        if base[1] > 0:
            div = ss / base[1]
            findings.append(("variance_wrong_divisor", message(_MEAN_VAR_CODES, "variance_wrong_divisor", unbiased=unbiased,
                                                               want="H−1 = 5" if unbiased else "H = 6",
                                                               got=fmt_num(div))))
    return findings


@_checker("ch06-mean-var-list", _MEAN_VAR_CODES)
def check_mean_var_list(fn):
    """检查 mean_var_list(values, unbiased=False)：返回 (均值, 方差)，unbiased 决定除以 H 还是 H−1。"""
    values = [2.0, 4.0, 4.0, 5.0, 7.0, 9.5]
    results = {}
    for kwargs in ({"unbiased": False}, {"unbiased": True}, {}):
        given = list(values)
        out = _call(fn, given, **kwargs)
        changed = _unchanged(values, given, "列表")
        if changed:
            return changed
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            return [("not_pair", message(_MEAN_VAR_CODES, "not_pair", kind=type(out).__name__))]
        mean, var = _floats(list(out), 2, "返回值")
        unbiased = kwargs.get("unbiased", False)
        want = _var(values, unbiased)
        if math.isclose(mean, want, rel_tol=1e-9) and math.isclose(var, _mean(values), rel_tol=1e-9):
            return [("swapped_order", _MEAN_VAR_CODES["swapped_order"])]
        results[str(kwargs)] = var
        findings = []
        if not math.isclose(mean, _mean(values), rel_tol=1e-9):
            w, g = fmt_pair(_mean(values), mean)
            steps = [f for f in _mv_steps(fn, unbiased) if f[0] == "wrong_mean"]
            findings += steps or [("wrong_mean", message(_MEAN_VAR_CODES, "wrong_mean", want=w, got=g))]
        if kwargs == {} and not math.isclose(var, results["{'unbiased': False}"], rel_tol=1e-9):
            continue   # 默认值不对由签名检查说明
        if not math.isclose(var, want, rel_tol=1e-9):
            if unbiased:   # unbiased=False 已经对了：True 时仍得到有偏方差，就是没有用参数 unbiased
                variants = {("unbiased_ignored",): [_var(values)], ("returned_std",): [math.sqrt(want)]}
            else:
                variants = {("unbiased_var",): [_var(values, True)], ("returned_std",): [math.sqrt(want)],
                            ("unbiased_var", "returned_std"): [math.sqrt(_var(values, True))]}
            found = _judge([var], [want], variants, _MEAN_VAR_CODES)
            if found is None:
                found = [f for f in _mv_steps(fn, unbiased) if f[0] != "wrong_mean"]
                w, g = fmt_pair(want, var)
                found = found or [("wrong_output", message(None, "wrong_output", what=f"unbiased={unbiased} 时的方差",
                                                          want=w, got=g))]
            findings += found
        if findings:
            return findings
    return []


# ---------------------------------------------------------------- 第 7 章：批量归一化的轴
_BN_LISTS_CODES = {
    "wrong_axis": "你对每一行（每个样本）做了归一化，这是层归一化：批量归一化对每一列（每个特征）跨 B 个样本归一化。",
    "normalized_all": "你用整个批量所有元素的均值和方差做了归一化：批量归一化每个特征（每一列）各算各的。",
    "unbiased_var": "你用了无偏方差（除以 B−1）：训练时的批量归一化用有偏方差来归一化。",
    "no_centering": "没有减去均值：归一化后每一列的均值应为 0。",
    "eps_outside_sqrt": "ε 加在了根号外面：ε 先加到方差上，再开平方。",
    "no_eps": "分母里少了 ε：方差为 0 的特征会得到 0/0。",
    "eps_ignored": "调用时传入 eps={eps}，你的结果却和 eps=1e-5 时一样：请用参数 eps，不要写死。",
    "no_sqrt": "分母是方差 σ² + ε，没有开平方：要除以标准差 √(σ² + ε)。",
    "row_mean_not_zero": "你的输出第 {row} 列（第 {row} 个特征）的均值是 {got}，应为 0：要减去这一列在 B 个样本上的均值。",
    "row_variance_not_one": "你的输出第 {row} 列的方差是 {got}，应为 σ²/(σ² + ε) ≈ {want}{hint}",
    "not_shift_invariant": "给每一列加上同一个常数（第 1 列加 3）后，你的输出变了，最大变化 {diff}；应该不变："
                           "减去这一列的均值后，常数会被抵消。",
    "not_scale_invariant": "把每一列乘以 4 后，你的输出变了，最大变化 {diff}；除了 ε 的微小影响，应该不变。",
    "rows_mixed": "只改动第 1 列（第 1 个特征）的输入后，别的特征的输出也变了，最大变化 {diff}：每个特征只能用它自己那一列的统计量。",
}


def _bn_model(x, eps, axis="col", unbiased=False, center=True, eps_kind="inside", sqrt=True):
    def norm(vals):
        mu = _mean(vals) if center else 0.0
        var = _var(vals, unbiased)
        e = {"inside": eps, "outside": eps, "missing": 0.0, "fixed": 1e-5}[eps_kind]
        d = math.sqrt(var) + e if eps_kind == "outside" else (math.sqrt(var + e) if sqrt else var + e)
        return [(v - mu) / d for v in vals]
    if axis == "row":
        return [norm(r) for r in x]
    if axis == "all":
        flat = norm(_flat(x))
        w = len(x[0])
        return [flat[i:i + w] for i in range(0, len(flat), w)]
    return _columns([norm(c) for c in _columns(x)])


_BN_FLAG_CODES = {("axis", "row"): "wrong_axis", ("axis", "all"): "normalized_all", ("unbiased", True): "unbiased_var",
                  ("center", False): "no_centering", ("eps_kind", "outside"): "eps_outside_sqrt",
                  ("eps_kind", "missing"): "no_eps", ("eps_kind", "fixed"): "eps_ignored", ("sqrt", False): "no_sqrt"}


@_checker("ch07-batch-norm-lists", _BN_LISTS_CODES)
def check_batch_norm_lists(fn):
    """检查 batch_norm_lists(x, eps)：x 是 B 行 H 列的嵌套列表，对每一列跨行标准化（不含 γ、β）。"""
    x = [[1.0, 10.0, -3.0], [2.0, 14.0, -1.0], [4.0, 11.0, 0.5], [3.5, 20.0, -2.5]]
    for eps in (1e-5, 0.5):
        given = _copy(x)
        got = _rows(_call(fn, given, eps=eps), (4, 3))
        changed = _unchanged(x, given, "列表 x")
        want = _bn_model(x, eps)
        flags = {"axis": ["col", "row", "all"], "unbiased": [False, True], "center": [True, False],
                 "eps_kind": ["inside", "outside", "missing"] + (["fixed"] if eps != 1e-5 else []), "sqrt": [True, False]}
        variants = _combine(flags, {k: v[0] for k, v in flags.items()}, lambda **s: _bn_model(x, eps, **s),
                            lambda k, v: _BN_FLAG_CODES[(k, v)])
        found = _judge(got, want, variants, _BN_LISTS_CODES, {"eps": eps})
        if found is None:
            def run(rows, gamma, beta):
                # 批量归一化按列：把“行”探测输入转置成列交给学习者，结果再转回来；γ、β 在这里不适用
                if gamma != [1.0] * len(gamma) or beta != [0.0] * len(beta):
                    return None
                out = _quiet(fn, (len(rows[0]), len(rows)))(_columns(rows), eps=eps)
                return None if out is None else _columns(out)
            found = _ln_steps(run, 5, eps, _BN_LISTS_CODES, unit="列") or [_first_difference(got, want)]
        if found or changed:
            return changed + found
    return []


# ---------------------------------------------------------------- 第 8 章：均方根归一化
_RMS_LIST_CODES = {
    "subtracted_mean": "你先减去了均值（算的是标准差）：均方根归一化不减均值，直接对 x² 求平均。",
    "missing_sqrt": "分母是均方（x² 的平均），还差开平方。",
    "eps_outside_sqrt": "ε 加在了根号外面：ε 先加到均方上，再开平方。",
    "no_gamma": "结果没有乘缩放参数 γ。",
    "abs_mean": "你用绝对值的平均做分母：均方根是先平方、再平均、再开方。",
    "no_eps": "分母里少了 ε：全为 0 的输入会得到 0/0。",
    "eps_ignored": "调用时传入 eps={eps}，你的结果却和 eps=1e-6 时一样：请用参数 eps，不要写死。",
    "divided_by_norm": "你除以的是向量的长度 ‖x‖ = √(Σx²)，不是均方根 √(mean(x²))：输出整体小了 √H = {root} 倍"
                       "（γ = 1 时输出的均方是 {ms}，应约为 1）。平方和之后还要除以 H。",
    "row_rms_not_one": "γ = 1 时，你的输出的均方（x² 的平均）是 {got}，应为 ms/(ms + ε) ≈ {want}{hint}",
    "not_proportional": "γ = 1 时，你的输出不是输入的同一个倍数（第 1 个是输入的 {a} 倍，第 {j} 个是 {b} 倍）："
                        "均方根归一化只把整个向量除以同一个数，不减均值、不逐个变换。",
    "not_scale_invariant": "把输入整体乘以 4 后，你的输出变了，最大变化 {diff}；除了 ε 的微小影响，应该不变：除以均方根后，倍数会被抵消。",
    "gamma_not_featurewise": "把 γ 设成各不相同的值后，第 {pos} 个输出应是 γ = 1 时的 γ[{j}] = {want} 倍，你的是 {got} 倍："
                             "γ 逐个特征相乘。",
}


def _rms_model(values, gamma, eps, center=False, sqrt=True, eps_kind="inside", use_gamma=True, abs_mean=False,
               norm=False):
    mu = _mean(values) if center else 0.0
    xs = [v - mu for v in values]
    if abs_mean:
        ms = _mean([abs(v) for v in xs])
    elif norm:
        ms = sum(v * v for v in xs)
    else:
        ms = _mean([v * v for v in xs])
    e = {"inside": eps, "outside": eps, "missing": 0.0, "fixed": 1e-6}[eps_kind]
    if abs_mean:
        d = ms + e
    elif eps_kind == "outside":
        d = math.sqrt(ms) + e
    else:
        d = math.sqrt(ms + e) if sqrt else ms + e
    g = gamma if use_gamma else [1.0] * len(values)
    return [gi * v / d for v, gi in zip(xs, g)]


_RMS_FLAG_CODES = {("center", True): "subtracted_mean", ("sqrt", False): "missing_sqrt",
                   ("eps_kind", "outside"): "eps_outside_sqrt", ("eps_kind", "missing"): "no_eps",
                   ("eps_kind", "fixed"): "eps_ignored", ("use_gamma", False): "no_gamma", ("abs_mean", True): "abs_mean",
                   ("norm", True): "divided_by_norm"}


def _rms_steps(fn, eps):
    values = [1.0, -2.0, 3.0, 0.5, -1.5]
    h = len(values)
    ones = [1.0] * h

    def run(v, g):
        try:
            return _floats(_call(fn, list(v), list(g), eps=eps), h, "输出")
        except _Stop:
            return None
    findings = []
    y = run(values, ones)
    if y is None:
        return findings
    ms_x = _mean([v * v for v in values])
    want = ms_x / (ms_x + eps)
    ms_y = _mean([v * v for v in y])
    ratios = [a / b for a, b in zip(y, values)]
    if abs(ms_y / want - 1) > 1e-3:
        hint = "：要除以 √(mean(x²) + ε)。"
        if abs(ms_y * h - 1) < 1e-3:
            return [("divided_by_norm", message(_RMS_LIST_CODES, "divided_by_norm", root=fmt_num(math.sqrt(h)),
                                                ms=fmt_num(ms_y)))]
        findings.append(("row_rms_not_one", message(_RMS_LIST_CODES, "row_rms_not_one", got=fmt_num(ms_y),
                                                    want=fmt_num(want), hint=hint)))
    j = max(range(h), key=lambda k: abs(ratios[k] - ratios[0]))
    if abs(ratios[j] - ratios[0]) > 1e-6 * (1 + abs(ratios[0])):
        findings.append(("not_proportional", message(_RMS_LIST_CODES, "not_proportional", a=fmt_num(ratios[0]), j=j + 1,
                                                     b=fmt_num(ratios[j]))))
    y4 = run([v * 4.0 for v in values], ones)
    if y4 is not None:
        d = _max_abs([a - b for a, b in zip(y4, y)])
        if d > 1e-3:
            findings.append(("not_scale_invariant", message(_RMS_LIST_CODES, "not_scale_invariant", diff=fmt_num(d))))
    gamma = [0.5 + 0.5 * k for k in range(h)]
    yg = run(values, gamma)
    if yg is not None:
        bad = [k for k in range(h) if abs(yg[k] - gamma[k] * y[k]) > 1e-6 * (1 + abs(yg[k]))]
        if bad:
            k = bad[0]
            findings.append(("gamma_not_featurewise", message(_RMS_LIST_CODES, "gamma_not_featurewise", j=k, pos=k + 1,
                                                               want=fmt_num(gamma[k]), got=fmt_num(yg[k] / y[k]))))
    return findings


@_checker("ch08-rms-norm-list", _RMS_LIST_CODES)
def check_rms_norm_list(fn):
    """检查 rms_norm_list(values, gamma, eps)：y_i = γ_i · x_i / sqrt(mean(x²) + ε)。"""
    gamma = [1.5, 0.5, -1.0, 2.0]
    for values, eps in (([1.0, -2.0, 3.0, 0.5], 1e-6), ([0.001, -0.002, 0.0015, 0.0005], 1e-6),
                        ([0.01, -0.03, 0.02, 0.005], 1e-3)):
        given = (list(values), list(gamma))
        got = _floats(_call(fn, *given, eps=eps), 4, "输出")
        changed = _unchanged((values, gamma), given, "列表（values 或 gamma）")
        want = _rms_model(values, gamma, eps)
        flags = {"center": [False, True], "sqrt": [True, False],
                 "eps_kind": ["inside", "outside", "missing"] + (["fixed"] if eps != 1e-6 else []),
                 "use_gamma": [True, False], "abs_mean": [False, True], "norm": [False, True]}
        variants = _combine(flags, {k: v[0] for k, v in flags.items()}, lambda **s: _rms_model(values, gamma, eps, **s),
                            lambda k, v: _RMS_FLAG_CODES[(k, v)])
        found = _judge(got, want, variants, _RMS_LIST_CODES,
                       {"eps": eps, "root": fmt_num(math.sqrt(4)), "ms": fmt_num(_mean([v * v for v in got]))})
        if found is None:
            found = _rms_steps(fn, eps) or [_first_difference(got, want)]
        if found or changed:
            return changed + found
    return []


# ---------------------------------------------------------------- 第 11 章：数值稳定的方差
_STABLE_VAR_CODES = {
    "single_pass": "均值约为 10⁹ 的数据算错了（应为 {want}，你的是 {got}），而均值小的数据是对的："
                   "这是单遍公式 E[x²] − (E[x])² 的相消误差，两个约 10¹⁸ 的数相减丢掉了有效数字。先求均值再求偏差平方（两遍），或用 Welford 算法。",
    "unbiased_var": "你用了无偏方差（除以 H−1）：这里要的是层归一化用的有偏方差（除以 H）。",
    "returned_std": "返回的是标准差（开了平方根），题目要的是方差。",
    "variance_of_constant_not_zero": "5 个数都是 2.0 时，方差应为 0，你的是 {got}{hint}。",
    "variance_not_shift_invariant": "每个数都加上 100 之后，方差从 {before} 变成了 {after}，应该不变：方差只看各个数离均值有多远。",
    "variance_not_quadratic": "每个数都乘以 3 之后，方差应变为 3² = 9 倍，你的变为 {ratio} 倍{hint}。",
    "variance_wrong_divisor": "偏差平方和对了，分母不对：应除以 H = {h}，你的相当于除以 {got}。",
}


def _var_steps(fn, values):
    def one(v):
        try:
            return float(_call(fn, list(v)))
        except (_Stop, TypeError, ValueError):
            return None
    findings = []
    const = one([2.0] * 5)
    if const is not None and abs(const) > 1e-9:
        hint = "：像是没有先减去均值（2² = 4）" if abs(const - 4.0) < 1e-9 else ""
        findings.append(("variance_of_constant_not_zero", message(_STABLE_VAR_CODES, "variance_of_constant_not_zero",
                                                                  got=fmt_num(const), hint=hint)))
    base, shifted, tripled = one(values), one([v + 100.0 for v in values]), one([v * 3.0 for v in values])
    if base is not None and shifted is not None and abs(shifted - base) > 1e-6 * (1 + abs(base)):
        findings.append(("variance_not_shift_invariant", message(_STABLE_VAR_CODES, "variance_not_shift_invariant",
                                                                 before=fmt_num(base), after=fmt_num(shifted))))
    if base and tripled is not None and abs(tripled / base - 9.0) > 1e-6:
        r = tripled / base
        hint = "：像是没有平方（例如用了绝对值）" if abs(r - 3.0) < 1e-6 else ""
        findings.append(("variance_not_quadratic", message(_STABLE_VAR_CODES, "variance_not_quadratic", ratio=fmt_num(r),
                                                           hint=hint)))
    if base and not findings:
        ss = sum((v - _mean(values)) ** 2 for v in values)
        findings.append(("variance_wrong_divisor", message(_STABLE_VAR_CODES, "variance_wrong_divisor", h=len(values),
                                                           got=fmt_num(ss / base))))
    return findings


@_checker("ch11-stable-var-list", _STABLE_VAR_CODES)
def check_stable_var(fn):
    """检查 stable_var(values)：有偏方差，均值很大（约 10⁹）的数据也要算对。"""
    small = [1.0, 2.0, 4.0, 5.0, 8.0]
    big = [1e9 + v for v in (0.5, 1.5, 2.5, 4.0, 6.5)]
    for values in (small, big):
        given = list(values)
        (got,) = _floats([_call(fn, given)], 1, "返回值")
        changed = _unchanged(values, given, "列表")
        want = _var(values)
        if math.isclose(got, want, rel_tol=1e-6):
            if changed:
                return changed
            continue
        variants = {("unbiased_var",): [_var(values, unbiased=True)], ("returned_std",): [math.sqrt(want)],
                    ("unbiased_var", "returned_std"): [math.sqrt(_var(values, unbiased=True))]}
        found = _judge([got], [want], variants, _STABLE_VAR_CODES)
        if found is None and values is big:
            w, g = fmt_pair(want, got)
            found = [("single_pass", message(_STABLE_VAR_CODES, "single_pass", want=w, got=g))]
        if found is None:
            found = _var_steps(fn, values) or [_first_difference([got], [want], "方差")]
        return changed + found
    return []


# ---------------------------------------------------------------- 网页里用：运行整段代码再检查
def run_source(source, checker, entry, spec=None):
    """运行学习者写的整段代码 source，再用检查函数 checker（名字）检查其中的 entry；返回 dict。

    网页（Pyodide）里调用它，spec 是这道练习写明的要求（网页从练习目录生成时写进页面）；
    CPython 里调用它得到的 codes 与 messages 与网页里相同（测试会比较）。
    """
    check = CHECKERS[checker]
    if spec is not None:
        SPECS[check.exercise_id] = spec
    title = check.exercise
    try:
        code = compile(source, "<你的代码>", "exec")
    except SyntaxError as exc:
        return CheckResult(title, codes=["syntax_error"],
                           messages=[message(None, "syntax_error", line=exc.lineno, error=exc.msg)]).as_dict()
    namespace = {"__name__": "__main__"}
    try:
        exec(code, namespace)
    except NotImplementedError:
        return CheckResult(title, codes=[NOT_DONE], messages=[MESSAGES[NOT_DONE]]).as_dict()
    except Exception as exc:  # noqa: BLE001 -- 顶层代码出错也只变成一条反馈
        line = learner_line(exc)
        error = error_text(exc, f"（第 {line} 行）" if line else "")
        return CheckResult(title, codes=["raised"], messages=[message(None, "raised", error=error)]).as_dict()
    fn = namespace.get(entry)
    if not callable(fn):
        return CheckResult(title, codes=["missing_name"], messages=[message(None, "missing_name", name=entry)]).as_dict()
    return check(fn, show=False).as_dict()


# ---------------------------------------------------------------- 文件夹里自带 check.py 的练习（issue 21 的布局）
def _load_folder_checks():
    """练习文件夹 items/<id>/check.py 里的网页练习检查器，在这里导入一次，登记进 CHECKERS。

    网页（Pyodide）里只有 core.py 与本文件，没有 items 包：那里什么也不做。
    """
    import importlib
    import os
    items = os.path.join(os.path.dirname(os.path.abspath(__file__)), "items")
    if not os.path.isdir(items) or not __package__:
        return
    for folder in sorted(os.listdir(items)):
        meta = os.path.join(items, folder, "__init__.py")
        if not os.path.exists(os.path.join(items, folder, "check.py")) or not os.path.exists(meta):
            continue
        with open(meta, encoding="utf-8") as f:
            in_page = "IN_PAGE = True" in f.read()
        if in_page:
            try:
                module = importlib.import_module(f"{__package__}.items.{folder}.check")
            except ImportError:
                continue
            # 与写在本文件里的检查器一样，也能以 pure_checks.<名字> 取到
            globals().update({k: v for k, v in vars(module).items() if isinstance(v, _Checker)})


_load_folder_checks()
