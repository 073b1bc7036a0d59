"""字体子集（dsx_book/font_subset.py）：什么都没变的重新构建不再重裁；字体、字符或文件变了就重裁。"""
from pathlib import Path

import pydata_sphinx_theme
from fontTools.ttLib import TTFont

from dsx_book.font_subset import write_woff_subset

SOURCE = next(Path(pydata_sphinx_theme.__file__).parent.rglob("fa-solid-900.ttf"))
CHARS = {0xF00C, 0xF00D}   # 图标字体里的「对勾」与「叉」


def test_subset_keeps_only_the_asked_characters(tmp_path):
    assert write_woff_subset(SOURCE, tmp_path / "a.woff", CHARS) is True
    assert set(TTFont(tmp_path / "a.woff").getBestCmap()) == CHARS


def test_unchanged_inputs_are_not_subset_again(tmp_path):
    target, stamps = tmp_path / "a.woff", tmp_path / "doctrees" / "font-subsets.json"
    assert write_woff_subset(SOURCE, target, CHARS, stamps=stamps) is True
    assert write_woff_subset(SOURCE, target, CHARS, stamps=stamps) is False
    assert write_woff_subset(SOURCE, target, CHARS | {0xF015}, stamps=stamps) is True   # 多用了一个字符
    assert set(TTFont(target).getBestCmap()) == CHARS | {0xF015}
    target.unlink()                                                                       # 输出被删掉了
    assert write_woff_subset(SOURCE, target, CHARS | {0xF015}, stamps=stamps) is True
    assert target.exists()
