"""按本书的章节模板新建一个笔记本：设置单元格 → 标题与学习目标 → 正文 → 小结 → 练习。

python -m dsx_book.new_chapter book/ch02_why_normalize.ipynb "为什么需要归一化"
"""
import sys

import nbformat

from .nbsync import EXERCISES_INTRO, SETUP_METADATA, SETUP_TAGS, setup_cell_source


def new_chapter(path, title):
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    nb = nbformat.v4.new_notebook()
    nb.metadata.update({"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
                        "language_info": {"name": "python"}, "colab": {"provenance": []}})
    nb.cells = [
        code(setup_cell_source(), metadata={"tags": SETUP_TAGS, **SETUP_METADATA}),
        md(f"# {title}\n\n**学习目标**\n\n- （本章完成后你能做到的事）"),
        md("## 第一节"),
        code("import torch\nimport dsx_util"),
        md("## 小结\n\n- （本章要点）"),
        md(EXERCISES_INTRO, metadata={"tags": ["exercises"]}),
    ]
    nbformat.write(nb, path)


if __name__ == "__main__":
    new_chapter(sys.argv[1], sys.argv[2])
