"""轴探索器的组色（dsx_util/widgets/static/norm_explorers.css）：「同一颜色 = 共用一组统计量」要能用眼睛核对，
所以亮色与暗色下任意两种组色的色差 CIEDE2000 ΔE₀₀ 都不小于 MIN_DE，格子里的文字与底色的对比度不低于 4.5:1。

CIEDE2000 按 Sharma、Wu、Dalal（2005）的公式写在这里；用他们论文里的几组参考数据核对实现。
"""
import colorsys
import itertools
import math
import re

import pytest

from conftest import ROOT

CSS = (ROOT / "dsx_util" / "widgets" / "static" / "norm_explorers.css").read_text(encoding="utf-8")
BASE_CSS = (ROOT / "dsx_util" / "widgets" / "static" / "explorers.css").read_text(encoding="utf-8")
MIN_DE = 15.0


def _lin(c):
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def lab(rgb):
    r, g, b = (_lin(c) for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    f = [t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116 for t in (x, y, z)]
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def de2000(lab1, lab2):
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    cbar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(cbar ** 7 / (cbar ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dlp, dcp = l2 - l1, c2p - c1p
    dh = 0.0 if c1p * c2p == 0 else h2p - h1p - 360 * (h2p - h1p > 180) + 360 * (h2p - h1p < -180)
    dhp = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    lbar, cbarp = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hbar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hbar = (h1p + h2p) / 2
    else:
        hbar = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hbar - 30)) + 0.24 * math.cos(math.radians(2 * hbar))
         + 0.32 * math.cos(math.radians(3 * hbar + 6)) - 0.20 * math.cos(math.radians(4 * hbar - 63)))
    sl = 1 + 0.015 * (lbar - 50) ** 2 / math.sqrt(20 + (lbar - 50) ** 2)
    sc, sh = 1 + 0.045 * cbarp, 1 + 0.015 * cbarp * t
    rt = -2 * math.sqrt(cbarp ** 7 / (cbarp ** 7 + 25 ** 7)) * math.sin(math.radians(60 * math.exp(-((hbar - 275) / 25) ** 2)))
    return math.sqrt((dlp / sl) ** 2 + (dcp / sc) ** 2 + (dhp / sh) ** 2 + rt * (dcp / sc) * (dhp / sh))


def contrast(c1, c2):
    lum = [0.2126 * _lin(c[0]) + 0.7152 * _lin(c[1]) + 0.0722 * _lin(c[2]) for c in (c1, c2)]
    hi, lo = max(lum), min(lum)
    return (hi + 0.05) / (lo + 0.05)


def hsl(h, s, light):
    return tuple(round(v * 255) for v in colorsys.hls_to_rgb(h / 360, light / 100, s / 100))


def hexrgb(text):
    return tuple(int(text[i:i + 2], 16) for i in (1, 3, 5))


def palette(dark):
    rule = (r'html\[data-theme="dark"\] \.dsx-explorer td\.dsx-g(\d+),[^{]*' if dark
            else r'(?:^|(?<=\} ))\.dsx-explorer td\.dsx-g(\d+)\s*')   # 亮色的组色一行写几条
    found = re.findall(rule + r'\{ background: hsl\((\d+), (\d+)%, (\d+)%\); \}', CSS, re.M)
    return {int(i): hsl(int(h), int(s), int(light)) for i, h, s, light in found}


def text_colour(dark):
    block = re.findall(r"--dsx-fg: (#[0-9a-f]{6})", BASE_CSS)
    return hexrgb(block[1] if dark else block[0])


def test_ciede2000_matches_published_reference_pairs():
    """Sharma 等人（2005）表 1 的几组数据（Lab 与 ΔE₀₀，保留 4 位小数）。"""
    pairs = [((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
             ((50.0, -1.3802, -84.2814), (50.0, 0.0, -82.7485), 1.0),
             ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
             ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
             ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373)]
    for a, b, want in pairs:
        assert de2000(a, b) == pytest.approx(want, abs=1e-4)


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_any_two_group_colours_are_clearly_different(dark):
    colours = palette(dark)
    assert sorted(colours) == list(range(12)), "应有 12 种组色（norm_explorers.js 用 组号 % 12）"
    worst = min((de2000(lab(colours[i]), lab(colours[j])), i, j) for i, j in itertools.combinations(colours, 2))
    assert worst[0] >= MIN_DE, f"{'暗' if dark else '亮'}色下组色 {worst[1]} 与 {worst[2]} 太像：ΔE₀₀ = {worst[0]:.1f}"
    fg = text_colour(dark)
    low = min((contrast(fg, c), i) for i, c in colours.items())
    assert low[0] >= 4.5, f"组色 {low[1]} 上的文字对比度只有 {low[0]:.2f}"


def background(dark):
    """探索器的底色（explorers.css 的 --dsx-bg，亮色、暗色各一个）：格子画在它上面。"""
    block = re.findall(r"--dsx-bg: (#[0-9a-f]{6})", BASE_CSS)
    return hexrgb(block[1] if dark else block[0])


MIN_BG_CONTRAST = 1.4   # 组色与底色的亮度对比：暗色下 ΔE₀₀ 低估了深色之间的差别（原来的暗色 g4、g5 只有 1.22、1.05）


def stands_out(colour, bg):
    return de2000(lab(colour), lab(bg)) >= MIN_DE and contrast(colour, bg) >= MIN_BG_CONTRAST


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_each_group_colour_stands_out_from_the_background(dark):
    """「同一颜色 = 共用一组统计量」：每种组色都要一眼看出上了色，不能与探索器的底色相近。"""
    bg = background(dark)
    bad = [(i, round(de2000(lab(c), lab(bg)), 1), round(contrast(c, bg), 2))
           for i, c in palette(dark).items() if not stands_out(c, bg)]
    assert bad == [], f"{'暗' if dark else '亮'}色下这些组色（组号、ΔE₀₀、亮度对比）与底色太近：{bad}"


def test_the_background_threshold_rejects_the_old_dark_colours():
    """对照：评审在手机暗色下看不出颜色的两种（原来的 g4、g5）过不了这个门槛。"""
    bg = background(True)
    for old in ((130, 35, 14), (330, 50, 14)):
        assert not stands_out(hsl(*old), bg)


def test_the_threshold_rejects_the_old_palette():
    """对照：原来的 12 种浅色（三种绿、两种淡紫、两种粉）过不了这个门槛。"""
    old = [(210, 75, 85), (30, 85, 82), (120, 45, 80), (300, 50, 87), (55, 85, 78), (180, 50, 80), (0, 75, 87),
           (260, 60, 88), (90, 55, 80), (330, 70, 88), (150, 45, 82), (235, 60, 88)]
    worst = min(de2000(lab(hsl(*a)), lab(hsl(*b))) for a, b in itertools.combinations(old, 2))
    assert worst < MIN_DE
