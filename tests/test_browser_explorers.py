"""浏览器测试：HTML 书页里的两个探索器（没有内核、离线）在页面内实时计算，数字与 torch 一致，控制台零错误。

页面：book/ch03_dim_keepdim.html（dim/keepdim 探索器）与 book/ch04_formulas.html（γ/β/ε 探索器），
来自 DSX_HTML_DIR（默认 _build/html）。最后两个测试不需要构建好的书：它们把探索器的 text/html 输出直接放进空白页。
"""
import itertools
import json
import re

import pytest
import torch
import torch.nn.functional as F

from test_reader_edition import jupyter_lab, lab_page  # noqa: F401  JupyterLab 服务器（夹具）

LN_PAGE = "book/ch04_formulas.html"
DIM_PAGE = "book/ch03_dim_keepdim.html"


def num(root, role):
    return float(root.locator(f'[data-role="{role}"]').first.inner_text())


def first_live_layer_norm(page):
    """页面上第一个没有报错信息的层归一化探索器。"""
    roots = page.locator('[data-explorer="layer_norm"]')
    assert roots.count() >= 1, "页面上没有层归一化探索器"
    for i in range(roots.count()):
        root = roots.nth(i)
        if root.locator('[data-role="charts"]').first.is_visible():
            return root
    pytest.fail("页面上的层归一化探索器都在显示错误信息")


def page_input(root):
    data = json.loads(root.locator('script[data-role="data"]').text_content())
    return torch.tensor([float(v) for v in data["x"]], dtype=torch.float64)


def torch_stats(x, gamma, beta, eps):
    y = F.layer_norm(x, (x.numel(),), torch.full_like(x, gamma), torch.full_like(x, beta), eps)
    return float(y.mean()), float(y.var(unbiased=False))


def assert_clean(page):
    assert page.console_errors == [], f"控制台有错误：{page.console_errors}"
    assert page.external_requests == [], f"页面请求了外部资源：{page.external_requests}"


@pytest.mark.changes_page
@pytest.mark.parametrize("path", [LN_PAGE])
def test_gamma_beta_sliders_in_book_page(visited, path):
    page = visited
    root = first_live_layer_norm(page)
    x = page_input(root)
    hat_var = num(root, "hat-var")
    assert hat_var == pytest.approx(1.0, abs=1e-3)
    # 拖到 γ = 2：输出方差 ≈ 4·σ̂²（x̂ 的方差 σ̂² ≈ 1），并与 torch 一致
    root.locator('[data-role="gamma"]').fill("2")
    assert num(root, "out-var") == pytest.approx(4 * hat_var, abs=2e-4)
    assert num(root, "out-var") == pytest.approx(torch_stats(x, 2.0, 0.0, 1e-5)[1], abs=1e-4)
    assert num(root, "out-mean") == pytest.approx(0.0, abs=1e-4)
    # 移动 β：显示的输出均值等于 β
    root.locator('[data-role="beta"]').fill("1.5")
    assert num(root, "out-mean") == pytest.approx(1.5, abs=1e-4)
    assert num(root, "out-var") == pytest.approx(torch_stats(x, 2.0, 1.5, 1e-5)[1], abs=1e-4)
    root.locator('[data-role="beta"]').fill("-3.25")
    assert num(root, "out-mean") == pytest.approx(-3.25, abs=1e-4)
    # 键盘可操作：聚焦 γ 滑块按一次右方向键，γ 增加一个步长 0.01
    root.locator('[data-role="gamma"]').focus()
    page.keyboard.press("ArrowRight")
    assert num(root, "gamma-value") == pytest.approx(2.01, abs=1e-9)
    assert num(root, "out-var") == pytest.approx(torch_stats(x, 2.01, -3.25, 1e-5)[1], abs=1e-4)
    # ε 取两端（对数刻度 10^-12 与 10^0）都给出与 torch 一致的方差
    for log_eps in ("-12", "0"):
        root.locator('[data-role="log_eps"]').fill(log_eps)
        assert num(root, "out-var") == pytest.approx(torch_stats(x, 2.01, -3.25, 10.0 ** int(log_eps))[1], abs=1e-4)
    # 预设：恒等让输出等于输入；重置回到 γ = 1、β = 0
    root.locator('[data-role="identity"]').click()
    assert num(root, "out-mean") == pytest.approx(num(root, "in-mean"), abs=1e-4)
    assert num(root, "out-var") == pytest.approx(num(root, "in-var"), abs=1e-4)
    root.locator('[data-role="reset"]').click()
    assert num(root, "out-var") == pytest.approx(torch_stats(x, 1.0, 0.0, 1.0)[1], abs=1e-4)
    assert num(root, "out-mean") == pytest.approx(0.0, abs=1e-4)
    # 每个控件都有标签；公式行把当前数字代进去了
    for control in root.locator('input[type="range"], select').all():
        cid = control.get_attribute("id")
        assert root.locator(f'label[for="{cid}"]').count() == 1, f"控件 {cid} 没有 <label>"
    assert "=" in root.locator('[data-role="formula"]').inner_text()
    assert_clean(page)


@pytest.mark.changes_page
@pytest.mark.parametrize("path", [LN_PAGE])
def test_per_feature_gamma_in_book_page(visited, path):
    page, root = visited, first_live_layer_norm(visited)
    x = page_input(root)
    root.locator('[data-role="per_feature"]').check()
    assert root.locator('[data-role="feature"]').is_visible()
    root.locator('[data-role="feature"]').select_option("3")
    root.locator('[data-role="gamma_j"]').fill("2.5")
    gamma = torch.ones_like(x)
    gamma[3] = 2.5
    y = F.layer_norm(x, (x.numel(),), gamma, torch.zeros_like(x), 1e-5)
    assert num(root, "out-var") == pytest.approx(float(y.var(unbiased=False)), abs=1e-4)
    assert "y[3]" in root.locator('[data-role="formula"]').inner_text()
    assert_clean(page)


def torch_broadcast(shape, dim, keepdim):
    """torch 自己算出的结论；页面只分三种，形状变了的静默出错（silent_shape）也算静默出错。"""
    from test_widgets import torch_outcome
    shape, status = torch_outcome(shape, dim, keepdim)
    return shape, "silent" if status == "silent_shape" else status


@pytest.mark.changes_page
@pytest.mark.parametrize("path", [DIM_PAGE])
def test_dim_keepdim_in_book_page(visited, path):
    page = visited
    roots = page.locator('[data-explorer="dim_keepdim"]')
    assert roots.count() >= 1, "页面上没有 dim/keepdim 探索器"
    root = roots.first
    data = json.loads(root.locator('script[data-role="data"]').text_content())
    checked = 0
    statuses = set()
    for index, entry in enumerate(data["shapes"]):
        root.locator('[data-role="shape"]').select_option(str(index))
        n = len(entry["shape"])
        for dim in list(range(-n, n)):
            root.locator('[data-role="dim"]').select_option(str(dim))
            for keepdim in (False, True):
                root.locator('[data-role="keepdim"]').set_checked(keepdim)
                want_shape, want_status = torch_broadcast(entry["shape"], dim, keepdim)
                shown = root.locator('[data-role="result-shape"]').inner_text()
                status = root.locator('[data-role="broadcast-status"]').get_attribute("data-status")
                where = f"shape={entry['shape']} dim={dim} keepdim={keepdim}"
                assert shown == "[" + ", ".join(map(str, want_shape)) + "]", where
                assert status == want_status, where
                statuses.add(status)
                checked += 1
    assert checked >= 3
    assert statuses == {"ok", "error", "silent"}  # 三种结局都出现过（方阵的静默错误也在内）
    assert_clean(page)


# ---------------------------------------------------------------- 不依赖构建好的书：把 text/html 输出直接放进页面
@pytest.fixture
def blank_page(browser):
    context = browser.new_context()
    page = context.new_page()
    page.console_errors = []
    page.external_requests = []
    page.on("console", lambda msg: page.console_errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda err: page.console_errors.append(f"pageerror: {err}"))

    def on_route(route):
        page.external_requests.append(route.request.url)
        route.abort()

    page.route("**/*", on_route)
    yield page
    context.close()


def test_extreme_inputs_in_page(blank_page):
    from dsx_util.widgets import dim_keepdim_explorer, layer_norm_explorer

    parts = [
        layer_norm_explorer(),
        layer_norm_explorer(torch.tensor([1.0, float("nan"), float("inf")])),
        layer_norm_explorer(torch.tensor([3.5])),
        layer_norm_explorer(torch.full((8,), 2.0)),
        layer_norm_explorer(beta=1e6),
        layer_norm_explorer(torch.randn(768)),
        dim_keepdim_explorer((5, 5), ("词元", "嵌入"), dim=-1),
    ]
    blank_page.set_content("<!doctype html><html><body>" + "".join(p._repr_html_() for p in parts) + "</body></html>")
    roots = blank_page.locator("[data-explorer]")
    assert roots.count() == len(parts)
    ids = [roots.nth(i).get_attribute("id") for i in range(roots.count())]
    assert len(set(ids)) == len(ids), "探索器的 id 重复"
    default, nan, single, const, huge, big, dims = (roots.nth(i) for i in range(len(parts)))
    # NaN/inf：中文说明，不画图
    msg = nan.locator('[data-role="message"]').inner_text()
    assert "NaN" in msg and "nan_to_num" in msg
    assert not nan.locator('[data-role="charts"]').is_visible()
    # 长度 1 与常数输入：σ² = 0，输出 = β，方差 0
    for root in (single, const):
        assert num(root, "in-var") == 0.0
        root.locator('[data-role="beta"]').fill("2")
        assert num(root, "out-mean") == pytest.approx(2.0)
        assert num(root, "out-var") == 0.0
        root.locator('[data-role="log_eps"]').fill("-12")
        assert num(root, "out-var") == 0.0
    # γ = 0：输出方差 0；巨大的 β：均值用科学计数法显示
    default.locator('[data-role="gamma"]').fill("0")
    assert num(default, "out-var") == 0.0
    assert huge.locator('[data-role="out-mean"]').inner_text() == "1.000e+06"
    # 两个探索器互不影响
    assert num(big, "out-var") == pytest.approx(1.0, abs=1e-3)
    big.locator('[data-role="gamma"]').fill("3")
    assert num(big, "out-var") == pytest.approx(9.0, abs=1e-2)
    assert num(default, "out-var") == 0.0
    # 读者自定义形状 [5, 5]，dim=-1 不保留维度：方阵情形，不报错但沿错误的维度广播
    assert dims.locator('[data-role="result-shape"]').inner_text() == "[5]"
    assert dims.locator('[data-role="broadcast-status"]').get_attribute("data-status") == "silent"
    assert_clean(blank_page)


def test_page_view_matches_kernel_view(blank_page):
    """同一个探索器：页面内视图首次计算出的文字与内核视图（torch）显示的文字一致。"""
    from dsx_util.widgets import layer_norm_explorer

    ex = layer_norm_explorer(gamma=1.7, beta=-0.4, eps=1e-3)
    blank_page.set_content("<!doctype html><html><body>" + ex._repr_html_() + "</body></html>")
    root = blank_page.locator("[data-explorer]").first
    shown = ex.shown()
    for role in ("in-mean", "in-var", "hat-mean", "hat-var", "out-mean", "out-var", "expected", "formula"):
        assert root.locator(f'[data-role="{role}"]').first.inner_text() == shown[role], role
    # 画面也相同：JS 重画出的柱子与内核视图（Python 生成的 SVG）几何一致
    kernel = ex._w["view"].value
    for chart in ("chart-x", "chart-xhat", "chart-y"):
        for cls in ("dsx-bars", "dsx-over"):
            page_d = root.locator(f'[data-role="{chart}"] .{cls}').get_attribute("d")
            svg = re.search(rf'<svg[^>]*data-role="{chart}".*?</svg>', kernel, re.S).group(0)
            kernel_d = re.search(rf'class="{cls}"[^>]*d="([^"]*)"', svg).group(1)
            assert numbers(page_d) == pytest.approx(numbers(kernel_d), abs=0.011), (chart, cls)
    assert_clean(blank_page)


def numbers(path_d):
    return [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", path_d)]


# ---------------------------------------------------------------- 画面随数字变化、窄屏、触控尺寸、暗色对比度
CONTRAST_JS = """(root) => {
  function parse(s) {
    const m = s.match(/rgba?\\(([^)]+)\\)/);
    if (!m) { return null; }
    const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
    return p.length === 3 ? p.concat([1]) : p;
  }
  function lum(c) {
    const v = c.slice(0, 3).map(x => { x /= 255; return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); });
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
  }
  function background(el) {
    for (; el; el = el.parentElement) {
      const c = parse(getComputedStyle(el).backgroundColor);
      if (c && c[3] > 0) { return c; }
    }
    return [255, 255, 255, 1];
  }
  const worst = [];
  for (const el of root.querySelectorAll("*")) {
    if (["SCRIPT", "STYLE", "OPTION"].includes(el.tagName) || !el.getClientRects().length) { continue; }
    const own = Array.from(el.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own) { continue; }
    const style = getComputedStyle(el);
    if (style.visibility === "hidden") { continue; }
    const inSvg = el instanceof SVGElement;
    const fg = parse(inSvg ? style.fill : style.color);
    const bg = background(inSvg ? el.ownerSVGElement : el);
    const a = lum(fg), b = lum(bg);
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    worst.push({ratio: ratio, text: el.textContent.trim().slice(0, 30), fg: String(fg), bg: String(bg)});
  }
  return worst;
}"""


def svg_bar_height(root, role):
    """页面上实际绘制出来的输出柱子总高度（像素，getBoundingClientRect）。"""
    return root.locator(f'[data-role="{role}"] .dsx-bars').evaluate("p => p.getBoundingClientRect().height")


@pytest.mark.changes_page
@pytest.mark.parametrize("path", [LN_PAGE])
def test_gamma_two_doubles_the_drawn_output_bars_in_the_page(visited, path):
    page = visited
    root = first_live_layer_norm(page)
    root.locator('[data-role="gamma"]').fill("1")
    y1, hat1 = svg_bar_height(root, "chart-y"), svg_bar_height(root, "chart-xhat")
    root.locator('[data-role="gamma"]').fill("2")
    y2, hat2 = svg_bar_height(root, "chart-y"), svg_bar_height(root, "chart-xhat")
    assert y1 > 20 and y1 == pytest.approx(hat1, rel=0.01)      # 共用纵轴：γ = 1 时 x̂ 与输出一样高
    assert y2 == pytest.approx(2 * y1, rel=0.01), (y1, y2)      # γ = 2：画出来的柱子两倍高
    assert hat2 == pytest.approx(hat1, rel=1e-6)                # x̂ 不变
    assert root.locator('[data-role="chart-y"] .dsx-over-note').text_content() == ""
    root.locator('[data-role="beta"]').fill("5")
    root.locator('[data-role="gamma"]').fill("3")
    assert "个超出范围" in root.locator('[data-role="chart-y"] .dsx-over-note').text_content()
    assert_clean(page)


def _phone_page(browser, width=360, scheme="light"):
    context = browser.new_context(viewport={"width": width, "height": 800}, color_scheme=scheme, locale="zh-CN")
    return context, context.new_page()


@pytest.mark.parametrize("path, kind", [(LN_PAGE, "layer_norm"), (DIM_PAGE, "dim_keepdim")])
def test_explorers_fit_a_360px_page_and_controls_are_24px(browser, site_url, path, kind):
    context, page = _phone_page(browser)
    try:
        page.goto(site_url + path)
        roots = page.locator(f'[data-explorer="{kind}"]')
        assert roots.count() >= 1
        for i in range(roots.count()):
            root = roots.nth(i)
            root.scroll_into_view_if_needed()
            if kind == "layer_norm" and root.locator('[data-role="per_feature"]').is_visible():
                root.locator('[data-role="per_feature"]').check()       # 逐特征的控件也要放得下
            sw, cw = root.evaluate("r => [r.scrollWidth, r.clientWidth]")
            assert sw <= cw, f"第 {i} 个探索器在 360 px 宽时横向溢出：scrollWidth {sw} > clientWidth {cw}"
            box = root.bounding_box()
            for control in root.locator("input, select, button").all():
                if not control.is_visible():
                    continue
                b = control.bounding_box()
                assert b["height"] >= 24 and b["width"] >= 24, f"控件太小：{control.get_attribute('data-role')} {b}"
                assert b["x"] >= box["x"] - 0.5 and b["x"] + b["width"] <= box["x"] + box["width"] + 0.5, \
                    f"控件被裁掉：{control.get_attribute('data-role')}"
    finally:
        context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path", [LN_PAGE, pytest.param(DIM_PAGE, marks=pytest.mark.changes_page)])  # 第 3 章的要换选项
def test_explorer_text_contrast_in_light_and_dark_mode(visited, path, scheme):
    page = visited
    assert page.evaluate("document.documentElement.dataset.theme") == scheme
    roots = page.locator("[data-explorer]")
    assert roots.count() >= 1
    if path == DIM_PAGE:   # 三种结论（正确、报错、静默出错）的颜色都要看
        root = roots.first
        shown = []
        for shape, dim, keep in ((0, -1, True), (0, -1, False), (2, -1, False)):
            root.locator('[data-role="shape"]').select_option(str(shape))
            root.locator('[data-role="dim"]').select_option(str(dim))
            root.locator('[data-role="keepdim"]').set_checked(keep)
            status = root.locator('[data-role="broadcast-status"]')
            shown.append((status.get_attribute("data-status"), status.evaluate("e => getComputedStyle(e).color")))
            low = [r for r in root.evaluate(CONTRAST_JS) if r["ratio"] < 4.5]
            assert not low, f"{scheme}：对比度不足 4.5:1：{low}"
        assert [s for s, _ in shown] == ["ok", "error", "silent"]
        assert len({c for _, c in shown}) == 3, f"三种结论的颜色应各不相同：{shown}"
    for i in range(roots.count()):
        low = [r for r in roots.nth(i).evaluate(CONTRAST_JS) if r["ratio"] < 4.5]
        assert not low, f"{scheme}：对比度不足 4.5:1：{low}"


def test_explorers_fit_360px_in_a_blank_page(browser):
    """不依赖构建好的书：最窄的输出区域（360 px）里两个探索器都不横向溢出。"""
    from dsx_util.widgets import dim_keepdim_explorer, layer_norm_explorer

    context, page = _phone_page(browser)
    try:
        page.set_content("<!doctype html><html><body style='margin:0'>" + layer_norm_explorer()._repr_html_()
                         + dim_keepdim_explorer()._repr_html_() + "</body></html>")
        for root in page.locator("[data-explorer]").all():
            sw, cw = root.evaluate("r => [r.scrollWidth, r.clientWidth]")
            assert sw <= cw, (sw, cw)
    finally:
        context.close()


# ---------------------------------------------------------------- 几何探索器（第 8 章）与轴探索器（第 7 章）
GEO_PAGE = "book/ch08_rmsnorm.html"
AXES_PAGE = "book/ch07_layernorm_vs_batchnorm.html"
AXES_MODES = ["ln", "bn", "rms", "ln_th", "group"]


def vec(text):
    return [float(v) for v in text.strip("()").split(",")]


def geo_shown(root, key):
    return root.locator(f'[data-role="geo-{key}"]').first.inner_text()


def drawn(root, role):
    node = root.locator(f'[data-role="{role}"]')
    return float(node.get_attribute("cx")), float(node.get_attribute("cy"))


def geo_reference(x, alpha, shift, eps):
    x = torch.tensor(x, dtype=torch.float64)
    xp = alpha * x + shift
    return {"xp": xp, "ln": F.layer_norm(xp, (3,), eps=eps), "rms": F.rms_norm(xp, (3,), eps=eps),
            "ln0": F.layer_norm(x, (3,), eps=eps), "rms0": F.rms_norm(x, (3,), eps=eps)}


def assert_geo_page_matches_torch(root, x, alpha, shift, eps):
    ref = geo_reference(x, alpha, shift, eps)
    assert vec(geo_shown(root, "xp")) == pytest.approx(ref["xp"].tolist(), abs=1e-4)
    assert float(geo_shown(root, "mu")) == pytest.approx(float(ref["xp"].mean()), abs=1e-4)
    assert vec(geo_shown(root, "ln")) == pytest.approx(ref["ln"].tolist(), abs=1e-4)
    assert float(geo_shown(root, "ln-len")) == pytest.approx(float(ref["ln"].norm()), abs=1e-4)
    assert vec(geo_shown(root, "rms-out")) == pytest.approx(ref["rms"].tolist(), abs=1e-4)
    assert float(geo_shown(root, "ln-diff")) == pytest.approx(float((ref["ln"] - ref["ln0"]).abs().max()), abs=1e-4)
    assert float(geo_shown(root, "rms-diff")) == pytest.approx(float((ref["rms"] - ref["rms0"]).abs().max()), abs=1e-4)


def slider_values(root):
    return [float(root.locator(f'[data-role="{k}"]').input_value()) for k in ("x1", "x2", "x3")]


@pytest.mark.changes_page
@pytest.mark.parametrize("path", [GEO_PAGE])
def test_geometry_explorer_in_book_page(visited, path):
    roots = visited.locator('[data-explorer="norm_geometry"]')
    assert roots.count() == 1, "第 8 章应当有一个几何探索器"
    page, root = visited, roots.first
    x = slider_values(root)
    assert_geo_page_matches_torch(root, x, 1.0, 0.0, 1e-5)
    # 第一个控件（x₁ 滑块）一动，画面就变：两张图上的 x′ 和两个输出都移动
    before = {r: drawn(root, r) for r in ("ln-x", "ln-out", "rms-x", "rms-out")}
    root.locator('[data-role="x1"]').fill("-1.5")
    x[0] = -1.5
    after = {r: drawn(root, r) for r in before}
    assert all(before[r] != after[r] for r in before), (before, after)
    assert after["ln-x"] == after["rms-x"]
    assert_geo_page_matches_torch(root, x, 1.0, 0.0, 1e-5)
    # α、c：LN 的输出不动（LN(αx + c·1) = LN(x)），RMSNorm 的输出只在平移时移动
    root.locator('[data-role="alpha"]').fill("2.5")
    assert drawn(root, "ln-out") == pytest.approx(after["ln-out"], abs=0.011)
    assert drawn(root, "rms-out") == pytest.approx(after["rms-out"], abs=0.011)
    assert drawn(root, "ln-x") != after["ln-x"]
    root.locator('[data-role="shift"]').fill("1.5")
    assert drawn(root, "ln-out") == pytest.approx(after["ln-out"], abs=0.011)
    assert drawn(root, "rms-out") != pytest.approx(after["rms-out"], abs=1.0)
    assert float(geo_shown(root, "ln-diff")) < 1e-4 and float(geo_shown(root, "rms-diff")) > 0.1
    assert_geo_page_matches_torch(root, x, 2.5, 1.5, 1e-5)
    # ε：x 接近 c·1 时，ε 越大 LN 的输出越短（缩向原点），画出来的点也离原点越来越近
    root.locator('[data-role="near"]').click()
    near = slider_values(root)
    assert max(abs(2.5 * v + 1.5 - 1.5) for v in near) <= 0.13, near   # x′ = αx + c·1 接近 c·1，c 是滑块上的 1.5
    cx, cy = 125.0, 122.0
    lengths, radii = [], []
    for log_eps in ("-6", "-3", "-2", "-1", "0"):
        root.locator('[data-role="log_eps"]').fill(log_eps)
        assert_geo_page_matches_torch(root, near, 2.5, 1.5, 10.0 ** int(log_eps))   # 按钮不改 α 与 c
        lengths.append(float(geo_shown(root, "ln-len")))
        px, py = drawn(root, "ln-out")
        radii.append(abs(px - cx) + abs(py - cy))
    assert lengths[0] == pytest.approx(3 ** 0.5, abs=1e-2)
    assert all(a > b for a, b in zip(lengths, lengths[1:])) and all(a > b for a, b in zip(radii, radii[1:]))
    # 在图里拖动 x′：x₁、x₂、x₃ 的滑块跟着变，数字仍与 torch 一致
    root.locator('[data-role="reset"]').click()
    start = slider_values(root)
    handle = root.locator('[data-role="ln-handle"]')
    handle.scroll_into_view_if_needed()
    box = handle.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 - 40, box["y"] + box["height"] / 2 + 30, steps=5)
    page.mouse.up()
    moved = slider_values(root)
    assert moved != start
    assert_geo_page_matches_torch(root, moved, 1.0, 0.0, 1e-5)
    for control in root.locator('input[type="range"]').all():
        assert root.locator(f'label[for="{control.get_attribute("id")}"]').count() == 1
    assert_clean(page)


def axes_reference(x, mode):
    b_, t_, h_ = x.shape
    if mode == "ln":
        return F.layer_norm(x, (h_,), eps=1e-5)
    if mode == "bn":
        return F.batch_norm(x.reshape(-1, h_), None, None, training=True, eps=1e-5).reshape(x.shape)
    if mode == "rms":
        return F.rms_norm(x, (h_,), eps=1e-5)
    if mode == "ln_th":
        return F.layer_norm(x, (t_, h_), eps=1e-5)
    return F.group_norm(x.transpose(1, 2), h_ // 2, eps=1e-5).transpose(1, 2)   # nn.GroupNorm：[B, C=H, L=T]，每组 2 个通道


GROUP_KEY = {"ln": lambda b, t, h: (b, t), "bn": lambda b, t, h: (h,), "rms": lambda b, t, h: (b, t),
             "ln_th": lambda b, t, h: (b,), "group": lambda b, t, h: (b, h // 2)}
DIM_LINE = {"ln": "x.mean(dim=-1, keepdim=True)", "bn": "x.mean(dim=(0, 1), keepdim=True)",
            "rms": "x.pow(2).mean(dim=-1, keepdim=True)", "ln_th": "x.mean(dim=(1, 2), keepdim=True)",
            "group": "g.mean(dim=(1, 3), keepdim=True)"}

CELLS_JS = """(root) => Array.from(root.querySelectorAll('[data-role="out-cell"]')).map((td, i) => {
  const inp = root.querySelectorAll('[data-role="in-cell"]')[i];
  return {b: +td.dataset.b, t: +td.dataset.t, h: +td.dataset.h, g: +td.dataset.g, gin: +inp.dataset.g,
          x: parseFloat(inp.textContent), y: parseFloat(td.textContent),
          bg: getComputedStyle(td).backgroundColor, bgin: getComputedStyle(inp).backgroundColor};
})"""


@pytest.mark.changes_page
@pytest.mark.parametrize("path", [AXES_PAGE])
def test_axes_explorer_groups_numbers_and_code_in_book_page(visited, path):
    page = visited
    roots = page.locator('[data-explorer="norm_axes"]')
    assert roots.count() == 1, "第 7 章应当有一个轴探索器"
    root = roots.first
    data = json.loads(root.locator('script[data-role="data"]').text_content())
    x = torch.tensor(data["x"], dtype=torch.float64)
    first_cells = root.evaluate(CELLS_JS)
    for mode in AXES_MODES:
        root.locator('[data-role="mode"]').select_option(mode)
        cells = root.evaluate(CELLS_JS)
        assert len(cells) == x.numel()
        # 共用一组统计量的格子（同一组号）正是这种方式定义的那些格子，颜色也一样；不同组颜色不同
        keys = [GROUP_KEY[mode](c["b"], c["t"], c["h"]) for c in cells]
        for i, a in enumerate(cells):
            assert a["g"] == a["gin"] and a["bg"] == a["bgin"]
            for j, b in enumerate(cells):
                assert (a["g"] == b["g"]) == (keys[i] == keys[j]), (mode, a, b)
                assert (a["bg"] == b["bg"]) == (keys[i] == keys[j]), (mode, a["bg"], b["bg"])
        # 数字与 torch 自带的归一化一致
        y = axes_reference(x, mode)
        assert [c["x"] for c in cells] == x.flatten().tolist()
        assert [c["y"] for c in cells] == pytest.approx(y.flatten().tolist(), abs=6e-4), mode
        # 显示的代码就是这种方式的 dim= 写法；组数写对了
        assert DIM_LINE[mode] in root.locator('[data-role="code"]').inner_text()
        assert f"共 {len(set(keys))} 组" in root.locator('[data-role="groups"]').inner_text()
    # 换回层归一化：与刚打开页面时完全相同
    root.locator('[data-role="mode"]').select_option("ln")
    assert root.evaluate(CELLS_JS) == first_cells
    assert_clean(page)


def test_new_explorers_page_view_matches_kernel_view(blank_page):
    """同一个探索器：页面内视图（JS）算出的文字和画出的坐标，与内核视图（torch + Python 生成的 SVG）相同。"""
    from dsx_util.widgets import norm_axes_explorer, norm_geometry_explorer

    geo = norm_geometry_explorer([-0.8, 2.2, 1.1], alpha=1.7, shift=-0.6, eps=3e-2)
    axes = norm_axes_explorer(mode="group")
    blank_page.set_content("<!doctype html><html><body>" + geo._repr_html_() + axes._repr_html_() + "</body></html>")
    root = blank_page.locator('[data-explorer="norm_geometry"]')
    shown, kernel = geo.shown(), geo._w["view"].value
    for key in ("xp", "mu", "v", "vsum", "var", "ln", "ln-len", "rms", "rms-out", "rms-len", "ln-diff", "rms-diff",
                "eps", "vlen", "eps-len"):
        page_text = geo_shown(root, key)
        if page_text != shown[f"geo-{key}"]:      # 末位的舍入可能不同（JS 与 Python 的十进制舍入）
            assert vec(page_text) == pytest.approx(vec(shown[f"geo-{key}"]), abs=1.1e-4), key
    for role in ("ln-x", "ln-mu", "ln-v", "ln-out", "ln-ghost", "rms-x", "rms-out", "rms-ghost"):
        m = re.search(rf'data-role="{role}" cx="([-\d.]+)" cy="([-\d.]+)"', kernel)
        assert drawn(root, role) == pytest.approx((float(m.group(1)), float(m.group(2))), abs=0.011), role
    for role in ("ln-proj", "ln-ray", "rms-ray", "ln-mu-line"):
        page_d = root.locator(f'[data-role="{role}"]').get_attribute("d")
        kernel_d = re.search(rf'data-role="{role}" d="([^"]*)"', kernel).group(1)
        assert numbers(page_d) == pytest.approx(numbers(kernel_d), abs=0.011), role
    for role in ("ln-x-label", "ln-mu-label", "ln-out-label", "rms-x-label", "rms-out-label"):   # 标签放在同一个位置
        m = re.search(rf'data-role="{role}" x="([-\d.]+)" y="([-\d.]+)" visibility="(\w+)"', kernel)
        mine = root.locator(f'[data-role="{role}"]')
        assert (float(mine.get_attribute("x")), float(mine.get_attribute("y"))) == pytest.approx(
            (float(m.group(1)), float(m.group(2))), abs=0.011), role
        assert mine.get_attribute("visibility") == m.group(3), role
    aroot = blank_page.locator('[data-explorer="norm_axes"]')
    for mode in AXES_MODES:
        axes.set(mode=mode)
        aroot.locator('[data-role="mode"]').select_option(mode)
        kshown = axes.shown()
        cells = aroot.evaluate(CELLS_JS)
        assert [(c["g"], c["x"]) for c in cells] == [(g, a) for g, a, _ in kshown["cells"]]
        assert [c["y"] for c in cells] == pytest.approx([b for _, _, b in kshown["cells"]], abs=1.1e-3)
        for role in ("code", "groups", "first", "check"):
            assert aroot.locator(f'[data-role="{role}"]').inner_text() == kshown[role], (mode, role)
    assert_clean(blank_page)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path, kind", [(GEO_PAGE, "norm_geometry"), (AXES_PAGE, "norm_axes"),
                                        ("book/ch13_trained_model.html", "activations")])
@pytest.mark.parametrize("width", [390])
@pytest.mark.changes_page
def test_new_explorers_fit_390px_readable_in_light_and_dark(visited, path, kind, width, scheme):
    """390 px 宽的手机：页面不横向滚动，探索器不溢出，控件至少 24 px，文字对比度 ≥ 4.5:1（轴探索器的每种组色都看）。"""
    page = visited
    assert page.evaluate("document.documentElement.dataset.theme") == scheme
    root = page.locator(f'[data-explorer="{kind}"]').first
    root.scroll_into_view_if_needed()
    modes = AXES_MODES if kind == "norm_axes" else ["0", "4", "8"] if kind == "activations" else [None]
    for mode in modes:
        if mode and kind == "activations":          # 浅、中、深几个层都看一遍
            root.locator('[data-role="layer"]').select_option(mode)
        elif mode:
            root.locator('[data-role="mode"]').select_option(mode)
        sw, cw = root.evaluate("r => [r.scrollWidth, r.clientWidth]")
        assert sw <= cw, f"{kind} 在 390 px 宽时横向溢出：{sw} > {cw}"
        assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth"), "页面出现横向滚动"
        low = [r for r in root.evaluate(CONTRAST_JS) if r["ratio"] < 4.5]
        assert not low, f"{scheme} {mode}：对比度不足 4.5:1：{low}"
    box = root.bounding_box()
    for control in root.locator("input, select, button").all():
        b = control.bounding_box()
        assert b["height"] >= 24 and b["width"] >= 24, f"控件太小：{control.get_attribute('data-role')} {b}"
        assert b["x"] >= box["x"] - 0.5 and b["x"] + b["width"] <= box["x"] + box["width"] + 0.5
    for svg in root.locator("svg").all():            # 几何图整张放得下（手机上两张图在横向滑动的框里：滑到它），文字不小于 9 px
        svg.evaluate("s => s.scrollIntoView({block: 'nearest', inline: 'start'})")
        page.wait_for_timeout(50)
        b = svg.bounding_box()
        assert b["x"] >= box["x"] - 0.5 and b["x"] + b["width"] <= box["x"] + box["width"] + 0.5
        smallest = svg.evaluate("s => Math.min(...Array.from(s.querySelectorAll('text')).map("
                                "t => t.getBoundingClientRect().height).filter(h => h > 0))")
        assert smallest >= 9, f"图里的文字太小：{smallest:.1f} px"


# ---------------------------------------------------------------- JupyterLab：真的运行探索器单元格（内核 + ipywidgets）
def run_until_shown(page, cell, control, timeout):
    """在 JupyterLab 里运行 cell，直到 control 出现。内核刚启动时按键可能落空：没出现就再运行一次，最多三次。"""
    cell.wait_for(timeout=60_000)
    for _ in range(3):
        page.wait_for_timeout(3000)
        cell.scroll_into_view_if_needed()
        cell.locator(".jp-InputArea-editor").click()
        page.keyboard.press("Shift+Enter")
        try:
            control.wait_for(timeout=timeout)
            return
        except Exception:  # noqa: BLE001  Playwright 的超时
            continue


def test_geometry_explorer_runs_in_jupyterlab(browser, jupyter_lab):  # noqa: F811  夹具
    """在 JupyterLab 里打开第 8 章的读者版，运行几何探索器那一格：出现 ipywidgets 滑块和图；
    用键盘拨动第一个滑块（x₁），内核重算，图里的 x′ 移动、显示的数字与 torch 一致。截图存到 _build/screenshots/。"""
    from conftest import ROOT

    context, page = lab_page(browser, jupyter_lab, "ch08_rmsnorm.ipynb")
    try:
        cell = page.locator(".jp-CodeCell", has_text="norm_geometry_explorer()").first
        slider = cell.locator(".widget-slider").first
        run_until_shown(page, cell, slider, 60_000)
        slider.wait_for(timeout=1_000)
        view = cell.locator('svg[data-role="chart-ln"]')
        view.wait_for(timeout=30_000)
        point = cell.locator('[data-role="ln-x"]')
        before = point.get_attribute("cx"), point.get_attribute("cy")
        x = [float(v) for v in cell.locator('[data-role="geo-xp"]').first.inner_text().strip("()").split(",")]
        handle = cell.locator(".widget-slider").first.locator(".noUi-handle, .ui-slider-handle").first
        handle.focus()
        for _ in range(10):                          # 10 个步长 0.05：x₁ 减少 0.5
            page.keyboard.press("ArrowLeft")
        # 内核每次重算都换掉整段 HTML，所以每次重新查找这个点
        page.wait_for_function("(cx) => { const p = document.querySelector('.jp-OutputArea [data-role=\"ln-x\"]');"
                               " return p && p.getAttribute('cx') !== cx; }", arg=before[0], timeout=30_000)
        page.wait_for_timeout(1000)                  # 等最后一次按键的结果回来
        shown = [float(v) for v in cell.locator('[data-role="geo-xp"]').first.inner_text().strip("()").split(",")]
        assert shown[0] == pytest.approx(x[0] - 0.5, abs=1e-9) and shown[1:] == x[1:]
        ln = F.layer_norm(torch.tensor(shown, dtype=torch.float64), (3,), eps=1e-5)
        assert vec(cell.locator('[data-role="geo-ln"]').first.inner_text()) == pytest.approx(ln.tolist(), abs=1e-4)
        out = ROOT / "_build" / "screenshots"
        out.mkdir(parents=True, exist_ok=True)
        cell.screenshot(path=str(out / "jupyterlab-ch08-geometry-explorer.png"))
    finally:
        context.close()


# ---------------------------------------------------------------- 第 8 章几何探索器：标签、按钮、手机上的布局
LABEL_BOXES_JS = """root => Array.from(root.querySelectorAll('svg.dsx-geo')).map(svg => {
    const frame = svg.getBoundingClientRect();
    return Array.from(svg.querySelectorAll('text')).filter(t => t.textContent.trim() &&
        getComputedStyle(t).visibility !== 'hidden').map(t => {
        const r = t.getBoundingClientRect();
        return {text: t.textContent, box: [r.left - frame.left, r.top - frame.top, r.right - frame.left, r.bottom - frame.top]};
    });
})"""


@pytest.mark.parametrize("width", [1280, 390])
def test_geometry_labels_never_overlap_while_sliders_move(browser, site_url, width):
    """拖动 x₁、x₂、x₃、α、c 的一组组合：每张图里所有看得见的文字（实际排版出的外框）两两不重叠。"""
    context, page = _phone_page(browser, width=width)
    try:
        page.goto(site_url + GEO_PAGE)
        root = page.locator('[data-explorer="norm_geometry"]').first
        checked = 0
        for x in (("2", "1", "0.5"), ("1.05", "1", "0.95"), ("0", "0", "0"), ("-2", "1.5", "0.5"), ("3", "-3", "0"),
                  ("0.3", "0.2", "0.1"), ("-1", "-1", "-1.1"), ("1", "-0.5", "-0.5")):
            for alpha, shift in (("1", "0"), ("0.5", "1"), ("2", "-1"), ("1", "2")):
                for role, value in zip(("x1", "x2", "x3", "alpha", "shift"), (*x, alpha, shift)):
                    root.locator(f'[data-role="{role}"]').fill(value)
                for labels in root.evaluate(LABEL_BOXES_JS):
                    assert len(labels) >= 6
                    for a, b in itertools.combinations(labels, 2):
                        w = min(a["box"][2], b["box"][2]) - max(a["box"][0], b["box"][0])
                        h = min(a["box"][3], b["box"][3]) - max(a["box"][1], b["box"][1])
                        assert w <= 0.5 or h <= 0.5, (x, alpha, shift, a, b)
                    checked += 1
        assert checked == 8 * 4 * 2
    finally:
        context.close()


def test_near_button_does_what_it_says_for_every_c_in_the_page(browser, site_url):
    """「让 x′ 接近 c·1」：按下后 x′ = αx + c·1 的每个分量离 c 不超过 0.05·α，x′ 在画面里（没有「x′ 在画面外」）；
    α 不变，c 只在 c·1 出了画面时移到 ±max_shift（与 Python 的 preset 相同）。"""
    from dsx_util.widgets.spec import NORM_GEOMETRY_SPEC
    m = NORM_GEOMETRY_SPEC["presets"]["near"]["max_shift"]
    context, page = _phone_page(browser, width=1280)
    try:
        page.goto(site_url + GEO_PAGE)
        root = page.locator('[data-explorer="norm_geometry"]').first
        root.locator('[data-role="alpha"]').fill("1.5")
        for c in ("-3", "-2.5", "-1.5", "-0.5", "0", "0.5", "1", "2.25", "3"):
            root.locator('[data-role="shift"]').fill(c)
            root.locator('[data-role="near"]').click()
            x = slider_values(root)
            shift = float(root.locator('[data-role="shift"]').input_value())
            assert shift == pytest.approx(max(-m, min(m, float(c)))), (c, shift)
            assert float(root.locator('[data-role="alpha"]').input_value()) == 1.5
            xp = [1.5 * v + shift for v in x]
            assert max(abs(v - shift) for v in xp) <= 0.05 * 1.5 + 1e-9, (c, xp)
            assert float(geo_shown(root, "vlen")) < 0.2
            assert not root.locator('[data-role="ln-outside"]').is_visible(), c
            px, py = drawn(root, "ln-x")
            assert 0 <= px <= 250 and 0 <= py <= 236, (c, px, py)
    finally:
        context.close()


def test_phone_keeps_one_picture_and_its_sliders_in_view(browser, site_url):
    """390 × 844 的手机：一张几何图与全部滑块同时在屏幕里；横向滑动换成另一张图，滑块仍在；说明「左右滑动」看得见。"""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                  locale="zh-CN")
    try:
        page = context.new_page()
        page.goto(site_url + GEO_PAGE)
        root = page.locator('[data-explorer="norm_geometry"]').first
        charts = root.locator('[data-role="charts"]')
        charts.evaluate("c => c.scrollIntoView({block: 'start'})")
        page.wait_for_timeout(100)
        assert root.locator(".dsx-swipe-hint").is_visible()
        for role in ("chart-ln", "chart-rms"):
            root.locator(f'[data-role="{role}"]').evaluate("s => s.scrollIntoView({block: 'nearest', inline: 'start'})")
            page.wait_for_timeout(100)
            boxes = [root.locator(f'[data-role="{role}"]').bounding_box()]
            boxes += [root.locator(f'input[data-role="{n}"]').bounding_box()
                      for n in ("x1", "x2", "x3", "alpha", "shift", "log_eps")]
            top, bottom = min(b["y"] for b in boxes), max(b["y"] + b["height"] for b in boxes)
            assert top >= -0.5 and bottom <= 844.5, (role, top, bottom)
            assert all(b["x"] >= -0.5 and b["x"] + b["width"] <= 390.5 for b in boxes), (role, boxes)
    finally:
        context.close()


# ---------------------------------------------------------------- 真实激活值探索器（第 13 章）
ACT_ROLES = ("act-mu", "act-var", "act-sigma", "act-lo", "act-hi", "act-med", "act-ratio", "act-j", "act-xj", "act-hj",
             "act-gj", "act-bj", "act-yj", "act-y-mean", "act-y-var", "act-slope")


def act_page_matches_kernel(root, ex):
    """页面内视图（JS）显示的文字、散点与柱子，与同一层、同一词元的内核视图（torch + Python 生成的 SVG）相同。"""
    shown, kernel = ex.shown(), ex._w["view"].value
    for role in ACT_ROLES:
        page_text = root.locator(f'[data-role="{role}"]').first.inner_text()
        if page_text != shown[role]:              # 末位的舍入可能不同（JS 与 torch 的求和顺序）
            assert float(page_text) == pytest.approx(float(shown[role]), abs=1.1e-4), role
    for role in ("scatter-all", "scatter-sel"):   # 对齐到 0.5 的整数运算：两边逐字相同
        kernel_d = re.search(rf'data-role="{role}" d="([^"]*)"', kernel).group(1)
        assert root.locator(f'[data-role="{role}"]').get_attribute("d") == kernel_d, role
    kernel_line = re.search(r'data-role="scatter-line" d="([^"]*)"', kernel).group(1)
    assert numbers(root.locator('[data-role="scatter-line"]').get_attribute("d")) == pytest.approx(numbers(kernel_line), abs=0.011)
    for chart in ("chart-x", "chart-xhat", "chart-y"):
        svg = re.search(rf'<svg[^>]*data-role="{chart}".*?</svg>', kernel, re.S).group(0)
        for cls in ("dsx-bars", "dsx-sel", "dsx-over", "dsx-hi"):
            page_node = root.locator(f'[data-role="{chart}"] .{cls}')
            if cls == "dsx-hi":
                assert page_node.text_content() == re.search(r'class="dsx-hi"[^>]*>([^<]*)<', svg).group(1)
                continue
            kernel_d = re.search(rf'class="{cls}"[^>]*d="([^"]*)"', svg).group(1)
            assert numbers(page_node.get_attribute("d")) == pytest.approx(numbers(kernel_d), abs=0.011), (chart, cls)
    selected = root.evaluate("r => Array.from(r.querySelectorAll('.dsx-tok-sel')).map(e => e.dataset.t)")
    assert selected == re.findall(r'dsx-tok-sel" data-t="(\d+)"', kernel)


def test_activation_explorer_page_view_matches_kernel_view(blank_page):
    from test_widgets import TINY_TEXT, tiny_data
    from dsx_util.widgets import activation_explorer
    from dsx_util.widgets.activation_explorer import unpack

    _, _, data = tiny_data()
    ex = activation_explorer(data, layer=1, token=4)
    blank_page.set_content("<!doctype html><html><head><meta charset='utf-8'></head><body>" + ex._repr_html_()
                           + "</body></html>")
    root = blank_page.locator('[data-explorer="activations"]')
    # 解码：JS 从 base64 读出的每个数与 Python 的完全相同
    for L in data["layers"]:
        page_x = blank_page.evaluate("p => Array.from(window.DSXExplorers.unpack(p))", L["x"])
        assert page_x == unpack(L["x"])
    act_page_matches_kernel(root, ex)
    # 换层、换词元（下拉菜单、上一个/下一个按钮、点句子里的字）：每一步都与内核视图一致
    for layer, token in ((0, 0), (4, 19), (2, 7)):
        root.locator('[data-role="layer"]').select_option(str(layer))
        root.locator('[data-role="token"]').select_option(str(token))
        ex.set(layer=layer, token=token)
        act_page_matches_kernel(root, ex)
    root.locator('[data-role="next"]').click()
    ex.set(token=8)
    act_page_matches_kernel(root, ex)
    root.locator('[data-role="prev"]').click()
    root.locator('[data-role="prev"]').click()
    ex.set(token=6)
    act_page_matches_kernel(root, ex)
    root.locator('.dsx-tok[data-t="12"]').click()
    assert root.locator('[data-role="token"]').input_value() == "12"
    ex.set(token=12)
    act_page_matches_kernel(root, ex)
    root.locator('[data-role="token"]').select_option("0")
    root.locator('[data-role="prev"]').click()              # 从第一个往前：绕到最后一个
    assert root.locator('[data-role="token"]').input_value() == str(len(TINY_TEXT) - 1)
    for control in root.locator("select").all():
        assert root.locator(f'label[for="{control.get_attribute("id")}"]').count() == 1
    assert_clean(blank_page)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_activation_explorer_fits_390px_and_is_readable_in_a_blank_page(browser, scheme):
    """不依赖构建好的书：390 px 宽、亮色与暗色下不横向溢出，控件至少 24 px，文字对比度 ≥ 4.5:1。"""
    from test_widgets import tiny_data
    from dsx_util.widgets import activation_explorer

    context, page = _phone_page(browser, width=390, scheme=scheme)
    try:
        theme = "dark" if scheme == "dark" else "light"
        page.set_content(f"<!doctype html><html data-theme='{theme}'><head><meta charset='utf-8'></head>"
                         "<body style='margin:0'>" + activation_explorer(tiny_data()[2])._repr_html_() + "</body></html>")
        root = page.locator('[data-explorer="activations"]')
        sw, cw = root.evaluate("r => [r.scrollWidth, r.clientWidth]")
        assert sw <= cw, (sw, cw)
        assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
        low = [r for r in root.evaluate(CONTRAST_JS) if r["ratio"] < 4.5]
        assert not low, f"{scheme}：对比度不足 4.5:1：{low}"
        for control in root.locator("input, select, button").all():
            b = control.bounding_box()
            assert b["height"] >= 24 and b["width"] >= 24, f"控件太小：{control.get_attribute('data-role')} {b}"
    finally:
        context.close()


ACT_PAGE = "book/ch13_trained_model.html"


@pytest.mark.changes_page
@pytest.mark.parametrize("path", [ACT_PAGE])
def test_activation_explorer_in_book_page_shows_the_shipped_model(visited, path):
    """第 13 章：一个真实激活值探索器；数据就是参考模型（包里的检查点）读验证集里那句话时各层归一化的输入，
    换层、换词元后显示的数与 torch 用同样的数据算出的相同。"""
    from dsx_util.reference_model import load_reference_model, training_text, validation_text
    from dsx_util.widgets.activation_explorer import unpack
    from test_widgets import act_reference

    page = visited
    roots = page.locator('[data-explorer="activations"]')
    assert roots.count() == 1, "第 13 章应当有一个真实激活值探索器"
    root = roots.first
    data = json.loads(root.locator('script[data-role="data"]').text_content())
    sentence = "".join(data["tokens"])
    assert sentence in validation_text() and sentence not in training_text(), "句子应取自验证集、训练集里没有"
    model, tok = load_reference_model()
    ids = torch.tensor([tok.encode(sentence)])
    names = [n for n, m in model.named_modules() if n.endswith(("norm1", "norm2", "final_norm"))]
    assert len(data["layers"]) == len(names) == 9
    for offset, m in ((0, model),):   # 各层的输入逐个核对（训练后的模型；初始化时的模型只在笔记本里按注释加上）
        seen = {}
        mods = dict(m.named_modules())
        handles = [mods[n].register_forward_hook(lambda _m, i, o, n=n: seen.__setitem__(n, i[0][0].double()))
                   for n in names]
        with torch.no_grad():
            m(ids)
        for h in handles:
            h.remove()
        for k, n in enumerate(names):
            L = data["layers"][offset + k]
            x = torch.tensor(unpack(L["x"]), dtype=torch.float64).reshape(seen[n].shape)
            assert (x - seen[n]).abs().max() <= L["x"]["s"] * 0.5 + 1e-6, (offset, n)
            g = mods[n].scale.detach().double()
            assert (torch.tensor(unpack(L["gamma"]), dtype=torch.float64) - g).abs().max() <= L["gamma"]["s"] * 0.5 + 1e-9
    # 换层、换词元：显示的数与 torch 一致（数据取自页面本身）
    page_data = {"h": data["h"], "layers": [dict(L, name=str(i)) for i, L in enumerate(data["layers"])]}
    for layer, token in ((8, 3), (0, 0), (7, len(data["tokens"]) - 1), (4, 10)):
        root.locator('[data-role="layer"]').select_option(str(layer))
        root.locator('[data-role="token"]').select_option(str(token))
        x, y, sig, g, _ = act_reference(page_data, layer, token)
        assert num(root, "act-sigma") == pytest.approx(float(sig[token]), abs=1e-4)
        assert num(root, "act-mu") == pytest.approx(float(x.mean()), abs=1e-4)
        assert num(root, "act-y-var") == pytest.approx(float(y.var(unbiased=False)), abs=1e-4)
        j = int(x.abs().argmax())
        assert int(num(root, "act-j")) == j and num(root, "act-yj") == pytest.approx(float(y[j]), abs=1e-4)
        assert num(root, "act-hi") == pytest.approx(float(sig.max()), abs=1e-4)
    # 网页轻：探索器（含数据、脚本与样式）不超过 300 KB，整页 HTML 不超过 1 MB（整页的冷加载由 bench/bench_pages.py 测）
    assert len(root.evaluate("r => r.outerHTML").encode("utf-8")) <= 300_000
    from conftest import html_dir
    assert (html_dir() / ACT_PAGE).stat().st_size <= 1_000_000
    assert_clean(page)


def test_activation_explorer_runs_in_jupyterlab(browser, jupyter_lab):  # noqa: F811  夹具
    """在 JupyterLab 里打开第 13 章的读者版，运行探索器那一格（它自己载入模型）：出现 ipywidgets 下拉菜单和散点图；
    换一个词元，内核重算，显示的 σ 与 torch 一致。截图存到 _build/screenshots/。"""
    from conftest import ROOT
    from dsx_util.reference_model import load_reference_model

    context, page = lab_page(browser, jupyter_lab, "ch13_trained_model.ipynb")
    try:
        cell = page.locator(".jp-CodeCell", has_text="activation_explorer(data").first
        select = cell.locator(".widget-dropdown select")
        run_until_shown(page, cell, select.first, 90_000)
        cell.locator('svg[data-role="chart-scatter"]').wait_for(timeout=30_000)
        assert select.count() == 2
        before = cell.locator('[data-role="act-sigma"]').first.inner_text()
        select.nth(1).select_option(index=2)         # 第 2 个词元
        page.wait_for_function("(s) => { const e = document.querySelector('.jp-OutputArea [data-role=\"act-sigma\"]');"
                               " return e && e.textContent !== s; }", arg=before, timeout=30_000)
        model, tok = load_reference_model()
        sentence = "".join(e.inner_text() for e in cell.locator(".dsx-tok").all())
        seen = {}
        h = model.final_norm.register_forward_hook(lambda _m, i, o: seen.__setitem__("x", i[0][0, 2].double()))
        with torch.no_grad():
            model(torch.tensor([tok.encode(sentence)]))
        h.remove()
        want = float(torch.sqrt(seen["x"].var(unbiased=False) + model.final_norm.eps))
        assert float(cell.locator('[data-role="act-sigma"]').first.inner_text()) == pytest.approx(want, abs=2e-3)
        out = ROOT / "_build" / "screenshots"
        out.mkdir(parents=True, exist_ok=True)
        cell.screenshot(path=str(out / "jupyterlab-ch13-activation-explorer.png"))
    finally:
        context.close()
