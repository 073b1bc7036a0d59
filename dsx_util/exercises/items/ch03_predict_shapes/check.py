# 导入：标准库、feedback、list_checks。
"""练习 ch03-predict-shapes 的检查器（只用标准库，网页里也能运行；题目、模板、参考答案在同一个文件夹；编目的错误写法在 mistakes.py）。

正确的形状按 PyTorch 的规则算出（归约掉的维度消失，keepdim=True 时留下长度 1；减法广播回 x 的形状），
tests/test_inpage_checks.py 核对它们与 PyTorch 真正算出的形状相同。
"""
import difflib

from ...feedback import checker, message
from ...list_checks import FULLWIDTH, call_or_stop, tuple_rule

CODES = {
    "not_dict": "应返回一个字典：键是表达式字符串，值是形状元组；实际返回的是 {kind}。",
    "missing_key": "字典里缺少表达式 {expr!r}（键要和题目里的表达式一字不差）。",
    "near_key": "字典里没有 {expr!r}，但有一个很像的键 {key!r}：{diff}。键要和题目里的表达式一字不差。",
    # 不给例子（评审 r44：每行都写「例如 (2, 3)」，读起来像是这个键的答案）
    "bad_shape_value": "{expr!r} 的值应是由整数组成的元组（和 x.shape 一样用圆括号写）；实际是 {value!r:.40}{hint}。",
    # 写成列表、形状本身对了的值只报一次（五个都是列表时一段话）；用学习者自己的数，不给固定的例子（读起来像答案）
    "shape_as_list": "{which}写成了列表（形状本身对了）：形状要写成整数元组，用圆括号，{fixes}。{rule}（x.shape 也是元组）。",
    "keepdim_dropped": "{expr!r}：keepdim=True 时被归约的维度不会消失，而是留下长度 1。",
    "keepdim_added": "{expr!r}：没有 keepdim=True 时，被归约的维度会从形状里消失。",
    "wrong_axis": "{expr!r}：你的答案像是归约了另一个维度。数一数 dim 指向哪一维（负数从最后一维往前数）。",
    "broadcast_misread": "{expr!r}：减法会把长度为 1 的维度广播回原来的长度，结果形状和 x 一样吗？",
    "keepdim_zero": "{expr!r}：keepdim=True 时被归约的那一维留下来，长度是 1，不是 0（这一维上的 {length} 个数归约成了 1 个数）。",
    "wrong_prediction": "{expr!r} 的形状不对：x 的形状是 (2, 3, 4)，{rule}{count}。",
}

SHAPE_X = (2, 3, 4)
# (表达式, 归约的维度（None：逐元素的减法，结果与 x 同形）, keepdim)
SHAPE_QUESTIONS = [
    ("x.mean(dim=-1)", (-1,), False),
    ("x.mean(dim=-1, keepdim=True)", (-1,), True),
    ("x.sum(dim=0)", (0,), False),
    ("x.var(dim=1, keepdim=True)", (1,), True),
    ("x - x.mean(dim=-1, keepdim=True)", None, None),
]


def reduced_shape(dims, keepdim):
    """形状为 SHAPE_X 的张量沿 dims 归约后的形状。"""
    dims = {d % len(SHAPE_X) for d in dims}
    return tuple(1 if i in dims else n for i, n in enumerate(SHAPE_X) if keepdim or i not in dims)


def true_shape(dims, keepdim):
    return SHAPE_X if dims is None else reduced_shape(dims, keepdim)


def _rule(dims, keepdim):
    """这道小题的形状规则（一句话，不直接给出答案）。"""
    if dims is None:
        return "减法把长度为 1 的维度广播回原来的长度，结果和 x 同形"
    lengths = "、".join(str(SHAPE_X[d % len(SHAPE_X)]) for d in dims)
    where = f"dim={', '.join(map(str, dims))} 指的是长度为 {lengths} 的那一维" + ("（负数从最后一维往前数）" if min(dims) < 0 else "")
    return where + ("：keepdim=True 时这一维留下，长度变成 1，其余各维不变" if keepdim
                    else "：归约后这一维从形状里消失，其余各维不变")


def _as_shape(value):
    """整数元组（或 torch.Size 这样的元组）-> 元组；其他 -> None。题目写明「值是整数元组」：列表不算（见 shape_as_list）。"""
    if not isinstance(value, tuple):
        return None
    if all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return tuple(value)
    return None


def _int_list(value):
    """由整数组成的列表（形状写成了列表）。"""
    return isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value)


def _bare(text):
    """去掉所有空白（空格、全角空格、Tab）。"""
    return "".join(text.split())


def _near_keys(answer):
    """{缺少的表达式: (学习者写的很像的键, 差在哪里（一句话）)}。先配「只差空白、全角字符」的键，再配最像的（相似度 ≥ 0.85）；
    一个键只配给一个表达式（评审 r44：以前三个缺的表达式里有两个配上了同一个不对的键）。"""
    asked = [q for q, _, _ in SHAPE_QUESTIONS]
    missing = [q for q in asked if q not in answer]
    spare = [k for k in answer if isinstance(k, str) and k not in asked]
    found = {}
    for expr in missing:   # 第一轮：去掉空白（全角字符换成半角）后一字不差
        for key in spare:
            wide = [c for c in dict.fromkeys(key) if c in FULLWIDTH]
            narrow = "".join(" " if c == "　" else FULLWIDTH.get(c, c) for c in key)
            if _bare(narrow) != _bare(expr):
                continue
            if wide:
                fixes = "、".join(f"「{c}」改成「{FULLWIDTH[c]}」" for c in wide)
                found[expr] = key, f"里面有中文输入法打出的全角字符 {''.join(f'「{c}」' for c in wide)}，{fixes}"
            else:
                found[expr] = key, "只差空格（例如逗号后面的空格）"
            spare.remove(key)
            break
    for expr in missing:   # 第二轮：剩下的键里最像的那个
        if expr in found or not spare:
            continue
        ratio, key = max((difflib.SequenceMatcher(None, key, expr).ratio(), key) for key in spare)
        if ratio >= 0.85:
            found[expr] = key, "两者很像，但不完全相同"
            spare.remove(key)
    return found


@checker(__name__, CODES, each=True)
def check_predict_shapes(fn):
    """检查 predict_shapes()：对形状 (2, 3, 4) 的 x，预测几个表达式结果的形状。"""
    answer = call_or_stop(fn)
    if not isinstance(answer, dict):
        return [("not_dict", message(CODES, "not_dict", kind=type(answer).__name__))]
    findings = []
    near = _near_keys(answer)
    listed_values = []   # 写成列表、形状本身对了的 (表达式, 值)：最后合成一条 shape_as_list
    for expr, dims, keepdim in SHAPE_QUESTIONS:
        truth = true_shape(dims, keepdim)
        if expr not in answer:
            key, diff = near.get(expr, (None, None))
            code, fields = ("near_key", {"key": key, "diff": diff}) if key else ("missing_key", {})
        else:
            listed = _int_list(answer[expr])   # 写成了列表：先看形状本身对不对，对了再说要写成元组
            shape = tuple(answer[expr]) if listed else _as_shape(answer[expr])
            code, fields = None, {"value": answer[expr]}
            if shape is None:
                code = "bad_shape_value"
                fields["hint"] = "：这是字符串，去掉引号" if isinstance(answer[expr], str) else ""
            elif shape == truth and listed:
                listed_values.append((expr, answer[expr]))
            elif shape != truth:
                code = "wrong_prediction"
                if dims is None:
                    if len(shape) < len(truth) or 1 in shape:
                        code = "broadcast_misread"
                elif shape == reduced_shape(dims, not keepdim):
                    code = "keepdim_added" if not keepdim else "keepdim_dropped"
                elif keepdim and shape == tuple(0 if n == 1 and m != 1 else n for n, m in zip(truth, SHAPE_X)):
                    code = "keepdim_zero"   # 留下的那一维写成了 0
                    fields["length"] = "、".join(str(m) for n, m in zip(truth, SHAPE_X) if n == 1 and m != 1)
                elif any(shape in (reduced_shape((d,), keepdim), reduced_shape((d,), not keepdim))
                         for d in range(len(SHAPE_X)) if d not in {e % len(SHAPE_X) for e in dims}):
                    code = "wrong_axis"
            if code == "wrong_prediction":
                fields["rule"] = _rule(dims, keepdim)
                fields["count"] = (f"；你的答案有 {len(shape)} 维，应有 {len(truth)} 维" if len(shape) != len(truth) else "")
        if code:   # 每道答错的小题一条：答错五道就列五条
            findings.append((code, message(CODES, code, expr=expr, **fields)))
    if listed_values:
        which = (f"{len(listed_values)} 个值都" if len(listed_values) == len(SHAPE_QUESTIONS)
                 else "、".join(repr(expr) for expr, _ in listed_values) + " 的值")
        fixes = "、".join(f"把 {value!r} 写成 {tuple(value)!r}" for _, value in listed_values)
        findings.append(("shape_as_list", message(CODES, "shape_as_list", which=which, fixes=fixes,
                                                  rule=tuple_rule(listed_values[0][1]))))
    return findings
