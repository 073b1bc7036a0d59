# 导入：标准库；可选：IPython。
"""检查器的反馈层：只用标准库，Jupyter / Colab 里的检查器和网页（Pyodide）里的检查器共用这一份；网页只载入它和 list_checks.py。

这里有：
- 结果与说明：CheckResult、唯一的通用说明表 MESSAGES、message()、显示一次反馈的 finish()；
- 数字：把数字写得“刚好能看出不同”的 fmt_num / fmt_pair；
- 题目里写明的要求（requirement_findings）：签名与模板相同、不许用的现成函数（看编译后的代码对象，
  Jupyter、网页、终端里都一样）、必须用到的名字；
- 运行学习者的代码：run_limited（有时限，网页里也能用）、call_learner / Runner（返回 Outcome），
  找学习者出错的那一行（learner_frame）与常见报错的中文解释（explain_error）；
- 唯一的检查器装饰器 checker：纯 Python、PyTorch 函数、模块类的练习都用它（见 CONTRIBUTING「加一道练习」）。

错误代码（英文短名）只放在 result.codes 里，给测试和程序用；给人看的说明全是中文，不带代码。
"""
from __future__ import annotations

import html
import inspect
import io
import linecache
import math
import os
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

NOT_DONE = "not_done"
RAISED = "raised"
TIMEOUT = "timeout"
WRONG_OUTPUT = "wrong_output"
WRONG_SHAPE_OR_DTYPE = "wrong_shape_or_dtype"
CHECK_FAILED = "check_failed"   # 检查器自己出了意外（不应发生）；不在各检查器的错误目录里
# 一次调用学习者代码最多运行几秒（PyTorch 练习）；纯 Python 练习另有 list_checks.TIME_LIMIT（网页里要更快地给出反馈）
TIME_LIMIT = 5.0

# 唯一的一张通用说明表：每个通用代码一种说法，各检查器（PyTorch 的、纯 Python 的、网页里的）都用它。
# 各练习自己的代码及说明在它文件夹的 check.py 的 CODES 里，不许重新定义这里的代码（tests/test_exercise_layout.py）。
MESSAGES = {
    NOT_DONE: "尚未作答：模板里的 raise NotImplementedError 还在，写好你的实现后再检查。",
    # 学习者的代码出错：说明只由 exception_sentence 写成（出错的那一行、中文的原因与改法、Python 的原话），全书一种写法
    "raised": "{error}",
    "timeout": "你的函数运行超过 {limit:g} 秒（可能是死循环），检查已中止。",
    # 先说一句中文（与 Python 版本无关），再给 Python 的原话（评审 r44：以前只有英文）
    "syntax_error": "第 {line} 行有语法错误：Python 读不懂这里的写法（常见的原因：少了逗号、括号或冒号，关键字拼错；"
                    "也可能错在上一行）。Python 的报错是 SyntaxError：{error}",
    # 评审 r46：条件里把 == 写成了 =（Python 3.10+ 与 Pyodide 都说 Maybe you meant '=='）：说出 = 是赋值、比较写 ==
    "assign_not_compare": "第 {line} 行的条件 `{said}` 里只有一个 =：= 是赋值，比较两个值是否相等要写两个等号 =="
                          "{fixed}{plain}。Python 的报错是 SyntaxError：{error}",
    # 网页里最常见的头几种错误（list_checks.run_source 在运行代码之前认出它们，CPython 与 Pyodide 里说法相同）
    "fullwidth_punctuation": "第 {line} 行有中文输入法打出的全角标点 {chars}：Python 只认英文（半角）标点。"
                             "请把输入法切到英文（或把标点设成半角）再输入：{fixes}。",
    # 只有网页的 run_source 报它（笔记本里语法错误到不了检查器）：网页的编辑器回车后会自动缩进，又自己打了空格是最常见的原因
    "unexpected_indent": "第 {line} 行的缩进多了：Python 用缩进表示代码块，只有以冒号结尾的行（def、for、if……）"
                         "之后才多缩进一层。让这一行的开头与上一行对齐（函数体里统一用 4 个空格）。"
                         "常见的原因：编辑器在回车后已经自动缩进好了，又自己打了空格；把多出来的空格删掉即可。",
    "missing_indent": "第 {line} 行应当缩进：以冒号结尾的行（def、for、if……）之后，代码块要比它多缩进一层（4 个空格）。",
    "mixed_tabs": "缩进混用了 Tab 键和空格：{where}。Python 分不清一个 Tab 算几个空格：请把缩进里的 Tab 都换成空格"
                  "（每层 4 个）。",
    "uneven_indent": "第 {line} 行的缩进与前面的任何一层都对不上：同一个代码块里的行要缩进同样多的空格（通常是 4 的倍数）。",
    # 网页练习里导入题目不许用的模块、或网页里没有的模块：只有一种说法；{absent} 只在网页里真的没有它时出现
    "forbidden_import": "题目要求{rule}：第 {line} 行导入了 {name}。请删掉这一行，只用列表、循环和 math 写{absent}。",
    # 题目没有禁止、只是网页里没有的模块：不说题目没写的要求
    "not_in_page": "网页里的 Python 只有标准库，没有 {name}：第 {line} 行导入了 {name}。这道练习用 Python 自带的功能"
                   "（如 math）就能写，请删掉这一行再检查（在 Jupyter 里可以用 {name}）。",
    "missing_name": "代码里没有找到 {name}：请保留模板里的名字。",
    # 评审 r44：手机上点错了行，输入覆盖了 def 那一行；随后的函数体「缩进多了」，删空格改不好。只由写明的要求拼出（两处相同）
    "missing_def": "代码里没有模板里的 `{line}` 这一行（也许在编辑时被覆盖、删掉或改了名字）：把这一行原样放回函数体的"
                   "上面，函数体的每一行都比它多缩进 4 个空格。",
    "not_list": "应返回一个 Python 列表，实际返回的是 {kind}。",
    # 评审 r47：返回值是 None 时不说「NoneType」（各练习「实际返回的是 {kind}」的说明都换成这一句，见 returned_none）
    "returned_none": "你的函数没有返回任何值（返回的是 None）：{why}。{fix}。",
    # 评审 r47：网页里写对的函数后面留了一行测试调用，运行整段代码时它出错了（list_checks.own_call_finding）
    "own_call_failed": "运行你的整段代码时，第 {line} 行你自己写的调用 `{said}` 出错了，检查器还没有开始检查{inside}。"
                       "检查器会用它自己的输入调用 {name}，不需要你在代码里调用：删掉这一行（或者改对它的参数）再检查。"
                       "Python 的报错是 {error}",
    "wrong_length": "{what}应有 {expected} 个数，实际有 {actual} 个。",
    "wrong_rows": "输出应有 {expected} 行（每行一个列表），实际有 {actual} 行{hint}。",
    # 一维输出只有 1 个数、应有好几个（list_checks.as_floats 给了正确输出时）：{hint} 说出它正是第 1 个输入的结果、return 在哪里
    "one_value": "{what}应有 {expected} 个数，实际只有 1 个{hint}。",
    "one_row": "输出应有 {expected} 行（每行一个列表），你返回的却是一个 {length} 个数的一维列表，只有一行{hint}。",
    "columns_returned": "你返回的是列：{cols} 个列表，每个长 {rows}（每个特征一个）。输出要和输入一样按行排列，{rows} 行、每行 {cols} 个数"
                  "（每个样本一行）：把结果转置回来再返回（zip(*结果) 把列变回行）。",
    "rows_not_lists": "外层是列表，但第 {row} 行是 tuple（元组）：每一行也要是列表（用方括号 [...] 写这一行，不用圆括号；"
                      "或用 list(...) 转换：zip 给出的每一行是 tuple，用 [list(r) for r in zip(...)] 把每行变成列表）。",
    "shared_rows": "你返回的 {rows} 行是同一个列表对象（改一行就改了所有行，所以每行都一样）：像是用 [[0.0] * H] * B "
                   "建的列表。改成 [[0.0] * H for _ in range(B)]，或每行新建一个列表再 append。",
    # 题目写明返回元组 (…, …)、学习者返回了列表（值都对）：用他自己的数写出元组；规则那句由 list_checks.tuple_rule 写成
    "list_not_tuple": "你返回的是列表 {value}，题目写明返回元组 {stated}：写成 return {names}（逗号隔开、不加方括号就是元组）"
                      "或 {fixed}。{rule}。",
    "not_number": "{what}应是浮点数，实际是 {value!r}。",
    "wrong_output": "{what}应为 {want}，你的是 {got}。",
    "check_failed": "检查你的结果时出错（{error}）：请确认返回值的类型和形状符合题目要求。",
    "wrong_signature": "{detail}",
    "forbidden_call": "题目要求{rule}，你的代码里用到了 `{name}`{where}：请自己写出这一步。",
    "missing_call": "题目要求{rule}，你的代码里没有用到 `{name}`。",
    "modified_input": "你改动了传入的{what}：请新建{new}返回，不要修改输入（调用者的数据会被悄悄改掉）。",
    # PyTorch 练习（torch_checks）常见的几种
    "not_tensor": "应返回一个 torch 张量，实际返回的是 {kind}。",
    "wrong_shape": "{label}输出形状应为 {expected}，实际是 {actual}。",
    "nan_output": "{label}输出里出现了 NaN 或无穷大。",
    "broadcast_error": "形状对不上，无法广播：第 {dim} 维一个长 {a}、一个长 {b}{where}。求均值、方差后，结果要还能和原张量"
                       "逐元素运算（想想 keepdim）。",
}


def exercise_id_of(module_name):
    """检查器模块名 -> 练习 id：``...items.ch02_relu.check`` -> ``"ch02-relu"``（id 只写在文件夹名里）。"""
    parts = module_name.split(".")
    if len(parts) < 3 or parts[-1] != "check" or parts[-3] != "items":
        raise ValueError(f"检查器要写在 items/<练习>/check.py 里，{module_name!r} 不是这样的模块")
    return parts[-2].replace("_", "-")


def message(table, code, **fields):
    """取出 code 的说明（先查 table，再查通用表）并填入字段；字段缺失时返回未填的模板。

    「实际返回的是 {kind}」一类的说明（not_list、not_tensor、not_rows……）在返回值是 None（kind 是 "NoneType"）时
    都换成 returned_none 的那一句：全书一种说法，代码不变。
    """
    template = (table or {}).get(code) or MESSAGES[code]
    if fields.get("kind") == "NoneType" and "返回的是 {kind}" in template:
        return returned_none(_CHECKING[-1] if _CHECKING else None)
    try:
        return template.format(**fields)
    except (KeyError, IndexError, ValueError):
        return template


_CHECKING = []   # Checker.__call__ 期间正在检查的学习者的函数（returned_none 从它的源码里找名字）


def returned_none(fn=None):
    """学习者的函数返回了 None 时的说明：没有 return（或只 print 了）时说加上 `return 名字`（名字是他在函数里建的
    列表，找不到时举例 `return out`）；有 return 却得到 None 时说 return 后面的值本身是 None。看不到源码时两种都说。"""
    import ast
    import inspect
    import textwrap
    node = None
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
        node = tree.body[0] if isinstance(tree.body[0], (ast.FunctionDef, ast.AsyncFunctionDef)) else None
    except (OSError, TypeError, SyntaxError, ValueError, IndexError):
        pass
    if node is None:
        return MESSAGES["returned_none"].format(why="函数里没有 return，或者结果只用 print 打印了出来",
                                                fix="在函数体的最后用 return 返回算好的结果，例如 `return out`")
    own = []
    todo = list(node.body)
    while todo:   # 函数自己的节点（不进嵌套的函数、类）
        n = todo.pop()
        if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            own.append(n)
            todo.extend(ast.iter_child_nodes(n))
    valued = [n for n in own if isinstance(n, ast.Return) and n.value is not None
              and not (isinstance(n.value, ast.Constant) and n.value.value is None)]
    if valued:
        return MESSAGES["returned_none"].format(
            why="有 return，得到的值却是 None：`out.append(v)`、`values.sort()` 这类方法只改动列表，本身返回 None；"
                "也可能函数没有走到 return 就结束了",
            fix="先调用这类方法，再单独写一行 return 返回那个列表，例如 `return out`")
    lists = [t.targets[0].id for t in node.body if isinstance(t, ast.Assign) and len(t.targets) == 1
             and isinstance(t.targets[0], ast.Name) and (isinstance(t.value, (ast.List, ast.ListComp)) or (
                 isinstance(t.value, ast.Call) and isinstance(t.value.func, ast.Name) and t.value.func.id == "list"))]
    printed = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "print" for n in own)
    why = ("函数里没有 return，结果只用 print 打印了出来：print 只是把它显示出来，调用函数的人（检查器）拿不到" if printed
           else "函数里没有 return")
    fix = (f"在函数体的最后（不在循环里）加上 `return {lists[-1]}`" if lists
           else "在函数体的最后用 return 返回算好的结果，例如 `return out`")
    return MESSAGES["returned_none"].format(why=why, fix=fix)


# ---------------------------------------------------------------------------
# 结果
# ---------------------------------------------------------------------------
class CheckResult:
    """一次检查的结果。``bool(result)`` 等于 ``result.passed``；codes 与 messages 一一对应。

    state："passed"（通过）、"not_done"（尚未作答：只有 not_done 一个代码，显示中性的灰色 ○）
    或 "failed"（发现问题，✗ 后面的个数就是列出的问题条数）。
    """

    def __init__(self, exercise, passed=None, codes=None, messages=None, notes=None):
        self.exercise = exercise
        self.codes = list(codes or [])
        self.messages = list(messages or [])
        self.passed = (not self.codes) if passed is None else bool(passed)
        self.notes = list(notes or [])
        self._shown_in = None

    def __bool__(self):
        return bool(self.passed)

    def __eq__(self, other):
        if not isinstance(other, CheckResult):
            return NotImplemented
        return self.as_dict() == other.as_dict()

    @property
    def state(self):
        if self.passed:
            return "passed"
        return "not_done" if self.codes == [NOT_DONE] else "failed"

    def _head(self):
        if self.state == "passed":
            return f"✓ {self.exercise}：全部检查通过。"
        if self.state == "not_done":
            return f"○ {self.exercise}：{self.messages[0] if self.messages else MESSAGES[NOT_DONE]}"
        return f"✗ {self.exercise}：发现 {len(self.codes)} 个问题"

    def text(self):
        """终端里显示的纯文本反馈：全是中文，错误代码只在 result.codes 里。"""
        lines = [self._head()]
        if self.state == "failed":
            lines += [f"  - {msg}" for msg in self.messages]
        lines += [f"  · {note}" for note in self.notes]
        return "\n".join(lines)

    __str__ = text

    def __repr__(self):
        return self.text()

    def as_dict(self):
        return {"exercise": self.exercise, "passed": self.passed, "state": self.state, "codes": self.codes,
                "messages": self.messages, "notes": self.notes, "head": self._head()}

    def _repr_html_(self):
        """笔记本与书页里的反馈。颜色用 CSS 变量（书页主题、JupyterLab 的亮/暗色各自提供），
        没有这些变量时（经典 Notebook）用适合白底的颜色。尚未作答是中性的灰色，不是红色。"""
        esc = html.escape
        state = self.state
        color = STATE_COLORS[state]
        parts = [f'<div class="dsx-check dsx-check-{state}" data-state="{state}" '
                 f'data-codes="{esc(" ".join(self.codes))}" style="border-left:4px solid {color};'
                 f'background:{BACKGROUND};padding:2px 8px;margin:4px 0;line-height:1.5">',
                 f'<div class="dsx-check-head" style="color:{color};'
                 f'{"font-weight:bold" if state != "not_done" else ""}">{esc(self._head())}</div>']
        if state == "failed":
            parts.append('<ul style="margin:2px 0;padding-left:1.4em">')
            parts += [f"<li>{esc(msg)}</li>" for msg in self.messages]
            parts.append("</ul>")
        for note in self.notes:
            parts.append(f'<div style="color:{STATE_COLORS["not_done"]};font-size:90%">{esc(note)}</div>')
        parts.append("</div>")
        return "".join(parts)

    def _mimebundle(self):
        return {"text/plain": self.text(), "text/html": self._repr_html_()}

    def _ipython_display_(self):
        # finish() 已在本单元格显示过 -> 不再显示（避免重复）；否则正常显示。
        shell = _ipython_shell()
        if shell is not None and self._shown_in == (id(shell), shell.execution_count):
            return
        _display_bundle(self._mimebundle())


# 三种状态的文字颜色：书页主题（pydata-sphinx-theme）的变量在亮、暗色下各有合适的值（对比度 ≥ 4.5:1）；
# 没有这些变量时（JupyterLab、经典 Notebook、Colab）用白底上对比度 ≥ 4.5:1 的颜色，灰色跟随 JupyterLab 的主题。
STATE_COLORS = {
    "passed": "var(--pst-color-success, #1a7f37)",
    "failed": "var(--pst-color-danger, #b3261e)",
    "not_done": "var(--pst-color-text-muted, var(--jp-content-font-color2, #57606a))",
}
BACKGROUND = "var(--pst-color-background, transparent)"


def _ipython_shell():
    """正在运行的 IPython（笔记本或 IPython 终端）；普通 Python 和网页里返回 None。不主动导入 IPython。"""
    if "IPython" not in sys.modules:
        return None
    try:
        from IPython import get_ipython
        return get_ipython()
    except Exception:  # noqa: BLE001
        return None


def _display_bundle(bundle):
    from IPython.display import display
    display(bundle, raw=True)


def finish(exercise, findings, notes=(), show=True, each=False):
    """把 [(代码, 中文说明), ...] 整理成 CheckResult，显示一次并返回。

    同一个代码只保留第一条说明（each=True 时每条不同的说明都保留：例如五道小题错了三种，就列五条）；
    findings 为空表示通过。show=False 时不显示（测试、网页用）。
    """
    codes, messages = [], []
    for code, msg in findings:
        if (code not in codes) if not each else ((code, msg) not in zip(codes, messages)):
            codes.append(code)
            messages.append(msg)
    result = CheckResult(exercise, not codes, codes, messages, list(notes))
    if show:
        shell = _ipython_shell()
        if shell is not None:
            _display_bundle(result._mimebundle())
            result._shown_in = (id(shell), shell.execution_count)
        else:
            print(result.text())
    return result


# ---------------------------------------------------------------------------
# 数字
# ---------------------------------------------------------------------------
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def fmt_num(v, digits=4):
    """把数字写成句子里用的样子：0.9731、1.2×10⁻⁵、3×10⁴、NaN（不写 1.2e-05）。"""
    v = float(v)
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "∞" if v > 0 else "−∞"
    if v == 0:
        return "0"
    if 1e-3 <= abs(v) < 1e4:
        return f"{v:.{digits}g}"
    if 1e4 <= abs(v) < 1e5 and digits <= 5:
        return f"{v:.0f}"
    mantissa, exponent = f"{v:.{max(digits - 3, 1)}e}".split("e")
    mantissa = mantissa.rstrip("0").rstrip(".") if "." in mantissa else mantissa
    return f"{mantissa}×10{str(int(exponent)).translate(_SUPERSCRIPT)}"


def fmt_pair(want, got, digits=6):
    """两个不同的数，各写成字符串，位数多到两者看得出不同（最多 17 位）。"""
    for d in range(digits, 18):
        a, b = fmt_num(want, d), fmt_num(got, d)
        if a != b or float(want) == float(got):
            return a, b
    return fmt_num(want, 17), fmt_num(got, 17)


# ---------------------------------------------------------------------------
# 题目写明的要求：签名与不许用的名字
# ---------------------------------------------------------------------------
REQUIRED = "<必填>"


def _entry_callable(obj):
    """函数本身；类则取它的构造函数 __init__（签名里去掉 self）。"""
    if inspect.isclass(obj):
        return obj.__init__, True
    return obj, False


def signature_findings(obj, params, name):
    """params：[(参数名, 默认值或 REQUIRED), ...]（来自模板）。返回签名不符的 findings。

    必填参数只看个数（检查按位置传它们）；有默认值的参数看名字和默认值（检查按名字传，读者不传时用默认值）。
    """
    fn, is_class = _entry_callable(obj)
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return []
    got = list(sig.parameters.values())
    if is_class and got and got[0].name == "self":
        got = got[1:]
    var_pos = any(p.kind == p.VAR_POSITIONAL for p in got)
    var_kw = any(p.kind == p.VAR_KEYWORD for p in got)
    plain = [p for p in got if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    want_text = ", ".join(n if d == REQUIRED else f"{n}={d!r}" for n, d in params)
    got_text = ", ".join(str(p) for p in got)
    sig_text = f"题目的签名是 `{name}({want_text})`，你的是 `{name}({got_text})`"

    def bad(detail):
        return [("wrong_signature", message(None, "wrong_signature", detail=detail))]
    required = [n for n, d in params if d == REQUIRED]
    if not var_pos and len(plain) < len(required):
        return bad(f"参数少了：{sig_text}。")
    extra = [p.name for p in got[len(required):] if p.default is inspect.Parameter.empty
             and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    if extra:
        return bad(f"多了必填参数 `{extra[0]}`：{sig_text}；多出来的参数要有默认值，否则按题目调用时会报错。")
    by_name = {p.name: p for p in got}
    for pname, default in params:
        if default == REQUIRED:
            continue
        p = by_name.get(pname)
        if p is None:
            if var_kw:
                continue
            return bad(f"缺少参数 `{pname}`（默认值 {default!r}）：{sig_text}。检查会按名字传入 {pname}。")
        if p.default is inspect.Parameter.empty:
            return bad(f"参数 `{pname}` 应有默认值 {default!r}，你的没有（{sig_text}）：不传 {pname} 时也要能调用。")
        if not _same_default(p.default, default):
            return bad(f"参数 `{pname}` 的默认值应是 {default!r}，你的是 {p.default!r}："
                       f"不传 {pname} 时（默认情况）结果会不对。")
    return []


def _same_default(got, want):
    if isinstance(got, bool) or isinstance(want, bool):
        return got is want
    if isinstance(want, float) and isinstance(got, (int, float)):
        return math.isclose(got, want, rel_tol=1e-9)
    return got == want


def _code_objects(obj, seen):
    """obj（函数、类、方法）里所有学习者写的代码对象，连同它调用的、同一命名空间里定义的辅助函数。"""
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if inspect.isclass(obj):
        if obj.__module__ in ("builtins",) or _internal_module(obj.__module__):
            return
        for value in vars(obj).values():
            if isinstance(value, (staticmethod, classmethod)):
                value = value.__func__
            if isinstance(value, property):
                value = value.fget
            if inspect.isfunction(value):
                yield from _code_objects(value, seen)
        return
    if inspect.ismethod(obj):
        obj = obj.__func__
    if not inspect.isfunction(obj) or _internal_module(getattr(obj, "__module__", "") or ""):
        return
    stack = [obj.__code__]
    while stack:
        code = stack.pop()
        yield code
        stack += [c for c in code.co_consts if inspect.iscode(c)]
        for n in code.co_names:
            helper = obj.__globals__.get(n)
            if (inspect.isfunction(helper) or inspect.isclass(helper)) and \
                    getattr(helper, "__module__", None) == obj.__module__:
                yield from _code_objects(helper, seen)


def _internal_module(module):
    top = module.split(".")[0]
    return top in ("dsx_util", "torch", "numpy", "math", "statistics") or module in sys.stdlib_module_names


def names_used(obj):
    """学习者代码里用到的全局名字与属性名（如 F、layer_norm、var、backward）。"""
    names = set()
    for code in _code_objects(obj, set()):
        names.update(code.co_names)
        # __import__("torch")、importlib.import_module("numpy") 这样用字符串写出的模块名也算
        names.update(c for c in code.co_consts if isinstance(c, str) and c.isidentifier())
    return names


def forbidden_findings(obj, forbidden):
    """forbidden：{名字: 题目里的要求（中文）}。用到了其中的名字 -> 一条 forbidden_call。"""
    used = names_used(obj)
    for name, rule in forbidden.items():
        if name in used:
            return [("forbidden_call", message(None, "forbidden_call", rule=rule, name=name, where=""))]
    return []


def requirement_findings(obj, spec, name):
    """按 spec（catalog.Exercise.spec：签名、不许用的名字）检查；返回 findings（满足时为空）。"""
    if not spec:
        return []
    findings = []
    # 类的练习也接受“工厂函数”（检查器的用法 check_x(lambda d: ...)）：那时不比构造函数的签名
    factory = spec.get("kind") == "class" and not inspect.isclass(obj)
    if spec.get("params") is not None and not factory:
        findings += signature_findings(obj, [tuple(p) for p in spec["params"]], name)
    findings += forbidden_findings(obj, spec.get("forbidden") or {})
    used = names_used(obj) if spec.get("required") else set()
    for needed, rule in (spec.get("required") or {}).items():
        if needed not in used:
            findings.append(("missing_call", message(None, "missing_call", rule=rule, name=needed)))
    return findings


# ---------------------------------------------------------------------------
# 常见 PyTorch / Python 报错的中文解释
# ---------------------------------------------------------------------------
_ERRORS = [
    ("a leaf Variable that requires grad is being used in an in-place operation",
     "不能直接原地修改需要梯度的参数（nn.Parameter）：把 copy_、add_ 这类原地操作放进 `with torch.no_grad():` 里"),
    ("must match the size of tensor b",
     "两个张量的形状对不上，无法广播：求均值、方差、均方时加上 keepdim=True，结果才能和原张量逐元素运算"),
    ("The expanded size of the tensor",
     "两个张量的形状对不上，无法广播：检查是哪一维长度不同（常见原因是归约时少了 keepdim=True）"),
    ("Dimension out of range",
     "dim 超出了张量的维数：负数从最后一维往前数，-1 是最后一维"),
    ("shapes cannot be multiplied",
     "矩阵乘法两边的形状对不上：左边的最后一维要等于右边的倒数第二维"),
    ("does not require grad and does not have a grad_fn",
     "这个结果不在计算图里，没法求梯度：是不是用了 .detach()、.item() 或 torch.no_grad()？"),
    ("Can't call numpy() on Tensor that requires grad",
     "需要梯度的张量不能直接转成 NumPy：先 .detach()，或整段计算都用 torch 完成"),
    ("only one element tensors can be converted to Python scalars",
     "只有一个元素的张量才能用 float() / .item() 变成 Python 数；这里要对整个张量运算"),
    ("Expected all tensors to be on the same device",
     "张量不在同一个设备上（CPU / GPU）：用 .to(x.device) 放到一起"),
    ("could not infer output dtype",
     "整数张量不能直接求均值：先转成浮点数（.float()）"),
    ("expected scalar type",
     "两个张量的 dtype 不同：用 .to(x.dtype) 统一"),
    ("is not callable",
     "你把一个不是函数的东西当函数调用了：检查括号和变量名（例如把张量当成了方法）"),
    ("unsupported operand type",
     "这两个值不能做这种运算：检查它们的类型（例如列表不能直接和数相乘再相加）"),
    ("No module named 'torch'",
     "这里的 Python 没有 PyTorch（网页里只有标准库）：这道练习不需要它，删掉 import torch 这一行再检查"),
    ("No module named 'numpy'",
     "这里的 Python 没有 NumPy（网页里只有标准库）：这道练习不需要它，删掉 import numpy 这一行再检查"),
    ("list index out of range",
     "列表下标越界：检查循环的范围和列表的长度"),
]


def _close_name(name, pool):
    """pool 里与 name 最接近的另一个名字（拼写错误时的建议）；没有足够接近的时返回 None。"""
    import difflib
    pool = sorted({str(p) for p in pool} - {str(name)})
    swapped = [p for p in pool if sorted(p) == sorted(str(name))]   # 两个字母打颠倒了（tahn → tanh）最常见
    found = swapped or difflib.get_close_matches(str(name), pool, n=1, cutoff=0.75)
    return found[0] if found else None


def _name_hint(exc, source, line_text):
    """KeyError、NameError、AttributeError、除以 0：一句中文，说出缺的是哪个名字（并从学习者自己的代码里找一个相近的）。"""
    import keyword
    words = set(re.findall(r"[A-Za-z_]\w*", source)) - set(keyword.kwlist)
    if isinstance(exc, KeyError) and len(exc.args) == 1:
        key = exc.args[0]
        near = _close_name(key, set(re.findall(r"""['"]([^'"\n]{1,40})['"]""", source))) if isinstance(key, str) else None
        return (f"字典里没有键 {key!r}：键要和字典里的一字不差（拼写、单复数、大小写）"
                + (f"，你的代码里还写了 {near!r}，是不是要用它？" if near else "，请核对题目给出的键名"))
    if isinstance(exc, NameError) and not isinstance(exc, UnboundLocalError) and getattr(exc, "name", None):
        near = _close_name(exc.name, words)
        return (f"没有叫 {exc.name} 的名字（变量、函数或模块）"
                + (f"：是不是把 {near} 拼错了？" if near else "：检查拼写，或者在用它之前先定义（或 import）它"))
    if isinstance(exc, AttributeError) and getattr(exc, "name", None):
        obj = getattr(exc, "obj", None)
        if isinstance(obj, dict) and exc.name in obj:   # cfg.n_layers：字典的值要用 cfg["n_layers"] 取
            var = re.search(r"(\w+)\s*\.\s*" + re.escape(exc.name) + r"\b", line_text)
            var = var.group(1) if var else "d"
            return f"{var} 是字典，字典里的值要用方括号和键来取：写成 {var}[\"{exc.name}\"]，不是 {var}.{exc.name}"
        owner = getattr(obj, "__name__", None) if type(obj).__name__ == "module" else None
        near = _close_name(exc.name, [a for a in dir(obj) if not a.startswith("_")])   # 只建议它真有的属性
        where = f"模块 {owner} 里" if owner else f"{type(obj).__name__} 类型的值"
        return (f"{where}没有 {exc.name}" + (f"：是不是要写 {near}？" if near else "：检查拼写"))
    if isinstance(exc, ZeroDivisionError):
        if re.search(r"sqrt|var|std|eps", line_text):
            return "除以了 0：这一行的分母在某个输入上是 0。方差可能是 0（一组数全都相同），分母里是不是少了 ε？"
        if re.search(r"len\(", line_text):
            return "除以了 0：这一行的分母在某个输入上是 0。检查个数是怎么算的：只有一个数时 len(v) − 1 就是 0；均值是总和除以个数 len(v)"
        return "除以了 0：这一行的分母在某个输入上是 0，检查它是怎么算的（例如把个数减了 1，或列表是空的）"
    return None


def _type_hint(exc):
    """几种常见的 TypeError：^ 当成了乘方、函数本身（没加括号调用）参与了运算、对一个数取下标。不是这几种时 None。"""
    if not isinstance(exc, TypeError):
        return None
    text = str(exc)
    if text.startswith("unsupported operand type(s) for ^"):   # 2.5 ^ 2：^ 只对整数有意义（按位异或）
        return "Python 里 ^ 是按位异或，不是乘方：乘方要写成 **，例如 (v - mu) ** 2"
    if text.startswith("unsupported operand type(s)") and re.search(r"'(builtin_function_or_method|function)'", text):
        return ("参与运算的一个值是函数本身，不是它算出的结果：函数要加上括号调用，"
                "例如 len(values) 才是个数，只写 len 得到的是函数")
    if re.fullmatch(r"'(float|int)' object is not subscriptable", text):
        return ("对单个数取了下标（像 alpha[i]）：这个值只是单个数，不是列表。"
                "看题目里哪个参数是单个数：它对每个元素都一样，直接用它，不要写 [i]")
    return None


_LIST_OPS = {"*": "相乘", "/": "相除", "+": "相加", "-": "相减"}
# 运算符两边的名字：左边的名字后面紧跟运算符，右边的名字前面紧挨运算符、后面不是 [ ( .（gamma[i]、f(x)、m.x 不算）
_OP_PATTERN = {"*": r"(?<!\*)\*(?![*=])", "/": r"(?<!/)/(?![/=])", "+": r"\+(?!=)", "-": r"-(?![=>])"}


def _list_number_op(exc):
    """列表和一个数做了 * / + -（γ 当成了一个数）：返回那个运算符；别的 TypeError 返回 None。"""
    text = str(exc)
    if re.fullmatch(r"can't multiply sequence by non-int of type 'float'", text):
        return "*"
    if re.fullmatch(r'can only concatenate list \(not "(float|int)"\) to list', text):
        return "+"
    m = re.fullmatch(r"unsupported operand type\(s\) for ([-+/*]): '(\w+)' and '(\w+)'", text)
    if m and sorted(m.group(2, 3)) in (["float", "list"], ["int", "list"]):
        return m.group(1)
    return None


def _learner_locals(exc):
    """出错时学习者那一帧的局部变量（列表推导里也看得到外层的参数）；找不到时 None。"""
    tb, found = exc.__traceback__, None
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if not in_library(name) and not name.startswith(_PACKAGE_DIR):
            found = tb.tb_frame
        tb = tb.tb_next
    return dict(found.f_locals) if found is not None else None


def _list_hint(exc, source, line_text):
    """gamma * v、g * t + beta：把列表参数当成一个数来运算。能从出错的那一行和当时的变量认出是哪个列表时点名，认不出时不猜。"""
    if not isinstance(exc, TypeError):
        return None
    op = _list_number_op(exc)
    if op is None:
        return None
    pattern = _OP_PATTERN[op]
    names = re.findall(r"(?<![\w.])([A-Za-z_]\w*)\s*" + pattern, line_text)
    names += re.findall(pattern + r"\s*([A-Za-z_]\w*)(?![\w.])(?!\s*[\[(.])", line_text)
    local = _learner_locals(exc) or {}
    seen = [n for n in dict.fromkeys(names) if n in local]
    lists = [n for n in seen if isinstance(local[n], list)]
    verb = _LIST_OPS[op]
    if len(lists) == 1:
        name = lists[0]
        pair = (f"（for v, {name[0]} in zip(values, {name})）"
                if name != "values" and name[0] != "v" and re.search(r"\bvalues\b", source) else "")
        return (f"{name} 是列表（有 {len(local[name])} 个数），不能当成一个数直接{verb}：要逐个分量用它的元素，"
                f"写 {name}[i]，或用 zip 逐个配对{pair}")
    if any(not isinstance(local[n], (int, float, list)) for n in seen):   # 字符串、元组……：不是列表当成了数
        return None
    return (f"列表不能和一个数直接{verb}：检查它们的类型，这一行里有一个值是列表（像 gamma、beta 这样每个分量一个数的参数），"
            "要逐个分量用它的元素（gamma[i]），或用 zip 逐个配对")


def explain_error(exc, source="", line_text=""):
    """常见报错的一句中文解释（含修正办法）；不认识时返回 None。source、line_text：学习者的代码与出错的那一行（有时更准）。"""
    hint = (_name_hint(exc, source or "", line_text or "") or _type_hint(exc)
            or _list_hint(exc, source or "", line_text or ""))
    if hint:
        return hint
    text = f"{type(exc).__name__}: {exc}"
    for needle, sentence in _ERRORS:
        if needle.lower() in text.lower():
            return sentence
    return None


def learner_frame(exc):
    """异常回溯里最后一个属于学习者代码的帧 (文件名, 行号)；没有时 None。

    学习者的代码 = 不在标准库、已装的包（torch 等）里，也不在本包（检查器、练习文件夹）里：网页里是
    run_source 登记的 "<你的代码>"，笔记本里是单元格，终端里是学习者自己的文件。全书只有这一种找法。
    """
    tb, found = exc.__traceback__, None
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if not in_library(name) and not name.startswith(_PACKAGE_DIR):
            found = (name, tb.tb_lineno)
        tb = tb.tb_next
    return found


def code_frames(exc, filename):
    """异常回溯里文件名是 filename 的帧，由外到内：[(函数名, 行号), ...]（模块这一层的函数名是 "<module>"）。
    list_checks.own_call_finding 用它找出错的顶层语句（CPython 与 Pyodide 的回溯相同）。"""
    frames, tb = [], exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            frames.append((tb.tb_frame.f_code.co_name, tb.tb_lineno))
        tb = tb.tb_next
    return frames


def learner_source(exc):
    """(学习者的整段代码, 出错的那一行)，取自 linecache（网页里 run_source 登记了代码；IPython 自己登记单元格）。"""
    found = learner_frame(exc)
    if found is None:
        return "", ""
    lines = linecache.getlines(found[0])
    return "".join(lines), lines[found[1] - 1] if 0 < found[1] <= len(lines) else ""


# ---------------------------------------------------------------------------
# 调用学习者的代码：全书只有这一种办法（Jupyter、终端、网页里的 Pyodide 都一样）
# ---------------------------------------------------------------------------
class TimeUp(BaseException):
    """时间到：继承 BaseException，学习者代码里的 except Exception 接不住它。"""


class Capture(io.TextIOBase):
    """只保留前 limit 个字符、但记录总字符数的输出流。"""

    def __init__(self, limit):
        self.limit = limit
        self.parts = []
        self.kept = 0
        self.total = 0

    def writable(self):
        return True

    def write(self, s):
        s = str(s)
        n = len(s)
        self.total += n
        if self.kept < self.limit:
            piece = s[: self.limit - self.kept]
            self.parts.append(piece)
            self.kept += len(piece)
        return n

    def flush(self):
        pass

    def getvalue(self):
        return "".join(self.parts)


# 标准库和已安装的包所在的目录：全书只有这一份（运行时计时跳过它们；找学习者的行时也跳过它们）。
# 网页的 Pyodide 里 sys.prefix 是根目录 /，不算；那里的标准库与包在 os 模块所在的目录下。
LIBRARY_DIRS = tuple(sorted({os.path.join(os.path.abspath(p), "") for p in
                             (sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(os.__file__))
                             if p and os.path.dirname(os.path.abspath(p)) != os.path.abspath(p)}))
# 本包（检查器与练习文件夹）所在的目录：这里的帧不是学习者的代码
_PACKAGE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "")


def in_library(filename):
    """这个文件是标准库或已装的包（不是学习者的代码）：<frozen importlib…> 之类的内置模块，或在 LIBRARY_DIRS 下。"""
    return not filename or filename.startswith("<frozen") or filename.startswith(LIBRARY_DIRS)


def run_limited(fn, args=(), kwargs=None, timeout=2.0, capture_chars=None):
    """在当前线程里运行 fn(*args, **kwargs)，最多 timeout 秒（用 sys.settrace 计时：纯 Python 的死循环会被停下）。

    返回 dict：value、exception（学习者代码抛出的异常或 None）、timed_out、printed、printed_chars、seconds。
    capture_chars 不是 None 时捕获 stdout/stderr（只保留这么多字符）。KeyboardInterrupt 照常抛出。
    不用线程：网页里的 Pyodide 没有线程，一个机制在两处行为相同。
    """
    deadline = time.monotonic() + timeout

    def tracer(frame, event, arg):
        if in_library(frame.f_code.co_filename):
            return None           # 标准库与已装的包（torch 等）不逐行计时：既快，也不会在 import 进行到一半时停下
        if time.monotonic() > deadline:
            raise TimeUp
        return tracer
    capture = Capture(capture_chars) if capture_chars is not None else None
    old_out, old_err = sys.stdout, sys.stderr
    previous = sys.gettrace()
    out = {"value": None, "exception": None, "timed_out": False}
    start = time.perf_counter()
    if capture is not None:
        sys.stdout = sys.stderr = capture
    sys.settrace(tracer)
    try:
        out["value"] = fn(*args, **(kwargs or {}))
    except TimeUp:
        out["timed_out"] = True
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 -- 学习者的任何异常都要接住（包括 SystemExit）
        out["exception"] = exc
    finally:
        sys.settrace(previous)
        sys.stdout, sys.stderr = old_out, old_err
    out["seconds"] = time.perf_counter() - start
    out["printed"] = capture.getvalue() if capture is not None else ""
    out["printed_chars"] = capture.total if capture is not None else 0
    return out


# ---------------------------------------------------------------------------
# 运行学习者的代码
# ---------------------------------------------------------------------------
@dataclass
class Outcome:
    """call_learner 的返回值。ok=False 时 code 是 "raised" / "timeout" / "not_done"。"""

    ok: bool
    value: Any = None
    error: str | None = None      # 一行：异常类型与信息，外加出错的是学习者代码的第几行
    code: str | None = None
    printed: str = ""                # 捕获到的 stdout/stderr（截断后）
    printed_chars: int = 0           # 实际打印的总字符数
    seconds: float = 0.0
    exception: BaseException | None = field(default=None, repr=False)
    limit: float = 0.0               # 这次调用的时限（秒）

    @property
    def message(self) -> str:
        """这次失败对应的一行中文反馈（ok=True 时为空字符串）。"""
        if self.ok:
            return ""
        if self.code == NOT_DONE:
            return MESSAGES[NOT_DONE]
        if self.code == TIMEOUT:
            return message(None, TIMEOUT, limit=self.limit)
        if self.exception is None:
            return message(None, RAISED, error=f"运行你的代码时出错：{self.error}")
        return message(None, RAISED, error=exception_sentence(self.exception))


def _frame_text(where):
    """“第 12 行（`y = x / 0`）”；不在笔记本单元格里时带上文件名。where：learner_frame 的 (文件名, 行号)。"""
    filename, lineno = where
    line = linecache.getline(filename, lineno).strip()
    base = os.path.basename(filename)
    # 笔记本单元格的文件名（/tmp/ipykernel_123/456.py、<ipython-input-...>）对学习者没有意义
    in_cell = "ipykernel" in filename or base.startswith("<")
    loc = f"第 {lineno} 行" if in_cell else f"{base} 第 {lineno} 行"
    if len(line) > 80:
        line = line[:77] + "..."
    return loc + (f"（`{line}`）" if line else "")


def describe_exception(exc: BaseException) -> str:
    """一行描述：“RuntimeError: ……（你的代码第 12 行：`y = x / 0`）”。只指向学习者的代码。"""
    first = str(exc).strip().splitlines()
    text = type(exc).__name__ + (f": {first[0].strip()}" if first else "")
    if len(text) > 200:
        text = text[:197] + "..."
    where = learner_frame(exc)
    if where is not None:
        loc = _frame_text(where).replace("（`", "：`").rstrip("）")
        text += f"（{loc}）"
    return text


def exception_sentence(exc: BaseException) -> str:
    """学习者代码抛出的异常，写成以中文开头的一句：出错的行在前，Python 的原话在后。"""
    where = learner_frame(exc)
    first = str(exc).strip().splitlines()
    said = type(exc).__name__ + (f"：{first[0].strip()}" if first else "")
    if len(said) > 200:
        said = said[:197] + "..."
    why = explain_error(exc, *learner_source(exc))
    if why:   # 认识的报错：先用中文说原因和改法，再附 Python 的原话
        at = f"你的代码{_frame_text(where)}出错" if where is not None else "运行你的代码时出错"
        return f"{at}：{why}{'' if why.endswith('？') else '。'}Python 的报错是 {said}"
    if where is None:
        return f"运行你的代码时出错，Python 的报错是 {said}"
    return f"你的代码{_frame_text(where)}出错，Python 的报错是 {said}"


def call_learner(fn: Callable, *args, timeout: float = TIME_LIMIT, max_output_chars: int = 2000,
                 **kwargs) -> Outcome:
    """运行 fn(*args, **kwargs)，最多 timeout 秒；捕获并截断它打印的内容（run_limited，网页里用的也是它）。

    永远不抛出异常（KeyboardInterrupt 除外）：学习者代码的异常、超时、NotImplementedError
    都变成 Outcome 里的 code。纯 Python 的死循环到时会被停下。
    """
    run = run_limited(fn, args, kwargs, timeout=timeout, capture_chars=max_output_chars)
    common = dict(printed=run["printed"], printed_chars=run["printed_chars"], seconds=run["seconds"])
    if run["timed_out"]:
        return Outcome(False, code=TIMEOUT, error=f"超过 {timeout:g} 秒仍未结束", limit=timeout, **common)
    exc = run["exception"]
    if exc is not None:
        code = NOT_DONE if isinstance(exc, NotImplementedError) else RAISED
        return Outcome(False, code=code, error=describe_exception(exc), exception=exc, **common)
    return Outcome(True, value=run["value"], **common)


class Runner:
    """一次检查里多次调用学习者代码的小帮手：统计打印量，记住第一次失败。

    ``r.call(fn, *args)`` 返回 Outcome；``r.failure`` 是第一次失败（异常/超时/未完成）的 Outcome；
    ``r.notes()`` 给出“打印太多”之类的附加提醒。
    """

    def __init__(self, timeout: float = TIME_LIMIT, max_output_chars: int = 2000):
        self.timeout = timeout
        self.max_output_chars = max_output_chars
        self.printed_chars = 0
        self.first_print = ""
        self.failure: Outcome | None = None

    def call(self, fn, *args, **kwargs) -> Outcome:
        out = call_learner(fn, *args, timeout=self.timeout,
                           max_output_chars=self.max_output_chars, **kwargs)
        self.printed_chars += out.printed_chars
        if out.printed and not self.first_print:
            self.first_print = out.printed
        if not out.ok and self.failure is None:
            self.failure = out
        return out

    def notes(self) -> list[str]:
        if self.printed_chars <= 0:
            return []
        head = self.first_print.strip().splitlines()[0] if self.first_print.strip() else ""
        if len(head) > 60:
            head = head[:57] + "..."
        note = f"检查期间你的代码打印了 {self.printed_chars:,} 个字符，已省略不显示"
        if head:
            note += f"（第一行：{head!r}）"
        return [note + "；检查通过后可以删掉调试用的 print。"]


# ---------------------------------------------------------------------------
# 唯一的检查器装饰器：纯 Python、PyTorch 函数、模块类的练习都用它
# ---------------------------------------------------------------------------
class Stop(Exception):
    """检查函数体里发现无法继续的问题时抛出：``raise Stop([(代码, 说明), ...])``，这些就是结论。"""


SPECS = {}   # 练习 id -> 题目写明的要求（catalog.Exercise.spec）；网页里没有练习目录，由 list_checks.run_source 填入
# 按练习 id 读出写明的要求的函数：CPython 里 catalog 导入时设好（导入 dsx_util.exercises 就会导入 catalog）；
# 网页里没有练习目录，保持 None。这样本模块不导入 catalog，两者之间没有导入的圈
SPEC_SOURCE = None


def exercise_spec(exercise_id):
    """练习 exercise_id 写明的要求（标题、入口名、签名、不许用的名字）；CPython 里读练习目录，网页里读 SPECS。"""
    if exercise_id not in SPECS:
        if SPEC_SOURCE is None:
            return None
        SPECS[exercise_id] = SPEC_SOURCE(exercise_id)
    return SPECS[exercise_id]


def spec_findings(obj, exercise_id):
    """学习者写的 obj（函数或类）是否满足练习写明的要求；obj 不是学习者写的（本包、torch、标准库）时不查。"""
    spec = exercise_spec(exercise_id)
    module = getattr(obj, "__module__", None) or ""
    if not spec or not callable(obj) or _internal_module(module):
        return []
    return requirement_findings(obj, spec, spec["entry"])


def stops_checking(findings):
    """签名不符时，按题目的签名调用会出错，不必再往下检查。"""
    return any(code == "wrong_signature" for code, _ in findings)


def _random_states():
    """检查前的全局随机状态（random，以及已经导入了的 torch、NumPy）：检查里创建 nn.Linear 等会消耗随机数。"""
    import random
    torch, np = sys.modules.get("torch"), sys.modules.get("numpy")
    return (random.getstate(), torch.get_rng_state() if torch is not None else None,
            np.random.get_state() if np is not None else None)


def _restore_random_states(states):
    import random
    random.setstate(states[0])
    torch, np = sys.modules.get("torch"), sys.modules.get("numpy")
    if states[1] is not None and torch is not None:
        torch.set_rng_state(states[1])
    if states[2] is not None and np is not None:
        np.random.set_state(states[2])


class Checker:
    """一道练习的检查函数（``@checker`` 的结果）：``check_x(学习者的函数或类, show=True, **选项)`` -> CheckResult。

    依次：题目写明的要求（签名、不许用的名字；签名不符就停下）-> 检查函数体（返回 findings 列表、
    或带 notes 的 CheckResult；也可以 ``raise Stop(findings)``）-> 合并、显示一次。检查本身出意外时只报
    check_failed，绝不让单元格报错；结束时恢复学习者的全局随机状态。标题与要求来自练习文件夹。
    """

    def __init__(self, body, exercise_id, codes, each=False, runner=False):
        self.body, self.exercise_id, self.codes, self.each, self.runner = body, exercise_id, dict(codes), each, runner
        self.__name__ = self.__qualname__ = body.__name__
        self.__doc__ = body.__doc__
        self.__wrapped__ = body

    @property
    def exercise(self):
        """反馈里显示的练习标题（与题目单元格相同）。"""
        spec = exercise_spec(self.exercise_id)
        return spec.get("title", self.exercise_id) if spec else self.exercise_id

    def __call__(self, fn, show=True, **options):
        findings, notes = [], []
        states = _random_states()
        _CHECKING.append(fn)
        try:
            findings = spec_findings(fn, self.exercise_id)
            if not stops_checking(findings):
                if self.runner:   # 函数体多次调用学习者的代码：给它一个 Runner，事后附上它的提醒（打印太多等）
                    run = Runner(**options)
                    out = with_notes(self.body(fn, run), run.notes())
                else:
                    out = self.body(fn, **options)
                if isinstance(out, CheckResult):
                    findings += list(zip(out.codes, out.messages))
                    notes = out.notes
                else:
                    findings += list(out)
        except Stop as stop:
            findings += stop.args[0]
        except Exception as exc:  # noqa: BLE001 -- 检查本身永远不让单元格报错
            error = f"{type(exc).__name__}: {exc}".splitlines()[0][:120]
            findings, notes = [(CHECK_FAILED, message(None, CHECK_FAILED, error=error))], []
        finally:
            _CHECKING.pop()
            _restore_random_states(states)
        if any(code == NOT_DONE for code, _ in findings):
            findings = [(NOT_DONE, MESSAGES[NOT_DONE])]
        return finish(self.exercise, findings, notes, show=show, each=self.each)


def checker(module_name, codes, each=False, runner=False):
    """装饰器，每道练习的 check.py 都用它：``@checker(__name__, CODES)``。

    练习 id 由模块名推出（items/<练习>/check.py），CODES 是这道练习自己的代码 -> 中文说明（通用代码的说明在
    MESSAGES）。被装饰的函数体收到学习者的函数或类（以及调用时给的关键字选项，如 timeout），返回 findings：
    [(代码, 说明), ...]，空列表表示通过。each=True：同一个代码的不同说明都保留（例如几道小题错了同一种）。
    runner=True（模块类练习）：函数体写成 ``body(学习者的类, run)``，run 是一个 Runner（``check_x(类, timeout=1.0)``
    的 timeout 给它），结束后自动附上它的提醒。
    """
    def wrap(body):
        return Checker(body, exercise_id_of(module_name), codes, each, runner)
    return wrap


def with_notes(findings, notes):
    """检查函数体要附带提醒（例如“检查期间你的代码打印了很多字符”，见 Runner.notes）时，返回 with_notes(findings, notes)。"""
    findings = list(findings)
    return CheckResult("", codes=[c for c, _ in findings], messages=[m for _, m in findings], notes=list(notes))
