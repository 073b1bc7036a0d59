# 导入：标准库、feedback；可选：catalog。
"""列表检查：纯 Python 练习（输入输出都是列表）的检查工具，只用标准库与 feedback 层，不导入 torch、numpy。

同一份源码用在两个地方，所以同样的代码在两处得到同样的错误代码（codes）和说明：
- Jupyter / Colab 里：`from dsx_util.exercises import check_relu`，再 `check_relu(relu_list)`；
- 网页里：构建时把 feedback.py、本文件和网页练习的 check.py 复制到网站，浏览器里的 Python（Pyodide）把它们当作
  一个包载入，用 run_source() 运行并检查。

check.py 用到的公开工具（都在本文件）：call_or_stop（调用学习者的函数，失败时 Stop）、as_floats / as_rows（读出学习者
返回的列表）、judge / combine（与典型错误及其两两组合的结果比较）、first_difference（第一个不对的位置）、unchanged
（没有修改输入）、first_row_only / learner_return（只返回了一行：return 在循环里还是取了下标）、first_value_only（一维输出只有第 1 个数：as_floats 的 want、fn 用它）、
dropped_brackets（引用学习者少了括号的那一段）、list_not_tuple / tuple_rule（题目写明元组、写成了列表）、norm_steps / quiet（层归一化一类的逐步诊断）、mean_of / var_of / columns_of / copy_rows / flatten /
max_abs_of / worst_of / rounded_digits（小算术）。每个检查按三层找问题：题目写明的要求（装饰器 feedback.checker 查）、与典型错误比较、
都不吻合时逐步诊断。学习者的函数每次调用最多运行 TIME_LIMIT 秒（sys.settrace 计时，两处都适用），超时报 timeout。
"""
import itertools
import linecache
import math
import re
import sys

from .feedback import (MESSAGES, NOT_DONE, RAISED, REQUIRED, SPECS, CheckResult, Stop, code_frames, exception_sentence,
                       exercise_spec, fmt_num, fmt_pair, message, run_limited)

TIME_LIMIT = 2.0


# ---------------------------------------------------------------- 运行学习者的代码
def call_or_stop(fn, *args, **kwargs):
    """调用学习者的函数（feedback.run_limited，与 Jupyter 里的检查器同一个办法）；未完成、报错、超时都变成 Stop。"""
    if not callable(fn):
        raise Stop([(RAISED, message(None, RAISED, error=f"运行你的代码时出错：{fn!r} 不是函数，不能调用"))])
    run = run_limited(fn, args, kwargs, timeout=TIME_LIMIT)
    exc = run["exception"]
    if run["timed_out"]:
        raise Stop([("timeout", message(None, "timeout", limit=TIME_LIMIT))])
    if isinstance(exc, NotImplementedError):
        raise Stop([(NOT_DONE, MESSAGES[NOT_DONE])])
    if exc is not None:
        raise Stop([(RAISED, message(None, RAISED, error=exception_sentence(exc)))])
    return run["value"]


def load_checker(checker_name, exercise_id=None):
    """按名字取出网页练习的检查函数：导入 items/<练习>/check.py（exercise_id 缺省时从练习目录里按名字找）。"""
    import importlib
    if exercise_id is None:
        from .catalog import EXERCISES
        exercise_id = next(ex.id for ex in EXERCISES if ex.checker == checker_name)
    module = importlib.import_module(f"{__package__}.items.{exercise_id.replace('-', '_')}.check")
    return getattr(module, checker_name)


# ---------------------------------------------------------------- 比较列表
def as_floats(value, length, what, want=None, fn=None):
    """把学习者返回的一维列表变成 float 列表；类型或长度不对时 Stop。

    want：正确的输出（可选）。只返回了 1 个数、它正是第 1 个输入的正确结果时，说明里说出这一点（first_value_only）。
    fn：学习者的函数（可选）。那时看它的 return 在哪里（learner_return），只在 return 真在循环里时说缩进。
    """
    if not isinstance(value, list):
        raise Stop([("not_list", message(None, "not_list", kind=type(value).__name__))])
    if len(value) != length:
        hint = first_value_only(value, want, fn) if len(value) == 1 < length else ""
        if hint:
            raise Stop([("wrong_length", message(None, "one_value", what=what, expected=length, hint=hint))])
        raise Stop([("wrong_length", message(None, "wrong_length", what=what, expected=length, actual=len(value)))])
    out = []
    for v in value:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise Stop([("not_number", message(None, "not_number", what=what + "里的每个值", value=v))])
        out.append(float(v))
    return out


def as_rows(value, shape, what="输出", want=None, fn=None):
    """二维列表 [[...], ...] -> float 列表的列表，形状 shape=(行数, 列数)。

    want：正确的输出（可选）。学习者只返回了一行（一维列表）时，用它说出这一行是第一行还是最后一行的结果。
    fn：学习者的函数（可选）。只返回了一行时看它的 return 在哪里（learner_return），只在 return 真在循环里时说缩进。
    """
    if not isinstance(value, list):
        raise Stop([("not_list", message(None, "not_list", kind=type(value).__name__))])
    if (len(value) == shape[1] != shape[0] and value
            and all(isinstance(v, (list, tuple)) and len(v) == shape[0] for v in value)):
        raise Stop([("columns_returned", message(None, "columns_returned", rows=shape[0], cols=shape[1]))])
    if (len(value) == shape[1] != shape[0] and shape[0] > 1
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)):
        raise Stop([("wrong_length", message(None, "one_row", expected=shape[0], length=len(value),
                                             hint=_one_row_hint(value, want, fn)))])
    if len(value) != shape[0]:
        flat = len(value) == shape[0] * shape[1] and all(not isinstance(v, list) for v in value)
        hint = "：看起来你把所有行拼成了一个扁平的列表，请每行单独成一个列表" if flat else ""
        hint = first_row_only(len(value), shape[0], fn) or hint
        raise Stop([("wrong_length", message(None, "wrong_rows", expected=shape[0], actual=len(value), hint=hint))])
    tuples = [i for i, row in enumerate(value) if isinstance(row, tuple)]
    if tuples:
        raise Stop([("rows_not_lists", message(None, "rows_not_lists", row=tuples[0] + 1))])
    if len(value) > 1 and isinstance(value[0], list) and all(row is value[0] for row in value):
        raise Stop([("shared_rows", message(None, "shared_rows", rows=len(value)))])
    return [as_floats(row, shape[1], f"{what}第 {i + 1} 行") for i, row in enumerate(value)]


def first_row_only(actual, expected, fn=None):
    """外层列表只有 1 行、应有好几行时的半句说明；其他情况 ""。

    fn：学习者的函数（可选）。看得到源码时按 learner_return 说：return 在循环里、或 return 取了下标（`return rows[:1]`）；
    看不到时说「例如 return 缩进到了循环里」。
    """
    if not actual == 1 < expected:
        return ""
    where = learner_return(fn)
    if where and where[0] == "loop":
        return "：只处理了第一行：return 缩进到了 for 循环里面，循环第一轮就返回了（return 要与 for 对齐，写在循环之后）"
    if where and where[0] == "subscript":
        return f"：你的 `return {where[1]}` 只返回了第一行，要返回整个列表，写 `return {where[2]}`"
    # 看不到源码，或 return 既不在循环里、也没有取下标：只举例，不断言（与看不到源码时说法相同）
    return "：只处理了第一行（例如 return 缩进到了 for 循环里面，循环第一轮就返回了）"


def first_value_only(value, want, fn=None):
    """一维输出只有 1 个数 value、正确输出 want 有好几个：这个数正是第 1 个输入的结果时的半句说明，否则 ""。

    按值认出（任何拼法都算），再按 learner_return 说原因：return 在 for/while 里时说缩进；顶层的 `return out[:1]`
    原样引用；看不到源码或都不是时两种可能都说（与 _one_row_hint 看不到源码时一样，笔记本与网页说法相同）。
    ch02、ch08、ch12 这类一维输出的练习都可以用（as_floats 的 want、fn）。
    """
    if not (isinstance(value, list) and len(value) == 1 and want and len(want) > 1):
        return ""
    v = value[0]
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not lists_close([float(v)], [want[0]]):
        return ""
    where = learner_return(fn) if fn is not None else None
    said = "，正是第 1 个输入的结果"
    if where and where[0] == "loop":
        return said + "：return 缩进到了 for 循环里面，循环第一轮就返回了。return 要与 for 对齐，写在循环之后"
    if where and where[0] == "subscript":
        return said + f"：你的 `return {where[1]}` 只返回了第 1 个：要返回整个列表，写 `return {where[2]}`"
    return (said + "：要么 return 缩进到了 for 循环里面、循环第一轮就返回了，要么 return 只取了第 1 个（例如 `return out[:1]`）；"
            "return 要与 for 对齐、写在循环之后，返回整个列表")


def function_source(fn):
    """学习者函数 fn 的 (源码, ast 里它的 def 节点)；看不到源码（内置函数、没有登记的 exec 代码……）时 None。

    Jupyter 里 IPython 登记每个单元格，网页里 run_source 把代码登记为 "<你的代码>"：两处 inspect.getsource 都能用。
    """
    import ast
    import inspect
    import textwrap
    try:
        source = textwrap.dedent(inspect.getsource(fn))
        tree = ast.parse(source)
    except (OSError, TypeError, SyntaxError, ValueError):
        return None
    node = tree.body[0] if tree.body and isinstance(tree.body[0], (ast.FunctionDef, ast.AsyncFunctionDef)) else None
    return (source, node) if node is not None else None


def _own_nodes(node, inside_loop=False):
    """函数 node 自己的语句与表达式（不进嵌套的函数、类）：(子节点, 是否在 for/while 里)。"""
    import ast
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        yield child, inside_loop
        yield from _own_nodes(child, inside_loop or isinstance(child, (ast.For, ast.AsyncFor, ast.While)))


def learner_return(fn):
    """学习者的 return 在哪里：("loop",) return 在 for/while 里；("subscript", "out[0]", "out") 顶层的 return 取了下标；
    ("other",) 都不是；看不到源码时 None（说明里 "other" 与 None 说法相同：只举例，不断言）。"""
    import ast
    found = function_source(fn) if fn is not None else None
    if found is None:
        return None
    source, node = found
    returns = [(n, loop) for n, loop in _own_nodes(node) if isinstance(n, ast.Return)]
    if any(loop for _, loop in returns):
        return ("loop",)
    last = node.body[-1] if node.body else None
    if isinstance(last, ast.Return) and isinstance(last.value, ast.Subscript):
        text, base = ast.get_source_segment(source, last.value), ast.get_source_segment(source, last.value.value)
        if text and base:
            return ("subscript", text, base)
    return ("other",)


def dropped_brackets(fn, outer, inner, fix, scaled=False):
    """引用学习者少了括号的那一段：函数里第一处「a outer b inner c」（outer=ast.Sub、inner=ast.Div 即 `x - mu / std`，
    / 先算）。返回说明用的两个字段 {"said": "你写的 `x - mu / std` ", "fix": "，写成 `(x - mu) / std`"}；
    fix 是加了括号的写法，可用 {a}、{b}、{c}（scaled=True 时 a 须是 g * x，另有 {g}、{x}）；指数写成 ** ({c})，
    c 是单个名字或数时括号会去掉。
    没有这样的写法或看不到源码时 {"said": "你的代码", "fix": ""}。

    只用来引用：是不是这种错误，由检查器按值判断（算出这种写法在检查输入上的结果来比较），任何拼法都认得出。
    """
    import ast
    found = function_source(fn) if fn is not None else None
    if found is not None:
        source, node = found
        for n, _ in _own_nodes(node):
            if not (isinstance(n, ast.BinOp) and isinstance(n.op, outer) and isinstance(n.right, ast.BinOp)
                    and isinstance(n.right.op, inner)):
                continue
            parts = {"text": n, "a": n.left, "b": n.right.left, "c": n.right.right}
            if isinstance(n.left, ast.BinOp) and isinstance(n.left.op, ast.Mult):
                parts.update(g=n.left.left, x=n.left.right)
            elif scaled:
                continue
            text = {k: ast.get_source_segment(source, v) for k, v in parts.items()}
            if all(text.values()):
                fixed = re.sub(r"\*\* \(([\w.]+)\)", r"** \1", fix.format(**text))   # ** (1 / 2) 留括号，** (0.5) 不留
                return {"said": f"你写的 `{text['text']}` ", "fix": "，写成 `" + fixed + "`"}
    return {"said": "你的代码", "fix": ""}


def pow_one_half(fn):
    """学习者写的 `x ** 1 / 2`（** 比 / 先算，是 x/2，不是开平方）：(那一段, 写成开平方的样子或 None)；找不到或看不到
    源码时 None（ch06、ch08 用）。只用来引用：是不是这种错误，由检查器按值判断。"""
    import ast
    found = function_source(fn) if fn is not None else None
    if found is None:
        return None
    source, node = found

    def power_one(e):
        while isinstance(e, ast.BinOp) and isinstance(e.op, (ast.Mult, ast.Div)):
            e = e.right
        return (isinstance(e, ast.BinOp) and isinstance(e.op, ast.Pow) and isinstance(e.right, ast.Constant)
                and e.right.value == 1)
    for n in ast.walk(node):
        if (isinstance(n, ast.BinOp) and isinstance(n.op, ast.Div) and isinstance(n.right, ast.Constant)
                and n.right.value == 2 and power_one(n.left)):
            text = ast.get_source_segment(source, n)
            fix = None
            if isinstance(n.left, ast.BinOp) and isinstance(n.left.op, ast.Pow):
                base = ast.get_source_segment(source, n.left.left)
                simple = isinstance(n.left.left, (ast.Name, ast.Call, ast.Subscript, ast.Attribute, ast.Constant))
                fix = f"{base} ** 0.5" if simple else f"({base}) ** 0.5"
            return (text, fix) if text else None
    return None


def tuple_rule(values):
    """题目写明元组、学习者写成了列表 values 时的那句规则，用他自己的数（ch01、ch03、ch06 同一句）。"""
    return f"元组和列表比较时并不相等：{tuple(values)!r} == {list(values)!r} 是 False"


def list_not_tuple(value, stated, names):
    """返回值都对、只是题目写明的元组 stated 写成了列表 value：一条 list_not_tuple（names：return 后面应写的两个名字）。"""
    return ("list_not_tuple", message(None, "list_not_tuple", value=repr(value), stated=stated, names=names,
                                      fixed=repr(tuple(value)), rule=tuple_rule(value)))


def _one_row_hint(row, want, fn=None):
    """学习者只返回了一行时：这一行是正确输出的第一行还是最后一行，他的 return 在哪里（learner_return）。

    只在 return 真在 for/while 里时说缩进；顶层的 `return out[0]` 原样引用；看不到源码时两种可能都说。
    """
    first = bool(want) and lists_close(row, want[0])
    last = bool(want) and not first and lists_close(row, want[-1])
    if not (first or last):
        return "：每一行的结果各成一个列表，全部放进外层列表后再返回"
    where = learner_return(fn) if fn is not None else None
    which = "第 1 行" if first else "最后一行"
    if where and where[0] == "subscript":
        return f"：它正是{which}的结果，你的 `return {where[1]}` 只返回了{which}：要返回整个列表，写 `return {where[2]}`"
    if first and where and where[0] == "loop":
        return "：它正是第 1 行的结果，return 缩进到了 for 循环里面，处理完第一行就返回了（return 要与 for 对齐，写在循环之后）"
    if first:
        return ("：它正是第 1 行的结果：要么 return 缩进到了 for 循环里面、处理完第一行就返回了，要么 return 只取了第一行"
                "（例如 `return out[0]`）；return 要与 for 对齐、写在循环之后，返回整个列表")
    return ("：它正是最后一行的结果，像是在循环之后才处理循环变量留下的最后一行：每一行的结果都要 append 到"
            "一个列表里，循环结束后返回这个列表")


def flatten(x):
    """二维列表摊平成一维（一维的原样复制）。"""
    return [v for row in x for v in row] if x and isinstance(x[0], list) else list(x)


def lists_close(got, want, tol=1e-6):
    """got 与 want（一维或二维列表）摊平后个数相同、每个数都相同（相对、绝对误差 tol 以内）；want 是 None 时 False。"""
    if want is None:
        return False
    a, b = flatten(got), flatten(want)
    return len(a) == len(b) and all(math.isclose(g, w, rel_tol=tol, abs_tol=tol) for g, w in zip(a, b))


def other_size(fn, args, kwargs, want, codes, code, how, models=()):
    """写死了大小的探查（ch04、ch07、ch13）：常规输入都对之后，用另一种大小的输入 args 再调用一次 fn，与正确输出 want
    （二维列表）比较。对时 []；不对时一条 code（说明的 {what} 是半句：出错了、行数或个数不对、第几个值不对；{how} 是
    models 里第一个吻合的说法，models：[(说法, 写死了大小时的输出), ...]，都不吻合时用给定的 how），代码出错时再附上报错。"""
    rows, h = len(want), len(want[0])
    try:
        value = call_or_stop(fn, *args, **kwargs)
    except Stop as stop:
        return [(code, message(codes, code, what="，你的代码却出错了", how=how))] + stop.args[0]
    if isinstance(value, list) and len(value) != rows:
        what = f"，你的输出却有 {len(value)} 行"
    elif isinstance(value, list) and any(isinstance(r, list) and len(r) != h for r in value):
        what = f"，你的输出第 1 行却有 {len(value[0])} 个数" if len(value[0]) != h else "，你的输出有的行个数不对"
    else:
        got = as_rows(value, (rows, h))
        if lists_close(got, want):
            return []
        flat_got, flat_want = flatten(got), flatten(want)
        i = next(k for k, (a, b) in enumerate(zip(flat_got, flat_want))
                 if not math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-6))
        w, g = fmt_pair(flat_want[i], flat_got[i])
        what = f"就错了（第 {i // h + 1} 行第 {i % h + 1} 个值应为 {w}，你的是 {g}）"
        how = next((said for said, model in models if lists_close(got, model)), how)
    return [(code, message(codes, code, what=what, how=how))]


def first_difference(got, want, what="输出"):
    """第一个不对的位置：一条 wrong_output，两个数写到看得出不同。"""
    flat_got, flat_want = flatten(got), flatten(want)
    width = len(got[0]) if got and isinstance(got[0], list) else 0
    i = next(i for i, (g, w) in enumerate(zip(flat_got, flat_want))
             if not math.isclose(g, w, rel_tol=1e-6, abs_tol=1e-6))
    place = f"第 {i // width + 1} 行第 {i % width + 1} 个值" if width else (f"第 {i + 1} 个值" if len(flat_want) > 1 else "")
    want_s, got_s = fmt_pair(flat_want[i], flat_got[i])
    return ("wrong_output", message(None, "wrong_output", what=f"{what}{place}", want=want_s, got=got_s))


def judge(got, want, variants, codes, fields=None):
    """got 与 want 相同 -> []；与某个典型错误（或两个典型错误的组合）的结果相同 -> 那些错误；否则 None。

    variants：{代码元组: 结果}，代码元组有一个或两个代码（两个表示同时犯了两种错误）。
    """
    if lists_close(got, want):
        return []
    for key in sorted(variants, key=len):
        if lists_close(got, variants[key]):
            found = [(code, message(codes, code, **(fields or {}))) for code in key]
            if len(key) > 1:
                found[0] = (found[0][0], "同时有两处错误。" + found[0][1])
            return found
    return None


def combine(flags, default, model, names):
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


def unchanged(before, after, what, new="列表"):
    """学习者没有改动传入的列表时返回 []；改了时返回一条 modified_input（what：哪个参数，new：应当新建什么）。"""
    if before != after:
        return [("modified_input", message(None, "modified_input", what=what, new=new))]
    return []


def copy_rows(x):
    """一维或二维列表的副本（传给学习者的总是副本，事后与原来的比较，看它有没有改动输入）。"""
    return [list(r) for r in x] if x and isinstance(x[0], list) else list(x)


def mean_of(values):
    """一组数的平均值。"""
    return sum(values) / len(values)


def var_of(values, unbiased=False):
    """一组数的方差：默认有偏（除以个数 H），unbiased=True 时除以 H − 1。"""
    mu = mean_of(values)
    return sum((v - mu) ** 2 for v in values) / (len(values) - (1 if unbiased else 0))


def columns_of(x):
    """二维列表的各列（转置）。"""
    return [list(col) for col in zip(*x)]


def max_abs_of(values):
    """一组数里最大的绝对值。"""
    return max(abs(v) for v in values)


def worst_of(values):
    """绝对值最大的位置与值。"""
    i = max(range(len(values)), key=lambda k: abs(values[k]) if not math.isnan(values[k]) else math.inf)
    return i, values[i]


def rounded_digits(got, want, most=6):
    """got 是不是 want 四舍五入到 k 位小数（k = 1..most）的结果：是时返回 k，否则 None（学习者 round 了结果）。"""
    if isinstance(got, bool) or not isinstance(got, (int, float)) or math.isclose(got, want, rel_tol=1e-9):
        return None
    return next((k for k in range(1, most + 1) if got == round(want, k)), None)


# ---------------------------------------------------------------- 共用：层归一化一类的逐步诊断


def norm_steps(run, h, eps, codes, unit="行", eps_name="σ²", mean_eq="式 (4.1)"):
    """run(rows, gamma, beta) -> 输出（二维列表或 None）。返回每条不满足的性质一条 finding。

    层归一化（对每行）的性质；批量归一化把转置后的输入交给 run，同样适用（unit="列"，个数是 B）。
    mean_eq：说明里引用的均值公式（第 4 章的式 (4.1)；批量归一化是第 7 章的式 (7.1)）。
    """
    count = "H" if unit == "行" else "B"
    base = [[(k * 7 % 5) - 2.0 + 0.3 * k for k in range(h)], [3.0 * ((k * 3) % 4) + 10.0 for k in range(h)],
            [0.5 * math.sin(k + 1.0) - 4.0 for k in range(h)]]
    ones, zeros = [1.0] * h, [0.0] * h
    gamma = [0.5 + 0.5 * k for k in range(h)]
    beta = [-1.0 + 0.75 * k for k in range(h)]
    findings = []
    y = run(base, ones, zeros)
    if y is None:
        return findings
    means = [mean_of(r) for r in y]
    fits = [_affine_fit(x, r) for x, r in zip(base, y)]   # 每行的输出若是 (x − m)/s：学习者减去的 m、除以的 s
    i, m = worst_of(means)
    if abs(m) > 1e-3:
        hint = "：第三步（式 (4.3)）要先减去这一行的均值 μ。" if unit == "行" else f"：要减去这一{unit}在 B 个样本上的均值。"
        if fits[i] is not None and abs(fits[i][0] - mean_of(base[i])) > 1e-6 * (1 + abs(mean_of(base[i]))):
            took, mu = fits[i][0], mean_of(base[i])
            if abs(took - round(took)) <= 1e-9 * (1 + max_abs_of(base[i])):
                took = float(round(took))   # 拟合出的 4.4×10⁻¹⁶ 其实是 0：按学习者写的整数说
            hint = f"：你减去的是 {fmt_num(took)}，不是这一{unit}的均值 μ = {fmt_num(mu)}"
            whole = [name for name, f in (("整数除法 //", math.floor), ("round()", round), ("int()", math.trunc))
                     if took == f(mu)]
            if abs(took - sum(base[i]) / (h - 1)) < 1e-6 * (1 + abs(took)):
                hint += f"，像是和除以了 {count}−1：均值 = 和 ÷ {count}"
            elif whole:
                hint += f"，像是把均值取成了整数（{' 或 '.join(whole)}）：均值 = 和 ÷ {count}，用 / 除，不要取整"
            hint += f"（{mean_eq}）。"
        findings.append(("row_mean_not_zero", message(codes, "row_mean_not_zero", row=i + 1, got=fmt_num(m), hint=hint)))
    var_x = [var_of(r) for r in base]
    want_var = [v / (v + eps) for v in var_x]
    var_y = [var_of(r) for r in y]
    ratios = [vy / wv - 1 for vy, wv in zip(var_y, want_var)]
    i, _ = worst_of(ratios)
    if abs(ratios[i]) > 1e-2:
        hint = f"：要除以这一{unit}的 √(σ² + ε)（式 (4.3)）。"
        used = [f[1] ** 2 - eps if f is not None else None for f in fits]   # 学习者的分母平方减去 ε：他用的方差
        if all(u is not None and abs(u - mean_of([(v - f[0]) ** 2 for v in x])) <= 1e-6 * (1 + u)
               for u, f, x in zip(used, fits, base)) and any(abs(f[0] - mean_of(x)) > 1e-6 for f, x in zip(fits, base)):
            hint = f"：方差是用你减去的那个数（不是这一{unit}的均值）算的，先把 μ 改对（{mean_eq}）。"
        elif all(u is not None and abs(u - mean_of([v * v for v in x])) <= 1e-6 * (1 + u) for u, x in zip(used, base)):
            hint = "：方差算成了 x² 的平均，没有先减去均值：σ² = mean((x − μ)²)（式 (4.2)）。"
        elif all(abs(vy * (v + eps) - wv) <= 1e-2 * wv for vy, v, wv in zip(var_y, var_x, want_var)):
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
        d = max_abs_of([a - b for a, b in zip(flatten(shifted), flatten(y))])
        if d > 1e-3:
            findings.append(("not_shift_invariant", message(codes, "not_shift_invariant", diff=fmt_num(d))))
    scaled = run([[v * 4.0 for v in r] for r in base], ones, zeros)
    if scaled is not None:
        d = max_abs_of([a - b for a, b in zip(flatten(scaled), flatten(y))])
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
            findings += beta_featurewise(y_g, y_gb, gamma, beta, codes)
    changed = [list(r) for r in base]
    changed[0] = [v * 3.0 + 7.0 for v in changed[0]]
    y_c = run(changed, ones, zeros)
    if y_c is not None:
        d = max_abs_of([a - b for ra, rb in zip(y_c[1:], y[1:]) for a, b in zip(ra, rb)])
        if d > 1e-6:
            findings.append(("rows_mixed", message(codes, "rows_mixed", diff=fmt_num(d))))
    return findings


def _affine_fit(x, y):
    """y 是不是 (x − m)/s（对每个数同一个 m、s）：是时返回 (m, s)，否则 None。"""
    a = max(range(len(x)), key=lambda k: x[k])
    b = min(range(len(x)), key=lambda k: x[k])
    if x[a] == x[b] or y[a] == y[b]:
        return None
    s = (x[a] - x[b]) / (y[a] - y[b])
    m = x[a] - y[a] * s
    if all(abs((v - m) / s - w) <= 1e-6 * (1 + abs(w)) for v, w in zip(x, y)):
        return m, s
    return None


def beta_featurewise(y_g, y_gb, gamma, beta, codes, tol=1e-3, multiplied="：β 被 γ 乘到了，应在乘完 γ 之后再加"):
    """逐特征加 β 这一步：y_gb 与 y_g 只差 β，每一列的平均差应是 β[j]。不是时一条 beta_not_featurewise（差恰好是
    γ[j]·β[j] 时说出 β 被 γ 乘到了，后面接 multiplied），否则 []。"""
    added = [mean_of([a[j] - b[j] for a, b in zip(y_gb, y_g)]) for j in range(len(beta))]
    bad = [j for j in range(len(beta)) if abs(added[j] - beta[j]) > tol * (1 + abs(beta[j]))]
    if not bad:
        return []
    j = bad[0]
    hint = f"，恰好是 γ[{j}]·β[{j}]{multiplied}" if abs(added[j] - gamma[j] * beta[j]) < tol * (1 + abs(added[j])) else ""
    return [("beta_not_featurewise", message(codes, "beta_not_featurewise", j=j, pos=j + 1, want=fmt_num(beta[j]),
                                             got=fmt_num(added[j]), hint=hint))]


def quiet(fn, shape):
    """逐步诊断用：调用学习者函数，结果形状不对或报错时返回 None（这条性质就不查）。"""
    def run(*args, **kwargs):
        try:
            return as_rows(call_or_stop(fn, *args, **kwargs), shape)
        except Stop:
            return None
    return run


# ---------------------------------------------------------------- 网页里最常见的头几种错误
# 中文输入法打出的全角标点 -> 应当输入的半角标点
FULLWIDTH = {"：": ":", "，": ",", "（": "(", "）": ")", "；": ";", "＝": "=", "［": "[", "］": "]", "【": "[", "】": "]",
             "“": '"', "”": '"', "‘": "'", "’": "'", "。": ".", "＋": "+", "－": "-", "＊": "*", "／": "/", "　": "空格"}


def syntax_finding(source, exc):
    """语法错误 -> (代码, 中文说明)：全角标点、缩进多了、该缩进没缩进、缩进对不齐各有一句话；其他的用 Python 的说法。"""
    line = exc.lineno or 1
    lines = source.splitlines()
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    chars = [c for c in dict.fromkeys(text) if c in FULLWIDTH]
    if not chars:   # 报错的行上没有时，看整段代码（例如全角引号让字符串没有结束，报错在后面的行）
        for k, other in enumerate(lines, start=1):
            chars = [c for c in dict.fromkeys(other) if c in FULLWIDTH and not _in_string_or_comment(other, c)]
            if chars:
                line = k
                break
    elif all(_in_string_or_comment(text, c) for c in chars):
        chars = []
    if chars:
        fixes = "、".join(f"「{c}」改成「{FULLWIDTH[c]}」" for c in chars)
        return ("fullwidth_punctuation", message(None, "fullwidth_punctuation", line=line,
                                                 chars="".join(f"「{c}」" for c in chars), fixes=fixes))
    msg = exc.msg or ""
    leading = text[:len(text) - len(text.lstrip())]
    indents = {c for other in lines for c in other[:len(other) - len(other.lstrip())]}
    if msg.startswith("inconsistent use of tabs") or (
            "indent" in msg and "\t" in leading and " " in indents):   # Tab 与空格混用（CPython 与 Pyodide 说法不一）
        return ("mixed_tabs", message(None, "mixed_tabs", where=_indent_kinds(lines)))
    if msg.startswith("unexpected indent"):
        return ("unexpected_indent", message(None, "unexpected_indent", line=line))
    if msg.startswith("expected an indented block"):
        return ("missing_indent", message(None, "missing_indent", line=line))
    if msg.startswith("unindent does not match"):
        return ("uneven_indent", message(None, "uneven_indent", line=line))
    if "Maybe you meant '=='" in msg:   # CPython 3.10+ 与 Pyodide（3.12、3.13）同一句：条件里的 == 写成了 =
        return ("assign_not_compare", _assign_message(text, line, msg))
    return ("syntax_error", message(None, "syntax_error", line=line, error=msg))


def _assign_message(text, line, error):
    """条件里把 == 写成了 = 的说明：引用学习者的那一行，给出改成 == 的写法（改后能编译时才给）；
    和 True / False 比较时再说直接写 `if 名字:` / `if not 名字:`。"""
    said = text.strip()
    fixed = re.sub(r"(?<![=!<>:+\-*/%&|^@])=(?!=)", "==", said, count=1)
    try:
        probe = "if" + fixed[4:] if fixed.startswith("elif") else fixed   # elif 单独不能编译
        compile(probe + ("\n    pass\n" if probe.endswith(":") else ""), "<改写>", "exec")
        fixed_text = f"：`{fixed}`"
    except SyntaxError:
        fixed_text = ""
    plain = ""
    m = re.fullmatch(r"(if|elif|while)\s+([A-Za-z_]\w*)\s*=\s*(True|False)\s*:?", said)
    if m:
        kw, name, value = m.groups()
        plain = (f"；和 {value} 比较其实不必，布尔值可以直接做条件：`{kw} {'' if value == 'True' else 'not '}{name}:`")
    return message(None, "assign_not_compare", line=line, said=said, fixed=fixed_text, plain=plain, error=error)


def _indent_kinds(lines):
    """哪些行用 Tab 缩进、哪些行用空格缩进，写成一句话：“第 2–4 行用 Tab 缩进，第 5 行用空格缩进”。"""
    tabs, spaces = [], []
    for k, text in enumerate(lines, start=1):
        lead = text[:len(text) - len(text.lstrip())]
        if text.strip() and lead:
            (tabs if "\t" in lead else spaces).append(k)
    return f"第 {_line_ranges(tabs)} 行用 Tab 缩进，第 {_line_ranges(spaces)} 行用空格缩进"


def _line_ranges(numbers):
    """[2, 3, 4, 7] -> "2–4、7"。"""
    parts, start = [], None
    for i, n in enumerate(numbers):
        if start is None:
            start = n
        if i + 1 == len(numbers) or numbers[i + 1] != n + 1:
            parts.append(str(n) if n == start else f"{start}–{n}")
            start = None
    return "、".join(parts)


def _in_string_or_comment(text, char):
    """这一行里 char 第一次出现的位置是否在注释或成对的引号里（那里的全角字符是合法的）。"""
    quote = None
    for c in text:
        if c == char and quote is None:
            return False
        if quote is None and c == "#":
            return True
        if c in "'\"":
            quote = None if quote == c else (c if quote is None else quote)
        elif c == char:
            return True
    return True


def import_finding(source, forbidden):
    """题目不许用的模块（如 torch、numpy）被 import（在哪一层都算：网页里没有它们，运行到那里就会失败）：
    (代码, 说明)，说出题目的要求与第几行；没有时 None。"""
    import ast
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name.split(".")[0] for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module.split(".")[0]]
        else:
            continue
        for name in names:
            absent = not in_page_python(name)
            if name in forbidden:   # 代码与笔记本里查出的相同（forbidden_call），说明点出是哪一行的 import
                return ("forbidden_call", message(None, "forbidden_import", line=node.lineno, name=name,
                                                  rule=forbidden[name],
                                                  absent=f"（网页里也没有 {name}）" if absent else ""))
            if absent:   # 题目没有禁止它，只是网页里没有：不说题目没写的要求
                return ("not_in_page", message(None, "not_in_page", line=node.lineno, name=name))
    return None


def in_page_python(name):
    """网页里的 Python（Pyodide，只带标准库）能不能导入顶层模块 name：标准库的模块都在，别的（torch、numpy）都没有。
    由 sys.stdlib_module_names 推出，不手写名单。"""
    return name in sys.stdlib_module_names or name in sys.builtin_module_names


def defines(source, entry):
    """代码里有没有定义 entry 的那一行（def entry(、class entry、entry = ……）：只看文字，语法错误的代码也能看。"""
    name = re.escape(entry)
    return re.search(rf"^[ \t]*(?:(?:async[ \t]+)?def|class)[ \t]+{name}\b|^[ \t]*{name}[ \t]*=(?!=)", source, re.M) is not None


def head_line(spec, entry):
    """模板里定义入口的那一行（def std_ratio(h):），由写明的要求 spec 拼出（网页里也有 spec，没有模板文件）。"""
    if not spec:
        return f"def {entry}(…):"
    params = []
    for name, default in spec.get("params") or []:
        if default == REQUIRED:
            params.append(name)
        else:   # 1e-05 写回模板里的 1e-5
            text = re.sub(r"e([+-])0+(\d)", r"e\1\2", repr(default)) if isinstance(default, float) else repr(default)
            params.append(f"{name}={text}")
    if spec.get("kind") == "class":
        return f"class {entry}(…):"
    return f"def {entry}({', '.join(params)}):"


def missing_def_finding(spec, entry):
    """代码里没有定义 entry 的那一行（手机上点错了行、输入覆盖了它，或改了函数名）：(代码, 说明)。"""
    return ("missing_def", message(None, "missing_def", line=head_line(spec, entry)))


# ---------------------------------------------------------------- 网页里用：运行整段代码再检查
def own_call_finding(source, exc, filename="<你的代码>"):
    """运行整段代码时出错、出错的是顶层一行调用学习者自己函数的语句（留下的测试调用，如 `print(f([1, 2]))`）：
    (代码, 说明)，说出是第几行的调用、检查还没开始、删掉它；错误在函数里别的行时另说那一行。不是这种情况时 None。

    只看回溯（feedback.code_frames）：最外层的学习者帧（模块这一层）是出错的顶层语句，最后一个是真正出错的那一行。
    """
    import ast
    frames = code_frames(exc, filename)
    if not frames or frames[0][0] != "<module>":
        return None
    line = frames[0][1]
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    own = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    stmt = next((n for n in tree.body if n.lineno <= line <= (n.end_lineno or n.lineno)), None)
    if stmt is None or isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return None
    called = [n.func.id for n in ast.walk(stmt) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
              and n.func.id in own]
    if not called:
        return None
    said = (ast.get_source_segment(source, stmt) or "").strip() or source.splitlines()[line - 1].strip()
    said = said if len(said) <= 80 and "\n" not in said else said.splitlines()[0][:77] + "..."
    inside = ""
    if len(frames) > 1 and frames[-1][1] != line:
        text = linecache.getline(filename, frames[-1][1]).strip()
        text = text if len(text) <= 80 else text[:77] + "..."
        inside = f"：错误发生在这次调用里，你的函数第 {frames[-1][1]} 行" + (f"（`{text}`）" if text else "")
    first = str(exc).strip().splitlines()
    error = type(exc).__name__ + (f"：{first[0].strip()}" if first else "")
    return ("own_call_failed", message(None, "own_call_failed", line=line, said=said, inside=inside, name=called[0],
                                       error=error[:200]))


def run_source(source, checker, entry, spec=None):
    """运行学习者写的整段代码 source，再用检查函数 checker（名字）检查其中的 entry；返回 dict。

    网页（Pyodide）里调用它，spec 是这道练习写明的要求（网页从练习目录生成时写进页面）；
    CPython 里调用它得到的 codes 与 messages 与网页里相同（测试会比较）。
    """
    check = load_checker(checker, spec["id"] if spec else None)
    if spec is not None:
        SPECS[check.exercise_id] = spec
    title = check.exercise
    # 登记代码：报错时 feedback.learner_source 能找到出错的那一行和学习者写的名字
    linecache.cache["<你的代码>"] = (len(source), None, source.splitlines(True), "<你的代码>")
    lost = None if defines(source, entry) else missing_def_finding(exercise_spec(check.exercise_id), entry)
    try:
        code = compile(source, "<你的代码>", "exec")
    except SyntaxError as exc:
        found = syntax_finding(source, exc)
        if lost:   # def 那一行不见了：随后的缩进、顶层 return 都由它引起，只另说全角标点（那是另一处要改的）
            found = [lost] + ([found] if found[0] == "fullwidth_punctuation" else [])
            return CheckResult(title, codes=[c for c, _ in found], messages=[m for _, m in found]).as_dict()
        return CheckResult(title, codes=[found[0]], messages=[found[1]]).as_dict()
    found = import_finding(source, (exercise_spec(check.exercise_id) or {}).get("forbidden") or {})
    if found or lost:   # 在运行之前：网页里没有 torch、numpy，导入会直接失败；CPython 里同样先说出题目的要求
        found = [f for f in (lost, found) if f]
        return CheckResult(title, codes=[c for c, _ in found], messages=[m for _, m in found]).as_dict()
    namespace = {"__name__": "__main__"}
    try:
        exec(code, namespace)
    except NotImplementedError:
        return CheckResult(title, codes=[NOT_DONE], messages=[MESSAGES[NOT_DONE]]).as_dict()
    except Exception as exc:  # noqa: BLE001 -- 顶层代码出错也只变成一条反馈
        found = own_call_finding(source, exc)
        if found:
            return CheckResult(title, codes=[found[0]], messages=[found[1]]).as_dict()
        return CheckResult(title, codes=[RAISED], messages=[message(None, RAISED, error=exception_sentence(exc))]).as_dict()
    fn = namespace.get(entry)
    if not callable(fn):
        return CheckResult(title, codes=["missing_name"], messages=[message(None, "missing_name", name=entry)]).as_dict()
    return check(fn, show=False).as_dict()
