"""学习者读到的东西（issue 23）：书自己的记账不进课文，正文的说法读者信得过。

每个数都从构建结果（网页版 HTML、读者版笔记本、执行过的笔记本）里数出来，不写死：
- 网页版、读者版笔记本里看得见的 glue( 行不超过 10 行（PDF 版的在 test_pdf.py 里数）；
- glue 单元格隐藏（remove-cell），只给正文供数：后面的代码不用它定义的名字，读者版没有它们也能从头运行；
- 中文冒号或括号后面紧跟一个光秃秃的 True/False，或一个光秃秃的结论词（成立、是、相同、通过……）：0 处；
- 两端写出来相同的范围（「1.000 到 1.000」）：0 处；
- 正文段落不超过 250 个字符（一段一个意思）；
- 「见下面的代码」所指的代码单元格把说到的数打印出来。
"""
import ast
import html
import json
import re

import nbformat
import pytest

from conftest import ROOT, chapter_paths, html_dir
from dsx_book.reader_edition import is_glue_cell

pytestmark = pytest.mark.book

CHAPTERS = chapter_paths()
IDS = [p.stem for p in CHAPTERS]
READER = ROOT / "_build" / "reader" / "book"
EXECUTED = ROOT / "_build" / "jupyter_execute" / "book"
MAX_VISIBLE_GLUE = 10
MAX_PARAGRAPH = 250
# 中文冒号、顿号、分号、括号、引号之后，或紧跟汉字的半角冒号、括号之后，是一个单独的 True/False
BARE_BOOL = re.compile(r"(?:[：（【「，；]|(?<=[\u4e00-\u9fff])[:(])[ \t\u00a0]*(True|False)\b")
# 「a 到 b」「a–b」：两端是同样写出来的数（前面不是负号，「−5 到 5」不算）
RANGE = re.compile(r"(?<![\d.\-−])(\d+(?:\.\d+)?)\s*(?:到|至|–|—|~)\s*(\d+(?:\.\d+)?)(?![\d.])")
# 同样的位置上一个光秃秃的结论词（「…一致：成立」「（是）」「梯度检验： 通过」），后面不再接汉字：读起来像日志
VERDICT = re.compile(r"(?:[：（【]|(?<=[\u4e00-\u9fff])[:(])[ \t\u00a0]*"
                     r"(成立|不成立|是|否|相同|不同|一致|不一致|通过|未通过|对|错)(?![ \t\u00a0]*[\u4e00-\u9fff\w`])")
SEE_CODE = re.compile(r"见下面的代码|见下方的代码|见下面代码")
GLUE_ROLE = re.compile(r"\{glue:(?:text|md)\}`([A-Za-z0-9_]+)(?::([^`]*))?`")


def built_page(path):
    page = html_dir() / "book" / f"{path.stem}.html"
    if not page.exists():
        pytest.fail(f"没有找到 {page}。请先运行 make book。")
    return page.read_text(encoding="utf-8")


def page_text(source):
    """网页的文字（去掉脚本、样式和标签）：读者在页面上看到的正文、代码和输出。"""
    source = re.sub(r"(?s)<(script|style)\b.*?</\1>", "", source)
    source = re.sub(r"(?s)<annotation\b.*?</annotation>", "", source)   # MathML 里重复的 TeX 源
    return html.unescape(re.sub(r"<[^>]+>", "", source))


def glue_lines(text):
    return [line.strip() for line in text.splitlines() if "glue(" in line]


def glue_call_in(tree):
    return any(isinstance(n, ast.Call) and getattr(n.func, "id", None) == "glue" for n in ast.walk(tree))


# ---------------------------------------------------------------- 记账不进课文
def test_visible_glue_lines_on_the_web_pages():
    counts = {p.stem: len(glue_lines(page_text(built_page(p)))) for p in CHAPTERS}
    total = sum(counts.values())
    assert total <= MAX_VISIBLE_GLUE, f"网页上看得见 {total} 行 glue(（上限 {MAX_VISIBLE_GLUE}）：{counts}"


def test_visible_glue_lines_in_the_reader_notebooks():
    counts = {}
    for path in CHAPTERS:
        target = READER / path.name
        if not target.exists():
            pytest.fail(f"没有找到读者版笔记本 {target}。请先运行 make book。")
        nb = nbformat.read(target, as_version=4)
        counts[path.stem] = sum(len(glue_lines(c.source)) for c in nb.cells if c.cell_type == "code")
    total = sum(counts.values())
    assert total <= MAX_VISIBLE_GLUE, f"读者版笔记本里有 {total} 行 glue(（上限 {MAX_VISIBLE_GLUE}）：{counts}"


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_glue_calls_live_in_hidden_glue_cells(path):
    """每个 glue(...) 调用都在 glue 单元格里；glue 单元格带 remove-cell（网页、PDF 不显示）。"""
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type != "code" or "setup" in cell.metadata.get("tags", []):
            continue
        if glue_call_in(ast.parse(cell.source)):
            assert is_glue_cell(cell), (f"{path.stem}：这个单元格里有 glue(...)，请把它挪进紧随其后、"
                                        f"标签为 remove-cell 和 glue 的单元格：\n{cell.source[:300]}")
        elif "glue" in cell.metadata.get("tags", []):
            pytest.fail(f"{path.stem}：标了 glue 的单元格里没有 glue 调用：\n{cell.source[:300]}")


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_later_code_does_not_need_the_glue_cells(path):
    """读者版去掉了 glue 单元格：它们定义的名字，后面的代码单元格一个也不能用（否则读者版运行到那里会出错）。"""
    nb = nbformat.read(path, as_version=4)
    defined, visible = {}, set()   # glue 单元格定义的名字；可见代码定义过的名字
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        tree = ast.parse(cell.source)
        if is_glue_cell(cell):
            for node in tree.body:
                targets = [node.name] if isinstance(node, (ast.FunctionDef, ast.ClassDef)) else [
                    n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]
                defined.update({t: cell.source.splitlines()[1][:60] for t in targets})
            continue
        # 这一格自己先赋值、后读取的名字不算
        stored = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        stored |= {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
        stored |= {a.asname or a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
                   for a in n.names}
        stored |= {n.arg for n in ast.walk(tree) if isinstance(n, ast.arg)}
        used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        needed = sorted((used - stored - visible) & set(defined))
        visible |= stored
        assert not needed, f"{path.stem}：可见代码用到了只在 glue 单元格里定义的 {needed}：\n{cell.source[:300]}"


# ---------------------------------------------------------------- 读者信得过的说法
def test_no_bare_true_false_after_chinese_punctuation():
    found = []
    for path in CHAPTERS:
        text = page_text(built_page(path))
        found += [f"{path.stem}：…{text[max(0, m.start() - 30):m.end()].strip()}" for m in BARE_BOOL.finditer(text)]
    assert found == [], f"{len(found)} 处光秃秃的 True/False（请说成 是/否、成立/不成立、相同/不同）：\n" + "\n".join(found)


def test_the_bare_bool_pattern_finds_what_it_should():
    """上面的正则确实认得出要改的写法，也放过正常的代码。"""
    hits = ["相同： True", "一致（torch.allclose：True）", "（False）", "一致:True", "结果，True"]
    misses = ["keepdim=True", "f(x, True)", "是 True 还是 False", "相同：是"]
    assert all(BARE_BOOL.search(s) for s in hits)
    assert not any(BARE_BOOL.search(s) for s in misses)


def test_no_bare_verdict_after_chinese_punctuation():
    """正文和代码打印的结论是一句中文（「两种写法的结果相同」），不是「…相同：成立」「（是）」这样的日志。"""
    found = []
    for path in CHAPTERS:
        text = page_text(built_page(path))
        found += [f"{path.stem}：…{text[max(0, m.start() - 30):m.end() + 1].strip()}" for m in VERDICT.finditer(text)]
    assert found == [], (f"{len(found)} 处光秃秃的结论词（请把结论写进句子，例如「输出一致」「结果全是 NaN」）：\n"
                         + "\n".join(found))


def test_the_verdict_pattern_finds_what_it_should():
    """第 23 号问题复查时的写法都认得出来；正常的句子、代码放过。"""
    hits = ["训练模式的输出一致：成立；running_mean 一致：成立", "结果全是 NaN（成立）", "这里确实报错了：是",
            "（torch.allclose：相同）", "两个块的权重相同： 是", "梯度检验： 通过", "小于 1e-4（不成立）", "一致:是"]
    misses = ["原因是：是因为舍入", "结果：相同的形状", "（是否为 0）", "两者的结果相同。", "keepdim=True",
              "输出与输入一致（用 torch.allclose 比较）", "：否则会报错",
              "写函数 f(x, eps=1e-6)：对 x 的最后一维做归一化"]
    assert [s for s in hits if not VERDICT.search(s)] == []
    assert [s for s in misses if VERDICT.search(s)] == []


def equal_ends(pattern):
    """各章网页正文里 pattern 两端（第 1、2 组）读出来一样的地方，带前后文。"""
    found = []
    for path in CHAPTERS:
        text = page_text(built_page(path))
        found += [f"{path.stem}：…{text[max(0, m.start() - 20):m.end() + 10].strip()}"
                  for m in pattern.finditer(text) if m.group(1) == m.group(2)]
    return found


def test_no_range_whose_ends_read_alike():
    found = equal_ends(RANGE)
    assert RANGE.search("在 1.000 到 1.000 之间").group(1) == "1.000"
    assert found == [], f"{len(found)} 处两端相同的范围（请说「都是 x」）：\n" + "\n".join(found)


def paragraphs(source):
    """正文段落（<p>）的文字，不含代码输出、提示框标题；公式只算一次。"""
    from bs4 import BeautifulSoup
    main = BeautifulSoup(source, "html.parser").select_one("article") or BeautifulSoup(source, "html.parser")
    for node in main.select("annotation, script, style, .dsx-math-tex"):   # 公式的隐藏 TeX 副本不算
        node.decompose()
    # 紧凑列表（各条之间没有空行）的 <li> 里没有 <p>：这样的一条也是一段（嵌套的子列表不算进去）
    items = [li for li in main.find_all("li") if li.find("p", recursive=False) is None]
    for p in main.find_all("p") + items:
        if p.find_parent(class_=re.compile(r"cell_output|output|highlight|admonition-title|toc|bd-sidebar")):
            continue
        if p.name == "li":
            p = BeautifulSoup(str(p), "html.parser").li
            for sub in p.find_all(["ul", "ol"]):
                sub.decompose()
        yield re.sub(r"\s+", "", p.get_text())


def test_paragraph_reader_counts_tight_list_items():
    """「- **要点。** 很长的说明」写成紧凑列表时，HTML 里没有 <p>：这一条也要数到。"""
    long = "长" * (MAX_PARAGRAPH + 1)
    source = f"<article><ul><li><strong>要点。</strong>{long}<ul><li>子项</li></ul></li></ul><p>短段落</p></article>"
    found = list(paragraphs(source))
    assert "短段落" in found and f"要点。{long}" in found, found   # 子列表「子项」另算一条，不并进上一条


def test_paragraphs_carry_one_idea():
    long = []
    for path in CHAPTERS:
        long += [f"{path.stem}（{len(t)} 字）：{t[:40]}…" for t in paragraphs(built_page(path)) if len(t) > MAX_PARAGRAPH]
    assert long == [], f"{len(long)} 段超过 {MAX_PARAGRAPH} 个字符，请按意思拆开：\n" + "\n".join(long)


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_see_the_code_below_prints_what_it_says(path):
    """「见下面的代码」：下一个可见的代码单元格有打印输出，同一句里的 glue 数也出现在那份输出里。"""
    from myst_nb.core.variables import format_plain_text
    executed = nbformat.read(EXECUTED / path.name, as_version=4)
    glued = json.loads((EXECUTED / f"{path.stem}.glue.json").read_text(encoding="utf-8"))
    cells = executed.cells
    for i, cell in enumerate(cells):
        if cell.cell_type != "markdown" or not SEE_CODE.search(cell.source):
            continue
        nxt = next((c for c in cells[i + 1:] if c.cell_type == "code" and not is_glue_cell(c)), None)
        assert nxt is not None, f"{path.stem}：「见下面的代码」后面没有代码单元格"
        printed = "".join(o.get("text", "") for o in nxt.outputs if o.output_type == "stream")
        printed += "".join(o.get("data", {}).get("text/plain", "") for o in nxt.outputs if "data" in o)
        assert printed.strip(), f"{path.stem}：「见下面的代码」指的代码什么也不打印：\n{nxt.source[:200]}"
        for m in SEE_CODE.finditer(cell.source):
            sentence = re.split(r"[。！？\n]", cell.source[:m.start()])[-1]
            for name, spec in GLUE_ROLE.findall(sentence):
                shown = format_plain_text(glued[name]["data"]["text/plain"], spec or "")
                assert shown in printed, (f"{path.stem}：正文说 {shown}（{name}）见下面的代码，"
                                          f"但那段代码的输出里没有它：{printed[:300]}")


# 「最小的是 a，最大的是 a」「最小 a，最大 a」：两端写出来相同，其实是一个值
MIN_MAX = re.compile(r"最小(?:的是|值为|值是|为|是)?\s*([−\-]?\d+(?:\.\d+)?)\s*[，,、]\s*"
                     r"最大(?:的是|值为|值是|为|是)?\s*([−\-]?\d+(?:\.\d+)?)(?![\d.])")


def degenerate_ranges(text):
    """两端写出来相同的「a 到 a」「最小 a，最大 a」。"""
    return ([m.group(0) for m in RANGE.finditer(text) if m.group(1) == m.group(2)]
            + [m.group(0) for m in MIN_MAX.finditer(text) if m.group(1) == m.group(2)])


def test_degenerate_range_patterns_find_what_they_should():
    hits = ["在 1.000 到 1.000 之间", "最小的是 1.0000，最大的是 1.0000", "最小 0.50，最大 0.50", "1.0000–1.0000"]
    misses = ["在 0.98 到 1.02 之间", "最小的是 0.9999，最大的是 1.0000", "−5 到 5", "都是 1.0000", "最小 1.5，最大 1.50x"]
    assert [s for s in hits if not degenerate_ranges(s)] == []
    assert [s for s in misses if degenerate_ranges(s)] == []


def test_no_min_max_whose_ends_read_alike():
    found = equal_ends(MIN_MAX)
    assert found == [], f"{len(found)} 处「最小 a，最大 a」（请说「都是 a」）：\n" + "\n".join(found)


def explorer_texts():
    """书里用到的四个探索器（第 3、5、7 章），按书页的初始视图渲染出来的文字，连同 aria-label 等属性里的说明：
    [(哪个视图, 文字)]。轴探索器的每种方式都渲染一次；几何探索器也渲染靠近原点的情形。"""
    from dsx_util import widgets as dsx_widgets
    from dsx_util.widgets import spec as S

    def text(view):
        view = re.sub(r"(?s)<(script|style)\b.*?</\1>", "", view)
        attrs = " ".join(html.unescape(a) for a in re.findall(r'(?:aria-label|title|alt)="([^"]*)"', view))
        return page_text(view) + " " + attrs

    out = [("layer_norm_explorer()", text(dsx_widgets.layer_norm_explorer()._repr_html_())),
           ("layer_norm_explorer(gamma=2, beta=1)", text(dsx_widgets.layer_norm_explorer(gamma=2.0, beta=1.0)._repr_html_())),
           ("dim_keepdim_explorer()", text(dsx_widgets.dim_keepdim_explorer()._repr_html_())),
           ("norm_geometry_explorer()", text(dsx_widgets.norm_geometry_explorer()._repr_html_())),
           ("norm_geometry_explorer(x≈0)", text(dsx_widgets.norm_geometry_explorer(x=[0.01, -0.02, 0.005])._repr_html_()))]
    out += [(f"norm_axes_explorer(mode={m['key']!r})", text(dsx_widgets.norm_axes_explorer(mode=m["key"])._repr_html_()))
            for m in S.NORM_AXES_SPEC["modes"]]
    return out


def test_explorer_text_has_no_degenerate_range():
    texts = explorer_texts()
    found = [f"{name}：{hit}" for name, t in texts for hit in degenerate_ranges(t)]
    assert found == [], f"探索器里有 {len(found)} 处两端相同的范围（请说「都是 x」）：\n" + "\n".join(found)
    assert any("方差都是" in t or "均方根都是" in t for _, t in texts), "轴探索器的检查句应当出现在渲染结果里"


MAX_VISIBLE_DRAWING = 20   # 只画图、不打印的代码单元格超过这么多行，就折叠起来（hide-input）：图才是要看的


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_long_drawing_code_is_folded(path):
    """「图才是重点」的单元格：只画图（有 plt.subplots 或 plt.show）、不打印，超过 MAX_VISIBLE_DRAWING 行就带 hide-input。"""
    nb = nbformat.read(path, as_version=4)
    shown = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code" or not re.search(r"plt\.subplots|plt\.show\(\)", cell.source):
            continue
        lines = len(cell.source.strip().splitlines())
        tags = cell.metadata.get("tags", [])
        if "print(" not in cell.source and lines > MAX_VISIBLE_DRAWING and not {"hide-input", "remove-input", "remove-cell"} & set(tags):
            shown.append(f"单元格 {i}（{lines} 行）")
    assert shown == [], f"{path.stem}：这些画图单元格请加 hide-input 标签：{shown}"
