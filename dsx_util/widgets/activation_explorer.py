"""真实激活值探索器：训练好的模型读一句话时，每个层归一化的输入 x 是什么样子。

- `activation_data(model, ids, tokens)`：构建时运行一次模型，用前向钩子记下每个层归一化（本书的 LayerNorm
  或 nn.LayerNorm）的输入 x，连同 γ、β、ε，压成一个可以写进网页的小字典（x 每层量化为 16 位整数）。
- `activation_explorer(data)`：选一层、选一个词元，看 x、μ、σ、x̂ 与 γ⊙x̂+β，以及这个词元落在本层 S 曲线
  （全部词元、全部特征的 x → x̂ 散点，仿 DyT 论文图 1）的哪一段。

与别的探索器相同（base.py）：同一个对象在 Jupyter/Colab 里是 ipywidgets 控件（数字由 torch 计算），在 HTML 书页里
是自包含的页面内视图（脚本与样式共用 static/explorers.js、explorers.css）。两边读同一份数据：页面内视图拿到的是
它的 JSON，解码后的每个数与 Python 这边完全相同。torch、ipywidgets 在用到时才导入。
"""
import base64
import math
import struct

from . import spec as S
from .bars import bars_svg
from .base import Explorer, esc, new_id, shown_text


# ---------------------------------------------------------------- 数据：量化与解码（与 explorers.js 的 unpack 相同）
def pack(values):
    """一组数 → {"s": 比例, "q": 16 位有符号整数（小端）的 base64}；解码值 = 整数 × 比例。"""
    values = [float(v) for v in values]
    if not all(math.isfinite(v) for v in values):
        raise ValueError("激活值里有 NaN 或 inf，无法写进探索器：请先检查模型的输出。")
    top = max((abs(v) for v in values), default=0.0)
    scale = top / S.ACT_QUANT_MAX if top > 0 else 1.0
    q = [max(-S.ACT_QUANT_MAX, min(S.ACT_QUANT_MAX, round(v / scale))) for v in values]
    return {"s": scale, "q": base64.b64encode(struct.pack(f"<{len(q)}h", *q)).decode("ascii")}


def unpack(packed):
    """pack 的逆：整数 × 比例（float64，与 JS 端的乘法相同）。"""
    raw = base64.b64decode(packed["q"])
    return [q * packed["s"] for q in struct.unpack(f"<{len(raw) // 2}h", raw)]


def nice(v):
    """不小于 v 的“整齐”的数（1、1.5、2、2.5、3、4、5、6、8 乘 10 的幂），做坐标轴的范围：空出的部分不到三分之一。"""
    v = max(float(v), 1e-9)
    k = 10.0 ** math.floor(math.log10(v))
    return next(m * k for m in (1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0) if m * k >= v * (1 - 1e-12))


def layer_label(name):
    """模块名 → 读者看的名字，例如 trf_blocks.0.norm1 → 第 1 块 norm1（注意力之前）。"""
    labels = S.ACTIVATION_SPEC["layer_labels"]
    parts = name.split(".")
    if len(parts) == 3 and parts[0] == "trf_blocks" and parts[1].isdigit() and parts[2] in ("norm1", "norm2"):
        return S.fill(labels[parts[2]], {"block": int(parts[1]) + 1})
    return labels.get(name, name)


def activation_data(model, ids, tokens=None):
    """用前向钩子记下 model 读 ids（一句话的词元 ID）时每个层归一化的输入，返回可以交给 activation_explorer 的字典。

    model：GPTModel 这类模型（调用 model(ids[None])），或 {名字: 模型} 的字典（例如训练后与初始化时的同一个模型，
    探索器的层列表里依次列出每个模型的层归一化，名字写在前面）；ids：一维的词元 ID（列表或张量）；
    tokens：可选，每个词元显示的文字（例如 [tokenizer.decode([i]) for i in ids]），默认显示 ID。
    模型临时切换到评估模式（关掉 dropout），结束后恢复原来的模式；钩子无论成败都会移除。
    """
    if isinstance(model, dict):
        if not model:
            raise ValueError("model 是空字典：请传一个模型，或 {名字: 模型}。")
        parts = [(str(label), _one_model(m, ids, tokens)) for label, m in model.items()]
        hs = {d["h"] for _, d in parts}
        if len(hs) != 1:
            raise ValueError(f"这几个模型的嵌入维度不同（{sorted(hs)}），不能放进同一个探索器。")
        layers = [dict(L, name=f"{label}/{L['name']}", label=f"{label} · {L['label']}") for label, d in parts
                  for L in d["layers"]]
        return dict(parts[0][1], layers=layers)
    return _one_model(model, ids, tokens)


def _one_model(model, ids, tokens):
    import torch
    import torch.nn as nn

    from ..layernorm import LayerNorm

    if isinstance(ids, (str, bytes)):
        raise TypeError(f"ids 应该是词元 ID 的列表或一维张量，收到的是字符串 {ids!r:.40}：请先用分词器编码，"
                        "例如 tokenizer.encode(text)。")
    idx = torch.as_tensor(ids if not isinstance(ids, torch.Tensor) else ids.detach().cpu(), dtype=torch.long)
    if idx.dim() != 1 or idx.numel() < 2:
        raise ValueError(f"ids 应该是至少 2 个词元 ID 的一维序列，收到的形状是 {tuple(idx.shape)}。")
    tokens = [str(int(i)) for i in idx] if tokens is None else [str(t) for t in tokens]
    if len(tokens) != idx.numel():
        raise ValueError(f"tokens 有 {len(tokens)} 个，ids 有 {idx.numel()} 个：两者应一一对应。")
    norms = [(name, m) for name, m in model.named_modules() if isinstance(m, (LayerNorm, nn.LayerNorm))]
    if not norms:
        raise ValueError("模型里没有层归一化模块（本书的 LayerNorm 或 nn.LayerNorm），没有可以显示的东西。")
    seen = {}
    handles = [m.register_forward_hook(lambda _m, inputs, _out, name=name: seen.__setitem__(name, inputs[0].detach()))
               for name, m in norms]
    training = model.training
    try:
        model.eval()
        with torch.no_grad():
            model(idx.to(next(model.parameters()).device)[None])
    finally:
        for h in handles:
            h.remove()
        model.train(training)
    layers = []
    for name, m in norms:
        x = seen[name][0].double().cpu()                       # [T, H]
        gamma = getattr(m, "scale", None) if hasattr(m, "scale") else m.weight
        beta = getattr(m, "shift", None) if hasattr(m, "shift") else m.bias
        h = x.shape[-1]
        gamma = [1.0] * h if gamma is None else gamma.detach().double().cpu().tolist()
        beta = [0.0] * h if beta is None else beta.detach().double().cpu().tolist()
        layers.append({"name": name, "label": layer_label(name), "eps": float(m.eps),
                       "x": pack(x.flatten().tolist()), "gamma": pack(gamma), "beta": pack(beta)})
    return {"tokens": tokens, "h": int(seen[norms[0][0]].shape[-1]), "layers": layers}


# ---------------------------------------------------------------- 每个词元的统计量（纯 Python，求和顺序与 JS 相同）
def token_stats(x, t_count, h, eps):
    """x 按 [T, H] 行优先展平；返回每个词元的 (μ, σ², σ = √(σ² + ε))，有偏方差，逐个相加（与 JS 相同的顺序）。"""
    out = []
    for t in range(t_count):
        row = x[t * h:(t + 1) * h]
        s = 0.0
        for v in row:
            s += v
        mu = s / h
        q = 0.0
        for v in row:
            q += (v - mu) * (v - mu)
        var = q / h
        out.append((mu, var, math.sqrt(var + eps)))
    return out


def median(values):
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


# ---------------------------------------------------------------- 散点图（S 曲线）：几何与 explorers.js 的 scatter* 相同
def _half(v):
    """坐标对齐到 0.5：返回整数 k（坐标 = k / 2）。两边都用 floor(2v + 0.5)，结果逐位相同。"""
    return math.floor(v * 2 + 0.5)


def _half_text(k):
    return f"{k / 2:g}"


def scatter_xy(x, xhat, rx, rh):
    """一点 (x, x̂) 在散点图里的坐标（未对齐）。"""
    g = S.ACT_SCATTER
    pw, ph = g["width"] - g["left"] - g["right"], g["height"] - g["top"] - g["bottom"]
    return g["left"] + (x + rx) / (2 * rx) * pw, g["top"] + (rh - xhat) / (2 * rh) * ph


def scatter_path(xs, hats, rx, rh):
    """一组点的 path：每点一段零长度的线（圆头画成圆点）；对齐到 0.5 后重复的点只画一次。"""
    seen, parts = set(), []
    for a, b in zip(xs, hats):
        px, py = scatter_xy(a, b, rx, rh)
        key = (_half(px), _half(py))
        if key not in seen:
            seen.add(key)
            parts.append(f"M{_half_text(key[0])} {_half_text(key[1])}h0")
    return "".join(parts)


def token_line(mu, sigma, rx, rh):
    """这个词元的直线 x̂ = (x − μ)/σ，裁到图的范围内；完全在外面时返回空字符串。"""
    lo, hi = max(-rx, mu - rh * sigma), min(rx, mu + rh * sigma)
    if not lo < hi:
        return ""
    (ax, ay), (bx, by) = scatter_xy(lo, (lo - mu) / sigma, rx, rh), scatter_xy(hi, (hi - mu) / sigma, rx, rh)
    return f"M{ax:.2f} {ay:.2f}L{bx:.2f} {by:.2f}"


def scatter_svg(all_path, sel_path, line, title, labels):
    g, charts = S.ACT_SCATTER, S.ACTIVATION_SPEC["charts"]
    w, h, left, top = g["width"], g["height"], g["left"], g["top"]
    right, bottom = w - g["right"], h - g["bottom"]
    cx, cy = (left + right) / 2, (top + bottom) / 2
    return (
        f'<svg class="dsx-scatter" data-role="chart-scatter" role="img" aria-label="{esc(title)}" width="{w}" '
        f'height="{h}" viewBox="0 0 {w} {h}" xmlns="http://www.w3.org/2000/svg">'
        f'<text class="dsx-chart-title" x="{left}" y="14" font-size="12" font-weight="600">{esc(charts["scatter"])}</text>'
        f'<path class="dsx-frame" d="M{left} {top}H{right}V{bottom}H{left}z"/>'
        f'<path class="dsx-zero" d="M{left} {cy}H{right}M{cx} {top}V{bottom}"/>'
        f'<text x="{left - 4}" y="{top + 4}" font-size="10" text-anchor="end" data-role="tick-h-hi">{labels["rh"]}</text>'
        f'<text x="{left - 4}" y="{cy + 4}" font-size="10" text-anchor="end">0</text>'
        f'<text x="{left - 4}" y="{bottom}" font-size="10" text-anchor="end" data-role="tick-h-lo">{labels["rh_lo"]}</text>'
        f'<text x="{left}" y="{bottom + 12}" font-size="10" text-anchor="middle" data-role="tick-x-lo">{labels["rx_lo"]}</text>'
        f'<text x="{right}" y="{bottom + 12}" font-size="10" text-anchor="end" data-role="tick-x-hi">{labels["rx"]}</text>'
        f'<text x="{cx}" y="{h - 3}" font-size="10" text-anchor="middle">{esc(charts["scatter_x"])}</text>'
        f'<text x="6" y="{cy - 8}" font-size="10">{esc(charts["scatter_y"])}</text>'
        f'<path class="dsx-pts" data-role="scatter-all" d="{all_path}"/>'
        f'<path class="dsx-line" data-role="scatter-line" d="{line}"/>'
        f'<path class="dsx-pts-sel" data-role="scatter-sel" d="{sel_path}"/></svg>'
    )


class ActivationExplorer(Explorer):
    """真实激活值探索器。`.widget` 是 ipywidgets 视图；`.set(layer=..., token=...)` 用程序拨动控件；
    `.numbers()` 是 torch 算出的数；`.shown()` 读出显示的文字。"""

    def __init__(self, data, *, layer=0, token=None):
        self.spec = S.ACTIVATION_SPEC
        self.data = self._check_data(data)
        self.tokens = list(self.data["tokens"])
        self.t_count, self.h = len(self.tokens), int(self.data["h"])
        self.layers = self.data["layers"]
        self._x = [unpack(L["x"]) for L in self.layers]
        self._gamma = [unpack(L["gamma"]) for L in self.layers]
        self._beta = [unpack(L["beta"]) for L in self.layers]
        self._stats = [token_stats(x, self.t_count, self.h, L["eps"]) for x, L in zip(self._x, self.layers)]
        self._ranges = [self._layer_ranges(i) for i in range(len(self.layers))]
        self.layer = self._check_index("layer", layer, len(self.layers))
        self.token = self._check_index("token", self.t_count - 1 if token is None else token, self.t_count)
        self._w = None
        self._busy = False

    @staticmethod
    def _check_data(data):
        if not isinstance(data, dict) or not {"tokens", "h", "layers"} <= set(data):
            raise TypeError("data 应该是 activation_data(model, ids, tokens) 返回的字典，"
                            f"收到的是 {type(data).__name__}。")
        t, h = len(data["tokens"]), int(data["h"])
        for L in data["layers"]:
            n = len(base64.b64decode(L["x"]["q"])) // 2
            if n != t * h:
                raise ValueError(f"第 {L.get('name', '?')} 层的数据有 {n} 个数，应有 {t} × {h} = {t * h} 个。")
        return data

    @staticmethod
    def _check_index(what, value, n):
        if isinstance(value, bool) or not isinstance(value, int) or not -n <= value < n:
            raise ValueError(f"{what}={value!r} 超出范围：应是 0 到 {n - 1} 之间的整数。")
        return value % n

    def _layer_ranges(self, i):
        x, st, g, b = self._x[i], self._stats[i], self._gamma[i], self._beta[i]
        h = self.h
        top_x = max(abs(v) for v in x)
        top_h, top_y = 0.0, 0.0
        for t, (mu, _var, sigma) in enumerate(st):
            for j in range(h):
                xh = (x[t * h + j] - mu) / sigma
                top_h = max(top_h, abs(xh))
                top_y = max(top_y, abs(g[j] * xh + b[j]))
        rx, rh = nice(top_x), nice(top_h)
        ry = nice(max(top_h, top_y))
        return {"rx": rx, "rh": rh, "ry": ry, "labels": {
            "rx": S.fmt_tick(rx), "rx_lo": S.fmt_tick(-rx), "rh": S.fmt_tick(rh), "rh_lo": S.fmt_tick(-rh),
            "ry": S.fmt_tick(ry), "ry_lo": S.fmt_tick(-ry)}}

    # ---------- 计算（内核端，torch）
    def numbers(self):
        """当前层、当前词元的全部数字（torch，float64）：x、μ、σ²、σ、x̂、输出，以及本层各词元的 σ。"""
        import torch

        i, t, h = self.layer, self.token, self.h
        L = self.layers[i]
        xs = torch.tensor(self._x[i], dtype=torch.float64).reshape(self.t_count, h)
        x = xs[t]
        mu = x.mean()
        var = x.var(unbiased=False)
        sigma = torch.sqrt(var + L["eps"])
        xhat = (x - mu) / sigma
        gamma = torch.tensor(self._gamma[i], dtype=torch.float64)
        beta = torch.tensor(self._beta[i], dtype=torch.float64)
        y = gamma * xhat + beta
        sigmas = torch.sqrt(xs.var(dim=-1, unbiased=False) + L["eps"])
        j = int(x.abs().argmax())
        return {"x": x, "mu": float(mu), "var": float(var), "sigma": float(sigma), "xhat": xhat, "y": y,
                "gamma": gamma, "beta": beta, "sigmas": sigmas, "j": j,
                "y_mean": float(y.mean()), "y_var": float(y.var(unbiased=False))}

    # ---------- 显示（内核视图与页面视图共用同一段 HTML 结构）
    def _sentence_html(self):
        spans = "".join(f'<span class="dsx-tok{" dsx-tok-sel" if k == self.token else ""}" data-t="{k}">'
                        f'{esc(S.token_label(c))}</span>' for k, c in enumerate(self.tokens))
        return (f'<div class="dsx-note">{esc(S.fill(self.spec["text"]["sentence"], {"t": self.t_count}))}</div>'
                f'<div class="dsx-sentence" data-role="sentence">{spans}</div>')

    def _dynamic_html(self):
        t, charts = self.spec["text"], self.spec["charts"]
        nums = self.numbers()
        i, tok, h = self.layer, self.token, self.h
        r = self._ranges[i]
        sig = [s for _, _, s in self._stats[i]]
        med = median(sig)
        j = nums["j"]
        x = nums["x"].tolist()
        xhat, y = nums["xhat"].tolist(), nums["y"].tolist()
        span = lambda role, v: f'<span class="dsx-num" data-role="{role}">{esc(v)}</span>'  # noqa: E731

        def line(key, roles):
            return S.fill(esc(t[key]), {k: span(role, v) for k, (role, v) in roles.items()})

        xs_all = self._x[i]
        hats_all = [(xs_all[k * h + c] - self._stats[i][k][0]) / self._stats[i][k][2]
                    for k in range(self.t_count) for c in range(h)]
        mu_p, _v, sigma_p = self._stats[i][tok]
        row = xs_all[tok * h:(tok + 1) * h]
        sel = scatter_path(row, [(v - mu_p) / sigma_p for v in row], r["rx"], r["rh"])
        aria = S.fill(t["scatter_aria"], {"layer": self.layers[i]["label"], "token": S.token_label(self.tokens[tok]),
                                          "slope": S.fmt(1 / nums["sigma"])})
        return "".join([
            self._sentence_html(),
            '<div class="dsx-stats" aria-live="polite">',
            f'<div>{line("stats", {"h": ("act-h", str(h)), "mu": ("act-mu", S.fmt(nums["mu"])), "var": ("act-var", S.fmt(nums["var"])), "sigma": ("act-sigma", S.fmt(nums["sigma"]))})}</div>',
            f'<div>{line("spread", {"t": ("act-n", str(self.t_count)), "lo": ("act-lo", S.fmt(min(sig))), "hi": ("act-hi", S.fmt(max(sig))), "med": ("act-med", S.fmt(med)), "ratio": ("act-ratio", S.fmt(nums["sigma"] / med))})}</div>',
            f'<div>{line("max", {"j": ("act-j", str(j)), "x": ("act-xj", S.fmt(x[j])), "xhat": ("act-hj", S.fmt(xhat[j])), "g": ("act-gj", S.fmt(self._gamma[i][j])), "b": ("act-bj", S.fmt(self._beta[i][j])), "y": ("act-yj", S.fmt(y[j]))})}</div>',
            f'<div>{line("out_stats", {"mean": ("act-y-mean", S.fmt(nums["y_mean"])), "var": ("act-y-var", S.fmt(nums["y_var"]))})}</div>',
            "</div>",
            '<div class="dsx-charts" data-role="charts">',
            bars_svg(x, charts["x"], r["rx"], j, "chart-x"),
            bars_svg(xhat, charts["xhat"], r["ry"], j, "chart-xhat"),
            bars_svg(y, charts["y"], r["ry"], j, "chart-y"), "</div>",
            scatter_svg(scatter_path(xs_all, hats_all, r["rx"], r["rh"]), sel,
                        token_line(mu_p, sigma_p, r["rx"], r["rh"]), aria, r["labels"]),
            f'<div class="dsx-note" data-role="curve">{line("curve", {"t": ("act-n2", str(self.t_count)), "h": ("act-h2", str(h)), "slope": ("act-slope", S.fmt(1 / nums["sigma"]))})}</div>',
            f'<div class="dsx-note">{esc(S.fill(t["note"], {"err": S.fmt(self.quant_error())}))}</div>',
        ])

    def quant_error(self):
        """量化带来的最大误差：各层比例的一半里最大的那个。"""
        return max(L["x"]["s"] for L in self.layers) / 2

    def _options(self, kind):
        if kind == "layer":
            return [(L["label"], k) for k, L in enumerate(self.layers)]
        return [(S.fill(self.spec["text"]["token_option"], {"t": k, "ch": S.token_label(c)}), k)
                for k, c in enumerate(self.tokens)]

    def _repr_html_(self):
        c, rid = self.spec["controls"], new_id("dsx-act")

        def select(role, current):
            opts = "".join(f'<option value="{v}"{" selected" if v == current else ""}>{esc(lab)}</option>'
                           for lab, v in self._options(role))
            return (f'<div class="dsx-row"><label for="{rid}-{role}">{esc(c[role]["label"])}</label>'
                    f'<select id="{rid}-{role}" data-role="{role}">{opts}</select></div>')

        body = "".join([
            f'<div class="dsx-title">{esc(self.spec["title"])}</div>',
            select("layer", self.layer), select("token", self.token),
            f'<div class="dsx-row"><button type="button" data-role="prev">{esc(c["prev"]["label"])}</button>'
            f'<button type="button" data-role="next">{esc(c["next"]["label"])}</button></div>',
            self._dynamic_html(),
        ])
        data = {"tokens": self.tokens, "h": self.h, "layers": [
            {"label": L["label"], "eps": L["eps"], "x": L["x"], "gamma": L["gamma"], "beta": L["beta"],
             "rx": r["rx"], "rh": r["rh"], "ry": r["ry"], "labels": r["labels"]}
            for L, r in zip(self.layers, self._ranges)]}
        return self.page(rid, "activations", body, self.spec, data)

    def _plain(self):
        return (f"ActivationExplorer（{len(self.layers)} 个层归一化，{self.t_count} 个词元，H = {self.h}）："
                "在 Jupyter/Colab 中显示为交互控件，在 HTML 书页中显示为页面内探索器。")

    # ---------- ipywidgets 视图（7.7 与 8 通用）
    def _build_widget(self):
        import ipywidgets as W

        c = self.spec["controls"]
        style = {"description_width": "6em"}
        lay = W.Layout(width="100%", max_width="480px")
        w = {"layer": W.Dropdown(options=self._options("layer"), value=self.layer, description=c["layer"]["label"],
                                 style=style, layout=lay),
             "token": W.Dropdown(options=self._options("token"), value=self.token, description=c["token"]["label"],
                                 style=style, layout=lay),
             "prev": W.Button(description=c["prev"]["label"], layout=W.Layout(width="auto")),
             "next": W.Button(description=c["next"]["label"], layout=W.Layout(width="auto")),
             "view": W.HTML(value=self.kernel_view(self._dynamic_html()))}
        w["box"] = W.VBox([W.HTML(value=f"<b>{esc(self.spec['title'])}</b>"), w["layer"], w["token"],
                           W.HBox([w["prev"], w["next"]], layout=W.Layout(flex_flow="row wrap")), w["view"]])
        self._w = w
        w["layer"].observe(self._on_change, "value")
        w["token"].observe(self._on_change, "value")
        w["prev"].on_click(lambda _b: self.set(token=(self.token - 1) % self.t_count))
        w["next"].on_click(lambda _b: self.set(token=(self.token + 1) % self.t_count))

    def _on_change(self, _change):
        w = self._w
        self.layer, self.token = int(w["layer"].value), int(w["token"].value)
        if not self._busy:
            w["view"].value = self.kernel_view(self._dynamic_html())

    def set(self, layer=None, token=None):
        """用程序拨动控件：layer 是层归一化的序号（0 起），token 是词元的位置（0 起）。"""
        w = self.widget and self._w
        self._busy = True
        try:
            if layer is not None:
                w["layer"].value = self._check_index("layer", layer, len(self.layers))
            if token is not None:
                w["token"].value = self._check_index("token", token, self.t_count)
        finally:
            self._busy = False
        self._on_change(None)
        return self

    def shown(self):
        """内核视图当前显示的文字：{data-role: 文字}，例如 shown()["act-sigma"]。"""
        return shown_text(self.widget and self._w["view"].value)


def activation_explorer(data, *, layer=0, token=None):
    """真实激活值探索器：data 是 activation_data(model, ids, tokens) 的结果。选一个层归一化和一个词元，
    看输入 x、μ、σ、x̂ 与输出 γ⊙x̂+β，以及这个词元在本层 S 曲线（全部 x → x̂ 的散点）上落在哪里。

    layer：初始的层归一化序号（0 起，按模型里的顺序）；token：初始的词元位置，默认最后一个。
    """
    return ActivationExplorer(data, layer=layer, token=token)
