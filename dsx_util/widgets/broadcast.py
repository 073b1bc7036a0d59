"""dim / keepdim 探索器：选形状、dim 和 keepdim，看均值的形状以及 `x - x.mean(dim)` 能否正确广播。
页面内视图的脚本是 static/explorers.js 的 dimKeepdim。"""
import re

from . import spec as S
from .base import Explorer, esc, new_id, shown_text

def broadcast_rule(shape, dim, keepdim):
    """不做计算，只按广播规则判断 x - x.mean(dim, keepdim) 的结果（与 explorers.js 的 broadcastRule 相同）。

    返回 {"result": m 的形状, "status": "ok" | "error" | "silent" | "silent_shape", "out": x - m 的形状, ...}。
    """
    shape = [int(s) for s in shape]
    n = len(shape)
    d = dim + n if dim < 0 else dim
    m = [1 if i == d else s for i, s in enumerate(shape) if i != d or keepdim]
    res = {"result": m, "status": "ok", "out": list(shape)}
    if keepdim:
        return res
    off, out = n - len(m), list(shape)
    for i in range(n - 1, off - 1, -1):
        a, b = shape[i], m[i - off]
        if a != b and a != 1 and b != 1:
            res.update(status="error", axis=i, a=a, b=b)
            return res
        out[i] = max(a, b)
    res["out"] = out
    if out != shape:
        res["status"] = "silent_shape"
        return res
    for i in range(n - 1, off - 1, -1):
        o = i - off if i - off < d else i - off + 1
        if o != i and shape[o] > 1:
            res.update(status="silent", **{"from": o, "to": i})
            return res
    return res


_DEFAULT_NAMES = {1: ["嵌入"], 2: ["词元", "嵌入"], 3: ["批量", "词元", "嵌入"]}


class DimKeepdimExplorer(Explorer):
    """dim/keepdim 探索器。`.widget` 是 ipywidgets 视图，`.set(shape=..., dim=..., keepdim=...)` 用程序拨动控件。"""

    def __init__(self, shape=None, names=None, *, dim=-1, keepdim=False):
        self.spec = S.DIM_KEEPDIM_SPEC
        self.shapes = [dict(e) for e in self.spec["shapes"]]
        if shape is not None:
            if isinstance(shape, (str, bytes)) or not all(isinstance(s, int) and not isinstance(s, bool) and 1 <= s <= 64
                                                           for s in shape) or not 1 <= len(shape) <= 4:
                raise ValueError(f"shape 应该是 1 到 4 个 1~64 的正整数，例如 (2, 3, 4)；收到的是 {shape!r}。")
            names = list(names) if names is not None else _DEFAULT_NAMES.get(len(shape), [f"第 {i} 维" for i in range(len(shape))])
            if len(names) != len(shape):
                raise ValueError(f"names 的个数（{len(names)}）应该与 shape 的维数（{len(shape)}）相同。")
            self.shapes.insert(0, {"shape": list(shape), "names": [str(v) for v in names]})
        self.shape_index = 0 if shape is not None else self.spec["defaults"]["shape"]
        n = len(self.shapes[self.shape_index]["shape"])
        if not isinstance(dim, int) or not -n <= dim < n:
            raise ValueError(f"dim={dim!r} 超出范围：形状有 {n} 维，dim 应在 {-n} 到 {n - 1} 之间。")
        self.dim, self.keepdim = dim, bool(keepdim)
        self._w = None
        self._busy = False

    def _dim_options(self, index):
        entry = self.shapes[index]
        n = len(entry["shape"])
        dims = list(range(-1, -n - 1, -1)) + list(range(n))
        return [(S.fill(self.spec["text"]["dim_option"], {"dim": k, "name": entry["names"][k % n]}), k) for k in dims]

    def _shape_label(self, entry):
        return S.fill(self.spec["text"]["shape_option"], {"shape": S.fmt_shape(entry["shape"]), "names": "，".join(entry["names"])})

    def numbers(self):
        """用 torch 真的算一遍：m 的形状，以及 x - m 是正确广播、报错还是静默出错。"""
        import torch

        entry = self.shapes[self.shape_index]
        g = torch.Generator().manual_seed(0)
        x = torch.randn(*entry["shape"], generator=g, dtype=torch.float64)
        m = x.mean(dim=self.dim, keepdim=self.keepdim)
        right = x - x.mean(dim=self.dim, keepdim=True)
        try:
            diff = x - m
        except RuntimeError as err:
            return {"result": list(m.shape), "status": "error", "torch_error": str(err), "out": None}
        if tuple(diff.shape) != tuple(x.shape):
            status = "silent_shape"
        else:
            status = "ok" if torch.allclose(diff, right) else "silent"
        return {"result": list(m.shape), "status": status, "out": list(diff.shape)}

    def _dynamic_html(self):
        t = self.spec["text"]
        entry = self.shapes[self.shape_index]
        shape, names = entry["shape"], entry["names"]
        n, d = len(shape), self.dim % len(shape)
        real = self.numbers()
        rule = broadcast_rule(shape, self.dim, self.keepdim)
        status = real["status"]
        if status == "ok":
            msg = S.fill(t["ok_keepdim"] if self.keepdim else t["ok"], {"name": names[d]})
        elif status == "error":
            msg = S.fill(t["error"], {"axis": rule["axis"], "name": names[rule["axis"]], "a": rule["a"], "b": rule["b"]})
        elif status == "silent" and rule["status"] == "silent":
            msg = S.fill(t["silent"], {"wrong_from": names[rule["from"]], "wrong_to": names[rule["to"]]})
        else:
            msg = S.fill(t["silent_shape"], {"out_shape": S.fmt_shape(real["out"] or []), "x_shape": S.fmt_shape(shape)})
        chips = "".join(f'<span class="dsx-chip{" dsx-chip-reduced" if k == d else ""}">{esc(names[k])} {s}</span>'
                        for k, s in enumerate(shape))
        m = real["result"]
        off = n - len(m)
        bad = rule.get("axis") if rule["status"] == "error" else rule.get("to") if rule["status"] == "silent" else None
        rows = "<tr><th></th>" + "".join(f'<th scope="col">dim={k}</th>' for k in range(n)) + "</tr>"
        for label, vals in (("x", [str(s) for s in shape]), ("m", ["" if k < off else str(m[k - off]) for k in range(n)])):
            tds = "".join(f'<td class="dsx-bad">{v}</td>' if k == bad else f"<td>{v}</td>" for k, v in enumerate(vals))
            rows += f'<tr><th scope="row">{label}</th>{tds}</tr>'
        shown_status = "silent" if status == "silent_shape" else status
        code = S.fill(t["code"], {"dim": self.dim, "keepdim": "True" if self.keepdim else "False"})
        return "".join([
            f'<div class="dsx-code" data-role="code">{esc(code)}</div>',
            f'<div>{esc(t["x_shape"])}：<span data-role="x-shape">{chips}</span></div>',
            f'<div>{esc(t["result_shape"])}：<span class="dsx-num" data-role="result-shape">{S.fmt_shape(m)}</span></div>',
            f'<div>{esc(t["aligned"])}</div>',
            f'<table class="dsx-aligned"><tbody data-role="aligned">{rows}</tbody></table>',
            f'<div class="dsx-status" data-role="broadcast-status" data-status="{shown_status}" aria-live="polite">'
            f'{esc(msg)}</div>',
        ])

    def _repr_html_(self):
        c, rid = self.spec["controls"], new_id("dsx-dim")
        shape_opts = "".join(
            f'<option value="{i}"{" selected" if i == self.shape_index else ""}>{esc(self._shape_label(e))}</option>'
            for i, e in enumerate(self.shapes))
        dim_opts = "".join(f'<option value="{k}"{" selected" if k == self.dim else ""}>{esc(lab)}</option>'
                           for lab, k in self._dim_options(self.shape_index))
        body = "".join([
            f'<div class="dsx-title">{esc(self.spec["title"])}</div>',
            f'<div class="dsx-row"><label for="{rid}-shape">{esc(c["shape"]["label"])}</label>'
            f'<select id="{rid}-shape" data-role="shape">{shape_opts}</select></div>',
            f'<div class="dsx-row"><label for="{rid}-dim">{esc(c["dim"]["label"])}</label>'
            f'<select id="{rid}-dim" data-role="dim">{dim_opts}</select></div>',
            f'<div class="dsx-row"><label for="{rid}-keepdim"><input type="checkbox" id="{rid}-keepdim" '
            f'data-role="keepdim"{" checked" if self.keepdim else ""}> {esc(c["keepdim"]["label"])}</label></div>',
            self._dynamic_html(),
        ])
        return self.page(rid, "dim_keepdim", body, self.spec, {"shapes": self.shapes, "dim": self.dim})

    def _plain(self):
        return "DimKeepdimExplorer：在 Jupyter/Colab 中显示为交互控件，在 HTML 书页中显示为页面内探索器。"

    def _build_widget(self):
        import ipywidgets as W

        c = self.spec["controls"]
        style = {"description_width": "5em"}
        w = {
            "shape": W.Dropdown(options=[(self._shape_label(e), i) for i, e in enumerate(self.shapes)],
                                value=self.shape_index, description=c["shape"]["label"], style=style,
                                layout=W.Layout(width="100%", max_width="420px")),
            "dim": W.Dropdown(options=self._dim_options(self.shape_index), value=self.dim,
                              description=c["dim"]["label"], style=style, layout=W.Layout(width="100%", max_width="420px")),
            "keepdim": W.Checkbox(value=self.keepdim, description=c["keepdim"]["label"], indent=False),
            "view": W.HTML(value=self.kernel_view(self._dynamic_html())),
        }
        w["box"] = W.VBox([W.HTML(value=f"<b>{esc(self.spec['title'])}</b>"), w["shape"], w["dim"], w["keepdim"], w["view"]])
        self._w = w
        w["shape"].observe(self._on_shape, "value")
        w["dim"].observe(self._on_dim, "value")
        w["keepdim"].observe(self._on_keepdim, "value")

    def _redraw(self):
        if self._w is not None and not self._busy:
            self._w["view"].value = self.kernel_view(self._dynamic_html())

    def _on_shape(self, change):
        self.shape_index = int(change["new"])
        n = len(self.shapes[self.shape_index]["shape"])
        keep = self.dim if -n <= self.dim < n else -1
        self._busy = True
        try:  # 换形状时 dim 的选项跟着换；能保留原来的 dim 就保留
            self._w["dim"].options = self._dim_options(self.shape_index)
            self._w["dim"].value = keep
        finally:
            self._busy = False
        self.dim = keep
        self._redraw()

    def _on_dim(self, change):
        if self._busy or change["new"] is None:
            return
        self.dim = int(change["new"])
        self._redraw()

    def _on_keepdim(self, change):
        self.keepdim = bool(change["new"])
        self._redraw()

    def set(self, shape=None, dim=None, keepdim=None):
        """用程序拨动控件：shape 是形状列表里的序号或形状本身（如 [4, 4]），dim 是整数，keepdim 是布尔值。"""
        w = self.widget and self._w
        if shape is not None:
            if not isinstance(shape, int):
                matches = [i for i, e in enumerate(self.shapes) if e["shape"] == list(shape)]
                if not matches:
                    raise ValueError(f"形状列表里没有 {list(shape)}；可选：{[e['shape'] for e in self.shapes]}。"
                                     "要用别的形状，请调用 dim_keepdim_explorer(shape=...)。")
                shape = matches[0]
            w["shape"].value = shape
        if dim is not None:
            n = len(self.shapes[self.shape_index]["shape"])
            if not -n <= dim < n:
                raise ValueError(f"dim={dim} 超出范围：当前形状有 {n} 维，dim 应在 {-n} 到 {n - 1} 之间。")
            w["dim"].value = dim
        if keepdim is not None:
            w["keepdim"].value = bool(keepdim)
        return self

    def shown(self):
        """内核视图当前显示的文字：{data-role: 文字}，例如 shown()["result-shape"]。"""
        view = self.widget and self._w["view"].value
        out = shown_text(view)
        out["broadcast-status-kind"] = re.search(r'data-role="broadcast-status" data-status="(\w+)"', view).group(1)
        return out


def dim_keepdim_explorer(shape=None, names=None, *, dim=-1, keepdim=False):
    """dim 与 keepdim 探索器：选形状、dim 和 keepdim，看被压缩的维度、均值 m 的形状，
    以及 x - m 是正确广播、报错，还是（方阵时）不报错却沿错误的维度广播。

    shape：可选，你自己的形状（例如 (2, 5, 5)），会加到形状列表最前面；names：各维的名字。
    """
    return DimKeepdimExplorer(shape, names, dim=dim, keepdim=keepdim)
