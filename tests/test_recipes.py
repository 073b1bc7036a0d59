"""CONTRIBUTING.md 的菜谱照着做一遍（在仓库的副本里，见 tests/recipes.py）：每一步都能走通，菜谱写的检查都通过，
改动的文件恰好是菜谱「涉及的文件」那一行写的。

命令取自菜谱的 ```sh 块（原样运行，改了菜谱就运行新的命令）；「改这个文件」的几步由这里的函数代做，
每个函数的名字与注释对应菜谱的那一步。照做菜谱要构建本书、运行各层测试，这几个测试属于慢层（CI 的 make test 运行它们）；
解析菜谱与「样式都列出来了」的检查在单元层。

「加一章（有一道练习）」的第 4 步是「加一道练习」的做法一（纯 Python 的网页练习，tests/test_recipes_exercises.py 单独照做过），
这里把它接在「加一章」的步骤后面：新练习属于新的一章。
"""
import json
import re

import nbformat
import pytest

from recipes import ITEMS, RecipeTree, add_to_order, recipe, rename_exercise, template_of

CHAPTER = "ch14_example"


def test_recipe_parser_reads_commands_and_files_of_each_recipe():
    """解析器本身：四个菜谱都有命令和文件；命令按出现的顺序；没有 ```sh 块或没有「涉及的文件」时报错。"""
    for title in ("改一句正文", "加一章（没有练习）", "加一章（有一道练习）", "改外观"):
        steps = recipe(title)
        assert steps.commands and steps.files, title
    commands, files, _ = recipe("改一句正文")
    assert commands == ["make book", ".venv/bin/pytest -m book tests/test_typography.py tests/test_consistency.py"]
    assert files == {"book/ch02_why_normalize.ipynb"}
    text = ("### 甲（样板）\n1. 做\n   ```sh\n   make a\n   ```\n2. 再做\n   ```sh\n   make <名>\n   ```\n\n"
            "涉及的文件：`x.py`、`y/<名>/` 的 2 个文件\n\n### 乙\n没有文件\n")
    assert recipe("甲", text).filled({"名": "b"}) == (["make a", "make b"], {"x.py", "y/b/"}, {"y/b/": 2})
    with pytest.raises(AssertionError, match="涉及的文件"):
        recipe("乙", text)


# ---------------------------------------------------------------- 改一句正文
@pytest.mark.slow
def test_fix_a_sentence(tmp_path):
    steps = recipe("改一句正文")
    tree = RecipeTree(tmp_path)

    def step1_change_a_sentence(text):   # 1. 在 book/ch02_why_normalize.ipynb 里改 Markdown 单元格
        nb = json.loads(text)
        cell = next(c for c in nb["cells"] if "".join(c["source"]).startswith("## 小结"))
        source = "".join(cell["source"])
        assert "，没有被任何东西固定下来。" in source
        cell["source"] = source.replace("，没有被任何东西固定下来。", "，没有任何东西把它固定下来。")
        return json.dumps(nb, ensure_ascii=False, indent=1) + "\n"

    tree.edit("book/ch02_why_normalize.ipynb", step1_change_a_sentence)
    for command in steps.commands:        # 2. 构建，再跑排版与前后一致的检查
        tree.run(command)
    tree.assert_touched(steps)
    page = (tree.root / "_build" / "html" / "book" / "ch02_why_normalize.html").read_text(encoding="utf-8")
    assert "没有任何东西把它固定下来" in page   # 构建出的网页确实是改过的


# ---------------------------------------------------------------- 加一章
def write_chapter_body(tree):
    """「加一章」第 2、3 步：_toc.yml 加一行；占位文字换成正文、代码、glue 与面试速答；新建这一章的测试文件。"""
    tree.edit("_toc.yml", lambda t: t.replace("      - file: book/ch13_trained_model\n",
                                              f"      - file: book/ch13_trained_model\n      - file: book/{CHAPTER}\n"))

    def body(text):
        nb = nbformat.reads(text, as_version=4)
        nb.cells[1].source = nb.cells[1].source.replace("- （本章完成后你能做到的事）", "- 算出一行数的均值。")
        first = next(i for i, c in enumerate(nb.cells) if "## 第一节" in c.source)
        nb.cells[first].source = "(ch14-first)=\n## 第一节\n\n一行数的均值是 {glue:text}`ch14_mean`。"
        nb.cells[first + 1].source = "import torch\n\nx = torch.arange(4.0)\nx.mean()"
        glue = nbformat.v4.new_code_cell('from dsx_util import glue\n\nglue("ch14_mean", float(x.mean()))',
                                         metadata={"tags": ["remove-cell", "glue"]})
        nb.cells.insert(first + 2, glue)
        for cell in nb.cells:
            if "dsx-takeaways" in cell.source:
                cell.source = re.sub(r"（第(.)个问题）", r"均值的第\1种说法是什么", cell.source).replace(
                    "（一句话回答。）", "所有数加起来除以个数。")
            elif cell.source.startswith("## 小结"):
                cell.source = "## 小结\n\n- 均值是所有数加起来除以个数。"
        return nbformat.writes(nb) + "\n"

    tree.edit(f"book/{CHAPTER}.ipynb", body)
    tree.edit(f"tests/test_{CHAPTER}.py", lambda _: (
        '"""第 14 章（示例）：正文里的均值来自执行结果。"""\nfrom conftest import glued_value\n\n\n'
        "def test_mean(run_chapter):\n"
        f'    _, glued, _ = run_chapter("{CHAPTER}")\n'
        '    assert glued_value(glued, "ch14_mean") == 1.5\n'))


@pytest.mark.slow
def test_add_a_chapter_without_exercises(tmp_path):
    steps = recipe("加一章（没有练习）")
    generate, *checks = steps.commands
    assert generate.startswith(".venv/bin/python -m dsx_book.new_chapter") and "--exercises" not in generate
    tree = RecipeTree(tmp_path)
    tree.run(generate)                    # 1. 按模板生成笔记本
    write_chapter_body(tree)              # 2、3. _toc.yml、正文、测试文件
    for command in checks:                # 4. 检查
        tree.run(command)
    tree.assert_touched(steps)


def step4_add_an_in_page_exercise(tree, chapter):
    """「加一章（有一道练习）」第 4 步 = 「加一道练习」做法一的第 1–3 步：运行它复制样板文件夹的命令，改 TITLE、CHAPTER、
    CHECKER 与检查函数名，在 ORDER 里加上 id（第 4、5 步的 make sync 与检查在「加一章」的第 5 步里）。
    返回样板文件夹里的文件名。"""
    folder, new_id = f"{chapter}_std_ratio", f"{chapter.replace('_', '-')}-std-ratio"
    copy_template = recipe("做法一：纯 Python 的网页练习").filled({"文件夹": folder}).commands[0]
    template = template_of(copy_template)
    tree.run(copy_template)                                          # 1. cp -r 样板
    rename_exercise(tree, folder, "（示例章）", chapter=chapter)       # 2. TITLE、CHAPTER、CHECKER
    add_to_order(tree, "ch13-frozen-sigma-norm", new_id)             # 3. ORDER
    return sorted(p.name for p in (tree.root / ITEMS / template).iterdir() if p.is_file())


@pytest.mark.slow
def test_add_a_chapter_with_one_exercise(tmp_path):
    steps = recipe("加一章（有一道练习）")
    generate, *checks = steps.commands
    assert generate.startswith(".venv/bin/python -m dsx_book.new_chapter") and generate.endswith("--exercises")
    tree = RecipeTree(tmp_path)
    tree.run(generate)                    # 1. 按模板生成笔记本（带「## 练习」标记）
    write_chapter_body(tree)              # 2、3. _toc.yml、正文、测试文件
    template_files = step4_add_an_in_page_exercise(tree, CHAPTER)   # 4. 加一道练习
    for command in checks:                # 5. 检查（make sync 把练习生成进章节）
        tree.run(command)
    (folder, in_folder), = tree.assert_touched(steps).items()     # 改动的恰好是列出的文件与练习文件夹里的文件
    assert folder.startswith(f"{ITEMS}/{CHAPTER}_")                 # 菜谱写的文件夹是这一章的练习
    assert sorted(c.rsplit("/", 1)[1] for c in in_folder) == template_files   # 练习文件夹：与样板同样的文件
    nb = (tree.root / "book" / f"{CHAPTER}.ipynb").read_text(encoding="utf-8")
    assert "ch14-example-std-ratio-check" in nb       # 练习真的生成进了新的一章


@pytest.mark.slow
def test_make_sync_explains_a_marker_without_exercises(tmp_path):
    """反面：没有练习的一章却用了 --exercises：make sync 不抛 ValueError，而是说出怎么改，并以退出码 1 结束。"""
    tree = RecipeTree(tmp_path, with_build=False)
    tree.run(f'.venv/bin/python -m dsx_book.new_chapter book/{CHAPTER}.ipynb "示例" --exercises')
    tree.edit("_toc.yml", lambda t: t.replace("      - file: book/ch13_trained_model\n",
                                              f"      - file: book/ch13_trained_model\n      - file: book/{CHAPTER}\n"))
    with pytest.raises(AssertionError, match="没有这一章的练习") as failed:
        tree.run("make sync")
    assert "ValueError" not in str(failed.value)


# ---------------------------------------------------------------- 改外观
@pytest.mark.slow
def test_change_the_look(tmp_path):
    steps = recipe("改外观")
    tree = RecipeTree(tmp_path)

    def step1_change_a_style(text):       # 1. 改上表里的一个文件（例子：_static/dsx.css）
        assert "border-radius: 4px;" in text
        return text.replace("border-radius: 4px;", "border-radius: 3px;")

    tree.edit("_static/dsx.css", step1_change_a_style)
    for command in steps.commands:        # 2. 构建，再跑对比度、窄屏、打印的检查
        tree.run(command)
    assert tree.changed() == {"_static/dsx.css"} and tree.changed() <= steps.files   # 改的那一个，在可能的文件里
    css = next((tree.root / "_build" / "html" / "_static").glob("dsx.css"))
    assert "border-radius: 3px;" in css.read_text(encoding="utf-8")


def test_look_recipe_names_every_place_styles_live():
    """「改外观」的表列出仓库里每一个样式表（.css），以及检查器反馈颜色所在的模块。"""
    from recipes import ROOT, git
    files = recipe("改外观").files
    sheets = {name for name in git(["ls-files", "*.css"], ROOT).split() if not name.startswith("node_modules/")}
    assert sheets <= files, f"菜谱没有列出这些样式表：{sorted(sheets - files)}"
    assert any("STATE_COLORS" in (ROOT / f).read_text(encoding="utf-8") for f in files if f.endswith(".py"))
