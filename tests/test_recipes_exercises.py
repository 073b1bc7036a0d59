"""CONTRIBUTING.md「加一道练习」的三个做法，在一份复制的仓库里逐字照做，最后要全绿，且改动的文件恰好是做法列出的。

每个做法从 CONTRIBUTING.md 里读出：第 1 步的 `cp -r` 命令（样板文件夹）、模块类做法的 `cp tests/…` 命令、最后一步的
pytest 命令、「涉及的文件」一行。照做的方式与做法写的一样：复制样板文件夹、改 `__init__.py` 的 `TITLE` 与 `CHECKER`
和 `check.py` 里检查函数的名字（其余文件照搬样板：一道内容相同、名字不同的练习）、在 `ORDER` 里加一行、
`python -m dsx_book.nbsync`（`make sync` 运行的就是它）、运行做法写明的测试。复制的是 git 跟踪的文件；环境（.venv）用
本仓库的。每个做法要几分钟（跑六个测试文件），所以在慢层。
"""
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RECIPES = {   # 做法的标题开头 -> 新练习的 id（照做时用的名字）
    "做法一：纯 Python 的网页练习": "ch06-std-ratio-again",
    "做法二：PyTorch 函数练习": "ch08-rms-again",
    "做法三：模块类练习": "ch08-rms-norm-again",
}

pytestmark = pytest.mark.slow


def recipe_text(title):
    """CONTRIBUTING.md 里这个做法的一节（从它的标题到下一个标题）。"""
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    start = text.index(f"#### {title}")
    end = min(i for i in (text.find("\n#### ", start + 1), text.find("\n### ", start + 1), len(text)) if i > 0)
    return text[start:end]


def parse(title):
    """做法里照做要用的几样：样板文件夹、要复制的测试文件（模块类）、pytest 命令、涉及的文件。"""
    text = recipe_text(title)
    (template,) = re.findall(r"`cp -r dsx_util/exercises/items/(\w+) dsx_util/exercises/items/<文件夹>`", text)
    tests = re.findall(r"`cp (tests/\w+\.py) tests/test_check_<文件夹>\.py`", text)
    (pytest_command,) = re.findall(r"`(\.venv/bin/python -m pytest [^`]+)`", text)
    (files,) = re.findall(r"涉及的文件：(.+)", text)
    return template, tests, pytest_command, files


def tracked_copy(dest):
    """把 git 跟踪的文件复制到 dest（不含构建结果与环境）；返回 {相对路径: 复制时的内容}。"""
    names = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout.split(b"\0")
    copied = {}
    for name in filter(None, names):
        src = ROOT / name.decode()
        if src.is_file():
            (dest / name.decode()).parent.mkdir(parents=True, exist_ok=True)
            copied[name.decode()] = src.read_bytes()
            (dest / name.decode()).write_bytes(copied[name.decode()])
    return copied


def changed_files(copy, copied):
    """复制的仓库里新建或改动过的文件（与复制时相比；__pycache__ 与 .pytest_cache 不算）。"""
    out = set()
    for path in copy.rglob("*"):
        rel = path.relative_to(copy)
        if not path.is_file() or {"__pycache__", ".pytest_cache"} & set(rel.parts) or rel.parts[0] == ".venv":
            continue
        if copied.get(rel.as_posix()) != path.read_bytes():
            out.add(rel.as_posix())
    return out


def listed_files(files, folder, chapter):
    """「涉及的文件」一行 -> 具体的文件名集合（<文件夹>、<章节> 换成这次的名字；“的 7 个文件”展开成样板文件夹里的文件）。"""
    found = set()
    for item in re.findall(r"`([^`]+)`(?:\s*的 (\d+) 个文件)?", files):
        path, count = item
        path = path.replace("<文件夹>", folder).replace("<章节>", chapter)
        if path.endswith("/"):
            found.add((path, int(count)))
        else:
            found.add(path)
    return found


@pytest.mark.parametrize("title", list(RECIPES), ids=["网页练习", "PyTorch函数", "模块类"])
def test_following_the_recipe_literally_ends_green_and_touches_only_its_files(title, tmp_path):
    template, tests, pytest_command, files = parse(title)
    new_id = RECIPES[title]
    folder = new_id.replace("-", "_")
    copy = tmp_path / "repo"
    copied = tracked_copy(copy)
    (copy / ".venv").symlink_to(ROOT / ".venv")   # 环境是本仓库的（做法里的命令用 .venv/bin/python）
    items = copy / "dsx_util" / "exercises" / "items"

    # 1. cp -r 样板文件夹
    shutil.copytree(items / template, items / folder)
    # 2. 改 TITLE、CHECKER 与检查函数名（其余照搬样板）
    init = (items / folder / "__init__.py").read_text(encoding="utf-8")
    old_checker = re.search(r'CHECKER = "(\w+)"', init).group(1)
    new_checker = f"check_{folder.split('_', 1)[1]}"
    init = re.sub(r'TITLE = "', 'TITLE = "（又一道）', init).replace(f'CHECKER = "{old_checker}"', f'CHECKER = "{new_checker}"')
    (items / folder / "__init__.py").write_text(init, encoding="utf-8")
    check = (items / folder / "check.py").read_text(encoding="utf-8")
    (items / folder / "check.py").write_text(check.replace(f"def {old_checker}(", f"def {new_checker}("), encoding="utf-8")
    chapter = re.search(r'CHAPTER = "(\w+)"', init).group(1)
    # 3.（模块类）cp tests/… tests/test_check_<文件夹>.py，换掉练习的模块路径与检查函数名
    for test in tests:
        text = (copy / test).read_text(encoding="utf-8").replace(template, folder).replace(old_checker, new_checker)
        (copy / "tests" / f"test_check_{folder}.py").write_text(text, encoding="utf-8")
    # ORDER 里加上 id（放在样板之后）
    order = items / "__init__.py"
    old_id = template.replace("_", "-")
    text = order.read_text(encoding="utf-8")
    assert f'    "{old_id}",\n' in text
    order.write_text(text.replace(f'    "{old_id}",\n', f'    "{old_id}",\n    "{new_id}",\n'), encoding="utf-8")
    # make sync
    subprocess.run([sys.executable, "-m", "dsx_book.nbsync"], cwd=copy, check=True, capture_output=True)
    # 做法写明的测试
    command = pytest_command.replace("<文件夹>", folder).split()
    assert command[:3] == [".venv/bin/python", "-m", "pytest"]
    run = subprocess.run([sys.executable, *command[1:], "-p", "no:cacheprovider"], cwd=copy, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert " passed" in run.stdout and " failed" not in run.stdout

    # 改动的文件恰好是「涉及的文件」
    changed = changed_files(copy, copied)
    want = listed_files(files, folder, chapter)
    expected = {p for p in want if isinstance(p, str)}
    for prefix, count in (p for p in want if isinstance(p, tuple)):
        inside = {c for c in changed if c.startswith(prefix)}
        assert len(inside) == count, (prefix, sorted(inside))
        expected |= inside
    assert changed == expected, (sorted(changed - expected), sorted(expected - changed))
    # 新练习真的在章节里、检查器认得它
    nb = (copy / "book" / f"{chapter}.ipynb").read_text(encoding="utf-8")
    assert f"{new_id}-check" in nb and f"import {new_checker}" in nb
