# 导入：标准库、torch、dsx_util.layernorm、feedback、torch_checks。
"""两道练习共用的 Transformer 块模型：第 1 章的前置归一化块与第 9 章的后置归一化块用同一套零件、
同一套“接错”的变体来检查（一处或两处接错的所有组合）。
"""
from ..torch_checks import close_finite, generator, judge_tensor, try_call
from ..feedback import message


def block_parts(seed=0, emb_dim=8):
    """检查 Transformer 块用的小零件：两个层归一化（参数随机）、一个线性“注意力”和一个小前馈网络。"""
    import torch
    import torch.nn as nn
    from dsx_util.layernorm import LayerNorm
    gen = generator(seed)
    att = nn.Linear(emb_dim, emb_dim)
    ff = nn.Sequential(nn.Linear(emb_dim, 2 * emb_dim), nn.GELU(), nn.Linear(2 * emb_dim, emb_dim))
    norm1, norm2 = LayerNorm(emb_dim), LayerNorm(emb_dim)
    with torch.no_grad():
        for module in (att, ff, norm1, norm2):
            for p in module.parameters():
                p.copy_(torch.randn(p.shape, generator=gen) * 0.5)
            module.requires_grad_(False)
        for norm in (norm1, norm2):   # 让两个层归一化的参数不同，才能分辨是否用反
            norm.scale += 1.0
    x = torch.randn(2, 5, emb_dim, generator=gen) * 2 + 1
    return x, att, ff, norm1, norm2


def pre_ln(x, att, ff, n1, n2):
    h = x + att(n1(x))
    return h + ff(n2(h))


def post_ln(x, att, ff, n1, n2):
    h = n1(x + att(x))
    return n2(h + ff(h))


def sublayer(h, layer, norm, order, residual):
    """一个子层（可能接错）：前置归一化 h + layer(norm(h))，后置归一化 norm(h + layer(h))。"""
    if order == "pre":
        if residual == "missing":
            return layer(norm(h))
        if residual == "after_norm":
            return norm(h) + layer(norm(h))
        return h + layer(norm(h))
    if residual == "missing":
        return norm(layer(h))
    if residual == "after_norm":
        return h + norm(layer(h))
    return norm(h + layer(h))


def block(x, a, f, n1, n2, order="pre", order1=None, order2=None, norms="ok", sub="ok", res1="ok", res2="ok"):
    """一种（可能接错的）Transformer 块。norms："ok"、"swapped"（两个对调）、"n1"/"n2"（两处都用同一个）。"""
    na, nf = {"ok": (n1, n2), "swapped": (n2, n1), "n1": (n1, n1), "n2": (n2, n2)}[norms]
    sa, sf = (a, f) if sub == "ok" else (f, a)
    h = sublayer(x, sa, na, order1 or order, res1)
    return sublayer(h, sf, nf, order2 or order, res2)


def block_variants(parts, order):
    """[(代码元组, 接法, 输出)]：一处或两处接错的所有组合（正确的块不在里面），错得少的在前。"""
    import itertools
    import torch
    other = "post" if order == "pre" else "pre"
    flags = {"order": [order, other], "order1": [order, other], "order2": [order, other],
             "norms": ["ok", "swapped", "n1", "n2"], "sub": ["ok", "swapped"],
             "res1": ["ok", "missing", "after_norm"], "res2": ["ok", "missing", "after_norm"]}
    after = "residual_after_norm" if order == "pre" else "norm_before_add"
    names = {("order", other): f"{other}_ln_order", ("order1", other): f"{other}_ln_order",
             ("order2", other): f"{other}_ln_order", ("norms", "swapped"): "swapped_norms",
             ("norms", "n1"): "norm_reused", ("norms", "n2"): "norm_reused", ("sub", "swapped"): "swapped_sublayers",
             ("res1", "missing"): "missing_residual", ("res2", "missing"): "missing_residual",
             ("res1", "after_norm"): after, ("res2", "after_norm"): after}
    out = []
    with torch.no_grad():
        # 两个子层同时缺残差（或都加错地方）算一处错误
        both = [({"res1": r, "res2": r}, (names[("res1", r)],)) for r in ("missing", "after_norm")]
        singles = [({c: v}, (names[(c, v)],)) for c in flags for v in flags[c][1:]]
        for setting, codes in singles[:1] + both + singles[1:]:
            out.append((codes, setting, block(*parts, **dict({"order": order}, **setting))))
        for (s1, c1), (s2, c2) in itertools.combinations(singles, 2):
            if set(s1) & set(s2) or c1 == c2 or ("order" in s1 and ("order1" in s2 or "order2" in s2)):
                continue
            setting = dict(s1, **s2)
            out.append((c1 + c2, setting, block(*parts, **dict({"order": order}, **setting))))
    return out


_WHERE = {"res1": "注意力子层", "res2": "前馈子层", "order1": "注意力子层", "order2": "前馈子层"}


def check_block(fn, order, codes_table):
    """检查学习者的块 fn(x, att, ff, norm1, norm2)（order："pre" 或 "post"）；返回 findings。"""
    import torch
    for seed in (0, 1):
        parts = block_parts(seed)
        with torch.no_grad():
            expected = block(*parts, order=order)
        x, *modules = parts
        value, failure = try_call(fn, x.clone(), *modules)
        if failure is None:
            failure = judge_tensor(value, expected, {}, codes_table)
        if failure is None:
            continue
        if failure[0] != "wrong_output":
            return [failure]
        for codes, setting, wrong in block_variants(parts, order):
            if close_finite(value, wrong, 1e-4, 1e-4):
                used = {"n1": "norm1", "n2": "norm2"}.get(setting.get("norms"), "")
                where = "、".join(_WHERE[k] for k in setting if k in _WHERE)
                found = [(c, message(codes_table, c, which=used)) for c in codes]
                if where and len(set(setting) & {"res1", "res2"}) < 2:
                    found[0] = (found[0][0], f"{where}：" + found[0][1])
                if len(found) > 1:
                    found[0] = (found[0][0], "同时有两处错误。" + found[0][1])
                return found
        return [failure]
    return []
