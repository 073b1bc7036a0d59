"""插图的文字描述（alt）从 glue 的值生成：描述与图画的是同一组数，不会一个说增长、一个画下降。

章节里图的单元格元数据写 ``mystnb.image.alt: "{glue:名字}"``（可以夹在别的文字里），名字是同一章里
``glue("名字", 文字)`` 交给正文的一个字符串，由画图用的那几个数算出。doctree-read 时把占位符换成这个字符串。
找不到这个名字时构建报警告（make book 用 -W，警告即错误）。
"""
import ast
import re

from sphinx.util import logging

PLACEHOLDER = re.compile(r"\{glue:([A-Za-z0-9_]+)\}")
logger = logging.getLogger(__name__)


def glued_texts(notebook):
    """执行后的笔记本里每个 glue 名字 -> 它的 text/plain（字符串去掉引号）。"""
    texts = {}
    for cell in notebook.cells:
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            meta = output.get("metadata", {}).get("scrapbook")
            if not meta:
                continue
            prefix = meta.get("mime_prefix", "")
            plain = output.get("data", {}).get(prefix + "text/plain")
            if plain is None:
                continue
            try:
                value = ast.literal_eval(plain)
            except (ValueError, SyntaxError):
                value = plain
            texts[meta["name"]] = value if isinstance(value, str) else plain
    return texts


def fill(alt, texts):
    """把 alt 里的 {glue:名字} 换成 texts 里的字符串；返回（新 alt，找不到的名字列表）。"""
    missing = []

    def sub(m):
        if m.group(1) not in texts:
            missing.append(m.group(1))
            return m.group(0)
        return texts[m.group(1)]
    return PLACEHOLDER.sub(sub, alt), missing


def fill_figure_alt(app, doctree):
    """doctree-read：图片的 alt 里有 {glue:名字} 时，换成这一章 glue 的字符串。"""
    from docutils import nodes
    images = [n for n in doctree.findall(nodes.image) if PLACEHOLDER.search(n.get("alt", ""))]
    if not images:
        return
    from .executed import from_cache
    executed = from_cache(app, app.env.docname)
    texts = glued_texts(executed) if executed is not None else {}
    for node in images:
        node["alt"], missing = fill(node["alt"], texts)
        for name in missing:
            logger.warning(f"插图描述里的 {{glue:{name}}} 找不到：这一章没有 glue 这个名字（或执行缓存里没有这一章）",
                           location=node)
