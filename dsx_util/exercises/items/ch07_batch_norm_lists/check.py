# 导入：标准库、feedback、list_checks。
"""练习 ch07-batch-norm-lists 的检查器（题目、模板、参考答案在同一个文件夹；编目的错误写法在 mistakes.py）。"""
import math
import re

from ...feedback import Stop, checker, message
from ...list_checks import lists_close, other_size, as_rows, call_or_stop, columns_of, combine, copy_rows, first_difference, flatten, judge, mean_of, norm_steps, quiet, unchanged, var_of

CODES = {
    "wrong_axis": "你对每一行（每个样本）做了归一化，这是层归一化：批量归一化对每一列（每个特征）跨 B 个样本归一化。",
    "normalized_all": "你用整个批量所有元素的均值和方差做了归一化：批量归一化每个特征（每一列）各算各的。",
    "unbiased_var": "你用了无偏方差（除以 B−1）：训练时的批量归一化用有偏方差来归一化。",
    "var_by_h": "方差除以了特征数 H = len(x[0])（列数）：一列有 B = len(x) 个数，这一列的方差要除以 B。",
    "no_centering": "没有减去均值：归一化后每一列的均值应为 0。",
    "eps_outside_sqrt": "ε 加在了根号外面：ε 先加到方差上，再开平方。",
    "no_eps": "分母里少了 ε：方差为 0 的特征会得到 0/0。",
    "eps_divided": "ε 加到了偏差平方和上、再和它一起除以 B（(Σ(x−μ)² + ε)/B）：这样方差里只加了 ε/B。"
                   "先除以 B 得到方差 σ²，再加 ε：√(σ² + ε)。",
    "eps_ignored": "调用时传入 eps={eps}，你的结果却和 eps=1e-5 时一样：请用参数 eps，不要写死。",
    "no_sqrt": "分母是方差 σ² + ε，没有开平方：要除以标准差 √(σ² + ε)。",
    "row_mean_not_zero": "你的输出第 {row} 列（第 {row} 个特征）的均值是 {got}，应为 0{hint}",
    "row_variance_not_one": "你的输出第 {row} 列的方差是 {got}，应为 σ²/(σ² + ε) ≈ {want}{hint}",
    "not_shift_invariant": "给每一列加上同一个常数（第 1 列加 3）后，你的输出变了，最大变化 {diff}；应该不变："
                           "减去这一列的均值后，常数会被抵消。",
    "not_scale_invariant": "把每一列乘以 4 后，你的输出变了，最大变化 {diff}；除了 ε 的微小影响，应该不变。",
    "first_rows_only": "每一列的均值和方差只用了前 {h} 行（前 {h} 个样本），而每一列有 B = {b} 个数："
                       "取一列时，跑样本的下标要用 range(B)（B = len(x)，行数），你的像是用了 range(H)（H = len(x[0])，列数）。",
    "rows_cols_swapped": "行数等于列数时（B = H = {h}）你的结果是对的，B = {b}、H = {h} 时{what}：像是把样本数 "
                         "B = len(x)（行数）和特征数 H = len(x[0])（列数）用反了。每一列有 B 个数，一共 H 列：跑样本用 range(B)，"
                         "跑特征用 range(H)。",
    "rows_mixed": "只改动第 1 列（第 1 个特征）的输入后，别的特征的输出也变了，最大变化 {diff}：每个特征只能用它自己那一列的统计量。",
    "column_not_computed": "你的输出第 {cols} 列{what}，其余各列都对：这一列没有算，像是跑特征的循环少了{rounds}"
                           "{eg}。H 个特征都要算：range(H)，H = len(x[0])；或者用 zip(*x) 取出每一列。",
    # 换一种大小的输入（_sizes）
    "b_hard_coded": "B = 4 行（4 个样本）的输入都对，换成 B = 6 行的输入{what}：{how}。"
                    "每一列有几个数要用 len(x)（或 len(col)）得到，不要写死。",
    "h_hard_coded": "H = 3 列的输入都对，换成 H = 5 列（5 个特征）的输入{what}：像是把 H = 3 写死了（例如 range(3)）。"
                    "特征数用 len(x[0]) 得到，或者用 zip(*x) 取出每一列。",
}

# norm_steps 的说明引用第 4 章的式 (4.2)、(4.3)；第 7 章没有这两个式子，这道题里去掉引用
_CH04_EQ = re.compile(r"（式 \(4\.\d\)(、\(4\.\d\))?）")


def _bn_model(x, eps, axis="col", unbiased=False, center=True, eps_kind="inside", sqrt=True):
    def norm(vals):
        mu = mean_of(vals) if center else 0.0
        var = var_of(vals, unbiased)
        e = {"inside": eps, "outside": eps, "missing": 0.0, "fixed": 1e-5, "divided": eps / len(vals)}[eps_kind]
        d = math.sqrt(var) + e if eps_kind == "outside" else (math.sqrt(var + e) if sqrt else var + e)
        return [(v - mu) / d for v in vals]
    if axis == "row":
        return [norm(r) for r in x]
    if axis == "all":
        flat = norm(flatten(x))
        w = len(x[0])
        return [flat[i:i + w] for i in range(0, len(flat), w)]
    return columns_of([norm(c) for c in columns_of(x)])


_BN_FLAG_CODES = {("axis", "row"): "wrong_axis", ("axis", "all"): "normalized_all", ("unbiased", True): "unbiased_var",
                  ("center", False): "no_centering", ("eps_kind", "outside"): "eps_outside_sqrt",
                  ("eps_kind", "missing"): "no_eps", ("eps_kind", "fixed"): "eps_ignored", ("eps_kind", "divided"): "eps_divided", ("sqrt", False): "no_sqrt"}


def _first_rows(x, eps, mean_by, var_by):
    """每列的统计量只用了前 H 行（H 是列数）：均值、方差的分母是 "rows"（H）或 "all"（B）。"""
    h = len(x[0])
    out = []
    for c in columns_of(x):
        part = c[:h]
        mu = sum(part) / (h if mean_by == "rows" else len(c))
        var = sum((v - mu) ** 2 for v in part) / (h if var_by == "rows" else len(c))
        out.append([(v - mu) / math.sqrt(var + eps) for v in c])
    return columns_of(out)


def _dims_swapped(fn, x, eps, got):
    """B 与 H 用反的写法：行数等于列数时对、B ≠ H 时不对（got 为 None 表示 B ≠ H 时出错了）。不是时返回 []。"""
    b, h = len(x), len(x[0])
    if got is not None:
        for mean_by in ("all", "rows"):
            for var_by in ("all", "rows"):
                if lists_close(got, _first_rows(x, eps, mean_by, var_by)):
                    return [("first_rows_only", message(CODES, "first_rows_only", h=h, b=b))]
    square = copy_rows(x[:h])
    out = quiet(fn, (h, h))(copy_rows(square), eps=eps)
    if out is None or not lists_close(out, _bn_model(square, eps)):
        return []
    what = "却出错了" if got is None else "却不对"
    return [("rows_cols_swapped", message(CODES, "rows_cols_swapped", h=h, b=b, what=what))]


def _var_over_h(fn, eps):
    """方差除以 H 的写法：4×3 的输入里 H = B − 1，它和无偏方差分不开；用一个 H 既不是 B 也不是 B − 1 的输入再试。"""
    wide = [[1.0, 10.0, -3.0, 0.0, 7.0], [2.0, 14.0, -1.0, 2.5, 6.0], [4.0, 11.0, 0.5, -1.0, 9.0], [3.5, 20.0, -2.5, 1.0, 4.0]]
    out = quiet(fn, (len(wide), len(wide[0])))(copy_rows(wide), eps=eps)
    if out is None:
        return False
    h = len(wide[0])
    want = []
    for c in columns_of(wide):
        mu = sum(c) / len(c)
        var = sum((v - mu) ** 2 for v in c) / h
        want.append([(v - mu) / math.sqrt(var + eps) for v in c])
    return lists_close(out, columns_of(want))


def _probe(fn, x, eps_kind, eps=0.5):
    """用一个大的 ε 调用学习者的函数，看结果是不是 eps_kind 那种写法；出错时算「不是」。"""
    out = quiet(fn, (len(x), len(x[0])))(copy_rows(x), eps=eps)
    return out is not None and all(math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
                                   for a, b in zip(flatten(out), flatten(_bn_model(x, eps, eps_kind=eps_kind))))


def _skipped_columns(x, got, want):
    """有的列不对、其余列都对，不对的列全是同一个数（如初始化的 0.0）或原样是输入：一条 column_not_computed，否则 []。"""
    cols_got, cols_want, cols_x = columns_of(got), columns_of(want), columns_of(x)
    bad = [j for j in range(len(cols_want)) if not lists_close(cols_got[j], cols_want[j])]
    if not bad or len(bad) == len(cols_want):
        return []
    if all(len(set(cols_got[j])) == 1 for j in bad) and len({cols_got[j][0] for j in bad}) == 1:
        what = f"全是 {cols_got[bad[0]][0]!r}（还是初始化时的值）"
    elif all(cols_got[j] == cols_x[j] for j in bad):
        what = "和输入的这一列一样（还是原来的值）"
    else:
        return []
    cols = "、".join(str(j + 1) for j in bad)
    last = len(cols_want) - 1
    eg = {(last,): "（例如写成了 range(H − 1)）", (0,): "（例如写成了 range(1, H)）"}.get(tuple(bad), "")
    rounds = "一轮" if len(bad) == 1 else f" {len(bad)} 轮"
    return [("column_not_computed", message(CODES, "column_not_computed", cols=cols, what=what, rounds=rounds, eg=eg))]


# 检查用的输入都是 4 行 3 列：再用 6 行、5 列的输入各算一次，写死了 4 或 3 的代码在这里不对
_TALL = [[1.0, 10.0, -3.0], [2.0, 14.0, -1.0], [4.0, 11.0, 0.5], [3.5, 20.0, -2.5], [-1.0, 12.0, 2.0], [6.0, 9.0, -4.0]]
_WIDE = [[1.0, 10.0, -3.0, 0.0, 7.0], [2.0, 14.0, -1.0, 2.5, 6.0], [4.0, 11.0, 0.5, -1.0, 9.0], [3.5, 20.0, -2.5, 1.0, 4.0]]


def _fixed_b(x, eps, mean_n, var_n):
    """每列的均值除以 mean_n、方差除以 var_n（None：除以这一列的个数 B）：写死了 B 的写法。"""
    out = []
    for c in columns_of(x):
        mu = sum(c) / (mean_n or len(c))
        var = sum((v - mu) ** 2 for v in c) / (var_n or len(c))
        out.append([(v - mu) / math.sqrt(var + eps) for v in c])
    return columns_of(out)


def _sizes(fn, eps=1e-5):
    """换成 6 行、换成 5 列的输入再检查一次；不对时一条 b_hard_coded 或 h_hard_coded（均值、方差除以了 4 时说出来）。"""
    for x, code in ((_TALL, "b_hard_coded"), (_WIDE, "h_hard_coded")):
        b = len(x)
        models = [(said + f"，不是这一列的个数 {b}，像是把 B = 4 写死了", _fixed_b(x, eps, m, v))
                  for said, m, v in (("均值和方差都除以了 4", 4, 4), ("均值除以了 4", 4, None), ("方差除以了 4", None, 4))]
        found = other_size(fn, (copy_rows(x),), {"eps": eps}, _bn_model(x, eps), CODES, code,
                           "像是把 B = 4 写死了（例如 / 4 或 range(4)）", models)
        if found:
            return found
    return []


@checker(__name__, CODES)
def check_batch_norm_lists(fn):
    """检查 batch_norm_lists(x, eps)：x 是 B 行 H 列的嵌套列表，对每一列跨行标准化（不含 γ、β）。"""
    x = [[1.0, 10.0, -3.0], [2.0, 14.0, -1.0], [4.0, 11.0, 0.5], [3.5, 20.0, -2.5]]
    for eps in (1e-5, 0.5):
        given = copy_rows(x)
        want = _bn_model(x, eps)
        try:
            raw = call_or_stop(fn, given, eps=eps)
        except Stop as stop:
            # 报错时：行数等于列数时对的话，是 B 与 H 用反了（下标越界），在报错的那一行之后说出来
            findings = stop.args[0]
            if [code for code, _ in findings] == ["raised"]:
                findings = findings + _dims_swapped(fn, x, eps, None)
            raise Stop(findings) from None
        got = as_rows(raw, (4, 3), want=want, fn=fn)
        changed = unchanged(x, given, "列表 x")
        flags = {"axis": ["col", "row", "all"], "unbiased": [False, True], "center": [True, False],
                 "eps_kind": ["inside", "outside", "missing"] + (["fixed"] if eps != 1e-5 else []), "sqrt": [True, False]}
        variants = combine(flags, {k: v[0] for k, v in flags.items()}, lambda **s: _bn_model(x, eps, **s),
                            lambda k, v: _BN_FLAG_CODES[(k, v)])
        found = judge(got, want, variants, CODES, {"eps": eps})
        if found and [c for c, _ in found] == ["no_eps"] and _probe(fn, x, "divided"):
            found = [("eps_divided", CODES["eps_divided"])]   # ε 很小时 ε/B 与没有 ε 分不开：用大的 ε 再试一次
        if found and "unbiased_var" in [c for c, _ in found] and _var_over_h(fn, eps):
            found = [("var_by_h", CODES["var_by_h"]) if c == "unbiased_var" else (c, m) for c, m in found]
        if found is None:
            found = _skipped_columns(x, got, want) or _dims_swapped(fn, x, eps, got) or None
        if found is None:
            def run(rows, gamma, beta):
                # 批量归一化按列：把“行”探测输入转置成列交给学习者，结果再转回来；γ、β 在这里不适用
                if gamma != [1.0] * len(gamma) or beta != [0.0] * len(beta):
                    return None
                out = quiet(fn, (len(rows[0]), len(rows)))(columns_of(rows), eps=eps)
                return None if out is None else columns_of(out)
            found = norm_steps(run, 5, eps, CODES, unit="列", mean_eq="式 (7.1)") or [first_difference(got, want)]
            found = [(c, _CH04_EQ.sub("", m)) for c, m in found]
        if found or changed:
            return changed + found
    return _sizes(fn)
