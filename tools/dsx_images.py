"""Sphinx 小扩展：把网页里的 PNG 插图存成 256 色的调色板 PNG，体积约为原来的三分之一。

各章的插图是 matplotlib 画的白底图，只有几百到两千种颜色（大多是线条边缘的抗锯齿过渡色）。
构建结束时，对 `_images/` 里的每张不透明 PNG 用中位切分（median cut）选出 256 色、不抖动，
只有当新图与原图每个颜色通道的均方根误差都不超过 MAX_RMS、且文件确实变小时才替换。
笔记本里的原图不变（Colab、Jupyter 里看到的仍是原图），只影响网页。
"""
import io
from pathlib import Path

from sphinx.util import logging

logger = logging.getLogger(__name__)

MAX_RMS = 2.0          # 0–255 的色阶上，每个通道的均方根误差上限（肉眼看不出差别）


def palette_png(data):
    """原图的 PNG 字节 -> (调色板 PNG 字节, 各通道均方根误差)；不适合（透明、已是调色板）时返回 (None, None)。"""
    from PIL import Image, ImageChops, ImageStat

    image = Image.open(io.BytesIO(data))
    if image.mode == "P":
        return None, None
    if "A" in image.getbands() and image.getchannel("A").getextrema()[0] < 255:
        return None, None                       # 有透明像素：保持原样
    rgb = image.convert("RGB")
    quantized = rgb.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    rms = ImageStat.Stat(ImageChops.difference(rgb, quantized.convert("RGB"))).rms
    out = io.BytesIO()
    quantized.save(out, "PNG", optimize=True)
    return out.getvalue(), max(rms)


def shrink_images(app, exception):
    if exception or app.builder.format != "html":
        return
    before = after = 0
    for path in sorted((Path(app.outdir) / "_images").glob("*.png")):
        data = path.read_bytes()
        smaller, rms = palette_png(data)
        if smaller is None or rms > MAX_RMS or len(smaller) >= len(data):
            continue
        path.write_bytes(smaller)
        before, after = before + len(data), after + len(smaller)
    if before:
        logger.info(f"插图改存为调色板 PNG：{before / 1000:.0f} KB -> {after / 1000:.0f} KB")


def setup(app):
    app.connect("build-finished", shrink_images)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
