"""两个交互探索器。每个探索器对象在笔记本里同时给出两种输出：

- `application/vnd.jupyter.widget-view+json`：ipywidgets 视图（Jupyter、JupyterLab、Colab），数字由内核里的 torch
  （或读者自己的 LayerNorm 类）计算；只用 ipywidgets 7.7 与 8 都有的控件和参数。
- `text/html`：自包含的页面内视图（内联 JS 与 CSS，不加载任何外部资源），HTML 书页里没有内核也能实时计算。

两种视图读同一份规格（spec.py）；页面内视图拿到的是它的 JSON。torch、ipywidgets 在创建探索器时才导入。
"""
import html
import json
import math
import re
import uuid
from functools import cache
from pathlib import Path

from . import spec as S

_STATIC = Path(__file__).resolve().parent / "static"
_WIDGET_MIME = "application/vnd.jupyter.widget-view+json"


@cache
def _static(name):
    return (_STATIC / name).read_text(encoding="utf-8")


def _esc(text):
    return html.escape(str(text), quote=True)


def _json_script(role, obj):
    """把对象放进 <script type="application/json">；转义 "<"，避免提前结束 script 标签。"""
    text = json.dumps(obj, ensure_ascii=False, allow_nan=False).replace("<", "\\u003c")
    return f'<script type="application/json" data-role="{role}">{text}</script>'


def _page(root_id, kind, body, spec, data):
    """组装页面内视图：样式 + 结构 + 规格 JSON + 数据 JSON + 内联脚本（只在首次定义 DSXExplorers）。"""
    return (
        f'<div class="dsx-explorer tex2jax_ignore mathjax_ignore" id="{root_id}" data-explorer="{kind}">'
        f"<style>{_static('explorers.css')}</style>{body}"
        f"{_json_script('spec', spec)}{_json_script('data', data)}"
        f"<script>{_static('explorers.js')}\n"
        f'window.DSXExplorers.{kind}(document.getElementById("{root_id}"));</script></div>'
    )


def _kernel_view(body):
    """ipywidgets 视图里随控件一起刷新的那部分：同一份样式表 + 与页面内视图相同的结构。"""
    return f'<div class="dsx-explorer dsx-kernel-view"><style>{_static("explorers.css")}</style>{body}</div>'


def _new_id(prefix):
    """每次生成页面内视图都用新的 id：同一个探索器显示两次、或一页上有多个探索器时互不干扰。"""
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


_ROLE_TEXT = re.compile(r'data-role="([\w-]+)"[^>]*>([^<]*)<')


def _shown(view_html):
    """从视图的 HTML 里读出 data-role -> 文字（测试和基准用）。"""
    return {m.group(1): html.unescape(m.group(2)) for m in _ROLE_TEXT.finditer(view_html)}


class _Explorer:
    """两个探索器共用的显示方式：在内核里是 ipywidgets 控件，在 HTML 书页里是页面内计算的视图。"""

    _w = None

    def __repr__(self):
        return self._plain()

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = {"text/plain": self._plain(), "text/html": self._repr_html_()}
        try:
            widget = self.widget
        except ImportError:  # 没装 ipywidgets：只给页面内视图
            return bundle
        bundle[_WIDGET_MIME] = {"version_major": 2, "version_minor": 0, "model_id": widget.model_id}
        return bundle

    @property
    def widget(self):
        """ipywidgets 控件（第一次访问时才创建）。"""
        if self._w is None:
            self._build_widget()
        return self._w["box"]


# ---------------------------------------------------------------- 柱状图（与 explorers.js 的几何相同）
_CW, _CH, _PL, _PR, _PT, _PB = 240, 150, 48, 6, 22, 8


def chart_range(x, xhat):
    """三个图共用的固定纵轴 [-R, R]：R 是不小于 max(|x|, 2·|x̂|) 的“整齐”的数（1、2、2.5、5 乘 10 的幂）。

    固定而不是每个图自己缩放，γ 从 1 拖到 2 时输出的柱子才会真的变成两倍高；超出 ±R 的值画到边上并标出。
    """
    need = max([abs(v) for v in x if math.isfinite(v)] + [2 * abs(v) for v in xhat if math.isfinite(v)] + [1.0])
    k = 10.0 ** math.floor(math.log10(need))
    return next(m * k for m in (1.0, 2.0, 2.5, 5.0, 10.0) if m * k >= need * (1 - 1e-12))


def bars_svg(values, title, span, selected=-1, role=""):
    """一组值在固定纵轴 [-span, span] 上的柱状图，返回内联 SVG 字符串；超出范围的柱子画到边上，加三角标记。"""
    n = len(values)
    pw, ph = _CW - _PL - _PR, _CH - _PT - _PB
    bw = pw / n
    gap = bw * 0.15 if bw > 3 else 0.0
    w = bw - 2 * gap

    def y(v):
        return _PT + (span - v) / (2 * span) * ph

    parts, over, sel, count = [], [], "", 0
    for i, v in enumerate(values):
        c = min(max(v, -span), span)
        y1 = y(max(c, 0.0))
        h = max(y(min(c, 0.0)) - y1, 0.5)
        left = _PL + i * bw + gap
        seg = f"M{left:.2f} {y1:.2f}h{w:.2f}v{h:.2f}h{-w:.2f}z"
        if c != v:
            count += 1
            tip, base = (_PT - 5, _PT) if v > 0 else (_CH - _PB + 5, _CH - _PB)
            over.append(f"M{left:.2f} {base:.2f}L{left + w / 2:.2f} {tip:.2f}L{left + w:.2f} {base:.2f}z")
        if i == selected:
            sel = seg
        else:
            parts.append(seg)
    t = S.LAYER_NORM_SPEC["text"]
    label = S.fill(t["chart_aria"], {"title": title, "h": n, "min": S.fmt(min(values)), "max": S.fmt(max(values)),
                                     "range": S.fmt_tick(span)})
    over_note = S.fill(t["overflow"], {"count": count}) if count else ""
    return (
        f'<svg class="dsx-chart" data-role="{role}" role="img" aria-label="{_esc(label)}" '
        f'width="{_CW}" height="{_CH}" viewBox="0 0 {_CW} {_CH}" xmlns="http://www.w3.org/2000/svg">'
        f'<text class="dsx-chart-title" x="{_PL}" y="14" font-size="12" font-weight="600">{_esc(title)}</text>'
        f'<text class="dsx-over-note" x="{_CW - _PR}" y="14" font-size="10" text-anchor="end">{_esc(over_note)}</text>'
        f'<text class="dsx-hi" x="{_PL - 4}" y="{_PT + 4}" font-size="10" text-anchor="end">{S.fmt_tick(span)}</text>'
        f'<text x="{_PL - 4}" y="{y(0) + 4:.2f}" font-size="10" text-anchor="end">0</text>'
        f'<text class="dsx-lo" x="{_PL - 4}" y="{_CH - _PB}" font-size="10" text-anchor="end">{S.fmt_tick(-span)}</text>'
        f'<path class="dsx-bars" fill="#4c78a8" d="{"".join(parts)}"/>'
        f'<path class="dsx-sel" fill="#e45756" d="{sel}"/>'
        f'<path class="dsx-over" fill="#b3261e" d="{"".join(over)}"/>'
        f'<path class="dsx-zero" stroke="#555" fill="none" d="M{_PL} {y(0):.2f}H{_CW - _PR}"/></svg>'
    )


# ---------------------------------------------------------------- 输入检查
def _as_vector(x):
    """把读者给的输入变成一维 float64 张量；不合适时给出中文说明。"""
    import torch

    if isinstance(x, (str, bytes)):
        raise TypeError(f"x 应该是一维张量或数字列表，收到的是字符串 {x!r}。"
                        "例如：layer_norm_explorer(torch.randn(16))")
    if not isinstance(x, torch.Tensor):
        try:
            x = torch.as_tensor(x, dtype=torch.float64)  # 列表直接转 float64，不经过 float32
        except (TypeError, ValueError, RuntimeError) as err:
            raise TypeError(f"x 应该是一维张量或数字列表，收到的是 {type(x).__name__}：{x!r:.60}。"
                            f"（{err}）例如：layer_norm_explorer(torch.randn(16))") from None
    if x.is_complex() or x.dtype == torch.bool:
        raise TypeError(f"x 的数据类型是 {x.dtype}，需要实数。例如：x.float()")
    if x.dim() != 1:
        raise ValueError(f"x 应该是一维张量（一行激活值），收到的形状是 {tuple(x.shape)}。"
                         "请先取出一行，例如 x[0, 0] 或 x.reshape(-1)。")
    if x.numel() == 0:
        raise ValueError("x 是空张量（长度 0），至少需要 1 个数。")
    return x.detach().to("cpu", torch.float64)


def _nonfinite_message(x):
    import torch

    bad = (~torch.isfinite(x)).nonzero().flatten()
    if bad.numel() == 0:
        return ""
    i = int(bad[0])
    return S.fill(S.LAYER_NORM_SPEC["text"]["nonfinite"],
                  {"count": int(bad.numel()), "index": i, "value": S.fmt(float(x[i]))})


def _json_float(v):
    return v if math.isfinite(v) else ("NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity"))


# ---------------------------------------------------------------- 层归一化探索器
class LayerNormExplorer(_Explorer):
    """γ、β、ε 探索器。`.widget` 是 ipywidgets 视图，`.set(...)`/`.preset(...)` 用程序拨动控件，`.shown()` 读出显示的数字。"""

    def __init__(self, x=None, layer_norm=None, *, h=S.DEFAULT_H, gamma=1.0, beta=0.0, eps=1e-5):
        import torch

        self.spec = S.LAYER_NORM_SPEC
        self._x = _as_vector(S.default_input(h) if x is None else x)
        self._x_list = self._x.tolist()
        self.h = len(self._x_list)
        self._message = _nonfinite_message(self._x)
        if not (isinstance(eps, (int, float)) and eps > 0):
            raise ValueError(f"eps 应该是正数，收到的是 {eps!r}。常用值是 1e-5。")
        self._init = {"gamma": float(gamma), "beta": float(beta), "log_eps": math.log10(eps)}
        mu, var = self._x.mean(), self._x.var(unbiased=False)
        self._range = chart_range(self._x_list, ((self._x - mu) / torch.sqrt(var + eps)).tolist())
        self.gamma = torch.full((self.h,), float(gamma), dtype=torch.float64)
        self.beta = torch.full((self.h,), float(beta), dtype=torch.float64)
        self.log_eps = math.log10(eps)
        self.feature = 0
        self.per_feature = False
        self._layer_norm = layer_norm
        self._reader_module = None
        self._reader_status = ""
        self._w = None
        self._busy = False
        self._exact = {}  # 滑块名 -> 内核赋给它的精确值（见 _put）

    # ---------- 计算（内核端，torch）
    @property
    def eps(self):
        return 10.0 ** self.log_eps

    def _reader_output(self, eps):
        """用读者的 LayerNorm（类或实例）算输出；出错时返回 None，并记下要显示的中文说明。"""
        import torch

        t = self.spec["text"]
        ln = self._layer_norm
        try:
            if isinstance(ln, type):
                if self._reader_module is None:
                    try:
                        self._reader_module = ln(self.h, eps=eps)
                    except TypeError:
                        self._reader_module = ln(self.h)
                mod = self._reader_module
            else:
                mod = ln
            if hasattr(mod, "eps"):
                mod.eps = eps
            scale = next((getattr(mod, a) for a in ("scale", "weight", "gamma") if hasattr(mod, a)), None)
            shift = next((getattr(mod, a) for a in ("shift", "bias", "beta") if hasattr(mod, a)), None)
            with torch.no_grad():
                if scale is not None:
                    scale.copy_(self.gamma.to(scale.dtype))
                if shift is not None:
                    shift.copy_(self.beta.to(shift.dtype))
                dtype = scale.dtype if isinstance(scale, torch.Tensor) else torch.float32
                y = mod(self._x.to(dtype))
        except Exception as err:  # 读者的类出什么错都不能让探索器失灵
            self._reader_status = S.fill(t["reader_error"], {"error": f"{type(err).__name__}: {err}"[:200]})
            return None
        if not isinstance(y, torch.Tensor) or tuple(y.shape) != (self.h,) or not bool(torch.isfinite(y).all()):
            what = (f"形状 {tuple(y.shape)}" if isinstance(y, torch.Tensor) and tuple(y.shape) != (self.h,)
                    else "含 NaN 或 inf 的张量" if isinstance(y, torch.Tensor) else type(y).__name__)
            self._reader_status = S.fill(t["reader_bad_output"], {"what": what, "h": self.h})
            return None
        self._reader_status = S.fill(t["reader_ok"], {"name": getattr(type(mod), "__name__", "LayerNorm")})
        return y.detach().to(torch.float64)

    def numbers(self):
        """当前设置下的全部数字（内核端）：输入、x̂、输出及其均值和有偏方差。"""
        import torch
        import torch.nn.functional as F

        x, eps = self._x, self.eps
        mu, var = x.mean(), x.var(unbiased=False)
        xhat = (x - mu) / torch.sqrt(var + eps)
        y = F.layer_norm(x, (self.h,), self.gamma, self.beta, eps)
        if self._layer_norm is not None:
            y_reader = self._reader_output(eps)
            if y_reader is not None:
                y = y_reader
        return {"x": x, "xhat": xhat, "y": y, "in_mean": float(mu), "in_var": float(var),
                "hat_mean": float(xhat.mean()), "hat_var": float(xhat.var(unbiased=False)),
                "out_mean": float(y.mean()), "out_var": float(y.var(unbiased=False)), "eps": eps}

    # ---------- 显示（内核视图与页面视图共用同一段 HTML 结构）
    def _dynamic_html(self, nums=None):
        t, charts = self.spec["text"], self.spec["charts"]
        if self._message:  # 输入里有 NaN/inf：只显示说明，不画图
            return (f'<div class="dsx-message" data-role="message" role="alert">{_esc(self._message)}</div>'
                    f'<div data-role="charts" hidden></div>')
        nums = nums or self.numbers()
        j = self.feature
        sel = j if self.per_feature else -1
        g, b = self.gamma.tolist(), self.beta.tolist()
        uniform = min(g) == max(g) and min(b) == max(b)
        finite = math.isfinite(nums["out_mean"]) and math.isfinite(nums["out_var"])
        status = self._reader_status
        msg = "" if finite else S.fill(t["nonfinite"], {"count": self.h, "index": 0, "value": "NaN"})
        ylist = nums["y"].tolist()
        span = lambda role, v: f'<span class="dsx-num" data-role="{role}">{S.fmt(v)}</span>'  # noqa: E731

        def line(template, **roles):
            return S.fill(_esc(template), {k: span(r, v) for k, (r, v) in roles.items()})

        expected = (S.fill(t["expected"], {"beta": S.fmt(b[0]),
                                            "expected_var": S.fmt(g[0] ** 2 * nums["in_var"] / (nums["in_var"] + nums["eps"]))})
                    if uniform else t["expected_per_feature"])
        formula = S.fill(t["formula"], {"j": j, "g": S.fmt(g[j]), "x": S.fmt(self._x_list[j]), "mu": S.fmt(nums["in_mean"]),
                                        "var": S.fmt(nums["in_var"]), "eps": S.fmt_eps(nums["eps"]),
                                        "b": S.fmt(b[j]), "y": S.fmt(ylist[j])})
        return "".join([
            f'<div class="dsx-note" data-role="reader-status">{_esc(status)}</div>' if status else "",
            f'<div class="dsx-message" data-role="message" role="alert"{"" if msg else " hidden"}>{_esc(msg)}</div>',
            '<div class="dsx-charts" data-role="charts">',
            bars_svg(self._x_list, charts["x"], self._range, sel, "chart-x"),
            bars_svg(nums["xhat"].tolist(), charts["xhat"], self._range, sel, "chart-xhat"),
            bars_svg(ylist, charts["y"], self._range, sel, "chart-y"), "</div>",
            '<div class="dsx-stats">',
            f"<div>{line(t['in_stats'], in_mean=('in-mean', nums['in_mean']), in_var=('in-var', nums['in_var']))}</div>",
            f"<div>{line(t['hat_stats'], hat_mean=('hat-mean', nums['hat_mean']), hat_var=('hat-var', nums['hat_var']))}</div>",
            '<div aria-live="polite">' + line(t["out_stats"], out_mean=("out-mean", nums["out_mean"]),
                                               out_var=("out-var", nums["out_var"])) + "</div>",
            f'<div data-role="expected">{_esc(expected)}</div></div>',
            f'<div class="dsx-formula" data-role="formula">{_esc(formula)}</div>',
            f'<div class="dsx-note">{_esc(S.fill(t["range_note"], {"range": S.fmt_tick(self._range)}))}</div>',
            f'<div class="dsx-note">{_esc(S.fill(t["note"], {"h": self.h}))}</div>',
        ])

    def _repr_html_(self):
        """页面内视图：原生 <input type="range">/<select>/<button>，带 <label>，数字以文字显示。"""
        c, p, rid = self.spec["controls"], self.spec["presets"], _new_id("dsx-ln")
        init = self._init

        def slider(role, label, lo, hi, step, value):
            return (f'<div class="dsx-row"><label for="{rid}-{role}">{_esc(label)}</label>'
                    f'<input type="range" id="{rid}-{role}" data-role="{role}" min="{lo}" max="{hi}" step="{step}" '
                    f'value="{value}"><output data-role="{role.replace("log_eps", "eps")}-value" '
                    f'for="{rid}-{role}"></output></div>')

        g_lo, g_hi = min(c["gamma"]["min"], math.floor(init["gamma"])), max(c["gamma"]["max"], math.ceil(init["gamma"]))
        b_lo, b_hi = min(c["beta"]["min"], math.floor(init["beta"])), max(c["beta"]["max"], math.ceil(init["beta"]))
        options = "".join(f'<option value="{i}">{i}</option>' for i in range(self.h))
        body = "".join([
            f'<div class="dsx-title">{_esc(self.spec["title"])}</div>',
            slider("gamma", c["gamma"]["label"], g_lo, g_hi, c["gamma"]["step"], init["gamma"]),
            slider("beta", c["beta"]["label"], b_lo, b_hi, c["beta"]["step"], init["beta"]),
            slider("log_eps", c["log_eps"]["label"], c["log_eps"]["min"], c["log_eps"]["max"],
                   c["log_eps"]["step"], init["log_eps"]),
            f'<div class="dsx-row"><label for="{rid}-per">'
            f'<input type="checkbox" id="{rid}-per" data-role="per_feature"> {_esc(c["per_feature"]["label"])}</label></div>',
            '<div data-role="per-feature-controls" hidden>',
            f'<div class="dsx-row"><label for="{rid}-feature">{_esc(c["feature"]["label"])}</label>'
            f'<select id="{rid}-feature" data-role="feature">{options}</select></div>',
            slider("gamma_j", c["gamma_j"]["label"], g_lo, g_hi, c["gamma"]["step"], init["gamma"]),
            slider("beta_j", c["beta_j"]["label"], b_lo, b_hi, c["beta"]["step"], init["beta"]),
            "</div>",
            f'<div class="dsx-row"><button type="button" data-role="reset">{_esc(p["reset"]["label"])}</button>'
            f'<button type="button" data-role="identity">{_esc(p["identity"]["label"])}</button></div>',
            self._dynamic_html(),
        ])
        data = {"x": [_json_float(v) for v in self._x_list], "gamma": init["gamma"], "beta": init["beta"],
                "range": _json_float(self._range)}
        return _page(rid, "layer_norm", body, self.spec, data)

    def _plain(self):
        return f"LayerNormExplorer(H={self.h})：在 Jupyter/Colab 中显示为交互控件，在 HTML 书页中显示为页面内探索器。"

    # ---------- ipywidgets 视图（7.7 与 8 通用）
    def _build_widget(self):
        import ipywidgets as W

        c, p, init = self.spec["controls"], self.spec["presets"], self._init
        style = {"description_width": "9em"}
        lay = W.Layout(width="100%", max_width="36em")   # 随输出区域变窄，不用固定宽度

        def fslider(key, conf, value):
            return W.FloatSlider(value=value, min=min(conf["min"], math.floor(value)), max=max(conf["max"], math.ceil(value)),
                                 step=conf["step"], description=c[key]["label"], readout_format=".2f",
                                 continuous_update=True, style=style, layout=lay)

        w = {
            "gamma": fslider("gamma", c["gamma"], init["gamma"]),
            "beta": fslider("beta", c["beta"], init["beta"]),
            "eps": W.FloatLogSlider(value=self.eps, base=10, min=c["log_eps"]["min"], max=c["log_eps"]["max"],
                                    step=c["log_eps"]["step"], description=c["log_eps"]["label"],
                                    readout_format=".1e", continuous_update=True, style=style, layout=lay),
            "per_feature": W.Checkbox(value=False, description=c["per_feature"]["label"], indent=False),
            "feature": W.Dropdown(options=[(str(i), i) for i in range(self.h)], value=0,
                                  description=c["feature"]["label"], style=style),
            "gamma_j": fslider("gamma_j", c["gamma"], init["gamma"]),
            "beta_j": fslider("beta_j", c["beta"], init["beta"]),
            "reset": W.Button(description=p["reset"]["label"], layout=W.Layout(width="auto")),
            "identity": W.Button(description=p["identity"]["label"], layout=W.Layout(width="auto")),
            "view": W.HTML(value=_kernel_view(self._dynamic_html())),
        }
        w["per_box"] = W.VBox([w["feature"], w["gamma_j"], w["beta_j"]], layout=W.Layout(display="none"))
        w["box"] = W.VBox([W.HTML(value=f"<b>{_esc(self.spec['title'])}</b>"), w["gamma"], w["beta"], w["eps"],
                           w["per_feature"], w["per_box"],
                           W.HBox([w["reset"], w["identity"]], layout=W.Layout(flex_flow="row wrap")), w["view"]])
        self._w = w
        w["gamma"].observe(lambda ch: self._on_all("gamma", ch["new"]), "value")
        w["beta"].observe(lambda ch: self._on_all("beta", ch["new"]), "value")
        w["eps"].observe(self._on_eps, "value")
        w["per_feature"].observe(self._on_per_feature, "value")
        w["feature"].observe(self._on_feature, "value")
        w["gamma_j"].observe(lambda ch: self._on_one("gamma", ch["new"]), "value")
        w["beta_j"].observe(lambda ch: self._on_one("beta", ch["new"]), "value")
        w["reset"].on_click(lambda _b: self.preset("reset"))
        w["identity"].on_click(lambda _b: self.preset("identity"))

    def _put(self, key, value):
        """给滑块赋精确值；超出范围时先扩大范围（预设和读者的数据可能超出默认范围）。

        前端的滑块会把值对齐到步长再传回内核（例如 γ = 1.50087 传回 1.50）。这里记下精确值，
        `_is_echo` 据此忽略这次回传，否则“恒等”预设会被前端悄悄改掉。
        """
        slider = self._w[key]
        if value > slider.max:
            slider.max = math.ceil(value)
        if value < slider.min:
            slider.min = math.floor(value)
        self._exact[key] = value
        slider.value = value

    def _is_echo(self, key, new):
        exact = self._exact.pop(key, None)
        if exact is None or new == exact:
            if exact is not None:
                self._exact[key] = exact  # 自己刚赋的值：保留记录，等前端的回传
            return False
        return abs(new - exact) <= self._w[key].step / 2 + 1e-12

    def _redraw(self):
        if self._w is not None and not self._busy:
            self._w["view"].value = _kernel_view(self._dynamic_html())

    def _sync_feature_sliders(self):
        busy, self._busy = self._busy, True
        try:
            self._put("gamma_j", float(self.gamma[self.feature]))
            self._put("beta_j", float(self.beta[self.feature]))
        finally:
            self._busy = busy

    def _on_all(self, name, value):
        if self._busy or self._is_echo(name, value):
            return
        getattr(self, name).fill_(float(value))
        self._sync_feature_sliders()
        self._redraw()

    def _on_one(self, name, value):
        if self._busy or self._is_echo(name + "_j", value):
            return
        getattr(self, name)[self.feature] = float(value)
        self._redraw()

    def _on_eps(self, change):
        self.log_eps = math.log10(change["new"])
        self._reader_module = None if isinstance(self._layer_norm, type) else self._reader_module
        self._redraw()

    def _on_per_feature(self, change):
        self.per_feature = bool(change["new"])
        self._w["per_box"].layout.display = None if self.per_feature else "none"
        self._redraw()

    def _on_feature(self, change):
        self.feature = int(change["new"])
        self._sync_feature_sliders()
        self._redraw()

    # ---------- 给测试和读者用的程序接口
    def set(self, **values):
        """用程序拨动控件，例如 ex.set(gamma=2.0, beta=0.5, eps=1e-3)；可用的名字：
        gamma、beta、eps、per_feature、feature、gamma_j、beta_j。与在界面上拖动滑块走同一条路径。"""
        w = self.widget and self._w
        for key in ("per_feature", "feature", "gamma", "beta", "eps", "gamma_j", "beta_j"):
            if key not in values:
                continue
            v = values.pop(key)
            if key in ("gamma", "beta", "gamma_j", "beta_j"):
                self._put(key, float(v))
            elif key == "eps":
                w["eps"].value = float(v)
            else:
                w[key].value = v
        if values:
            raise TypeError(f"set() 不认识这些名字：{', '.join(values)}。"
                            "可用：gamma、beta、eps、per_feature、feature、gamma_j、beta_j")
        return self

    def preset(self, name):
        """预设：'reset'（γ = 1，β = 0）或 'identity'（γ = √(σ² + ε)，β = μ，输出等于输入）。"""
        self.widget  # noqa: B018  访问一次：确保 ipywidgets 控件已经建好
        if name == "reset":
            g, b = self.spec["controls"]["gamma"]["value"], self.spec["controls"]["beta"]["value"]
        elif name == "identity":
            g = math.sqrt(float(self._x.var(unbiased=False)) + self.eps)
            b = float(self._x.mean())
        else:
            raise ValueError(f"没有名为 {name!r} 的预设；可用：'reset'、'identity'。")
        self._busy = True
        try:
            self._put("gamma", g)
            self._put("beta", b)
            self.gamma.fill_(g)
            self.beta.fill_(b)
            self._sync_feature_sliders()
        finally:
            self._busy = False
        self._redraw()
        return self

    def shown(self):
        """内核视图当前显示的文字：{data-role: 文字}，例如 shown()["out-var"]。"""
        return _shown(self.widget and self._w["view"].value)


def layer_norm_explorer(x=None, layer_norm=None, *, h=S.DEFAULT_H, gamma=1.0, beta=0.0, eps=1e-5):
    """层归一化探索器：拖动缩放参数 γ、平移参数 β 和 ε，看输入、x̂ 与输出的柱状图和均值、方差怎样变化。

    x：一维张量（一行激活值），默认是用固定种子生成的 H = 16 个数；
    layer_norm：可选，你自己的 LayerNorm 类（或实例），内核里会用它计算输出；
    h：不传 x 时默认输入的长度。在 Jupyter/Colab 中显示为 ipywidgets 控件，在 HTML 书页中在页面内计算。
    """
    return LayerNormExplorer(x, layer_norm, h=h, gamma=gamma, beta=beta, eps=eps)


# ---------------------------------------------------------------- dim / keepdim 探索器
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


class DimKeepdimExplorer(_Explorer):
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
        chips = "".join(f'<span class="dsx-chip{" dsx-chip-reduced" if k == d else ""}">{_esc(names[k])} {s}</span>'
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
            f'<div class="dsx-code" data-role="code">{_esc(code)}</div>',
            f'<div>{_esc(t["x_shape"])}：<span data-role="x-shape">{chips}</span></div>',
            f'<div>{_esc(t["result_shape"])}：<span class="dsx-num" data-role="result-shape">{S.fmt_shape(m)}</span></div>',
            f'<div>{_esc(t["aligned"])}</div>',
            f'<table class="dsx-aligned"><tbody data-role="aligned">{rows}</tbody></table>',
            f'<div class="dsx-status" data-role="broadcast-status" data-status="{shown_status}" aria-live="polite">'
            f'{_esc(msg)}</div>',
        ])

    def _repr_html_(self):
        c, rid = self.spec["controls"], _new_id("dsx-dim")
        shape_opts = "".join(
            f'<option value="{i}"{" selected" if i == self.shape_index else ""}>{_esc(self._shape_label(e))}</option>'
            for i, e in enumerate(self.shapes))
        dim_opts = "".join(f'<option value="{k}"{" selected" if k == self.dim else ""}>{_esc(lab)}</option>'
                           for lab, k in self._dim_options(self.shape_index))
        body = "".join([
            f'<div class="dsx-title">{_esc(self.spec["title"])}</div>',
            f'<div class="dsx-row"><label for="{rid}-shape">{_esc(c["shape"]["label"])}</label>'
            f'<select id="{rid}-shape" data-role="shape">{shape_opts}</select></div>',
            f'<div class="dsx-row"><label for="{rid}-dim">{_esc(c["dim"]["label"])}</label>'
            f'<select id="{rid}-dim" data-role="dim">{dim_opts}</select></div>',
            f'<div class="dsx-row"><label for="{rid}-keepdim"><input type="checkbox" id="{rid}-keepdim" '
            f'data-role="keepdim"{" checked" if self.keepdim else ""}> {_esc(c["keepdim"]["label"])}</label></div>',
            self._dynamic_html(),
        ])
        return _page(rid, "dim_keepdim", body, self.spec, {"shapes": self.shapes, "dim": self.dim})

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
            "view": W.HTML(value=_kernel_view(self._dynamic_html())),
        }
        w["box"] = W.VBox([W.HTML(value=f"<b>{_esc(self.spec['title'])}</b>"), w["shape"], w["dim"], w["keepdim"], w["view"]])
        self._w = w
        w["shape"].observe(self._on_shape, "value")
        w["dim"].observe(self._on_dim, "value")
        w["keepdim"].observe(self._on_keepdim, "value")

    def _redraw(self):
        if self._w is not None and not self._busy:
            self._w["view"].value = _kernel_view(self._dynamic_html())

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
        out = _shown(view)
        out["broadcast-status-kind"] = re.search(r'data-role="broadcast-status" data-status="(\w+)"', view).group(1)
        return out


def dim_keepdim_explorer(shape=None, names=None, *, dim=-1, keepdim=False):
    """dim 与 keepdim 探索器：选形状、dim 和 keepdim，看被压缩的维度、均值 m 的形状，
    以及 x - m 是正确广播、报错，还是（方阵时）不报错却沿错误的维度广播。

    shape：可选，你自己的形状（例如 (2, 5, 5)），会加到形状列表最前面；names：各维的名字。
    """
    return DimKeepdimExplorer(shape, names, dim=dim, keepdim=keepdim)
