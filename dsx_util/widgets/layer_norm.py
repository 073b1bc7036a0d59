"""层归一化探索器：拖动缩放参数 γ、平移参数 β 和 ε，看输入、x̂ 与输出的柱状图（bars.py）和均值、方差怎样变化。
页面内视图的脚本是 static/explorers.js 的 layerNorm。"""
import math

from . import spec as S
from .bars import bars_svg, chart_range
from .base import Explorer, esc, new_id, shown_text

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
class LayerNormExplorer(Explorer):
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
            return (f'<div class="dsx-message" data-role="message" role="alert">{esc(self._message)}</div>'
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
            return S.fill(esc(template), {k: span(r, v) for k, (r, v) in roles.items()})

        expected = (S.fill(t["expected"], {"beta": S.fmt(b[0]),
                                            "expected_var": S.fmt(g[0] ** 2 * nums["in_var"] / (nums["in_var"] + nums["eps"]))})
                    if uniform else t["expected_per_feature"])
        formula = S.fill(t["formula"], {"j": j, "g": S.fmt(g[j]), "x": S.fmt(self._x_list[j]), "mu": S.fmt(nums["in_mean"]),
                                        "var": S.fmt(nums["in_var"]), "eps": S.fmt_eps(nums["eps"]),
                                        "b": S.fmt(b[j]), "y": S.fmt(ylist[j])})
        return "".join([
            f'<div class="dsx-note" data-role="reader-status">{esc(status)}</div>' if status else "",
            f'<div class="dsx-message" data-role="message" role="alert"{"" if msg else " hidden"}>{esc(msg)}</div>',
            '<div class="dsx-charts" data-role="charts">',
            bars_svg(self._x_list, charts["x"], self._range, sel, "chart-x"),
            bars_svg(nums["xhat"].tolist(), charts["xhat"], self._range, sel, "chart-xhat"),
            bars_svg(ylist, charts["y"], self._range, sel, "chart-y"), "</div>",
            '<div class="dsx-stats">',
            f"<div>{line(t['in_stats'], in_mean=('in-mean', nums['in_mean']), in_var=('in-var', nums['in_var']))}</div>",
            f"<div>{line(t['hat_stats'], hat_mean=('hat-mean', nums['hat_mean']), hat_var=('hat-var', nums['hat_var']))}</div>",
            '<div aria-live="polite">' + line(t["out_stats"], out_mean=("out-mean", nums["out_mean"]),
                                               out_var=("out-var", nums["out_var"])) + "</div>",
            f'<div data-role="expected">{esc(expected)}</div></div>',
            f'<div class="dsx-formula" data-role="formula">{esc(formula)}</div>',
            f'<div class="dsx-note">{esc(S.fill(t["range_note"], {"range": S.fmt_tick(self._range)}))}</div>',
            f'<div class="dsx-note">{esc(S.fill(t["note"], {"h": self.h}))}</div>',
        ])

    def _repr_html_(self):
        """页面内视图：原生 <input type="range">/<select>/<button>，带 <label>，数字以文字显示。"""
        c, p, rid = self.spec["controls"], self.spec["presets"], new_id("dsx-ln")
        init = self._init

        def slider(role, label, lo, hi, step, value):
            return (f'<div class="dsx-row"><label for="{rid}-{role}">{esc(label)}</label>'
                    f'<input type="range" id="{rid}-{role}" data-role="{role}" min="{lo}" max="{hi}" step="{step}" '
                    f'value="{value}"><output data-role="{role.replace("log_eps", "eps")}-value" '
                    f'for="{rid}-{role}"></output></div>')

        g_lo, g_hi = min(c["gamma"]["min"], math.floor(init["gamma"])), max(c["gamma"]["max"], math.ceil(init["gamma"]))
        b_lo, b_hi = min(c["beta"]["min"], math.floor(init["beta"])), max(c["beta"]["max"], math.ceil(init["beta"]))
        options = "".join(f'<option value="{i}">{i}</option>' for i in range(self.h))
        body = "".join([
            f'<div class="dsx-title">{esc(self.spec["title"])}</div>',
            slider("gamma", c["gamma"]["label"], g_lo, g_hi, c["gamma"]["step"], init["gamma"]),
            slider("beta", c["beta"]["label"], b_lo, b_hi, c["beta"]["step"], init["beta"]),
            slider("log_eps", c["log_eps"]["label"], c["log_eps"]["min"], c["log_eps"]["max"],
                   c["log_eps"]["step"], init["log_eps"]),
            f'<div class="dsx-row"><label for="{rid}-per">'
            f'<input type="checkbox" id="{rid}-per" data-role="per_feature"> {esc(c["per_feature"]["label"])}</label></div>',
            '<div data-role="per-feature-controls" hidden>',
            f'<div class="dsx-row"><label for="{rid}-feature">{esc(c["feature"]["label"])}</label>'
            f'<select id="{rid}-feature" data-role="feature">{options}</select></div>',
            slider("gamma_j", c["gamma_j"]["label"], g_lo, g_hi, c["gamma"]["step"], init["gamma"]),
            slider("beta_j", c["beta_j"]["label"], b_lo, b_hi, c["beta"]["step"], init["beta"]),
            "</div>",
            f'<div class="dsx-row"><button type="button" data-role="reset">{esc(p["reset"]["label"])}</button>'
            f'<button type="button" data-role="identity">{esc(p["identity"]["label"])}</button></div>',
            self._dynamic_html(),
        ])
        data = {"x": [_json_float(v) for v in self._x_list], "gamma": init["gamma"], "beta": init["beta"],
                "range": _json_float(self._range)}
        return self.page(rid, "layer_norm", body, self.spec, data)

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
            "view": W.HTML(value=self.kernel_view(self._dynamic_html())),
        }
        w["per_box"] = W.VBox([w["feature"], w["gamma_j"], w["beta_j"]], layout=W.Layout(display="none"))
        w["box"] = W.VBox([W.HTML(value=f"<b>{esc(self.spec['title'])}</b>"), w["gamma"], w["beta"], w["eps"],
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
            self._w["view"].value = self.kernel_view(self._dynamic_html())

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
        return shown_text(self.widget and self._w["view"].value)


def layer_norm_explorer(x=None, layer_norm=None, *, h=S.DEFAULT_H, gamma=1.0, beta=0.0, eps=1e-5):
    """层归一化探索器：拖动缩放参数 γ、平移参数 β 和 ε，看输入、x̂ 与输出的柱状图和均值、方差怎样变化。

    x：一维张量（一行激活值），默认是用固定种子生成的 H = 16 个数；
    layer_norm：可选，你自己的 LayerNorm 类（或实例），内核里会用它计算输出；
    h：不传 x 时默认输入的长度。在 Jupyter/Colab 中显示为 ipywidgets 控件，在 HTML 书页中在页面内计算。
    """
    return LayerNormExplorer(x, layer_norm, h=h, gamma=gamma, beta=beta, eps=eps)
