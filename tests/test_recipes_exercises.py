"""CONTRIBUTING.md「加一道练习」的三个做法，在一份复制的仓库里逐字照做，最后要全绿，且改动的文件恰好是做法列出的。

照做的方式与做法写的一样（tests/recipes.py）：原样运行做法里 ```sh 块的命令（复制样板文件夹、模块类做法复制样板的测试文件、
`make sync`、做法写明的测试），中间的手改由这里代做：改 `__init__.py` 的 `TITLE` 与 `CHECKER` 和 `check.py` 里检查函数的名字
（其余文件照搬样板：一道内容相同、名字不同的练习）、模块类做法的新测试文件里换掉练习的名字、在 `ORDER` 里加一行。
复制的是 git 跟踪的文件；环境（.venv）用本仓库的。每个做法要几分钟（跑六个测试文件），所以在慢层。
"""
import pytest

from recipes import RecipeTree, add_to_order, recipe, rename_exercise, template_of

RECIPES = {   # 做法的标题开头 -> 新练习的 id（照做时用的名字）
    "做法一：纯 Python 的网页练习": "ch06-std-ratio-again",
    "做法二：PyTorch 函数练习": "ch08-rms-again",
    "做法三：模块类练习": "ch08-rms-norm-again",
}

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("title", list(RECIPES), ids=["网页练习", "PyTorch函数", "模块类"])
def test_following_the_recipe_literally_ends_green_and_touches_only_its_files(title, tmp_path):
    new_id = RECIPES[title]
    folder = new_id.replace("-", "_")
    copy_template, *copy_tests, sync, check = recipe(title).filled({"文件夹": folder}).commands
    template = template_of(copy_template)
    tree = RecipeTree(tmp_path, with_build=False)

    tree.run(copy_template)                                                  # 1. cp -r 样板文件夹
    old_checker, new_checker, chapter = rename_exercise(tree, folder, "（又一道）")   # 2. TITLE、CHECKER 与检查函数名
    for command in copy_tests:             # 模块类 3. cp tests/… tests/test_check_<文件夹>.py，换掉练习的模块路径与检查函数名
        tree.run(command)
        tree.edit(f"tests/test_check_{folder}.py", lambda t: t.replace(template, folder).replace(old_checker, new_checker))
    add_to_order(tree, template.replace("_", "-"), new_id)                   # ORDER 里加上 id（放在样板之后）
    tree.run(sync)                                                           # make sync
    # 做法写明的测试
    assert check.startswith(".venv/bin/python -m pytest "), check
    out = tree.run(check)
    assert " passed" in out and " failed" not in out

    steps = recipe(title).filled({"文件夹": folder, "章节": chapter})
    tree.assert_touched(steps)             # 改动的文件恰好是「涉及的文件」（练习文件夹里恰好 7 个）
    # 新练习真的在章节里、检查器认得它
    nb = tree.read(f"book/{chapter}.ipynb")
    assert f"{new_id}-check" in nb and f"import {new_checker}" in nb
