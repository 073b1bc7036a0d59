"""把字体裁成只含给定字符的 woff 子集（构建时用：主题图标字体与公式字体，见 dsx_icons.py、dsx_math.py）。

裁一次要零点几秒；什么都没变的重新构建不再重裁：每个子集的来源字体、字符与选项的摘要记在 stamps
（构建目录里的一个 JSON，不随网页发布）里，摘要相同且子集文件还在，就直接跳过。
"""
import hashlib
import json
import logging
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

# 「FFTM NOT subset; ... dropped」之类的提示：FFTM 只是 FontForge 写的时间戳表，丢掉无妨
logging.getLogger("fontTools.subset").setLevel(logging.ERROR)


def _subset_key(source, unicodes, layout_features):
    digest = hashlib.sha256(Path(source).read_bytes())
    digest.update(json.dumps([sorted(unicodes), list(layout_features)]).encode())
    return digest.hexdigest()


def write_woff_subset(source, target, unicodes, layout_features=("*",), stamps=None):
    """把 source 裁成只含 unicodes 中本字体有的字符，存为 woff。

    一个字符都没有时仍写出（只含空字形的）字体，这样引用或预加载它的页面不会请求落空。
    stamps：记录摘要的 JSON 文件；给了它，且上次用同样的输入写出的 target 还在，就什么都不做。
    返回是否真的写了文件。
    """
    key = _subset_key(source, unicodes, layout_features) if stamps else None
    known = json.loads(Path(stamps).read_text()) if stamps and Path(stamps).exists() else {}
    if key and Path(target).exists() and known.get(str(target)) == key:
        return False
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
    if key:
        known[str(target)] = key
        Path(stamps).parent.mkdir(parents=True, exist_ok=True)
        Path(stamps).write_text(json.dumps(known, indent=0, sort_keys=True))
    return True
