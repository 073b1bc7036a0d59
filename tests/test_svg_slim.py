"""构建时变小的插图（dsx_book/svg_slim.py）：每个点的位置不变，在 Chromium 里看起来与原图相同，书里的图都已变小。"""
import io
import random
import re
import subprocess
import sys

import pytest

from conftest import ROOT, html_dir

from dsx_book.svg_slim import slim_path, slim_svg

RELATIVE = re.compile(r"[mlhvcqz]|-?(?:\d+\.?\d*|\.\d+)")
ARGS = {"m": 2, "l": 2, "h": 1, "v": 1, "c": 6, "q": 4, "z": 0}


def absolute_points(d):
    """把 slim_path 写出的相对路径读回绝对坐标：[(命令, [x1, y1, ...])]，独立于被测代码的写法。"""
    tokens = RELATIVE.findall(d)
    out, x, y, sx, sy, command, i = [], 0.0, 0.0, 0.0, 0.0, None, 0
    while i < len(tokens):
        if tokens[i] in ARGS:
            command = tokens[i]
            i += 1
            if command == "z":
                out.append(("Z", []))
                x, y = sx, sy
                continue
        n = ARGS[command]
        values = [float(t) for t in tokens[i:i + n]]
        i += n
        if command == "h":
            x += values[0]
            out.append(("L", [x, y]))
        elif command == "v":
            y += values[0]
            out.append(("L", [x, y]))
        else:
            points = [values[k] + (x if k % 2 == 0 else y) for k in range(n)]
            out.append(({"m": "M", "l": "L", "c": "C", "q": "Q"}[command], points))
            x, y = points[-2], points[-1]
            if command == "m":
                sx, sy = x, y
                command = "l"          # m 之后省略命令字母的坐标对是 l
    return out


def matplotlib_path(rng, n):
    parts = []
    for _ in range(n):
        kind = rng.choice("MLLLCQZ")
        count = {"M": 2, "L": 2, "C": 6, "Q": 4, "Z": 0}[kind]
        coords = [rng.choice([rng.uniform(-500, 500), float(rng.randint(0, 400)), 0.0]) for _ in range(count)]
        parts.append(kind if kind == "Z" else kind + " " + " ".join(f"{c:.6f}" for c in coords))
    return "M 1 2 \n" + " \n".join(parts).replace("Z", "z")


def test_slim_path_keeps_every_point():
    rng = random.Random(7)
    for _ in range(200):
        d = matplotlib_path(rng, rng.randint(1, 30))
        expected = []
        tokens = re.findall(r"[MLCQz]|[-\d.]+", d)
        i = 0
        while i < len(tokens):
            kind = tokens[i].upper()
            n = {"M": 2, "L": 2, "C": 6, "Q": 4, "Z": 0}[kind]
            expected.append((kind, [float(t) for t in tokens[i + 1:i + 1 + n]]))
            i += 1 + n
        got = absolute_points(slim_path(d))
        assert [k for k, _ in got] == [k for k, _ in expected], d
        for (_, a), (_, b) in zip(got, expected):
            assert all(abs(p - q) <= 0.0051 for p, q in zip(a, b)), (d, a, b)


def test_slim_path_leaves_unknown_paths_alone():
    assert slim_path("M 0 0 A 5 5 0 0 1 10 10") == "M 0 0 A 5 5 0 0 1 10 10"
    assert slim_path("m 0 0 l 1 1") == "m 0 0 l 1 1"


FIGURE = r"""
import sys, numpy as np, matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import dsx_util
dsx_util.use_cjk_font()
TRICKY = sys.argv[1] == "tricky"     # 书里的图用不到、但 matplotlib 会写的东西：图案填充、渐变
x = np.linspace(0, 6, 200)
fig, axes = plt.subplots(1, 3 if TRICKY else 2, figsize=(9 if TRICKY else 6.4, 3.2))
axes[0].plot(x, np.sin(x), label="正弦 $\\sin x$")
axes[0].fill_between(x, np.sin(x) - 0.2, np.sin(x) + 0.2, alpha=0.25)
axes[0].scatter(x[::20], np.cos(x[::20]), label="采样点")
axes[0].set_title("层归一化前后的方差 $\\sigma^2$")
axes[0].set_ylabel("均值与方差")
axes[0].legend()
axes[1].bar(["均值", "方差", "γ", "β"], [0.1, 1.0, 1.5, -0.3], hatch="//" if TRICKY else None)  # 图案经 style 的 url(#…) 引用
axes[1].annotate("缩小 √((H−1)/H)", xy=(1, 1.0), xytext=(1.5, 1.3), arrowprops={"arrowstyle": "->"})
if TRICKY:                                          # Gouraud 着色：渐变经 fill="url(#…)" 引用
    rng = np.random.default_rng(0)
    px, py = rng.random(30), rng.random(30)
    axes[2].tripcolor(px, py, px * py, shading="gouraud")
fig.savefig(sys.stdout.buffer, format="svg")
"""


def draw(kind, tmp_path_factory):
    done = subprocess.run([sys.executable, "-c", FIGURE, kind], capture_output=True, cwd=ROOT,
                          env={"MPLCONFIGDIR": str(tmp_path_factory.mktemp("mpl")),
                               "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    return done.stdout.decode("utf-8")


@pytest.fixture(scope="module")
def figure_svg(tmp_path_factory):
    """与书里的图相似：折线、阴影、散点、柱状、箭头、中文和公式文字。"""
    return draw("plain", tmp_path_factory)


@pytest.fixture(scope="module")
def tricky_svg(tmp_path_factory):
    return draw("tricky", tmp_path_factory)


def render(browser, svg, scale=2):
    from PIL import Image
    context = browser.new_context(device_scale_factor=scale, viewport={"width": 1000, "height": 600})
    try:
        page = context.new_page()
        page.set_content("<body style='margin:0;background:#fff'><img id='f' src='data:image/svg+xml;base64,"
                         + __import__("base64").b64encode(svg.encode()).decode() + "'></body>")
        page.wait_for_function("document.getElementById('f').complete")
        return Image.open(io.BytesIO(page.locator("#f").screenshot())).convert("RGB")
    finally:
        context.close()


def test_slim_figure_is_much_smaller(figure_svg):
    slim = slim_svg(figure_svg)
    assert slim_svg(slim) == slim, "对已经变小的 SVG 再运行一次应当原样返回"
    assert len(slim) <= 0.65 * len(figure_svg), f"只从 {len(figure_svg)} 字节变成 {len(slim)} 字节"


@pytest.mark.parametrize("kind", ["figure_svg", "tricky_svg"])
def test_slim_figure_looks_the_same(browser, request, kind):
    from PIL import ImageChops
    original = request.getfixturevalue(kind)
    slim = slim_svg(original)
    before, after = render(browser, original), render(browser, slim)
    assert before.size == after.size
    diff = ImageChops.difference(before, after).convert("L")
    pixels = before.size[0] * before.size[1]
    histogram = diff.histogram()
    changed = sum(histogram[40:])                 # 亮度差超过 40/255 的像素：只允许边缘上零星几个
    assert changed <= 0.001 * pixels, f"{changed} 个像素（共 {pixels}）明显不同"
    assert sum(histogram[128:]) <= 20, f"{sum(histogram[128:])} 个像素黑白颠倒"


def test_built_figures_are_slimmed_and_their_references_resolve():
    images = sorted((html_dir() / "_images").glob("*.svg"))
    assert images, "构建好的书里没有 SVG 插图"
    for path in images:
        text = path.read_text(encoding="utf-8")
        assert "<metadata" not in text and "Matplotlib" not in text, f"{path.name} 没有变小"
        ids = set(re.findall(r'\bid="([^"]+)"', text))
        refs = set(re.findall(r'(?:href="#|url\(#)([^")]+)', text))
        assert refs <= ids, f"{path.name} 引用了不存在的 id：{sorted(refs - ids)[:5]}"


def test_every_reference_follows_the_renamed_ids(tricky_svg):
    """被引用的 id 改成短名之后，clip-path、fill、style 等任何属性里的 url(#…) 都跟着改。"""
    slim = slim_svg(tricky_svg)
    assert 'fill="url(#' in tricky_svg and "url(#h" in tricky_svg, "测试图里应当有渐变填充和图案"
    ids = set(re.findall(r'\bid="([^"]+)"', slim))
    refs = set(re.findall(r'(?:href="#|url\(#)([^")]+)', slim))
    assert refs and refs <= ids, sorted(refs - ids)
