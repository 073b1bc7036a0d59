"""几何探索器（H = 3）：层归一化把 x 投影到平面 x₁+x₂+x₃ = 0 上，再缩放到半径 √3 的圆上；
RMSNorm 不投影，直接把 x 缩放到半径 √3 的球面上。α、c 两个滑块演示 LN(αx + c·1) = LN(x)，ε 滑块演示靠近原点时的收缩。
页面内视图的脚本是 static/norm_explorers.js 的 geometry（几何与标签位置与这里相同）。"""
import math

from . import spec as S
from .base import NORM_STYLES, Explorer, esc, new_id, shown_text


def _slider_html(rid, role, conf, value):
    return (f'<div class="dsx-row"><label for="{rid}-{role}">{esc(conf["label"])}</label>'
            f'<input type="range" id="{rid}-{role}" data-role="{role}" min="{conf["min"]}" max="{conf["max"]}" '
            f'step="{conf["step"]}" value="{value}"><output data-role="{role}-value" for="{rid}-{role}">'
            f'{esc(S.fmt_eps(10.0 ** value) if role == "log_eps" else S.fmt(value))}</output></div>')


# ---------------------------------------------------------------- 几何：正交投影（与 norm_explorers.js 的 basis/project 相同）
def view_basis(view):
    """屏幕的横轴 ex、竖轴 ey（三维单位向量，互相垂直）：竖轴以 1 方向为主，向平面倾斜 elevation 度。"""
    r3, r2, r6 = math.sqrt(3.0), math.sqrt(2.0), math.sqrt(6.0)
    u, ea, eb = (1 / r3, 1 / r3, 1 / r3), (1 / r2, -1 / r2, 0.0), (1 / r6, 1 / r6, -2 / r6)
    phi, theta = math.radians(view["azimuth"]), math.radians(view["elevation"])
    ex = tuple(math.cos(phi) * a + math.sin(phi) * b for a, b in zip(ea, eb))
    eb2 = tuple(-math.sin(phi) * a + math.cos(phi) * b for a, b in zip(ea, eb))
    ey = tuple(math.cos(theta) * a + math.sin(theta) * b for a, b in zip(u, eb2))
    return ex, ey


def project(p, view, basis):
    ex, ey = basis
    sx = sum(a * b for a, b in zip(p, ex))
    sy = sum(a * b for a, b in zip(p, ey))
    return view["cx"] + view["scale"] * sx, view["cy"] - view["scale"] * sy


def _xy(pt):
    return f'{pt[0]:.2f}', f'{pt[1]:.2f}'


# ---------------------------------------------------------------- 标签的位置（与 norm_explorers.js 的 placeLabels 相同）
def label_width(text, size):
    """标签的估计宽度（像素）：汉字与全角符号按一个字号宽，其余字符按 0.64 个字号（比实际略宽，留出余量）。"""
    return sum(size if ord(ch) >= 0x2E80 else 0.64 * size for ch in text)


def label_box(x, y, text, size, anchor="start"):
    """文字（基线在 y）的外框 (左, 上, 右, 下)。"""
    w = label_width(text, size)
    left = x - w if anchor == "end" else x - w / 2 if anchor == "middle" else x
    return (left, y - 0.9 * size, left + w, y + 0.3 * size)


def _at(pos):
    """标签的坐标属性；pos 为 None 时藏起来（与 JS 的 label 相同）。"""
    return 'x="0.00" y="0.00" visibility="hidden"' if pos is None else f'x="{pos[0]:.2f}" y="{pos[1]:.2f}" visibility="visible"'


def _overlap(a, b):
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def place_labels(items, obstacles, width, height, size=11):
    """items：[((点的 x, y), 文字)]，按重要程度排；每个标签依次试几个靠近它的点的位置，取第一个不压住已放的文字、
    也不出画面的位置（都不行时取压住最少的）。返回每个标签的 (x, y)（text-anchor 为 start，基线在 y）；
    点在画面外时是 None（不显示这个标签）。"""
    placed, out = list(obstacles), []
    for (px, py), text in items:
        if not (0 <= px <= width and 0 <= py <= height):   # 点在画面外：不画它的标签（x′ 另有「在画面外」的说明）
            out.append(None)
            continue
        w = label_width(text, size)
        best = None
        for dx, dy in ((7, -6), (7, 14), (-7 - w, -6), (-7 - w, 14), (7, -20), (-7 - w, -20), (7, 28),
                       (-7 - w, 28), (-w / 2, -14), (-w / 2, 26), (7, 42), (-7 - w, 42), (7, -34), (-7 - w, -34),
                       (21, 28), (21, -20), (-21 - w, 28), (-21 - w, -20), (-w / 2, 40), (-w / 2, -28)):
            x, y = px + dx, py + dy
            box = label_box(x, y, text, size)
            cost = sum(_overlap(box, b) for b in placed)
            cost += (box[2] - box[0]) * (box[3] - box[1]) - _overlap(box, (0, 0, width, height))
            if best is None or cost < best[0] - 1e-9:
                best = (cost, x, y, box)
            if cost <= 1e-9:
                break
        placed.append(best[3])
        out.append((best[1], best[2]))
    return out


class NormGeometryExplorer(Explorer):
    """H = 3 的几何探索器。`.widget` 是 ipywidgets 视图；`.set(x=..., alpha=..., shift=..., eps=...)`、
    `.preset("near")` 用程序拨动控件；`.numbers()` 是 torch 算出的数；`.shown()` 读出显示的文字。"""

    STYLES = NORM_STYLES
    SCRIPT = "norm_explorers.js"
    NAMESPACE = "DSXNormExplorers"

    def __init__(self, x=None, *, alpha=1.0, shift=0.0, eps=1e-5):
        self.spec = S.NORM_GEOMETRY_SPEC
        c = self.spec["controls"]
        x = self.spec["presets"]["reset"]["x"] if x is None else x
        self.x = self._check_x(x)
        if not (isinstance(alpha, (int, float)) and math.isfinite(alpha) and alpha > 0):
            raise ValueError(f"alpha 应该是正数，收到的是 {alpha!r}。LN(αx) = LN(x) 只对 α > 0 成立。")
        if not (isinstance(shift, (int, float)) and math.isfinite(shift)):
            raise ValueError(f"shift 应该是有限的数，收到的是 {shift!r}。")
        if not (isinstance(eps, (int, float)) and eps > 0):
            raise ValueError(f"eps 应该是正数，收到的是 {eps!r}。常用值是 1e-5。")
        self.alpha, self.shift, self.log_eps = float(alpha), float(shift), math.log10(eps)
        self._ranges = {k: (min(c[k]["min"], math.floor(v)), max(c[k]["max"], math.ceil(v)))
                        for k, v in (("x1", self.x[0]), ("x2", self.x[1]), ("x3", self.x[2]),
                                     ("alpha", self.alpha), ("shift", self.shift))}
        lo, hi = c["log_eps"]["min"], c["log_eps"]["max"]
        self._ranges["log_eps"] = (min(lo, math.floor(self.log_eps)), max(hi, math.ceil(self.log_eps)))
        self._basis = view_basis(self.spec["view"])
        self._w = None
        self._busy = False

    @staticmethod
    def _check_x(x):
        if isinstance(x, (str, bytes)):
            raise TypeError(f"x 应该是 3 个数（H = 3），收到的是字符串 {x!r}。例如：norm_geometry_explorer([2.0, 1.0, 0.5])")
        try:
            values = [float(v) for v in (x.tolist() if hasattr(x, "tolist") else x)]
        except (TypeError, ValueError):
            raise TypeError(f"x 应该是 3 个数（H = 3），收到的是 {type(x).__name__}：{x!r:.60}。"
                            "例如：norm_geometry_explorer([2.0, 1.0, 0.5])") from None
        if len(values) != 3:
            raise ValueError(f"几何探索器只画 H = 3 的向量，x 有 {len(values)} 个数。请传 3 个数，例如 [2.0, 1.0, 0.5]。")
        if not all(math.isfinite(v) for v in values):
            raise ValueError(f"x 里有 NaN 或 inf：{values}。请换成有限的数。")
        return values

    @property
    def eps(self):
        return 10.0 ** self.log_eps

    # ---------- 计算（内核端，torch）
    def numbers(self):
        """当前设置下的全部数字：x′ = αx + c·1、μ、居中后的向量、σ²、LN(x′)、RMS(x′)、RMSNorm(x′) 及对照的差。"""
        import torch
        import torch.nn.functional as F

        x = torch.tensor(self.x, dtype=torch.float64)
        xp = self.alpha * x + self.shift
        eps = self.eps
        mu = xp.mean()
        v = xp - mu
        var = xp.var(unbiased=False)
        ln = F.layer_norm(xp, (3,), eps=eps)
        rms_out = F.rms_norm(xp, (3,), eps=eps)
        ln0, rms0 = F.layer_norm(x, (3,), eps=eps), F.rms_norm(x, (3,), eps=eps)
        return {"xp": xp.tolist(), "mu": float(mu), "v": v.tolist(), "vsum": float(v.sum()), "var": float(var),
                "ln": ln.tolist(), "ln_len": float(ln.norm()), "rms": float(torch.sqrt(xp.pow(2).mean() + eps)),
                "rms_out": rms_out.tolist(), "rms_len": float(rms_out.norm()),
                "ln0": ln0.tolist(), "rms0": rms0.tolist(),
                "ln_diff": float((ln - ln0).abs().max()), "rms_diff": float((rms_out - rms0).abs().max()),
                "vlen": float(v.norm()), "eps_len": math.sqrt(3 * eps), "eps": eps}

    # ---------- 显示（内核视图与页面视图共用同一段 HTML 结构）
    def _svg(self, which, nums):
        view, lab, basis = self.spec["view"], self.spec["labels"], self._basis
        w, h, s, cx, cy = view["width"], view["height"], view["scale"], view["cx"], view["cy"]
        sin_t, cos_t = math.sin(math.radians(view["elevation"])), math.cos(math.radians(view["elevation"]))
        r3 = math.sqrt(3.0)
        P = lambda p: project(p, view, basis)  # noqa: E731
        ones = view["axis_len"] + 0.5
        parts = [f'<svg class="dsx-geo" data-role="chart-{which}" role="img" width="{w}" height="{h}" '
                 f'viewBox="0 0 {w} {h}" xmlns="http://www.w3.org/2000/svg" aria-label="">']
        # 静态部分：平面（椭圆）、1 方向、三根坐标轴；LN 图画半径 √3 的圆，RMSNorm 图画半径 √3 的球（投影是圆）
        parts.append(f'<ellipse class="dsx-plane" cx="{cx}" cy="{cy}" rx="{s * view["plane_r"]:.2f}" '
                     f'ry="{s * view["plane_r"] * sin_t:.2f}"/>')
        parts.append(f'<path class="dsx-ones" d="M{cx} {cy + s * ones * cos_t:.2f}V{cy - s * ones * cos_t:.2f}"/>')
        statics = []   # 不动的文字：(x, y, 文字, 字号, 对齐)，放会动的标签时避开它们

        def stext(cls, x, y, text, size=11, anchor="start", extra=""):
            x, y = f"{float(x):.2f}", f"{float(y):.2f}"
            statics.append((float(x), float(y), text, size, anchor))
            align = "" if anchor == "start" else f' text-anchor="{anchor}"'
            return f'<text class="{cls}" x="{x}" y="{y}" font-size="{size}"{align}{extra}>{esc(text)}</text>'
        parts.append(stext("dsx-lab-muted", cx + 4, cy - s * ones * cos_t + 10, lab["ones"]))
        for k in range(3):
            e = [0.0, 0.0, 0.0]
            e[k] = view["axis_len"]
            ax, ay = _xy(P(e))
            tx, ty = _xy(P([1.15 * v for v in e]))
            parts.append(f'<path class="dsx-axis3" d="M{cx} {cy}L{ax} {ay}"/>'
                         + stext("dsx-lab-muted", tx, ty, lab["axes"][k], anchor="middle"))
        if which == "ln":
            parts.append(f'<ellipse class="dsx-circle" cx="{cx}" cy="{cy}" rx="{s * r3:.2f}" ry="{s * r3 * sin_t:.2f}"/>')
            parts.append(stext("dsx-lab-muted", w - 6, h - 8, lab["plane"], anchor="end"))
        else:
            parts.append(f'<circle class="dsx-sphere" cx="{cx}" cy="{cy}" r="{s * r3:.2f}"/>')
            parts.append(f'<ellipse class="dsx-circle dsx-faint" cx="{cx}" cy="{cy}" rx="{s * r3:.2f}" '
                         f'ry="{s * r3 * sin_t:.2f}"/>')
            parts.append(stext("dsx-lab-muted", w - 6, h - 8, lab["sphere"], anchor="end"))
        # 标题最后画，压在移出画面的线段上面（CSS 给文字加一圈底色描边）
        title = stext("dsx-chart-title", 6, 15, self.spec["charts"][which], size=12, extra=' font-weight="600"')
        parts.append(self._svg_dynamic(which, nums, [label_box(*t) for t in statics]))
        parts.append(title + "</svg>")
        return "".join(parts)

    def _svg_dynamic(self, which, nums, obstacles=()):
        """随数字变化的部分；每个元素都有 data-role，JS 端只改这些元素的坐标。
        标签由 place_labels 放在不压住别的文字的位置（obstacles：不动的文字的外框）。"""
        view, lab, basis = self.spec["view"], self.spec["labels"], self._basis
        P = lambda p: _xy(project(p, view, basis))  # noqa: E731
        o = (view["cx"], view["cy"])
        xp = P(nums["xp"])
        inside = 0 <= float(xp[0]) <= view["width"] and 0 <= float(xp[1]) <= view["height"]
        out = "" if inside else lab["out"]
        obstacles = list(obstacles) + ([label_box(6, 30, out, 11)] if out else [])
        fl = lambda p: (float(p[0]), float(p[1]))  # noqa: E731
        parts = []
        if which == "ln":
            mu1 = P([nums["mu"]] * 3)
            v = P(nums["v"])
            ln = P(nums["ln"])
            ln0 = P(nums["ln0"])
            far = ln if math.hypot(*nums["ln"]) >= math.hypot(*nums["v"]) else v
            at_x, at_mu, at_ln = place_labels(
                [(fl(xp), lab["x"]), (fl(mu1), lab["mu"]), (fl(ln), lab["ln"])], obstacles, view["width"], view["height"])
            parts += [
                f'<path class="dsx-mu-line" data-role="ln-mu-line" d="M{o[0]} {o[1]}L{mu1[0]} {mu1[1]}"/>',
                f'<path class="dsx-proj" data-role="ln-proj" d="M{mu1[0]} {mu1[1]}L{xp[0]} {xp[1]}L{v[0]} {v[1]}"/>',
                f'<path class="dsx-ray-ln" data-role="ln-ray" d="M{o[0]} {o[1]}L{far[0]} {far[1]}"/>',
                f'<circle class="dsx-ghost-ln" data-role="ln-ghost" cx="{ln0[0]}" cy="{ln0[1]}" r="7"/>',
                f'<circle class="dsx-pt-mu" data-role="ln-mu" cx="{mu1[0]}" cy="{mu1[1]}" r="3.5"/>',
                f'<circle class="dsx-pt-v" data-role="ln-v" cx="{v[0]}" cy="{v[1]}" r="4"/>',
                f'<circle class="dsx-pt-ln" data-role="ln-out" cx="{ln[0]}" cy="{ln[1]}" r="5"/>',
                f'<circle class="dsx-pt-x" data-role="ln-x" cx="{xp[0]}" cy="{xp[1]}" r="5"/>',
                f'<text class="dsx-lab-mu" data-role="ln-mu-label" {_at(at_mu)} '
                f'font-size="11">{esc(lab["mu"])}</text>',
                f'<text class="dsx-lab-ln" data-role="ln-out-label" {_at(at_ln)} '
                f'font-size="11">{esc(lab["ln"])}</text>',
                f'<text class="dsx-lab-x" data-role="ln-x-label" {_at(at_x)} '
                f'font-size="11">{esc(lab["x"])}</text>',
                f'<circle class="dsx-handle" data-role="ln-handle" cx="{xp[0]}" cy="{xp[1]}" r="14"/>',
                f'<text class="dsx-over-note" data-role="ln-outside" x="6" y="30" font-size="11">{esc(out)}</text>',
            ]
        else:
            rms = P(nums["rms_out"])
            rms0 = P(nums["rms0"])
            far = rms if math.hypot(*nums["rms_out"]) >= math.hypot(*nums["xp"]) else xp
            at_x, at_rms = place_labels([(fl(xp), lab["x"]), (fl(rms), lab["rms"])], obstacles,
                                              view["width"], view["height"])
            parts += [
                f'<path class="dsx-ray-rms" data-role="rms-ray" d="M{o[0]} {o[1]}L{far[0]} {far[1]}"/>',
                f'<circle class="dsx-ghost-rms" data-role="rms-ghost" cx="{rms0[0]}" cy="{rms0[1]}" r="7"/>',
                f'<circle class="dsx-pt-rms" data-role="rms-out" cx="{rms[0]}" cy="{rms[1]}" r="5"/>',
                f'<circle class="dsx-pt-x" data-role="rms-x" cx="{xp[0]}" cy="{xp[1]}" r="5"/>',
                f'<text class="dsx-lab-rms" data-role="rms-out-label" {_at(at_rms)} '
                f'font-size="11">{esc(lab["rms"])}</text>',
                f'<text class="dsx-lab-x" data-role="rms-x-label" {_at(at_x)} '
                f'font-size="11">{esc(lab["x"])}</text>',
                f'<circle class="dsx-handle" data-role="rms-handle" cx="{xp[0]}" cy="{xp[1]}" r="14"/>',
                f'<text class="dsx-over-note" data-role="rms-outside" x="6" y="30" font-size="11">{esc(out)}</text>',
            ]
        return "".join(parts)

    def _dynamic_html(self, nums=None):
        t, leg = self.spec["text"], self.spec["legend"]
        nums = nums or self.numbers()
        vals = {"xp": S.fmt_vec(nums["xp"]), "mu": S.fmt(nums["mu"]), "v": S.fmt_vec(nums["v"]),
                "vsum": S.fmt(nums["vsum"]), "var": S.fmt(nums["var"]), "ln": S.fmt_vec(nums["ln"]),
                "ln_len": S.fmt(nums["ln_len"]), "sqrt3": S.fmt(math.sqrt(3.0)), "rms": S.fmt(nums["rms"]),
                "rms_out": S.fmt_vec(nums["rms_out"]), "rms_len": S.fmt(nums["rms_len"]),
                "ln_diff": S.fmt(nums["ln_diff"]), "rms_diff": S.fmt(nums["rms_diff"]), "eps": S.fmt_eps(nums["eps"]),
                "vlen": S.fmt(nums["vlen"]), "eps_len": S.fmt(nums["eps_len"])}

        def line(key, roles):
            spans = {k: f'<span class="dsx-num" data-role="geo-{k.replace("_", "-")}">{esc(vals[k])}</span>' for k in roles}
            return f'<div data-role="line-{key}">{S.fill(esc(t[key]), spans)}</div>'

        legend = "".join(f'<span class="dsx-key dsx-key-{k}"><span class="dsx-swatch"></span>{esc(v)}</span>'
                         for k, v in leg.items())
        return "".join([
            '<div class="dsx-geo-charts" data-role="charts">', self._svg("ln", nums), self._svg("rms", nums), "</div>",
            f'<div class="dsx-swipe-hint">{esc(self.spec["swipe"])}</div>',
            f'<div class="dsx-legend">{legend}</div>',
            '<div class="dsx-stats" aria-live="polite">',
            line("xp", ["xp"]), line("mu", ["mu", "v", "vsum"]), line("ln", ["var", "ln", "ln_len", "sqrt3"]),
            line("rms", ["rms", "rms_out", "rms_len"]), line("invariance", ["ln_diff", "rms_diff"]),
            line("eps", ["eps", "vlen", "eps_len", "ln_len"]), "</div>",
            f'<div class="dsx-note">{esc(t["note"])}</div>',
        ])

    def _values(self):
        return {"x1": self.x[0], "x2": self.x[1], "x3": self.x[2], "alpha": self.alpha, "shift": self.shift,
                "log_eps": self.log_eps}

    def _repr_html_(self):
        c, p, rid = self.spec["controls"], self.spec["presets"], new_id("dsx-geo")
        vals = self._values()
        sliders = "".join(_slider_html(rid, k, dict(c[k], min=self._ranges[k][0], max=self._ranges[k][1]), vals[k])
                          for k in ("x1", "x2", "x3", "alpha", "shift", "log_eps"))
        body = "".join([
            f'<div class="dsx-title">{esc(self.spec["title"])}</div>', sliders,
            f'<div class="dsx-row"><button type="button" data-role="reset">{esc(p["reset"]["label"])}</button>'
            f'<button type="button" data-role="near">{esc(p["near"]["label"])}</button></div>',
            self._dynamic_html(),
        ])
        return self.page(rid, "norm_geometry", body, self.spec, {"values": vals})

    def _plain(self):
        return "NormGeometryExplorer（H = 3）：在 Jupyter/Colab 中显示为交互控件，在 HTML 书页中显示为页面内探索器。"

    # ---------- ipywidgets 视图（7.7 与 8 通用）
    def _build_widget(self):
        import ipywidgets as W

        c, p = self.spec["controls"], self.spec["presets"]
        style = {"description_width": "7em"}
        lay = W.Layout(width="100%", max_width="36em")
        vals = self._values()
        w = {}
        for k in ("x1", "x2", "x3", "alpha", "shift"):
            lo, hi = self._ranges[k]
            w[k] = W.FloatSlider(value=vals[k], min=lo, max=hi, step=c[k]["step"], description=c[k]["label"],
                                 readout_format=".2f", continuous_update=True, style=style, layout=lay)
        lo, hi = self._ranges["log_eps"]
        w["eps"] = W.FloatLogSlider(value=self.eps, base=10, min=lo, max=hi, step=c["log_eps"]["step"],
                                    description=c["log_eps"]["label"], readout_format=".1e", continuous_update=True,
                                    style=style, layout=lay)
        w["reset"] = W.Button(description=p["reset"]["label"], layout=W.Layout(width="auto"))
        w["near"] = W.Button(description=p["near"]["label"], layout=W.Layout(width="auto"))
        w["view"] = W.HTML(value=self.kernel_view(self._dynamic_html()))
        w["box"] = W.VBox([W.HTML(value=f"<b>{esc(self.spec['title'])}</b>"),
                           w["x1"], w["x2"], w["x3"], w["alpha"], w["shift"], w["eps"],
                           W.HBox([w["reset"], w["near"]], layout=W.Layout(flex_flow="row wrap")), w["view"]])
        self._w = w
        for k in ("x1", "x2", "x3", "alpha", "shift", "eps"):
            w[k].observe(self._on_change, "value")
        w["reset"].on_click(lambda _b: self.preset("reset"))
        w["near"].on_click(lambda _b: self.preset("near"))

    def _on_change(self, _change):
        w = self._w
        self.x = [float(w["x1"].value), float(w["x2"].value), float(w["x3"].value)]
        self.alpha, self.shift = float(w["alpha"].value), float(w["shift"].value)
        self.log_eps = math.log10(w["eps"].value)
        if not self._busy:
            w["view"].value = self.kernel_view(self._dynamic_html())

    # ---------- 给测试和读者用的程序接口
    def set(self, x=None, alpha=None, shift=None, eps=None):
        """用程序拨动控件，例如 ex.set(x=[1, 2, 3], alpha=2.0, shift=-1.0, eps=1e-2)；与拖动滑块走同一条路径。"""
        w = self.widget and self._w
        if alpha is not None and not alpha > 0:
            raise ValueError(f"alpha 应该是正数，收到的是 {alpha!r}。")
        if eps is not None and not eps > 0:
            raise ValueError(f"eps 应该是正数，收到的是 {eps!r}。")
        self._busy = True
        try:
            for key, value in zip(("x1", "x2", "x3"), self._check_x(x) if x is not None else [None] * 3):
                if value is not None:
                    w[key].max, w[key].min = max(w[key].max, math.ceil(value)), min(w[key].min, math.floor(value))
                    w[key].value = value
            for key, value in (("alpha", alpha), ("shift", shift), ("eps", eps)):
                if value is not None:
                    w[key].value = float(value)
        finally:
            self._busy = False
        self._on_change(None)
        return self

    def preset(self, name):
        """预设：'reset'（默认的 x）或 'near'（x′ = αx + c·1 接近 c·1，c 是当前的平移：居中后离原点很近，再拖动 ε
        看输出怎样缩向原点；c·1 在画面外时先把 c 移进来）。"""
        presets = self.spec["presets"]
        if name not in presets:
            raise ValueError(f"没有名为 {name!r} 的预设；可用：{'、'.join(repr(k) for k in presets)}。")
        conf = presets[name]
        if "offset" in conf:   # near：x = 偏差，于是 x′ = αx + c·1 = c·1 + α·偏差；α 不变，c 只在画面外时移进来
            limit = conf["max_shift"]
            return self.set(x=list(conf["offset"]), shift=max(-limit, min(limit, self.shift)),
                            eps=10.0 ** conf["log_eps"])
        return self.set(x=conf["x"], alpha=conf["alpha"], shift=conf["shift"], eps=10.0 ** conf["log_eps"])

    def shown(self):
        """内核视图当前显示的文字：{data-role: 文字}，例如 shown()["geo-ln"]。"""
        return shown_text(self.widget and self._w["view"].value)


def norm_geometry_explorer(x=None, *, alpha=1.0, shift=0.0, eps=1e-5):
    """几何探索器（H = 3）：拖动 x₁、x₂、x₃（或在图里拖动 x′），看层归一化怎样把 x 投影到平面 x₁+x₂+x₃ = 0 上
    再缩放到半径 √3 的圆上，RMSNorm 怎样直接把 x 缩放到半径 √3 的球面上；α、c 滑块演示 LN(αx + c·1) = LN(x)，
    ε 滑块演示居中后离原点很近的点怎样缩向原点。

    x：可选，3 个数；alpha、shift、eps：三个滑块的初始值。
    """
    return NormGeometryExplorer(x, alpha=alpha, shift=shift, eps=eps)
