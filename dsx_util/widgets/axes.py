"""轴探索器：一个 [B, T, H] 小张量。选层归一化、批量归一化、RMSNorm、对 (T, H) 归一化或分组归一化，
共用一组统计量的格子显示同一种颜色（static/norm_explorers.css 的 12 种组色），输出的数字和做这件事的
PyTorch 代码（`dim=` 那一行）跟着变化。页面内视图的脚本是 static/norm_explorers.js 的 axes。"""
import math

from . import spec as S
from .base import NORM_STYLES, Explorer, esc, new_id, shown_text


def _span(t, values):
    """一组值的说法：最小、最大两端按 S.fmt 写出来相同时说「都是 x」，否则说「在 a 到 b 之间」（与 JS 相同）。"""
    a, b = S.fmt(min(values)), S.fmt(max(values))
    return S.fill(t["span_same"], {"a": a}) if a == b else S.fill(t["span_range"], {"a": a, "b": b})


def group_ids(shape, mode):
    """每个格子 (b, t, h)（按行优先顺序展平）属于第几组：同一组的格子共用一个均值和方差。

    组号按第一次出现的顺序编号（与 norm_explorers.js 的 groupIds 相同）。
    """
    b_, t_, h_ = shape
    size = mode["group"] or h_
    seen, ids = {}, []
    for b in range(b_):
        for t in range(t_):
            for h in range(h_):
                key = tuple(i for axis, i in enumerate((b, t, h)) if axis not in mode["reduce"])
                if 2 in mode["reduce"] and size < h_:
                    key += (h // size,)
                ids.append(seen.setdefault(key, len(seen)))
    return ids


class NormAxesExplorer(Explorer):
    """轴探索器。`.widget` 是 ipywidgets 视图；`.set(mode="bn")` 用程序拨动控件；`.numbers()` 是 torch 算出的数。"""

    STYLES = NORM_STYLES
    SCRIPT = "norm_explorers.js"
    NAMESPACE = "DSXNormExplorers"

    def __init__(self, x=None, *, mode=None):
        self.spec = S.NORM_AXES_SPEC
        self.modes = {m["key"]: m for m in self.spec["modes"]}
        self._x = self._check_x(S.axes_input() if x is None else x)
        self.shape = (len(self._x), len(self._x[0]), len(self._x[0][0]))
        mode = self.spec["default_mode"] if mode is None else mode
        self._check_mode(mode)
        self.mode = mode
        self._w = None

    def _check_mode(self, mode):
        if mode not in self.modes:
            raise ValueError(f"没有名为 {mode!r} 的归一化方式；可用：{'、'.join(repr(k) for k in self.modes)}。")

    @staticmethod
    def _check_x(x):
        values = x.tolist() if hasattr(x, "tolist") else x
        try:
            rows = [[[float(v) for v in row] for row in sample] for sample in values]
        except (TypeError, ValueError):
            raise TypeError(f"x 应该是形状 [B, T, H] 的张量或三层嵌套列表，收到的是 {type(x).__name__}。"
                            "例如：norm_axes_explorer(torch.randn(2, 3, 4))") from None
        b_ = len(rows)
        t_ = len(rows[0]) if b_ else 0
        h_ = len(rows[0][0]) if t_ else 0
        if not (1 <= b_ <= 4 and 1 <= t_ <= 6 and 2 <= h_ <= 8) or h_ % 2:
            raise ValueError(f"x 的形状是 [{b_}, {t_}, {h_}]；轴探索器要把每个数都显示出来，"
                             "需要 B ≤ 4、T ≤ 6、H 为 2 到 8 之间的偶数（分组归一化每 2 个特征一组）。")
        if any(len(r) != t_ or any(len(c) != h_ for c in r) for r in rows):
            raise ValueError("x 的各行长度不一致：需要形状整齐的 [B, T, H]。")
        if not all(math.isfinite(v) for r in rows for c in r for v in c):
            raise ValueError("x 里有 NaN 或 inf，请换成有限的数，例如 torch.nan_to_num(x)。")
        return rows

    def numbers(self):
        """用 torch 按当前方式算一遍（与显示的代码相同）：输出 y、统计量的形状、每组的统计量。"""
        import torch

        m, eps = self.modes[self.mode], self.spec["eps"]
        x = torch.tensor(self._x, dtype=torch.float64)
        b_, t_, h_ = self.shape
        if m["key"] == "group":
            g = x.view(b_, t_, h_ // m["group"], m["group"])
            dims = (1, 3) if 1 in m["reduce"] else (-1,)   # 跨 T（nn.GroupNorm）或只在一个词元里
            mean = g.mean(dim=dims, keepdim=True)
            var = g.var(dim=dims, keepdim=True, unbiased=False)
            y = ((g - mean) / torch.sqrt(var + eps)).view(b_, t_, h_)
            stat = mean
        elif m["center"]:
            dims = tuple(m["reduce"])
            mean = x.mean(dim=dims, keepdim=True)
            var = x.var(dim=dims, keepdim=True, unbiased=False)
            y = (x - mean) / torch.sqrt(var + eps)
            stat = mean
        else:
            ms = x.pow(2).mean(dim=-1, keepdim=True)
            y = x / torch.sqrt(ms + eps)
            stat = ms
        ids = group_ids(self.shape, m)
        flat_x, flat_y = x.flatten().tolist(), y.flatten().tolist()
        groups = []
        for gid in range(max(ids) + 1):
            xs = torch.tensor([v for v, i in zip(flat_x, ids) if i == gid], dtype=torch.float64)
            ys = torch.tensor([v for v, i in zip(flat_y, ids) if i == gid], dtype=torch.float64)
            groups.append({"size": xs.numel(), "mu": float(xs.mean()), "var": float(xs.var(unbiased=False)),
                           "ms": float(xs.pow(2).mean()), "y_mean": float(ys.mean()),
                           "y_var": float(ys.var(unbiased=False)), "y_rms": float(ys.pow(2).mean().sqrt())})
        return {"y": y, "ids": ids, "stat_shape": list(stat.shape), "groups": groups}

    def _grid(self, values, ids, role, fmt):
        t = self.spec["text"]
        b_, t_, h_ = self.shape
        out = []
        for b in range(b_):
            head = "".join(f'<th scope="col">{esc(S.fill(t["col"], {"h": h}))}</th>' for h in range(h_))
            rows = ""
            for tt in range(t_):
                cells = ""
                for h in range(h_):
                    k = (b * t_ + tt) * h_ + h
                    g = ids[k]
                    cells += (f'<td class="dsx-g{g % 12}" data-role="{role}" data-g="{g}" data-b="{b}" data-t="{tt}" '
                              f'data-h="{h}">{fmt(values[k])}</td>')
                rows += f'<tr><th scope="row">{esc(S.fill(t["row"], {"t": tt}))}</th>{cells}</tr>'
            out.append(f'<table class="dsx-grid"><caption>{esc(S.fill(t["sample"], {"b": b}))}</caption>'
                       f'<tbody><tr><th></th>{head}</tr>{rows}</tbody></table>')
        return "".join(out)

    def _dynamic_html(self):
        t, m = self.spec["text"], self.modes[self.mode]
        nums = self.numbers()
        groups, first = nums["groups"], nums["groups"][0]
        flat_x = [v for s in self._x for r in s for v in r]
        flat_y = nums["y"].flatten().tolist()
        stat = "ms" if not m["center"] else "mean"
        if m["center"]:
            stats = S.fill(t["stats_center"], {"mu": S.fmt(first["mu"]), "var": S.fmt(first["var"])})
            check = S.fill(t["check_center"], {"mean_abs": S.fmt(max(abs(g["y_mean"]) for g in groups)),
                                               "var_span": _span(t, [g["y_var"] for g in groups])})
        else:
            stats = S.fill(t["stats_rms"], {"ms": S.fmt(first["ms"]), "rms": S.fmt(math.sqrt(first["ms"]))})
            check = S.fill(t["check_rms"], {"rms_span": _span(t, [g["y_rms"] for g in groups])})
        code = "\n".join(m["code"])
        return "".join([
            f'<pre class="dsx-code dsx-code-block" data-role="code">{esc(code)}</pre>',
            f'<div data-role="groups">{esc(S.fill(t["groups"], {"count": len(groups), "size": first["size"], "stat": stat, "stat_shape": S.fmt_shape(nums["stat_shape"])}))}</div>',
            f'<div data-role="first">{esc(S.fill(t["first"], {"size": first["size"], "stats": stats}))}</div>',
            f'<div data-role="check">{esc(check)}</div>',
            f'<div class="dsx-grid-title">{esc(S.fill(t["input"], {"shape": S.fmt_shape(self.shape)}))}</div>',
            f'<div class="dsx-grids" data-role="input-grid">{self._grid(flat_x, nums["ids"], "in-cell", lambda v: f"{v:.1f}")}</div>',
            f'<div class="dsx-grid-title">{esc(t["output"])}</div>',
            f'<div class="dsx-grids" data-role="output-grid">{self._grid(flat_y, nums["ids"], "out-cell", S.fmt3)}</div>',
            f'<div class="dsx-note">{esc(S.fill(t["note"], {"eps": S.fmt_eps(self.spec["eps"])}))}</div>',
        ])

    def _repr_html_(self):
        c, rid = self.spec["controls"], new_id("dsx-axes")
        opts = "".join(f'<option value="{esc(m["key"])}"{" selected" if m["key"] == self.mode else ""}>{esc(m["label"])}</option>'
                       for m in self.spec["modes"])
        body = "".join([
            f'<div class="dsx-title">{esc(self.spec["title"])}</div>',
            f'<div class="dsx-row"><label for="{rid}-mode">{esc(c["mode"]["label"])}</label>'
            f'<select id="{rid}-mode" data-role="mode">{opts}</select></div>',
            self._dynamic_html(),
        ])
        return self.page(rid, "norm_axes", body, self.spec, {"x": self._x, "mode": self.mode})

    def _plain(self):
        return f"NormAxesExplorer（形状 {S.fmt_shape(self.shape)}）：在 Jupyter/Colab 中显示为交互控件，在 HTML 书页中显示为页面内探索器。"

    def _build_widget(self):
        import ipywidgets as W

        c = self.spec["controls"]
        w = {"mode": W.Dropdown(options=[(m["label"], m["key"]) for m in self.spec["modes"]], value=self.mode,
                                description=c["mode"]["label"], style={"description_width": "6em"},
                                layout=W.Layout(width="100%", max_width="480px")),
             "view": W.HTML(value=self.kernel_view(self._dynamic_html()))}
        w["box"] = W.VBox([W.HTML(value=f"<b>{esc(self.spec['title'])}</b>"), w["mode"], w["view"]])
        self._w = w
        w["mode"].observe(self._on_mode, "value")

    def _on_mode(self, change):
        self.mode = change["new"]
        self._w["view"].value = self.kernel_view(self._dynamic_html())

    def set(self, mode):
        """用程序拨动控件：mode 是 'ln'、'bn'、'rms'、'ln_th' 或 'group'。"""
        self._check_mode(mode)
        self.widget  # noqa: B018  确保控件已经建好
        self._w["mode"].value = mode
        return self

    def shown(self):
        """内核视图当前显示的文字：{data-role: 文字}；格子另外给出 "cells"：[(组号, 输入, 输出)]，按 (b, t, h) 排列。"""
        import re

        view = self.widget and self._w["view"].value
        out = shown_text(view)
        ins = re.findall(r'data-role="in-cell" data-g="(\d+)"[^>]*>([^<]*)<', view)
        outs = re.findall(r'data-role="out-cell" data-g="(\d+)"[^>]*>([^<]*)<', view)
        out["cells"] = [(int(g), float(a), float(b)) for (g, a), (_, b) in zip(ins, outs)]
        return out


def norm_axes_explorer(x=None, *, mode=None):
    """轴探索器：在一个 [B, T, H] 小张量上选归一化方式（层归一化、批量归一化、RMSNorm、对 (T, H) 归一化、分组归一化），
    看哪些格子共用一个均值和方差（同一颜色）、归一化后的数字，以及做这件事的 PyTorch 代码。

    x：可选，形状 [B, T, H] 的张量或嵌套列表（B ≤ 4、T ≤ 6、H 为不超过 8 的偶数）；mode：初始的方式，默认 'ln'。
    """
    return NormAxesExplorer(x, mode=mode)
