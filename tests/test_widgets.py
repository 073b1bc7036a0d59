"""交互探索器（dsx_util.widgets）的内核端测试：建好探索器，用程序拨动 ipywidgets 控件，把显示的数字和 torch 核对。

同一个文件要在 ipywidgets 8.x（.venv）和 7.7.1（.venv-colab，Colab 的版本）下都通过，不跳过任何测试，
也不依赖 conftest 里的夹具。
"""
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

from dsx_util.widgets import dim_keepdim_explorer, layer_norm_explorer
from dsx_util.widgets import spec as S
from dsx_util.widgets.explorers import broadcast_rule

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
    src = (WIDGETS_SRC / "explorers.py").read_text(encoding="utf-8")
    assert "tooltip" not in src and "interactive" not in src
    used = set(re.findall(r"\bW\.(\w+)\(", src))
    common = {"FloatSlider", "FloatLogSlider", "Dropdown", "Checkbox", "Button", "HTML", "VBox", "HBox", "Layout"}
    assert used and used <= common, used - common
    js = (WIDGETS_SRC / "static" / "explorers.js").read_text(encoding="utf-8")
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


class GoodLayerNorm(nn.Module):
    """读者自己写的 LayerNorm（与第 5 章相同的写法）。"""

    def __init__(self, emb_dim, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.scale = nn.Parameter(torch.ones(emb_dim))
        self.shift = nn.Parameter(torch.zeros(emb_dim))

    def forward(self, x):
        mean = x.mean(dim=-1, keepdim=True)
        var = x.var(dim=-1, keepdim=True, unbiased=False)
        return self.scale * (x - mean) / torch.sqrt(var + self.eps) + self.shift


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
    for ex in (layer_norm_explorer(), dim_keepdim_explorer()):
        w = ex.widget and ex._w
        for name, control in w.items():
            width = getattr(getattr(control, "layout", None), "width", None)
            assert width in (None, "auto", "100%"), (name, width)
    src = (WIDGETS_SRC / "explorers.py").read_text(encoding="utf-8")
    assert "460px" not in src


def test_dim_error_names_the_axis_as_the_code_does():
    ex = dim_keepdim_explorer()   # [2, 3, 4]，dim=-1，不保留维度：m 的形状 [2, 3] 右对齐后在 dim=2 上是 4 对 3
    text = ex.shown()["broadcast-status"]
    assert "dim=2（嵌入维度）" in text and "4 对 3" in text and "第 2 维" not in text
