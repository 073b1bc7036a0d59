"""按本书的章节模板新建一个笔记本：设置单元格 → 标题与学习目标 → 正文 → 面试速答 → 小结 → 练习（只在这一章有练习时）。

python -m dsx_book.new_chapter book/ch14_名字.ipynb "标题"              # 没有练习的一章
python -m dsx_book.new_chapter book/ch14_名字.ipynb "标题" --exercises  # 有练习：末尾是「## 练习」标记单元格，make sync 在它后面生成练习

模板里的占位文字（「（……）」）都要换成正文；面试速答的 3 条已经是 tests/test_takeaways.py 要求的格式，
每条链接到本章的一节（模板里是「第一节」的标签 chNN-first）。
"""
import argparse
import re

import nbformat

from .nbsync import EXERCISES_INTRO, SETUP_METADATA, SETUP_TAGS, setup_cell_source


GLOSSARY_LINE = "不认识的术语，可以查{doc}`术语表 <glossary>`：每条一句话，并链接到讲它的那一节。"


def takeaways(prefix):
    """「面试速答」框（小结之前，3–5 条，每条「- **问题？** 一句话回答。见「{ref}`标签`」。」）。"""
    items = "\n".join(f"- **（第{n}个问题）？** （一句话回答。）见「{{ref}}`{prefix}-first`」。" for n in "一二三")
    return f"({prefix}-takeaways)=\n:::{{admonition}} 面试速答\n:class: note dsx-takeaways\n\n{items}\n:::"


def new_chapter(path, title, exercises=False):
    match = re.match(r"(ch\d\d)_", str(path).replace("\\", "/").rsplit("/", 1)[-1])
    if not match:
        raise ValueError(f"章节文件名应形如 book/ch14_名字.ipynb，现在是 {str(path)!r}")
    prefix = match.group(1)
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    nb = nbformat.v4.new_notebook()
    nb.metadata.update({"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
                        "language_info": {"name": "python"}, "colab": {"provenance": []}})
    nb.cells = [
        code(setup_cell_source(), metadata={"tags": SETUP_TAGS, **SETUP_METADATA}),
        md(f"# {title}\n\n**学习目标**\n\n- （本章完成后你能做到的事）\n\n{GLOSSARY_LINE}"),
        md(f"({prefix}-first)=\n## 第一节"),
        code("import torch\nimport dsx_util"),
        md(takeaways(prefix)),
        md("## 小结\n\n- （本章要点）"),
    ]
    if exercises:
        nb.cells.append(md(EXERCISES_INTRO, metadata={"tags": ["exercises"]}))
    nbformat.write(nb, path)


def main(argv=None):
    parser = argparse.ArgumentParser(description="按模板新建一章")
    parser.add_argument("path", help="book/chNN_名字.ipynb")
    parser.add_argument("title", help="章节标题")
    parser.add_argument("--exercises", action="store_true", help="这一章有练习：末尾加「## 练习」标记单元格")
    args = parser.parse_args(argv)
    new_chapter(args.path, args.title, exercises=args.exercises)


if __name__ == "__main__":
    main()
