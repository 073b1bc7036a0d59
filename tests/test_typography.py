"""中文排版：源文件换行带来的多余空格被删掉（代码与公式不受影响），执行状态页是中文。

前半部分直接测 dsx_book/typography.py 的规则；后半部分检查构建好的网页（需要先构建本书）。
"""
import re

import pytest
from docutils import nodes
from docutils.utils import new_document
from docutils.frontend import get_default_settings
from docutils.parsers.rst import Parser

from conftest import chapter_paths, html_dir
from dsx_book.typography import _fix_spaces, _keep_punctuation_with_math, clean_spaces


@pytest.mark.parametrize("text, before, after, expected", [
    ("均值\n和方差", "", "", "均值和方差"),            # 两个汉字之间的换行
    ("减去均值，\n再除以标准差", "", "", "减去均值，再除以标准差"),
    ("结果。 然后", "", "", "结果。然后"),              # 全角标点后的空格
    ("（ 见下文 ）", "", "", "（见下文）"),
    ("用\nPyTorch", "", "", "用\nPyTorch"),            # 汉字与英文之间：换行照常显示为一个空格
    ("a b", "", "", "a b"),
    ("见 ", "", "有", "见"),                            # 汉字与链接文字之间手打的空格
    ("\n再除以", "值", "", "再除以"),                   # 节点边界：前一个节点以汉字结尾
    ("的\n", "", "值", "的"),
    ("的\n", "", "x", "的\n"),                         # 后面是行内代码或公式：保留空格
])
def test_clean_spaces(text, before, after, expected):
    assert clean_spaces(text, before, after) == expected


def _paragraph(*children):
    document = new_document("test", get_default_settings(Parser))
    para = nodes.paragraph("", "", *children)
    document += para
    return para


def test_code_and_math_are_untouched():
    para = _paragraph(nodes.Text("代码\n"), nodes.literal("", "a  ，\n b"), nodes.Text("\n之后"))
    _fix_spaces(para)
    assert para.astext() == "代码\na  ，\n b\n之后"


def test_soft_line_break_between_sentences_keeps_the_full_stop():
    """软换行是一个单独的文本节点：删掉它，但前一句末尾的句号不能跟着丢。"""
    para = _paragraph(nodes.Text("增加一个层归一化。"), nodes.Text("\n"), nodes.Text("后置归一化"))
    _fix_spaces(para)
    assert para.astext() == "增加一个层归一化。后置归一化"


def test_punctuation_stays_with_inline_math():
    para = _paragraph(nodes.Text("设 "), nodes.math("", "x"), nodes.Text("，则"))
    _keep_punctuation_with_math(para)
    keep = list(para.findall(nodes.inline))
    assert len(keep) == 1 and "dsx-nobr" in keep[0]["classes"] and keep[0].astext() == "x，"
    assert para.astext() == "设 x，则"
    _keep_punctuation_with_math(para)  # 写出前再运行一次：不再套一层
    assert len(list(para.findall(nodes.inline))) == 1


# ---------------------------------------------------------------- 构建好的网页
STRAY = re.compile(r"[\u4e00-\u9fff，。、；：！？）」』》] +[\u4e00-\u9fff，。、；：！？（「『《]")


def _prose(html):
    """网页正文里的文字：代码、公式换成一个拉丁字母 x（它们两边本来就该有空格），去掉输出与标签。"""
    html = re.sub(r"(?s)<(pre|script|style|code)\b.*?</\1>", "x", html)
    html = re.sub(r'(?s)<div class="cell_output.*?</div>\s*</div>', "x", html)
    html = re.sub(r"(?s)<span class=\"math[^\"]*\">.*?</span>", "x", html)
    return re.sub(r"<[^>]+>", "", html)


@pytest.mark.parametrize("path", chapter_paths(), ids=lambda p: p.stem)
def test_no_stray_spaces_between_chinese_characters(path):
    page = html_dir() / "book" / f"{path.stem}.html"
    if not page.exists():
        pytest.fail(f"没有找到 {page}：请先构建本书（make book）")
    stray = STRAY.findall(_prose(page.read_text(encoding="utf-8")))
    assert stray == [], f"{path.stem} 的正文里汉字/中文标点之间有多余的空格：{stray[:10]}"


def test_status_page_is_chinese():
    html = (html_dir() / "book" / "status.html").read_text(encoding="utf-8")
    table = re.search(r"(?s)<table.*?</table>", html).group()
    headers = re.findall(r"(?s)<th[^>]*>(.*?)</th>", table)
    assert [re.sub(r"<[^>]+>", "", h).strip() for h in headers] == ["章节", "最近运行", "方式", "耗时（秒）", "结果"]
    assert "✅" not in table and "❌" not in table
    assert table.count("成功") == len(chapter_paths())


@pytest.mark.parametrize("path", chapter_paths(), ids=lambda p: p.stem)
def test_printed_lines_share_one_output_box(path):
    """一个单元格连续打印的几行显示在同一个输出框里，而不是每行一个框（例如中间夹着不显示的 glue 输出时）。"""
    from bs4 import BeautifulSoup
    soup = BeautifulSoup((html_dir() / "book" / f"{path.stem}.html").read_text(encoding="utf-8"), "html.parser")
    split = []
    for output in soup.select("div.cell_output"):
        boxes = [c for c in output.find_all(recursive=False) if c.name]
        for a, b in zip(boxes, boxes[1:]):
            if "stream" in a.get("class", []) and "stream" in b.get("class", []):
                split.append(a.get_text()[:60])
    assert split == [], f"{path.stem} 有被拆成多个输出框的打印结果：{split[:3]}"
