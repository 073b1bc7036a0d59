"""把字体裁成只含给定字符的 woff 子集（构建时用：主题图标字体与公式字体，见 dsx_icons.py、dsx_math.py）。"""
import logging

from fontTools import subset
from fontTools.ttLib import TTFont

# 「FFTM NOT subset; ... dropped」之类的提示：FFTM 只是 FontForge 写的时间戳表，丢掉无妨
logging.getLogger("fontTools.subset").setLevel(logging.ERROR)


def write_woff_subset(source, target, unicodes, layout_features=("*",)):
    """把 source 裁成只含 unicodes 中本字体有的字符，存为 woff；返回子集里的字符集合。

    一个字符都没有时仍写出（只含空字形的）字体，这样引用或预加载它的页面不会请求落空。
    """
    font = TTFont(source)
    keep = set(unicodes) & set(font.getBestCmap())
    options = subset.Options()
    options.flavor = "woff"
    options.layout_features = list(layout_features)
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(keep))
    subsetter.subset(font)
    font.flavor = "woff"
    font.save(target)
    return keep
