"""交互探索器（dsx_util.widgets）的内核端测试：建好探索器，用程序拨动 ipywidgets 控件，把显示的数字和 torch 核对。

同一个文件要在 ipywidgets 8.x（.venv）和 7.7.1（.venv-colab，Colab 的版本）下都通过，不跳过任何测试，
也不依赖 conftest 里的夹具。
"""
import itertools
import json
import math
import re
import subprocess
import sys
from pathlib import Path

import ipywidgets
import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

from dsx_util.layernorm import LayerNorm
from dsx_util.widgets import dim_keepdim_explorer, layer_norm_explorer, norm_axes_explorer, norm_geometry_explorer
from dsx_util.widgets import spec as S
from dsx_util.widgets.axes import group_ids
from dsx_util.widgets.broadcast import broadcast_rule
from dsx_util.widgets.geometry import project, view_basis

ROOT = Path(__file__).resolve().parent.parent
WIDGETS_SRC = ROOT / "dsx_util" / "widgets"
IPYW_MAJOR = int(ipywidgets.__version__.split(".")[0])


def ln_torch(x, gamma, beta, eps):
    """torch 的参考结果：(输出均值, 输出有偏方差, 输出张量)。"""
    x = torch.as_tensor(x, dtype=torch.float64)
    g = torch.as_tensor(gamma, dtype=torch.float64).expand_as(x)
    b = torch.as_tensor(beta, dtype=torch.float64).expand_as(x)
    y = F.layer_norm(x, (x.numel(),), g, b, eps)
    return float(y.mean()), float(y.var(unbiased=False)), y


def shown_float(ex, role):
    return float(ex.shown()[role])


def default_x():
    return torch.tensor(S.default_input(), dtype=torch.float64)


def test_ipywidgets_version_is_one_we_support():
    assert IPYW_MAJOR in (7, 8), ipywidgets.__version__
    if IPYW_MAJOR == 7:
        assert ipywidgets.__version__.startswith("7.7"), "Colab 用的是 7.7.x"


def test_import_stays_light():
    code = ("import sys, dsx_util.widgets; "
            "print(sorted(m for m in ('torch', 'ipywidgets', 'IPython', 'matplotlib') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]"


def test_source_uses_only_widgets_common_to_7_and_8():
    src = "".join((WIDGETS_SRC / name).read_text(encoding="utf-8")
                  for name in ("layer_norm.py", "broadcast.py", "geometry.py", "axes.py", "activation_explorer.py"))
    assert "tooltip" not in src and "interactive" not in src
    used = set(re.findall(r"\bW\.(\w+)\(", src))
    common = {"FloatSlider", "FloatLogSlider", "Dropdown", "Checkbox", "Button", "HTML", "VBox", "HBox", "Layout"}
    assert used and used <= common, used - common
    for name in ("base.js", "explorers.js", "norm_explorers.js"):
        js = (WIDGETS_SRC / "static" / name).read_text(encoding="utf-8")
        assert "eval(" not in js and "new Function" not in js and "</script" not in js


def test_mimebundle_has_widget_view_and_self_contained_html():
    ex = layer_norm_explorer()
    bundle = ex._repr_mimebundle_()
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == ex.widget.model_id
    assert bundle["application/vnd.jupyter.widget-view+json"]["version_major"] == 2
    assert isinstance(ex.widget, ipywidgets.VBox)
    page = bundle["text/html"]
    # 不加载任何外部资源：没有 src=、href=，唯一的 URL 是 SVG 的命名空间
    assert " src=" not in page and "href=" not in page and "@import" not in page
    assert set(re.findall(r"https?://[^\s\"']+", page)) <= {"http://www.w3.org/2000/svg"}
    for role in ("gamma", "beta", "log_eps", "out-var", "out-mean", "in-var", "formula"):
        assert f'data-role="{role}"' in page
    # 同一页上显示两次：根元素的 id 各不相同
    ids = set(re.findall(r'id="(dsx-[\w-]+?)"', page + ex._repr_html_()))  # 同一个对象显示两次
    roots = [i for i in ids if re.fullmatch(r"dsx-ln-[0-9a-f]+", i)]
    assert len(roots) == 2


def test_page_gets_the_same_spec_and_input():
    """单一事实来源：页面内视图嵌入的 JSON 就是 Python 的 spec 和同一组默认输入。"""
    for ex, spec in ((layer_norm_explorer(), S.LAYER_NORM_SPEC), (dim_keepdim_explorer(), S.DIM_KEEPDIM_SPEC)):
        page = ex._repr_html_()
        embedded = re.search(r'<script type="application/json" data-role="spec">(.*?)</script>', page).group(1)
        assert json.loads(embedded) == json.loads(json.dumps(spec))
    data = re.search(r'data-role="data">(.*?)</script>', layer_norm_explorer()._repr_html_()).group(1)
    assert json.loads(data)["x"] == S.default_input()
    assert S.default_input() == S.default_input()  # 固定种子：每次都一样
    assert len(S.default_input()) == 16


def test_default_view_numbers_match_torch():
    ex = layer_norm_explorer()
    x = default_x()
    shown = ex.shown()
    assert float(shown["in-mean"]) == pytest.approx(float(x.mean()), abs=1e-4)
    assert float(shown["in-var"]) == pytest.approx(float(x.var(unbiased=False)), abs=1e-4)
    assert float(shown["out-var"]) == pytest.approx(ln_torch(x, 1.0, 0.0, 1e-5)[1], abs=1e-4)
    assert "有偏估计" in ex.widget.children[-1].value


def test_gamma_beta_eps_sliders_against_torch():
    ex = layer_norm_explorer()
    x = default_x()
    ex.set(gamma=2.0)
    hat_var = shown_float(ex, "hat-var")
    assert shown_float(ex, "out-var") == pytest.approx(4 * hat_var, abs=2e-4)      # 方差跟着 γ²
    assert shown_float(ex, "out-var") == pytest.approx(ln_torch(x, 2.0, 0.0, 1e-5)[1], abs=1e-4)
    ex.set(beta=1.5)
    assert shown_float(ex, "out-mean") == pytest.approx(1.5, abs=1e-4)             # 均值跟着 β
    for eps in (1e-12, 1e-3, 1.0):
        ex.set(eps=eps)
        mean, var, y = ln_torch(x, 2.0, 1.5, eps)
        assert shown_float(ex, "out-var") == pytest.approx(var, abs=1e-4)
        assert shown_float(ex, "out-mean") == pytest.approx(mean, abs=1e-4)
        assert ex.shown()["formula"].endswith(S.fmt(float(y[0])))
        assert S.fmt_eps(eps) in ex.shown()["formula"]
    # 直接改 ipywidgets 控件本身（读者拖动时就是这样）
    ex._w["gamma"].value = 0.5
    assert shown_float(ex, "out-var") == pytest.approx(ln_torch(x, 0.5, 1.5, 1.0)[1], abs=1e-4)


def test_per_feature_and_presets_against_torch():
    ex = layer_norm_explorer()
    x = default_x()
    ex.set(per_feature=True, feature=3, gamma_j=2.5, beta_j=-1.0)
    assert ex._w["per_box"].layout.display in (None, "", "flex")
    g, b = torch.ones(16, dtype=torch.float64), torch.zeros(16, dtype=torch.float64)
    g[3], b[3] = 2.5, -1.0
    mean, var, y = ln_torch(x, g, b, 1e-5)
    assert shown_float(ex, "out-var") == pytest.approx(var, abs=1e-4)
    assert shown_float(ex, "out-mean") == pytest.approx(mean, abs=1e-4)
    assert ex.shown()["formula"].startswith("y[3]")
    assert ex.shown()["expected"] == S.LAYER_NORM_SPEC["text"]["expected_per_feature"]
    # 选别的特征时，γ[j] 滑块显示那个特征的值
    ex.set(feature=0)
    assert ex._w["gamma_j"].value == pytest.approx(1.0)
    ex.set(feature=3)
    assert ex._w["gamma_j"].value == pytest.approx(2.5)
    # 恒等预设：按钮点击后输出等于输入
    ex._w["identity"].click()
    assert torch.allclose(ex.numbers()["y"], x, atol=1e-9)
    assert ex.shown()["out-mean"] == ex.shown()["in-mean"]
    assert ex.shown()["out-var"] == ex.shown()["in-var"]
    ex._w["reset"].click()
    assert shown_float(ex, "out-var") == pytest.approx(ln_torch(x, 1.0, 0.0, 1e-5)[1], abs=1e-4)
    assert ex._w["gamma"].value == 1.0 and ex._w["beta"].value == 0.0


def test_identity_survives_frontend_snapping_slider_to_step():
    """真实前端会把 γ = √(σ² + ε) 对齐到步长 0.01 再传回内核；这次回传不能改掉预设。"""
    ex = layer_norm_explorer()
    x = default_x()
    ex.preset("identity")
    for key in ("gamma", "beta", "gamma_j", "beta_j"):   # 模拟前端回传对齐后的值
        ex._w[key].value = round(ex._w[key].value, 2)
    assert torch.allclose(ex.numbers()["y"], x, atol=1e-9)
    ex._w["gamma"].value = round(ex._w["gamma"].value + 0.01, 2)  # 读者再拖一步：照常生效
    g = ex._w["gamma"].value
    assert shown_float(ex, "out-var") == pytest.approx(ln_torch(x, g, float(x.mean()), 1e-5)[1], abs=1e-4)


def test_identity_extends_slider_range_for_wide_input():
    x = torch.linspace(-40, 60, 32)
    ex = layer_norm_explorer(x)
    ex.preset("identity")
    assert ex._w["gamma"].max >= ex._w["gamma"].value > 3
    assert torch.allclose(ex.numbers()["y"], x.double(), atol=1e-6)


def test_extreme_settings_do_not_break_the_view():
    ex = layer_norm_explorer()
    ex.set(gamma=0.0)
    assert ex.shown()["out-var"] == "0.0000"
    ex.set(gamma=1.0, beta=1e6)
    assert ex.shown()["out-mean"] == "1.000e+06"
    assert shown_float(ex, "out-var") == pytest.approx(1.0, abs=1e-3)
    for values in ([2.0] * 8, [3.5]):                        # 常数输入与长度 1：σ² = 0
        e = layer_norm_explorer(torch.tensor(values))
        e.set(beta=2.0, eps=1e-12)
        assert e.shown()["in-var"] == "0.0000"
        assert e.shown()["out-var"] == "0.0000"
        assert shown_float(e, "out-mean") == 2.0
        assert e.shown()["message"] == ""


def test_nonfinite_input_shows_chinese_message():
    ex = layer_norm_explorer(torch.tensor([1.0, float("nan"), 2.0, float("inf")]))
    msg = ex.shown()["message"]
    assert "2 个 NaN 或 inf" in msg and "x[1]" in msg and "nan_to_num" in msg
    assert "<path" not in ex.widget.children[-1].value            # 不画图
    ex.set(gamma=2.0)                                               # 控件还能动，不报错
    assert "data-role=\"message\"" in ex._repr_html_()


@pytest.mark.parametrize("bad, err, words", [
    ("abc", TypeError, "字符串"),
    (torch.randn(2, 3), ValueError, "(2, 3)"),
    (torch.tensor([]), ValueError, "空张量"),
    ([1, "a"], TypeError, "list"),
])
def test_bad_input_raises_chinese_error(bad, err, words):
    with pytest.raises(err) as info:
        layer_norm_explorer(bad)
    assert words in str(info.value)
    assert re.search(r"[\u4e00-\u9fff]", str(info.value))


class GoodLayerNorm(LayerNorm):
    """读者自己写的 LayerNorm：与第 5 章的写法（dsx_util.layernorm.LayerNorm）相同，只是类名是读者起的。"""


class UnbiasedLayerNorm(GoodLayerNorm):
    """常见错误：用了无偏方差。"""

    def forward(self, x):
        mean = x.mean(dim=-1, keepdim=True)
        var = x.var(dim=-1, keepdim=True)
        return self.scale * (x - mean) / torch.sqrt(var + self.eps) + self.shift


class BrokenLayerNorm(GoodLayerNorm):
    def forward(self, x):
        raise RuntimeError("我还没写完")


def test_reader_layer_norm_class_is_used():
    x = default_x()
    ex = layer_norm_explorer(layer_norm=GoodLayerNorm)
    ex.set(gamma=2.0, beta=0.5, eps=1e-3)
    assert "GoodLayerNorm" in ex.shown()["reader-status"]
    assert shown_float(ex, "out-var") == pytest.approx(ln_torch(x, 2.0, 0.5, 1e-3)[1], abs=1e-4)
    # 用无偏方差的类：显示出来的方差与 torch 不同（探索器确实在用读者的类）
    wrong = layer_norm_explorer(layer_norm=UnbiasedLayerNorm)
    wrong.set(gamma=2.0)
    y = UnbiasedLayerNorm(16)(x.float()).detach().double() * 2.0
    assert shown_float(wrong, "out-var") == pytest.approx(float(y.var(unbiased=False)), abs=1e-4)
    assert shown_float(wrong, "out-var") != pytest.approx(ln_torch(x, 2.0, 0.0, 1e-5)[1], abs=1e-3)
    # torch 自带的 nn.LayerNorm 实例（weight/bias）也可以
    inst = layer_norm_explorer(layer_norm=nn.LayerNorm(16))
    inst.set(gamma=3.0, eps=1e-2)
    assert shown_float(inst, "out-var") == pytest.approx(ln_torch(x, 3.0, 0.0, 1e-2)[1], abs=1e-4)


def test_reader_layer_norm_that_raises_keeps_explorer_usable():
    x = default_x()
    ex = layer_norm_explorer(layer_norm=BrokenLayerNorm)
    status = ex.shown()["reader-status"]
    assert "出错" in status and "RuntimeError" in status and "我还没写完" in status
    ex.set(gamma=2.0)
    assert shown_float(ex, "out-var") == pytest.approx(ln_torch(x, 2.0, 0.0, 1e-5)[1], abs=1e-4)
    bad_shape = layer_norm_explorer(layer_norm=lambda n, eps=1e-5: (lambda t: t[:3]))
    assert "(16,)" in bad_shape.shown()["reader-status"]


# ---------------------------------------------------------------- dim / keepdim
SHAPES = [[2, 3, 4], [3, 4], [4, 4], [2, 4, 4], [1, 4, 4], [6], [4, 4, 4], [1, 4], [4, 1], [3, 1, 3], [2, 1, 1], [1, 1]]


def torch_outcome(shape, dim, keepdim):
    x = torch.randn(*shape, dtype=torch.float64)
    m = x.mean(dim=dim, keepdim=keepdim)
    try:
        d = x - m
    except RuntimeError:
        return list(m.shape), "error"
    if d.shape != x.shape:
        return list(m.shape), "silent_shape"
    return list(m.shape), "ok" if torch.allclose(d, x - x.mean(dim=dim, keepdim=True)) else "silent"


def test_broadcast_rule_matches_torch_everywhere():
    """页面（JS）与这里用的是同一条规则；先用 torch 把 Python 版核对一遍。"""
    for shape in SHAPES:
        for dim in range(-len(shape), len(shape)):
            for keepdim in (False, True):
                rule = broadcast_rule(shape, dim, keepdim)
                assert (rule["result"], rule["status"]) == torch_outcome(shape, dim, keepdim), (shape, dim, keepdim)


def test_dim_keepdim_explorer_drives_controls():
    ex = dim_keepdim_explorer()
    assert ex.shown()["result-shape"] == "[2, 3]"
    assert ex.shown()["broadcast-status-kind"] == "error"
    seen = set()
    for index, entry in enumerate(ex.shapes):
        ex.set(shape=index)
        n = len(entry["shape"])
        assert [v for _, v in ex._w["dim"].options] == list(range(-1, -n - 1, -1)) + list(range(n))
        for dim in range(-n, n):
            for keepdim in (False, True):
                ex.set(dim=dim, keepdim=keepdim)
                shape, status = torch_outcome(entry["shape"], dim, keepdim)
                assert ex.shown()["result-shape"] == S.fmt_shape(shape)
                assert ex.shown()["broadcast-status-kind"] == ("silent" if status == "silent_shape" else status)
                assert f"dim={dim}, keepdim={keepdim}" in ex.shown()["code"]
                seen.add(status)
    assert seen == {"ok", "error", "silent"}
    ex.set(shape=[4, 4], dim=-1, keepdim=False)
    assert "词元" in ex.shown()["broadcast-status"] and "嵌入" in ex.shown()["broadcast-status"]


def test_dim_explorer_keeps_dim_when_shape_changes_and_custom_shape():
    ex = dim_keepdim_explorer(dim=0)
    ex.set(shape=[3, 4])
    assert ex._w["dim"].value == 0 and ex.dim == 0
    ex.set(shape=[6], dim=-1)
    ex.set(shape=[2, 3, 4])
    assert ex.dim == -1
    custom = dim_keepdim_explorer((5, 5), ("词元", "嵌入"))
    assert custom.shown()["result-shape"] == "[5]"
    assert custom.shown()["broadcast-status-kind"] == "silent"
    with pytest.raises(ValueError, match="shape"):
        dim_keepdim_explorer("2,3")
    with pytest.raises(ValueError, match="dim=5"):
        dim_keepdim_explorer(dim=5)
    with pytest.raises(ValueError, match="形状列表里没有"):
        ex.set(shape=[7, 7])


def test_text_helpers_match_their_js_twins():
    """fmt/fill 的 Python 版；JS 版在浏览器测试里与内核视图逐字比较。"""
    assert S.fmt(-0.0) == "0.0000" and S.fmt(-1e-9) == "0.0000"
    assert S.fmt(123456.0) == "1.235e+05" and S.fmt(float("nan")) == "NaN" and S.fmt(float("-inf")) == "-inf"
    assert S.fmt_eps(1e-5) == "1.0e-05"
    assert S.fill("a{x}b{y}", {"x": 1}) == "a1b{y}"
    assert math.isclose(10 ** S.LAYER_NORM_SPEC["controls"]["log_eps"]["value"], 1e-5)


# ---------------------------------------------------------------- 画面与数字一致：固定纵轴、自适应宽度、轴的名字
def bar_heights(view, role):
    """内核视图里某个图（data-role=role）各根柱子的高度（SVG 里 path 的 v 段）。"""
    svg = re.search(rf'<svg[^>]*data-role="{role}".*?</svg>', view, re.S).group(0)
    bars = re.search(r'class="dsx-bars"[^>]*d="([^"]*)"', svg).group(1)
    return [float(h) for h in re.findall(r"v(-?[\d.]+)", bars)]


def test_gamma_two_doubles_the_drawn_output_bars_in_the_kernel_view():
    ex = layer_norm_explorer()
    view1 = ex.widget and ex._w["view"].value
    y1, x1, hat1 = (bar_heights(view1, r) for r in ("chart-y", "chart-x", "chart-xhat"))
    ex.set(gamma=2.0)
    view2 = ex._w["view"].value
    y2 = bar_heights(view2, "chart-y")
    assert len(y1) == len(y2) == S.DEFAULT_H
    for a, b in zip(y1, y2):
        if a > 1.0:   # 高度 0.5 的是画出来的最小柱子（值约为 0）
            assert b == pytest.approx(2 * a, rel=0.02), (a, b)
    assert bar_heights(view2, "chart-x") == x1 and bar_heights(view2, "chart-xhat") == hat1
    # 三个图的纵轴相同：γ = 1 时 x̂ 与输出的柱子一样高
    assert y1 == pytest.approx(hat1, abs=0.02)
    assert "个超出范围" not in view2


def test_values_beyond_the_fixed_range_are_marked():
    ex = layer_norm_explorer()
    ex.set(gamma=3.0, beta=5.0)
    view = ex._w["view"].value
    over = re.search(r'<svg[^>]*data-role="chart-y".*?</svg>', view, re.S).group(0)
    count = int(re.search(r"▲ (\d+) 个超出范围", over).group(1))
    marks = re.search(r'class="dsx-over"[^>]*d="([^"]*)"', over).group(1).count("M")
    assert count == marks >= 1


def test_explorer_layout_has_no_fixed_pixel_widths():
    from dsx_util.widgets import activation_explorer
    for ex in (layer_norm_explorer(), dim_keepdim_explorer(), norm_geometry_explorer(), norm_axes_explorer(),
               activation_explorer(tiny_data()[2])):
        w = ex.widget and ex._w
        for name, control in w.items():
            width = getattr(getattr(control, "layout", None), "width", None)
            assert width in (None, "auto", "100%"), (name, width)
    src = "".join(path.read_text(encoding="utf-8") for path in WIDGETS_SRC.glob("*.py"))
    assert "460px" not in src


def test_dim_error_names_the_axis_as_the_code_does():
    ex = dim_keepdim_explorer()   # [2, 3, 4]，dim=-1，不保留维度：m 的形状 [2, 3] 右对齐后在 dim=2 上是 4 对 3
    text = ex.shown()["broadcast-status"]
    assert "dim=2（嵌入维度）" in text and "4 对 3" in text and "第 2 维" not in text


# ---------------------------------------------------------------- 几何探索器（H = 3）与轴探索器（[B, T, H]）
def vec(text):
    """"(1.0000, -0.5000, 0.2500)" -> [1.0, -0.5, 0.25]"""
    return [float(v) for v in text.strip("()").split(",")]


def geo_torch(x, alpha, shift, eps):
    """torch 的参考结果：x′ = αx + c·1 的层归一化与 RMSNorm（都不带 γ、β），以及 α = 1、c = 0 时的两个输出。"""
    x = torch.tensor(x, dtype=torch.float64)
    xp = alpha * x + shift
    return (F.layer_norm(xp, (3,), eps=eps), F.rms_norm(xp, (3,), eps=eps),
            F.layer_norm(x, (3,), eps=eps), F.rms_norm(x, (3,), eps=eps), xp)


def assert_geo_matches_torch(ex, x, alpha, shift, eps):
    ln, rms, ln0, rms0, xp = geo_torch(x, alpha, shift, eps)
    shown = ex.shown()
    assert vec(shown["geo-xp"]) == pytest.approx(xp.tolist(), abs=1e-4)
    assert float(shown["geo-mu"]) == pytest.approx(float(xp.mean()), abs=1e-4)
    assert vec(shown["geo-v"]) == pytest.approx((xp - xp.mean()).tolist(), abs=1e-4)
    assert float(shown["geo-var"]) == pytest.approx(float(xp.var(unbiased=False)), abs=1e-4)
    assert vec(shown["geo-ln"]) == pytest.approx(ln.tolist(), abs=1e-4)
    assert float(shown["geo-ln-len"]) == pytest.approx(float(ln.norm()), abs=1e-4)
    assert vec(shown["geo-rms-out"]) == pytest.approx(rms.tolist(), abs=1e-4)
    assert float(shown["geo-rms-len"]) == pytest.approx(float(rms.norm()), abs=1e-4)
    assert float(shown["geo-ln-diff"]) == pytest.approx(float((ln - ln0).abs().max()), abs=1e-4)
    assert float(shown["geo-rms-diff"]) == pytest.approx(float((rms - rms0).abs().max()), abs=1e-4)
    assert shown["geo-eps"] == S.fmt_eps(eps)


def drawn_point(view_html, role):
    m = re.search(rf'data-role="{role}" cx="([-\d.]+)" cy="([-\d.]+)"', view_html)
    return float(m.group(1)), float(m.group(2))


def test_geometry_explorer_numbers_match_torch_for_every_control():
    ex = norm_geometry_explorer()
    conf = S.NORM_GEOMETRY_SPEC["presets"]["reset"]
    x = conf["x"]
    assert_geo_matches_torch(ex, x, 1.0, 0.0, 1e-5)
    for settings in ({"x": [0.5, -1.25, 2.0]}, {"alpha": 2.5}, {"shift": -1.5}, {"eps": 1e-2}, {"alpha": 0.3, "shift": 2.0}):
        ex.set(**settings)
        x = settings.get("x", x)
        assert_geo_matches_torch(ex, x, ex.alpha, ex.shift, ex.eps)
    # 直接改 ipywidgets 控件本身（读者拖动时就是这样）
    ex._w["x2"].value = 0.75
    assert_geo_matches_torch(ex, [x[0], 0.75, x[2]], ex.alpha, ex.shift, ex.eps)
    ex._w["reset"].click()
    assert_geo_matches_torch(ex, conf["x"], 1.0, 0.0, 1e-5)


def test_geometry_shows_invariance_and_the_ln_circle_and_rms_sphere():
    """LN(αx + c·1) = LN(x)；RMSNorm 对 α 不变、对 c 会变；LN 的输出在平面上、长度 ≈ √3，RMSNorm 的长度 ≈ √3。"""
    ex = norm_geometry_explorer([1.5, -0.5, 0.25])
    for alpha, shift in ((2.0, 0.0), (0.5, 0.0), (1.0, 1.5), (2.5, -2.0)):
        ex.set(alpha=alpha, shift=shift)
        shown = ex.shown()
        assert float(shown["geo-ln-diff"]) < 1e-4, (alpha, shift)
        assert float(shown["geo-vsum"]) == pytest.approx(0.0, abs=1e-4)          # 居中后落在平面 x₁+x₂+x₃ = 0 上
        assert sum(vec(shown["geo-ln"])) == pytest.approx(0.0, abs=3e-4)
        assert float(shown["geo-ln-len"]) == pytest.approx(math.sqrt(3), abs=1e-3)
        assert float(shown["geo-rms-len"]) == pytest.approx(math.sqrt(3), abs=1e-3)
        if shift == 0.0:
            assert float(shown["geo-rms-diff"]) < 1e-4
        else:
            assert float(shown["geo-rms-diff"]) > 0.1
    # 画面跟着数字：两张图上的 x′ 在同一位置，LN 的输出画在半径 √3 的圆（椭圆）上，RMSNorm 的画在半径 √3 的球（圆）上
    view = ex._w["view"].value
    v = S.NORM_GEOMETRY_SPEC["view"]
    assert drawn_point(view, "ln-x") == drawn_point(view, "rms-x")
    ln = torch.tensor(vec(ex.shown()["geo-ln"]), dtype=torch.float64)
    px, py = drawn_point(view, "ln-out")
    want = project(ln.tolist(), v, view_basis(v))
    assert (px, py) == pytest.approx(want, abs=0.01)
    sin_t = math.sin(math.radians(v["elevation"]))
    rx, ry = v["scale"] * math.sqrt(3), v["scale"] * math.sqrt(3) * sin_t
    assert ((px - v["cx"]) / rx) ** 2 + ((py - v["cy"]) / ry) ** 2 == pytest.approx(1.0, abs=0.01)
    qx, qy = drawn_point(view, "rms-out")
    assert math.hypot(qx - v["cx"], qy - v["cy"]) <= rx + 0.01    # 球面上的点投影在半径 √3 的圆内
    # 平移 c 只移动 RMSNorm 的输出，不移动 LN 的输出
    ex.set(shift=0.0)
    before = ex._w["view"].value
    ex.set(shift=2.0)
    after = ex._w["view"].value
    assert drawn_point(before, "ln-out") == drawn_point(after, "ln-out")
    assert drawn_point(before, "rms-out") != drawn_point(after, "rms-out")
    assert drawn_point(before, "ln-x") != drawn_point(after, "ln-x")


def test_geometry_eps_shrinks_ln_output_near_c_times_ones():
    """x 接近 c·1 时，ε 越大，LN 的输出越短（缩向原点），而不是跳到圆上；长度与 torch 一致。"""
    ex = norm_geometry_explorer().preset("near")
    x = ex.x
    lengths = []
    for eps in (1e-6, 1e-4, 1e-3, 1e-2, 1e-1, 1.0):
        ex.set(eps=eps)
        ln = geo_torch(x, 1.0, 0.0, eps)[0]
        lengths.append(float(ex.shown()["geo-ln-len"]))
        assert lengths[-1] == pytest.approx(float(ln.norm()), abs=1e-4)
    assert lengths[0] == pytest.approx(math.sqrt(3), abs=1e-2)          # ε 很小：仍在圆上
    assert all(a > b for a, b in zip(lengths, lengths[1:]))            # ε 增大：越来越短
    assert lengths[-1] < 0.2
    # 同一个 ε，离 c·1 远的默认 x 几乎不受影响
    far = norm_geometry_explorer(eps=1e-2)
    assert float(far.shown()["geo-ln-len"]) > 0.97 * math.sqrt(3)


def test_near_button_moves_x_prime_close_to_c_times_ones_and_keeps_it_in_view():
    """「让 x′ 接近 c·1」：按下后图里画的 x′ = αx + c·1 的每个分量离 c 不超过 0.05·α，x′ 在画面里（没有「x′ 在画面外」），
    居中后的长度远小于默认的 x；α 不变，c 在画面能容下的范围里不变，超出时移到最近的边界（滑块上的每个 c 都试）。"""
    from dsx_util.widgets.geometry import project, view_basis
    spec = norm_geometry_explorer().spec
    view, conf, lo, hi = spec["view"], spec["presets"]["near"], spec["controls"]["shift"]["min"], spec["controls"]["shift"]["max"]
    basis = view_basis(view)

    def in_view(p):
        px, py = project(p, view, basis)
        return 0 <= px <= view["width"] and 0 <= py <= view["height"]
    # max_shift 由画面推出：±max_shift·1 在画面里，再远 0.5 就出去了
    m = conf["max_shift"]
    assert in_view([m] * 3) and in_view([-m] * 3) and not (in_view([m + 0.5] * 3) and in_view([-m - 0.5] * 3))
    ex = norm_geometry_explorer()
    cs = [lo + k * (hi - lo) / 24 for k in range(25)]
    for alpha in (0.1, 1.0, 1.7, 3.0):
        for c in cs:
            ex.set(x=[2.0, 1.0, 0.5], alpha=alpha, shift=c)
            ex.preset("near")
            want_c = max(-m, min(m, c))
            xp = [ex.alpha * v + ex.shift for v in ex.x]
            assert ex.alpha == alpha and ex.shift == pytest.approx(want_c), (alpha, c, ex.shift)
            assert max(abs(v - want_c) for v in xp) <= 0.05 * alpha + 1e-9, (alpha, c, xp)   # x 只偏 0.05（滑块刻度）
            assert in_view(xp) and "x′ 在画面外" not in ex._w["view"].value, (alpha, c, xp)
            assert float(ex.shown()["geo-vlen"]) < 0.25


def test_geometry_labels_never_overlap_over_a_sweep():
    """拖动滑块的一组组合里，每张图上所有文字的外框（place_labels 用的估计宽度，比实际略宽）两两不重叠，
    也不出画面。浏览器测试用实际排版出的外框再查一遍（tests/test_browser_explorers.py）。"""
    from dsx_util.widgets.geometry import label_box
    ex = norm_geometry_explorer()
    text_re = re.compile(r'<text class="([^"]+)"(?: data-role="[^"]*")? x="([-\d.]+)" y="([-\d.]+)"'
                         r'(?: visibility="(?:visible|(hidden))")? font-size="(\d+)"(?: text-anchor="(\w+)")?[^>]*>([^<]*)</text>')
    checked = 0
    for x in ([2.0, 1.0, 0.5], [1.05, 1.0, 0.95], [0.0, 0.0, 0.0], [-2.0, 1.5, 0.5], [3.0, -3.0, 0.0], [0.3, 0.2, 0.1]):
        for alpha in (0.5, 1.0, 2.0):
            for shift in (-1.0, 0.0, 1.0):
                ex.set(x=x, alpha=alpha, shift=shift)
                view = ex._w["view"].value
                for chart in ("ln", "rms"):
                    svg = re.search(rf'<svg[^>]*data-role="chart-{chart}".*?</svg>', view, re.S).group(0)
                    boxes = [(m[6], label_box(float(m[1]), float(m[2]), m[6], int(m[4]), m[5] or "start"))
                             for m in text_re.findall(svg) if m[6] and not m[3] and "dsx-over-note" not in m[0]]
                    assert len(boxes) >= 6
                    for (ta, a), (tb, b) in itertools.combinations(boxes, 2):
                        overlap = min(a[2], b[2]) - max(a[0], b[0]) > 0.5 and min(a[3], b[3]) - max(a[1], b[1]) > 0.5
                        assert not overlap, (x, alpha, shift, chart, ta, tb)
                    checked += 1
    assert checked == 6 * 3 * 3 * 2


def test_geometry_explorer_page_has_same_spec_controls_and_bad_input_errors():
    ex = norm_geometry_explorer()
    bundle = ex._repr_mimebundle_()
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == ex.widget.model_id
    page = bundle["text/html"]
    embedded = re.search(r'<script type="application/json" data-role="spec">(.*?)</script>', page).group(1)
    assert json.loads(embedded) == json.loads(json.dumps(S.NORM_GEOMETRY_SPEC))
    assert " src=" not in page and "href=" not in page
    assert set(re.findall(r"https?://[^\s\"']+", page)) <= {"http://www.w3.org/2000/svg"}
    for role in ("x1", "x2", "x3", "alpha", "shift", "log_eps", "reset", "near", "chart-ln", "chart-rms"):
        assert f'data-role="{role}"' in page
    assert [type(ex._w[k]).__name__ for k in ("x1", "alpha", "shift", "eps")] == \
        ["FloatSlider", "FloatSlider", "FloatSlider", "FloatLogSlider"]
    for bad, err, words in (("abc", TypeError, "字符串"), ([1.0, 2.0], ValueError, "H = 3"),
                            ([1.0, float("nan"), 0.0], ValueError, "NaN")):
        with pytest.raises(err, match=words):
            norm_geometry_explorer(bad)
    with pytest.raises(ValueError, match="alpha"):
        norm_geometry_explorer(alpha=-1.0)
    with pytest.raises(ValueError, match="预设"):
        ex.preset("nope")
    wide = norm_geometry_explorer([5.0, -4.0, 0.0])        # 超出默认范围：滑块范围跟着扩大
    w = wide.widget and wide._w
    assert w["x1"].max >= 5.0 and w["x1"].value == 5.0


AXES_MODES = ["ln", "bn", "rms", "ln_th", "group"]


def axes_reference(x, mode):
    """不用探索器的代码，只用 PyTorch 自带的归一化算出参考输出和“哪些数共用统计量”。"""
    b_, t_, h_ = x.shape
    if mode == "ln":
        y = F.layer_norm(x, (h_,), eps=1e-5)
    elif mode == "bn":
        y = F.batch_norm(x.reshape(-1, h_), None, None, training=True, eps=1e-5).reshape(x.shape)
    elif mode == "rms":
        y = F.rms_norm(x, (h_,), eps=1e-5)
    elif mode == "ln_th":
        y = F.layer_norm(x, (t_, h_), eps=1e-5)
    else:
        y = F.group_norm(x.transpose(1, 2), h_ // 2, eps=1e-5).transpose(1, 2)   # nn.GroupNorm：[B, C=H, L=T]，每组 2 个通道
    return y


def expected_partition(shape, mode):
    """共用统计量的格子：按定义直接写出每个格子的组键（与探索器的 group_ids 独立）。"""
    keys = {"ln": lambda b, t, h: (b, t), "bn": lambda b, t, h: (h,), "rms": lambda b, t, h: (b, t),
            "ln_th": lambda b, t, h: (b,), "group": lambda b, t, h: (b, h // 2)}[mode]
    cells = [(b, t, h) for b in range(shape[0]) for t in range(shape[1]) for h in range(shape[2])]
    return [keys(*c) for c in cells]


def same_partition(ids, keys):
    return all((ids[i] == ids[j]) == (keys[i] == keys[j]) for i in range(len(ids)) for j in range(len(ids)))


def test_axes_explorer_groups_and_numbers_match_torch_in_every_mode():
    ex = norm_axes_explorer()
    x = torch.tensor(S.axes_input(), dtype=torch.float64)
    sizes = {}
    for mode in AXES_MODES:
        ex.set(mode=mode)
        shown = ex.shown()
        cells = shown["cells"]
        assert len(cells) == x.numel()
        assert [c[1] for c in cells] == x.flatten().tolist()
        ids = [c[0] for c in cells]
        assert same_partition(ids, expected_partition(x.shape, mode)), mode
        assert ids == group_ids(x.shape, ex.modes[mode])
        y = axes_reference(x, mode)
        assert [c[2] for c in cells] == pytest.approx(y.flatten().tolist(), abs=6e-4), mode
        # 显示的代码就是这种方式的 dim= 写法，统计量的形状与 torch 的 keepdim 结果相同
        code = shown["code"]
        want_dim = {"ln": "dim=-1", "bn": "dim=(0, 1)", "rms": "dim=-1", "ln_th": "dim=(1, 2)", "group": "dim=(1, 3)"}[mode]
        assert f"mean({want_dim}, keepdim=True)" in code
        stat = {"ln": x.mean(dim=-1, keepdim=True), "bn": x.mean(dim=(0, 1), keepdim=True),
                "rms": x.pow(2).mean(dim=-1, keepdim=True), "ln_th": x.mean(dim=(1, 2), keepdim=True),
                "group": x.view(2, 3, 2, 2).mean(dim=(1, 3), keepdim=True)}[mode]
        assert S.fmt_shape(stat.shape) in shown["groups"]
        sizes[mode] = len(set(ids))
        assert f"共 {sizes[mode]} 组" in shown["groups"]
        first = [v for v, i in zip(x.flatten().tolist(), ids) if i == 0]
        if mode == "rms":
            assert "mean(x²)" in code.replace("x.pow(2).mean", "mean(x²)")
            assert S.fmt(sum(v * v for v in first) / len(first)) in shown["first"]
        else:
            assert S.fmt(sum(first) / len(first)) in shown["first"]
    assert sizes == {"ln": 6, "bn": 4, "rms": 6, "ln_th": 2, "group": 4}
    # 分组归一化的例子要教点东西：每组不止 2 个数，输出不全是 ±1
    ex.set(mode="group")
    outs = [abs(c[2]) for c in ex.shown()["cells"]]
    assert max(outs) - min(outs) > 0.5 and sum(1 for v in outs if abs(v - 1) > 0.05) >= len(outs) // 2
    # 正文说：层归一化与批量归一化给同一个格子的输出不同
    ex.set(mode="ln")
    ln_cells = ex.shown()["cells"]
    ex.set(mode="bn")
    bn_cells = ex.shown()["cells"]
    assert all(abs(a[2] - b[2]) > 1e-3 for a, b in zip(ln_cells, bn_cells))


def test_axes_explorer_kernel_widget_page_spec_and_bad_input():
    ex = norm_axes_explorer(mode="bn")
    assert ex._w is None
    bundle = ex._repr_mimebundle_()
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == ex.widget.model_id
    assert ex._w["mode"].value == "bn"
    ex._w["mode"].value = "group"             # 读者在下拉菜单里换方式
    assert "view(B, T, H // 2, 2)" in ex.shown()["code"]
    page = bundle["text/html"]
    embedded = re.search(r'<script type="application/json" data-role="spec">(.*?)</script>', page).group(1)
    assert json.loads(embedded) == json.loads(json.dumps(S.NORM_AXES_SPEC))
    data = json.loads(re.search(r'data-role="data">(.*?)</script>', page).group(1))
    assert data["x"] == S.axes_input() and data["mode"] == "bn"
    custom = norm_axes_explorer(torch.arange(8.0).reshape(1, 2, 4))
    assert len(custom.shown()["cells"]) == 8
    for bad, err, words in ((torch.randn(2, 3, 5), ValueError, "偶数"), (torch.randn(3, 4), TypeError, "形状"),
                            ("abc", TypeError, "形状")):
        with pytest.raises(err, match=words):
            norm_axes_explorer(bad)
    with pytest.raises(ValueError, match="归一化方式"):
        ex.set(mode="nope")


# ---------------------------------------------------------------- 真实激活值探索器（第 13 章）：模型 → 数据 → 显示
def tiny_model(seed=0, drop_rate=0.1):
    """与参考模型同一种结构的小模型（随机初始化）：2 个块，嵌入 16 维，final_norm 换成 nn.LayerNorm。"""
    from dsx_util.gpt import GPTModel
    torch.manual_seed(seed)
    m = GPTModel({"vocab_size": 40, "context_length": 32, "emb_dim": 16, "n_heads": 2, "n_layers": 2,
                  "drop_rate": drop_rate, "qkv_bias": False})
    m.final_norm = nn.LayerNorm(16)
    with torch.no_grad():          # 让 γ、β 不是 1 和 0，残差流的尺度各层不同
        for p in m.parameters():
            p.add_(0.3 * torch.randn_like(p))
        m.trf_blocks[1].att.out_proj.weight.mul_(8.0)
    return m


TINY_TEXT = "abcdefghijklmnopqrst"


def tiny_data(model=None):
    from dsx_util.widgets import activation_data
    model = model or tiny_model()
    ids = [ord(c) - 90 for c in TINY_TEXT]
    return model, ids, activation_data(model, ids, list(TINY_TEXT))


def test_activation_data_records_each_layer_norm_input_and_removes_its_hooks():
    from dsx_util.widgets.activation_explorer import unpack
    model, ids, data = tiny_data()
    model.train()
    _, _, data = tiny_data(model)
    names = [L["name"] for L in data["layers"]]
    assert names == ["trf_blocks.0.norm1", "trf_blocks.0.norm2", "trf_blocks.1.norm1", "trf_blocks.1.norm2",
                     "final_norm"]
    assert [L["label"] for L in data["layers"]][:2] == ["第 1 块 norm1（注意力之前）", "第 1 块 norm2（前馈之前）"]
    assert model.training, "结束后应恢复原来的训练模式"
    assert all(not mod._forward_hooks for mod in model.modules()), "钩子没有移除"
    # 与独立记下的输入逐个比较：量化误差不超过比例的一半；层归一化的输出也几乎不变
    seen = {}
    mods = dict(model.named_modules())
    handles = [mods[n].register_forward_hook(lambda _m, i, o, n=n: seen.__setitem__(n, (i[0][0], o[0]))) for n in names]
    model.eval()
    with torch.no_grad():
        model(torch.tensor([ids]))
    for h in handles:
        h.remove()
    for L in data["layers"]:
        x_true, y_true = seen[L["name"]]
        x = torch.tensor(unpack(L["x"]), dtype=torch.float64).reshape(len(ids), 16)
        assert (x - x_true.double()).abs().max() <= L["x"]["s"] / 2 + 1e-9
        g, b = (torch.tensor(unpack(L[k]), dtype=torch.float64) for k in ("gamma", "beta"))
        y = F.layer_norm(x, (16,), g, b, L["eps"])
        assert (y - y_true.double()).abs().max() < 2e-3, L["name"]
    scales = sorted(L["x"]["s"] for L in data["layers"])
    assert scales[-1] > 3 * scales[0], "各层的尺度不同：每层一个量化比例"


def act_reference(data, layer, token):
    from dsx_util.widgets.activation_explorer import unpack
    L = data["layers"][layer]
    h = data["h"]
    xs = torch.tensor(unpack(L["x"]), dtype=torch.float64).reshape(-1, h)
    g, b = (torch.tensor(unpack(L[k]), dtype=torch.float64) for k in ("gamma", "beta"))
    x = xs[token]
    y = F.layer_norm(x, (h,), g, b, L["eps"])
    sig = torch.sqrt(xs.var(-1, unbiased=False) + L["eps"])
    return x, y, sig, g, b


def test_activation_explorer_numbers_match_torch_for_every_layer_and_token():
    from dsx_util.widgets import activation_explorer
    _, _, data = tiny_data()
    ex = activation_explorer(data)
    assert ex.token == len(TINY_TEXT) - 1 and ex.layer == 0
    for layer in range(len(data["layers"])):
        for token in (0, 7, len(TINY_TEXT) - 1):
            ex.set(layer=layer, token=token)
            shown = ex.shown()
            x, y, sig, g, b = act_reference(data, layer, token)
            eps = data["layers"][layer]["eps"]
            assert float(shown["act-mu"]) == pytest.approx(float(x.mean()), abs=1e-4)
            assert float(shown["act-var"]) == pytest.approx(float(x.var(unbiased=False)), abs=1e-4)
            assert float(shown["act-sigma"]) == pytest.approx(float(sig[token]), abs=1e-4)
            assert float(shown["act-sigma"]) == pytest.approx(math.sqrt(float(x.var(unbiased=False)) + eps), abs=1e-4)
            assert float(shown["act-lo"]) == pytest.approx(float(sig.min()), abs=1e-4)
            assert float(shown["act-hi"]) == pytest.approx(float(sig.max()), abs=1e-4)
            assert float(shown["act-med"]) == pytest.approx(float(sig.sort().values[sig.numel() // 2 - 1:sig.numel() // 2 + 1].mean()), abs=1e-4)
            j = int(x.abs().argmax())
            assert int(shown["act-j"]) == j
            assert float(shown["act-yj"]) == pytest.approx(float(y[j]), abs=1e-4)
            assert float(shown["act-gj"]) == pytest.approx(float(g[j]), abs=1e-4)
            assert float(shown["act-y-var"]) == pytest.approx(float(y.var(unbiased=False)), abs=1e-4)
            assert float(shown["act-slope"]) == pytest.approx(1 / float(sig[token]), abs=1e-4)
            # 句子里被标出的正是这个词元
            view = ex._w["view"].value
            assert re.findall(r'class="dsx-tok dsx-tok-sel" data-t="(\d+)"', view) == [str(token)]
            # 三个柱状图画的就是 x、x̂、输出（柱子的高度与值成正比）
            hy = bar_heights(view, "chart-y") + [0.0]
            assert len(bar_heights(view, "chart-x")) == 16 - 1       # 选中的那根另画
            assert len(hy) == 16


def test_activation_scatter_puts_the_token_on_its_line_and_inside_the_cloud():
    from dsx_util.widgets import activation_explorer
    from dsx_util.widgets.activation_explorer import scatter_xy
    _, _, data = tiny_data()
    ex = activation_explorer(data, layer=2, token=3)
    view = ex.widget and ex._w["view"].value

    def points(role):
        d = re.search(rf'data-role="{role}" d="([^"]*)"', view).group(1)
        return [(float(a), float(b)) for a, b in re.findall(r"M([-\d.]+) ([-\d.]+)h0", d)]
    cloud, mine = points("scatter-all"), points("scatter-sel")
    assert set(mine) <= set(cloud) and len(cloud) > len(mine) >= 8
    assert len(cloud) == len(set(cloud))
    line = [float(v) for v in re.findall(r"-?\d+\.\d+", re.search(r'data-role="scatter-line" d="([^"]*)"', view).group(1))]
    (ax, ay), (bx, by) = line[:2], line[2:]
    x, _, sig, _, _ = act_reference(data, 2, 3)
    mu, s = float(x.mean()), float(sig[3])
    r = ex._ranges[2]
    for px, py in mine:        # 每个点离这条直线不到 0.5 个单位（对齐到 0.5 的误差）
        cross = abs((bx - ax) * (py - ay) - (by - ay) * (px - ax)) / math.hypot(bx - ax, by - ay)
        assert cross < 0.75, (px, py)
    # 直线的斜率就是 1/σ（换算成图上的单位）
    x0, y0 = scatter_xy(mu - s, -1.0, r["rx"], r["rh"])
    x1, y1 = scatter_xy(mu + s, 1.0, r["rx"], r["rh"])
    assert (by - ay) / (bx - ax) == pytest.approx((y1 - y0) / (x1 - x0), rel=1e-3)


def test_activation_explorer_page_gets_the_same_spec_and_data_and_bad_input_errors():
    from dsx_util.widgets import activation_data, activation_explorer
    model, ids, data = tiny_data()
    ex = activation_explorer(data, layer=1, token=2)
    bundle = ex._repr_mimebundle_()
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == ex.widget.model_id
    page = bundle["text/html"]
    assert " src=" not in page and "href=" not in page
    embedded = re.search(r'<script type="application/json" data-role="spec">(.*?)</script>', page).group(1)
    assert json.loads(embedded) == json.loads(json.dumps(S.ACTIVATION_SPEC))
    shipped = json.loads(re.search(r'data-role="data">(.*?)</script>', page).group(1))
    assert [L["x"] for L in shipped["layers"]] == [L["x"] for L in data["layers"]]
    assert shipped["tokens"] == list(TINY_TEXT)
    assert 'value="1" selected' in page and 'value="2" selected' in page
    ex._w["token"].value = 5                      # 读者在下拉菜单里换词元
    assert re.findall(r'dsx-tok-sel" data-t="(\d+)"', ex._w["view"].value) == ["5"]
    ex._w["prev"].click()
    assert ex.token == 4 and ex._w["token"].value == 4
    for bad, err, words in (("abc", TypeError, "分词器"), ([3], ValueError, "至少 2 个")):
        with pytest.raises(err, match=words):
            activation_data(model, bad)
    with pytest.raises(ValueError, match="一一对应"):
        activation_data(model, ids, ["a"])
    with pytest.raises(TypeError, match="activation_data"):
        activation_explorer([1, 2, 3])
    with pytest.raises(ValueError, match="layer=9"):
        activation_explorer(data, layer=9)
    with pytest.raises(ValueError, match="token"):
        ex.set(token=99)
    assert all(not mod._forward_hooks for mod in model.modules())
    with pytest.raises(ValueError):               # 前向出错（序列超过上下文长度）：钩子照样移除
        activation_data(model, list(range(3)) * 20)
    assert all(not mod._forward_hooks for mod in model.modules())


def test_activation_data_of_two_models_lists_both_models_layers():
    """训练后与初始化时的同一个模型放进一个探索器：层列表依次是两个模型的层归一化，名字写在前面，数据各是各的。"""
    from dsx_util.widgets import activation_data, activation_explorer
    a, b = tiny_model(0), tiny_model(1)
    ids = [ord(c) - 90 for c in TINY_TEXT]
    data = activation_data({"训练后": a, "初始化时": b}, ids, list(TINY_TEXT))
    one = activation_data(b, ids, list(TINY_TEXT))
    assert len(data["layers"]) == 10
    assert data["layers"][0]["label"] == "训练后 · 第 1 块 norm1（注意力之前）"
    assert data["layers"][5]["name"] == "初始化时/trf_blocks.0.norm1"
    assert [L["x"] for L in data["layers"][5:]] == [L["x"] for L in one["layers"]]
    ex = activation_explorer(data, layer=7)
    assert "初始化时 · 第 2 块 norm1" in ex.widget.children[1].options[7][0]
    with pytest.raises(ValueError, match="空字典"):
        activation_data({}, ids)
