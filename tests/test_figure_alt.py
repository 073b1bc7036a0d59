"""插图的文字描述（alt）由代码算出的数生成（dsx_book.figure_alt）：占位符都被换掉，说的方向与图一致。"""
import html
import re

import nbformat
import pytest

from conftest import BOOK, ROOT, glued_value
from dsx_book.figure_alt import fill, glued_texts

HTML = ROOT / "_build" / "html" / "book"


def test_fill_replaces_placeholders_and_reports_missing_names():
    alt, missing = fill("图：{glue:a}，还有 {glue:b}", {"a": "标准差下降"})
    assert alt == "图：标准差下降，还有 {glue:b}" and missing == ["b"]


def test_glued_texts_reads_strings_and_numbers():
    out = nbformat.v4.new_output("display_data", data={"text/plain": "'下降到 0.01'"},
                                 metadata={"scrapbook": {"name": "x", "mime_prefix": ""}})
    num = nbformat.v4.new_output("display_data", data={"application/papermill.record/text/plain": "0.5"},
                                 metadata={"scrapbook": {"name": "y", "mime_prefix": "application/papermill.record/"}})
    cell = nbformat.v4.new_code_cell(outputs=[out, num])
    assert glued_texts(nbformat.v4.new_notebook(cells=[cell])) == {"x": "下降到 0.01", "y": "0.5"}


def _alt_placeholders():
    """各章元数据里写了 {glue:名字} 的插图：(章节, 名字)。"""
    found = []
    for path in sorted(BOOK.glob("ch*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            alt = cell.get("metadata", {}).get("mystnb", {}).get("image", {}).get("alt", "")
            found += [(path.stem, name) for name in re.findall(r"\{glue:(\w+)\}", alt)]
    return found


def test_ch02_figures_take_their_alt_from_glue():
    assert ("ch02_why_normalize", "ch02_fig_depth_alt") in _alt_placeholders()
    assert ("ch02_why_normalize", "ch02_fig_grad_alt") in _alt_placeholders()


@pytest.mark.book
def test_built_pages_have_no_placeholder_left_in_alt_text():
    pages = {p.stem: p.read_text(encoding="utf-8") for p in HTML.glob("ch*.html")}
    assert pages, "没有构建结果：先 make book"
    left = [(name, a) for name, text in pages.items() for a in re.findall(r'alt="([^"]*)"', text) if "{glue:" in a]
    assert left == []


@pytest.mark.book
def test_ch02_depth_figure_alt_agrees_with_its_numbers(run_chapter):
    """深度图：样本间标准差从第一块到最后一块衰减了好几个数量级，描述必须说衰减，不能说增长。"""
    _, glued, _ = run_chapter("ch02_why_normalize")
    alt = glued_value(glued, "ch02_fig_depth_alt")
    first, last = float(glued_value(glued, "ch02_across_first_plain")), float(glued_value(glued, "ch02_across_last_plain"))
    assert last < first / 1000
    assert "衰减到几乎为 0" in alt and "增长" not in alt and "上升" not in alt
    assert f"{float(glued_value(glued, 'ch02_std_first_plain')):.2f}" in alt
    assert f"{float(glued_value(glued, 'ch02_across_last_xavier')):.2f}" in alt
    grad = glued_value(glued, "ch02_fig_grad_alt")
    assert f"{float(glued_value(glued, 'ch02_grad_ratio_ln')):.2f}" in grad
    page = html.unescape((HTML / "ch02_why_normalize.html").read_text(encoding="utf-8"))
    assert f'alt="{alt}"' in page and f'alt="{grad}"' in page
