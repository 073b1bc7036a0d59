"""PDF 版（make pdf → dsx_book/build_pdf.py）：与网页版同源、同一份执行结果，内容完整、排版不出界。

模块开始时运行一次完整的 PDF 构建（单页 HTML + chromium 打印），再用 pypdf 和 poppler 的 pdftotext/pdffonts 检查。
"""
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import BOOK, ROOT, chapter_paths, glued_values

from dsx_book import build_pdf

PDF = build_pdf.pdf_path()
GLUE_TEXT = re.compile(r"\{glue:text\}`([A-Za-z0-9_]+)(?::([^`]*))?`")


def cache_records():
    """执行缓存（与网页版共用）里的记录：{笔记本: (记录号, 内容哈希, 创建时间)}。"""
    from jupyter_cache import get_cache
    cache = get_cache(str(ROOT / "_build" / ".jupyter_cache"))
    return {Path(r.uri).name: (r.pk, r.hashkey, r.created) for r in cache.list_cache_records()}


@pytest.fixture(scope="module")
def built():
    """完整运行一次 PDF 构建；返回构建前后的执行缓存记录。"""
    before = cache_records()
    done = subprocess.run([sys.executable, "-m", "dsx_book.build_pdf"], capture_output=True, text=True,
                          cwd=ROOT)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    return before, cache_records()


@pytest.fixture(scope="module")
def reader(built):
    from pypdf import PdfReader
    return PdfReader(str(PDF))


@pytest.fixture(scope="module")
def text(built):
    return subprocess.run(["pdftotext", "-enc", "UTF-8", str(PDF), "-"], capture_output=True, text=True,
                          check=True).stdout


def squash(s):
    return re.sub(r"\s+", "", s)


def chapter_title(path):
    """笔记本里第一个一级标题。"""
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] == "markdown":
            match = re.search(r"^# (.+)$", "".join(cell["source"]), re.M)
            if match:
                return match.group(1).strip()
    raise AssertionError(f"{path.name} 没有一级标题")


def top_bookmarks(reader, labels=False):
    """顶层书签：(标题, 页)；页是从 1 数的物理页号，labels=True 时是页码标签（页脚印的页码）。"""
    marks = []
    for item in reader.outline:
        if not isinstance(item, list):
            index = reader.get_destination_page_number(item)
            marks.append((item.title, reader.page_labels[index] if labels else index + 1))
    return marks


def cells_tagged(tag):
    count = 0
    for path in chapter_paths():
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            count += tag in cell.get("metadata", {}).get("tags", [])
    return count


def test_no_second_execution(built):
    """单页 HTML 用的是网页版的执行缓存：网页版最新时（make test 先构建网页版）一章也不执行。"""
    before, after = built
    log = (build_pdf.OUT_DIR / "singlehtml.log").read_text(encoding="utf-8")
    hint = "（网页版的执行缓存不是最新的？先运行 make book）"
    assert build_pdf.executed_chapters(log) == [], f"PDF 构建又执行了这些章节{hint}"
    assert {p.name for p in chapter_paths()} <= set(before), f"执行缓存里缺少章节{hint}"
    assert after == before, f"PDF 构建改动了执行缓存{hint}"


def test_figures_in_the_singlehtml_are_not_lazy(built):
    """网页版的插图延迟加载（dsx_book/trim.py）；单页 HTML 不延迟：打印前要等全部图片加载完。"""
    pages = list(build_pdf.SINGLE.rglob("*.html"))
    assert pages and any("_images/" in p.read_text(encoding="utf-8") for p in pages)
    assert not [p for p in pages if 'loading="lazy"' in p.read_text(encoding="utf-8")]


def test_pages_and_cover(reader, text):
    info = build_pdf.book_info()
    assert len(reader.pages) > 0
    cover = reader.pages[0].extract_text()
    assert squash(info["title"]) in squash(cover) and info["version"] in cover and info["site"] in squash(cover)
    assert squash(cover).count(squash(info["title"])) == 1, "封面不该有页眉"
    assert reader.page_labels[0] == "封面" and reader.page_labels[1] == "1"


def test_copied_text_is_unified_hanzi(reader):
    """从 PDF 复制、搜索到的是统一汉字，而不是外形相同的康熙部首（如「⼿」U+2F3F 代替「手」）。"""
    pages = [page.extract_text() for page in reader.pages]
    radicals = sorted({ch for page in pages for ch in page if 0x2E80 <= ord(ch) <= 0x2FDF})
    assert radicals == [], f"PDF 的文字里有部首字符：{''.join(radicals)}"
    assert "层归一化" in pages[0]


def test_chinese_set_in_simplified_chinese_faces(built):
    """chromium 排正文实际用到的字体（构建时记在 fonts.json）：中文全部来自 Noto CJK 的 SC 字体，没有 JP/TC/KR/HK 字形。"""
    used = json.loads((build_pdf.OUT_DIR / "fonts.json").read_text(encoding="utf-8"))
    cjk = {family: n for family, n in used.items() if "CJK" in family}
    assert cjk.get("Noto Serif CJK SC", 0) > 10000, used
    assert all(family.endswith(" SC") for family in cjk), f"用到了非简体中文的字体：{cjk}"


def test_one_bookmark_per_chapter(reader):
    """每章恰好一个顶层书签，下面挂着该章各节的书签。"""
    outline = reader.outline
    children = {item.title: outline[i + 1] if i + 1 < len(outline) and isinstance(outline[i + 1], list) else []
                for i, item in enumerate(outline) if not isinstance(item, list)}
    for path in chapter_paths():
        title = chapter_title(path)
        hits = [t for t in children if t == title or re.fullmatch(r"\d+\. " + re.escape(title), t)]
        assert len(hits) == 1, f"{path.stem}「{title}」的顶层书签有 {len(hits)} 个；顶层书签：{list(children)}"
        assert len(children[hits[0]]) >= 2, f"「{title}」下面没有各节的书签"


def test_chapter_titles_are_text(text):
    flat = squash(text)
    for path in chapter_paths():
        assert squash(chapter_title(path)) in flat, f"PDF 文字里没有章标题「{chapter_title(path)}」"


def test_glued_numbers_are_in_the_text(text, built):
    """正文里每一处 {glue:text} 的值（按 myst-nb 同样的格式，取自执行缓存里执行过的笔记本）都出现在 PDF 文字中。"""
    from jupyter_cache import get_cache
    from myst_nb.core.variables import format_plain_text
    cache = get_cache(str(ROOT / "_build" / ".jupyter_cache"))
    flat = squash(text)
    checked, missing = 0, []
    for path in chapter_paths():
        values = glued_values(cache.get_cache_bundle(cache.match_cache_file(str(path)).pk).nb)
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] != "markdown":
                continue
            for name, spec in GLUE_TEXT.findall("".join(cell["source"])):
                shown = squash(format_plain_text(values[name], spec or ""))
                checked += 1
                if shown not in flat:
                    missing.append(f"{name}={shown}")
    assert checked >= 50, f"只找到 {checked} 处 glue，样本太少"
    assert missing == [], f"{len(missing)}/{checked} 个 glue 值不在 PDF 文字里：{missing[:10]}"


def test_no_visible_glue_lines(text):
    """书自己的记账（glue 单元格带 remove-cell）不进 PDF：PDF 文字里看得见的 glue( 行不超过 10 行（issue 23）。"""
    lines = [line.strip() for line in text.splitlines() if "glue(" in line]
    assert len(lines) <= 10, f"PDF 里看得见 {len(lines)} 行 glue(：{lines[:5]}"


def test_no_raw_markup(text):
    for raw in (r"\frac", "$$", "{glue", r"\(", r"\[", "{eq}", "{doc}"):
        assert raw not in text, f"PDF 文字里有未渲染的标记 {raw!r}：…{text[max(0, text.find(raw) - 80):text.find(raw) + 80]}…"


def test_fonts_embedded(built):
    out = subprocess.run(["pdffonts", str(PDF)], capture_output=True, text=True, check=True).stdout.splitlines()[2:]
    assert out, "PDF 里没有字体"
    not_embedded = [line for line in out if line.split()[-5] != "yes"]
    assert not_embedded == [], not_embedded[:5]


def test_no_text_beyond_the_margins(built):
    """每页每个词的文字框都在版心之内（左右页边距 18 mm）：代码换行、表格缩进都不出界。"""
    page_w = 595.92
    margin = float(build_pdf.MARGIN["left"].removesuffix("mm")) * 72 / 25.4
    xml = subprocess.run(["pdftotext", "-bbox", str(PDF), "-"], capture_output=True, text=True, check=True).stdout
    outside = []
    for page_no, page in enumerate(xml.split("<page ")[1:], start=1):
        for x0, x1, word in re.findall(r'<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)<',
                                       page):
            if float(x0) < margin - 1 or float(x1) > page_w - margin + 1:
                outside.append(f"第 {page_no} 页：{word}（{float(x0):.0f}–{float(x1):.0f} pt）")
    assert len(xml.split("<page ")) > 1
    assert outside == [], f"{len(outside)} 个词超出版心：{outside[:10]}"


def test_toc_page_numbers_match_bookmarks(reader):
    """目录页上每章标题后面的页码，就是该章书签所在的页。"""
    marks = top_bookmarks(reader)
    titles = [t for t, _ in marks]
    assert "目录" in titles, f"没有「目录」书签：{titles}"
    first = marks[titles.index("目录")][1]
    last = marks[titles.index("目录") + 1][1] - 1   # 目录一直排到下一个顶层书签之前
    assert last >= first
    toc = subprocess.run(["pdftotext", "-layout", "-f", str(first), "-l", str(last), str(PDF), "-"],
                         capture_output=True, text=True, check=True).stdout
    for title, label in top_bookmarks(reader, labels=True):
        if title == "目录":
            continue
        match = re.search(re.escape(title) + r"\s*\.*\s*(\d+)\s*$", toc, re.M)
        assert match, f"目录里没有「{title}」"
        assert match.group(1) == label, f"目录说「{title}」在第 {match.group(1)} 页，书签所指的页印着页码 {label}"


def test_hints_shown_and_solutions_in_appendix(reader, text):
    solutions = cells_tagged("exercise-solution")
    assert solutions > 0
    appendix = [t for t, _ in top_bookmarks(reader) if "参考答案" in t]
    assert len(appendix) == 1
    assert text.count("参考答案见书末附录") == solutions
    start = text.rfind(appendix[0])
    assert text[start:].count("参考答案：") == solutions, "附录里的参考答案数与练习的答案单元格数不同"
    assert "点击展开" not in text  # 没有折叠的内容
    hints = sum(cell_source.count("<summary>提示</summary>") for cell_source in
                ("".join(c["source"]) for p in chapter_paths()
                 for c in json.loads(p.read_text(encoding="utf-8"))["cells"]))
    assert hints > 0 and text.count("提示") >= hints


def test_no_web_only_lines_under_the_exercises(text):
    """网页练习的工具栏和检查单元格上方「这一格是给 Jupyter、Colab 用的」那行说明只属于网页：PDF 里没有；
    对照：每道网页练习的检查单元格照样印在 PDF 里。"""
    from dsx_book.inpage import CHECK_LABEL
    from dsx_util.exercises.catalog import EXERCISES
    flat = squash(text)
    in_page = [ex for ex in EXERCISES if ex.in_page]
    assert in_page and all(squash(f"{ex.checker}({ex.entry})") in flat for ex in in_page)
    assert squash(CHECK_LABEL)[:20] not in flat and "运行并检查" not in flat


def test_explorers_are_static_figures_with_the_live_url(text):
    site = build_pdf.book_info()["site"]
    calls = {p.stem: sum("_explorer(" in "".join(c["source"]) for c in json.loads(p.read_text(encoding="utf-8"))["cells"]
                         if c["cell_type"] == "code")
             for p in chapter_paths()}
    flat = squash(text)
    assert sum(calls.values()) > 0
    assert flat.count("上图是交互探索器的默认状态") == sum(calls.values())
    for chapter, n in calls.items():
        assert flat.count(f"{site}book/{chapter}.html") == n, f"{chapter} 的探索器下面应当写明网页版地址"


def test_web_edition_links_to_the_pdf(built):
    index = (BOOK / "index.md").read_text(encoding="utf-8")
    assert f'href="../{PDF.name}"' in index, "首页应当有一行链接到 PDF（网站根目录下的文件）"
    html = ROOT / "_build" / "html"
    if (html / "index.html").exists():
        assert (html / PDF.name).read_bytes() == PDF.read_bytes()
        page = (html / "book" / "index.html").read_text(encoding="utf-8")
        assert f'href="../{PDF.name}"' in page
        assert build_pdf.PDF_LINK_SHOWN in page, "PDF 已复制进网站，首页的下载链接却还隐藏着"
