"""柱状图（层归一化探索器与激活值探索器共用）：几何与 static/explorers.js 的 chartPaths/drawChart 相同。"""
import math

from . import spec as S
from .base import esc

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
    t = S.BAR_TEXT
    label = S.fill(t["chart_aria"], {"title": title, "h": n, "min": S.fmt(min(values)), "max": S.fmt(max(values)),
                                     "range": S.fmt_tick(span)})
    over_note = S.fill(t["overflow"], {"count": count}) if count else ""
    return (
        f'<svg class="dsx-chart" data-role="{role}" role="img" aria-label="{esc(label)}" '
        f'width="{_CW}" height="{_CH}" viewBox="0 0 {_CW} {_CH}" xmlns="http://www.w3.org/2000/svg">'
        f'<text class="dsx-chart-title" x="{_PL}" y="14" font-size="12" font-weight="600">{esc(title)}</text>'
        f'<text class="dsx-over-note" x="{_CW - _PR}" y="14" font-size="10" text-anchor="end">{esc(over_note)}</text>'
        f'<text class="dsx-hi" x="{_PL - 4}" y="{_PT + 4}" font-size="10" text-anchor="end">{S.fmt_tick(span)}</text>'
        f'<text x="{_PL - 4}" y="{y(0) + 4:.2f}" font-size="10" text-anchor="end">0</text>'
        f'<text class="dsx-lo" x="{_PL - 4}" y="{_CH - _PB}" font-size="10" text-anchor="end">{S.fmt_tick(-span)}</text>'
        f'<path class="dsx-bars" fill="#4c78a8" d="{"".join(parts)}"/>'
        f'<path class="dsx-sel" fill="#e45756" d="{sel}"/>'
        f'<path class="dsx-over" fill="#b3261e" d="{"".join(over)}"/>'
        f'<path class="dsx-zero" stroke="#555" fill="none" d="M{_PL} {y(0):.2f}H{_CW - _PR}"/></svg>'
    )
