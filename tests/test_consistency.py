"""全书一致性（见 ../shared/GLOSSARY.md）：公式引用都能找到印出来的编号；一个符号只有一个含义；
中文不用斜体；正文数字不用 e 记数法；一个概念只用一个术语；每个 glue 的值都被正文用到。

扫描的范围：每章笔记本的全部单元格（包括「## 练习」之后由 dsx_book/nbsync.py 生成的单元格），
以及 dsx_util 里所有的注释和字符串（练习题面、提示、检查器的消息都在其中）。
每个检查函数先在故意写错的样例上测试，证明它真的能发现问题。
"""
import ast
import io
import re
import tokenize
from functools import cache

import nbformat
import pytest
import yaml

from conftest import ROOT, chapter_paths, glued_bundles, glued_values, html_dir

CJK = "\u4e00-\u9fff"
CHAPTERS = chapter_paths()
IDS = [p.stem for p in CHAPTERS]


# ---------------------------------------------------------------- 取出要检查的文字


def split_markdown(text):
    """把 Markdown 切成 (种类, 片段)：种类是 "code"（行内代码与代码块）、"math"（$…$、$$…$$）或 "text"。"""
    pattern = re.compile(r"(```.*?```|`[^`\n]*`|\$\$.*?\$\$|\$[^$\n]+\$)", re.S)
    parts, pos = [], 0
    for m in pattern.finditer(text):
        parts.append(("text", text[pos:m.start()]))
        token = m.group()
        parts.append(("code" if token.startswith("`") else "math", token))
        pos = m.end()
    parts.append(("text", text[pos:]))
    return [(kind, s) for kind, s in parts if s]


def python_prose(source):
    """Python 源码里人会读到的文字：注释和字符串（含文档字符串、消息、练习题面），逐个返回。"""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return [source]
    texts = []
    for t in tokens:
        if t.type == tokenize.STRING and re.match(r"[rRbB]?[fF]", t.string):
            texts.append(re.sub(r"\{[^{}]*\}", "", t.string))      # f 字符串里的 {表达式} 是代码，不是文字
        elif t.type == tokenize.STRING and is_code_sample(t.string):
            continue                                                   # 练习里学习者写的代码（多行、能编译），不是文字
        elif t.type in (tokenize.COMMENT, tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", -1)):
            texts.append(t.string)
    return texts


def is_code_sample(literal):
    """字符串字面量的内容是多行、能编译的 Python 代码（mistakes.py 里评审者与学习者原样写下的代码）。"""
    try:
        value = ast.literal_eval(literal)
        return isinstance(value, str) and "\n" in value.strip() and compile(value, "<sample>", "exec") is not None
    except (ValueError, SyntaxError, TypeError):
        return False


@cache
def notebook(path):
    return nbformat.read(path, as_version=4)


def chapter_texts(path):
    """[(位置, "markdown"/"python", 文字)]：一章的每个 Markdown 单元格，以及每个代码单元格的注释和字符串。"""
    out = []
    for i, cell in enumerate(notebook(path).cells):
        where = f"{path.stem} 单元格 {i}"
        if cell.cell_type == "markdown":
            out.append((where, "markdown", cell.source))
        elif cell.cell_type == "code":
            out += [(where, "python", s) for s in python_prose(cell.source)]
    return out


def package_texts():
    """dsx_util 里每个 .py 文件的注释和字符串。"""
    out = []
    for py in sorted((ROOT / "dsx_util").rglob("*.py")):
        rel = py.relative_to(ROOT).as_posix()
        out += [(rel, "python", s) for s in python_prose(py.read_text(encoding="utf-8"))]
    return out


def all_texts():
    texts = [t for p in CHAPTERS for t in chapter_texts(p)]
    return texts + package_texts()


def prose_segments(kind, text):
    """(种类, 片段)：Markdown 与 Python 的注释、字符串都按 split_markdown 切开（字符串里也常有 `代码` 和 $公式$）。"""
    return split_markdown(text)


# ---------------------------------------------------------------- 公式编号


def chapter_numbers():
    """{章节文件名: 印出来的章号}。与 Jupyter Book 的规则相同：numbered 的各部分连续编号，其余不编号。"""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    numbers, n = {}, 0
    for part in toc.get("parts", []):
        for chapter in part.get("chapters", []):
            if part.get("numbered"):
                n += 1
                numbers[chapter["file"].split("/")[-1]] = n
    return numbers


LABEL_DEF = re.compile(r"\$\$\s*\((eq-[\w-]+)\)")


def equation_numbers():
    """{标签: "4.1"}：每章带标签的行间公式按出现顺序编号，前面加章号。"""
    numbers = {}
    chapter_no = chapter_numbers()
    for path in CHAPTERS:
        labels = [m.group(1) for c in notebook(path).cells if c.cell_type == "markdown"
                  for m in LABEL_DEF.finditer(c.source)]
        for k, label in enumerate(labels, start=1):
            assert path.stem in chapter_no, f"{path.stem} 没有章号，却有带编号的公式 {label}"
            numbers[label] = f"{chapter_no[path.stem]}.{k}"
    return numbers


REF = re.compile(r"(?:公式|(?<![形方模格样算程正各句仪款版制范招架达项])式)\s*"
                 r"((?:[（(][^()（）\n]{1,30}[)）](?:\s*[–—~～\-到至和与、]\s*)?)+|\d+(?:\.\d+)?)")
RAW_LABEL = re.compile(r"(?<![\w-])eq-[a-z0-9][\w-]*")


def bad_equation_refs(text, printed):
    """文字里引用公式的地方，凡是不能对应到印出来的编号（如 4.3）的，都返回；裸露的 eq- 标签也返回。"""
    bad = []
    for m in REF.finditer(text):
        items = re.findall(r"[（(]([^()（）]*)[)）]", m.group(1)) or [m.group(1)]
        for item in items:
            item = item.strip()
            if item.startswith("{eq}") or item in printed:
                continue
            bad.append(m.group(0).strip())
    visible = re.sub(r"\{eq\}`[^`]*`", "", LABEL_DEF.sub("", text))
    bad += RAW_LABEL.findall(visible)
    return bad


def test_equation_ref_checker_catches_seeded_errors():
    printed = {"4.1", "4.2", "4.3", "4.4"}
    assert bad_equation_refs("按公式 (1) 求均值", printed) == ["公式 (1)"]
    assert bad_equation_refs("式 (4.3) 与式 (4.9)", printed) == ["式 (4.9)"]
    assert bad_equation_refs("# 公式 (eq-bwd-dbeta)", printed)
    assert bad_equation_refs("公式 (1)–(3)：沿最后一维", printed)
    assert bad_equation_refs("标准化后（式 3）", printed) == ["式 3"]
    assert bad_equation_refs("见 eq-ln-norm", printed) == ["eq-ln-norm"]
    assert bad_equation_refs("式 {eq}`eq-ln-mean` 和式 (4.1)–(4.3)；形式 (a) 不是公式", printed) == []
    assert bad_equation_refs("$$\nx\n$$ (eq-ln-mean)", printed) == []


def test_chapter_numbers_match_the_built_pages():
    """上面推算出的编号就是网页上印出来的编号（读构建好的 HTML 里的 eqno）。"""
    pages = html_dir() / "book"
    if not pages.exists():
        pytest.fail(f"没有找到构建好的书：{pages}。请先运行 make book。")
    numbers = equation_numbers()
    assert numbers, "书中应当有带编号的公式"
    for label, number in numbers.items():
        stem = next(p.stem for p in CHAPTERS
                    if any(f"({label})" in c.source for c in notebook(p).cells if c.cell_type == "markdown"))
        html = (pages / f"{stem}.html").read_text(encoding="utf-8")
        m = re.search(rf'id="equation-{re.escape(label)}"[^>]*>\s*<span class="eqno">\(([\d.]+)\)', html)
        assert m and m.group(1) == number, f"{stem} 的 {label}：推算为 ({number})，网页上是 {m and m.group(1)}"


def test_every_equation_reference_resolves():
    printed = set(equation_numbers().values())
    problems = [f"{where}: {ref}" for where, _, text in all_texts() for ref in bad_equation_refs(text, printed)]
    assert problems == [], "公式引用要用网页上印出来的编号（正文用 {eq} 角色，注释和消息写 式 (4.3)）：\n" \
        + "\n".join(problems)


# ---------------------------------------------------------------- 一个符号一个含义

SHAPE = re.compile(r"[\[(]\s*\w{1,4}(?:\s*,\s*\w{1,4})*\s*,\s*(?:\w{1,4}\s*)?[\])]")
AXIS_LETTERS = {"N", "D", "n", "d", "C", "E"}
MATH_AXIS = re.compile(r"(?<![\\A-Za-z])([NnDd])(?![A-Za-z])")
TEXT_AXIS = re.compile(r"(?<![A-Za-z0-9_.\\$-])([NDn])(?![A-Za-z0-9_(（])")
CALL = re.compile(r"[A-Za-z_]\w*\([^()\n]*\)")
BLOCK_COUNT_OK = {"ch01_gpt_architecture", "ch09_pre_post_ln", "dsx_util/gpt.py"}


def bad_symbols(kind, text, where=""):
    """被归一化的维度只能叫 H，批量大小只能叫 B；N 只在第 1、9 章表示 Transformer 块的个数。"""
    allow_n = any(where.startswith(w) for w in BLOCK_COUNT_OK)
    bad = []
    for seg_kind, seg in prose_segments(kind, text):
        seg = CALL.sub("", seg)          # f(a, n)、def g(x, n): 里的是代码的参数名，不是符号
        for m in SHAPE.finditer(seg):
            if {e.strip() for e in m.group()[1:-1].split(",")} & AXIS_LETTERS:
                bad.append(m.group())
        if seg_kind == "math":
            hits = MATH_AXIS.findall(seg)
        elif seg_kind == "text":
            hits = TEXT_AXIS.findall(seg)
        else:
            hits = []
        bad += [h for h in hits if not (h == "N" and allow_n)]
    return bad


def test_symbol_checker_catches_seeded_errors():
    assert bad_symbols("markdown", "`x` 的形状为 [N, D]") == ["[N, D]", "N", "D"]
    assert bad_symbols("markdown", "$x \\in \\mathbb{R}^N$，均值 $\\frac{1}{n}\\sum_i x_i$") == ["N", "n"]
    assert bad_symbols("python", "无偏方差（除以 D−1）") == ["D"]
    assert bad_symbols("markdown", "把 γ 存成形状 `(1, 1, N)`") == ["(1, 1, N)"]
    assert bad_symbols("python", "两者形状都是 (D,)") == ["(D,)", "D"]
    assert bad_symbols("markdown", "$N$ 个 Transformer 块", where="ch01_gpt_architecture") == []
    assert bad_symbols("markdown", "$N$ 个 Transformer 块", where="ch08_rmsnorm") == ["N"]
    assert bad_symbols("python", "def to_biased(var_unbiased, n):\n    # 无偏方差（除以 n-1）换算成有偏方差") == ["n"]
    assert bad_symbols("python", "x.view(N, D) 之后") == []
    ok = "形状 `[B, T, H]`、[B, H]；$\\frac{1}{H}\\sum_{i=1}^{H} x_i$，$\\ln 16$，$\\delta_{ij}$，NaN，N(0, 1) 分布"
    assert bad_symbols("markdown", ok) == []


def test_one_symbol_per_meaning():
    problems = [f"{where}: {s}" for where, kind, text in all_texts() for s in bad_symbols(kind, text, where)]
    assert problems == [], "被归一化的维度写 H，批量大小写 B，形状写 [B, T, H]（GLOSSARY.md）：\n" + "\n".join(problems)


# ---------------------------------------------------------------- 排版：斜体、e 记数法、术语

ITALIC = re.compile(rf"(?<![*\w])\*(?!\s)([^*\n]*[{CJK}][^*\n]*?)(?<!\s)\*(?![*\w])|"
                    rf"(?<![_\w\\])_(?!\s)([^_\n]*[{CJK}][^_\n]*?)(?<!\s)_(?![_\w])")


def cjk_italics(text):
    """Markdown 正文里包住中文的 *斜体* 或 _斜体_（**粗体** 不算）。"""
    found = []
    for kind, seg in split_markdown(text):
        if kind == "text":
            plain = seg.replace("**", "\0\0")
            found += [a or b for a, b in ITALIC.findall(plain)]
    return found


def test_italic_checker_catches_seeded_errors():
    assert cjk_italics("只把 *这 H 个数* 平移") == ["这 H 个数"]
    assert cjk_italics("是 _无偏_ 方差") == ["无偏"]
    assert cjk_italics("**重要**：`a*b*c`，$a*b$，*Build a Large Language Model*，x_1 与 y_2") == []


def markdown_findings(find, show="{}"):
    """各章的 Markdown 单元格与 book/index.md 里 find(文字) 找到的每一处：["ch01_… 单元格 3: 找到的", ...]。"""
    problems = [f"{p.stem} 单元格 {i}: " + show.format(s) for p in CHAPTERS for i, c in enumerate(notebook(p).cells)
                if c.cell_type == "markdown" for s in find(c.source)]
    problems += ["book/index.md: " + show.format(s) for s in find((ROOT / "book" / "index.md").read_text("utf-8"))]
    return problems


def test_no_italics_in_chinese_markdown():
    problems = markdown_findings(cjk_italics, "*{}*")
    assert problems == [], "中文不用斜体，强调用 **粗体**：\n" + "\n".join(problems)


def test_no_italics_in_chinese_html():
    """构建出的网页里，<em> 不包住中文（也覆盖 glue、检查器消息等生成的文字）。"""
    pages = html_dir() / "book"
    if not pages.exists():
        pytest.fail(f"没有找到构建好的书：{pages}。请先运行 make book。")
    problems = []
    for page in sorted(pages.glob("*.html")) + [html_dir() / "index.html"]:
        for em in re.findall(r"<em\b[^>]*>(.*?)</em>", page.read_text(encoding="utf-8"), re.S):
            if re.search(f"[{CJK}]", re.sub(r"<[^>]+>", "", em)):
                problems.append(f"{page.name}: <em>{em[:40]}</em>")
    assert problems == []


E_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?[eE][+-]?\d+(?![\w.])")
GLUE_E_FORMAT = re.compile(r"\{glue(?::text)?\}`[\w.-]+:[^`]*[eE]`")


def e_notation(text):
    """Markdown 正文（不含代码和公式）里的 e 记数法，以及会把数字排成 e 记数法的 glue 格式。"""
    found = GLUE_E_FORMAT.findall(text)
    for kind, seg in split_markdown(text):
        if kind == "text":
            found += E_NUMBER.findall(seg)
    return found


def test_e_notation_checker_catches_seeded_errors():
    assert e_notation("学习率降到 3e-3 时") == ["3e-3"]
    assert e_notation("最大差为 {glue:text}`ch10_max_diff:.1e`") == ["{glue:text}`ch10_max_diff:.1e`"]
    assert e_notation("均值 1.2×10⁶；代码 `eps=1e-5`；公式 $10^{-5}$；{glue:text}`ch05_x:.4f`") == []


def test_numbers_in_prose_are_not_in_e_notation():
    problems = markdown_findings(e_notation)
    assert problems == [], "正文里的数字写成 1.2×10⁻⁷（glue 用 dsx_util.sci），不写 1.2e-07：\n" + "\n".join(problems)


# 每行：不用的写法 -> 术语表里的写法
TERMS = {"批次": "批量", "令牌": "词元", "标记化": "分词", "归一化层数": "层归一化个数"}


def wrong_terms(text):
    return [w for w in TERMS if w in text]


def test_term_checker_catches_seeded_errors():
    assert wrong_terms("同一个样本放进不同的批次") == ["批次"]
    assert wrong_terms("不同的批量里") == []


def test_one_term_per_concept():
    problems = [f"{where}: {w} -> {TERMS[w]}" for where, _, text in all_texts() for w in wrong_terms(text)]
    problems += [f"book/index.md: {w}" for w in wrong_terms((ROOT / "book" / "index.md").read_text("utf-8"))]
    assert problems == [], "一个概念只用一个术语（GLOSSARY.md）：\n" + "\n".join(problems)


# ---------------------------------------------------------------- glue：算出来的值都要用到

GLUE_USE = re.compile(r"\{glue(?::\w+)?\}`([\w.-]+)(?::[^`]*)?`|```\{glue(?::\w+)?\}\s+([\w.-]+)")


def glue_uses(markdown):
    return {a or b for a, b in GLUE_USE.findall(markdown)}


def unused_glue(glued_names, markdown_cells):
    used = set().union(*(glue_uses(s) for s in markdown_cells)) if markdown_cells else set()
    return sorted(set(glued_names) - used)


def test_unused_glue_checker_catches_seeded_errors():
    cells = ["均值 {glue:text}`ch05_mean:.4f`，{glue}`ch05_flag`", "```{glue:figure} ch05_fig\n图\n```"]
    assert unused_glue({"ch05_mean", "ch05_flag", "ch05_fig", "ch05_orphan"}, cells) == ["ch05_orphan"]
    assert glue_uses("{glue:md}`ch11_err`") == {"ch11_err"}


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_every_glued_value_is_used_by_the_prose(run_chapter, path):
    nb, _, _ = run_chapter(path.stem)
    names = glued_values(nb)
    markdown = [c.source for c in notebook(path).cells if c.cell_type == "markdown"]
    # 插图的文字描述（单元格元数据 mystnb.image.alt 里的 {glue:名字}，dsx_book.figure_alt 填入）也算用到
    alts = [c.get("metadata", {}).get("mystnb", {}).get("image", {}).get("alt", "") for c in notebook(path).cells]
    markdown += [re.sub(r"\{glue:(\w+)\}", r"{glue:text}`\1`", a) for a in alts if a]
    assert unused_glue(names, markdown) == [], "这些值算出来了，正文却没有用到（删掉，或在正文里引用）"


def rendered_glue(markdown, glued):
    """正文里每个 glue 引用在网页上显示成的文字（与 myst-nb 的规则相同）：[(名字, 文字)]。"""
    from myst_nb.core.variables import format_plain_text
    out = []
    for m in re.finditer(r"\{glue(?::(\w+))?\}`([\w.-]+)(?::([^`]*))?`", markdown):
        role, name, spec = m.group(1) or "any", m.group(2), m.group(3) or ""
        bundle = glued.get(name)
        if bundle is None:
            continue
        if role == "md":
            out.append((name, bundle.get("text/markdown", "")))
        else:
            out.append((name, format_plain_text(bundle.get("text/plain", ""), spec)))
    return out


def test_rendered_glue_checker_catches_seeded_errors():
    glued = {"a": {"text/plain": "1e-06"}, "b": {"text/plain": "3.0991e-07", "text/markdown": "3.1×10⁻⁷"},
             "c": {"text/plain": "0.99951"}}
    shown = rendered_glue("{glue:text}`a` {glue:text}`b:.1e` {glue:md}`b` {glue:text}`c:.4f`", glued)
    assert [s for _, s in shown] == ["1e-06", "3.1e-07", "3.1×10⁻⁷", "0.9995"]
    assert [s for _, s in shown if E_NUMBER.search(s)] == ["1e-06", "3.1e-07"]


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_glued_numbers_are_not_shown_in_e_notation(run_chapter, path):
    nb, _, _ = run_chapter(path.stem)
    glued = glued_bundles(nb)
    shown = [(name, s) for c in notebook(path).cells if c.cell_type == "markdown"
             for name, s in rendered_glue(c.source, glued)]
    assert [(name, s) for name, s in shown if E_NUMBER.search(s)] == [], \
        "正文里显示成了 e 记数法：用 dsx_util.sci(值) glue，正文写 {glue:md}`名字`"


def test_sci_writes_powers_of_ten():
    from dsx_util import sci
    assert str(sci(3.0991e-07)) == "3.1×10⁻⁷"
    assert str(sci(1e-6, 0)) == "1×10⁻⁶"
    assert str(sci(12345.0, 2)) == "1.23×10⁴"
    assert str(sci(2.5)) == "2.5"
    value = sci(3.0991e-07)
    assert value == 3.0991e-07 and repr(value) == "3.0991e-07"      # 测试读出的仍是原来的数
    assert value._repr_markdown_() == "3.1×10⁻⁷"
    with pytest.raises(ValueError, match="需要一个数"):
        sci("很小")
    with pytest.raises(ValueError, match="digits"):
        sci(1.0, digits=-1)
