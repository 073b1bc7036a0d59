"""跟着 CONTRIBUTING.md 的菜谱在仓库的一份副本里做一遍：tests/test_recipes.py 与 tests/test_recipes_exercises.py 用它。

    steps = recipe("改一句正文")           # 菜谱的命令（```sh 块里的行，按顺序）、「涉及的文件」、其中文件夹的文件数
    steps = steps.filled({"文件夹": "ch06_x"})   # 菜谱里的占位 <文件夹>、<章节> 换成这次的名字
    tree = RecipeTree(tmp_path)            # 复制 git 跟踪的文件；.venv、node_modules 链接到原处；_build 复制一份（执行缓存）
    tree.run("make sync")                  # 菜谱里写的一条命令，在副本里原样运行；退出码不是 0 时测试失败，带上输出
    tree.edit("book/x.ipynb", f)           # 菜谱里「改这个文件」的一步：f(旧文字) -> 新文字
    tree.assert_touched(steps)             # 改动的文件恰好是「涉及的文件」（与复制时相比；git 忽略的不算）

「加一道练习」的第 2 步与「在 ORDER 里加上 id」由 rename_exercise、add_to_order 代做（两个测试文件都照做这个菜谱）。
副本里运行的命令导入副本自己的 dsx_book 与 dsx_util（环境变量指向副本，见 run），不碰原来的仓库。
"""
import fnmatch
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
LINKED = (".venv", ".venv-colab", "node_modules")   # 环境太大，不复制：链接到原处（只读着用）
ITEMS = "dsx_util/exercises/items"


def git(args, cwd):
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout


class Recipe(NamedTuple):
    """CONTRIBUTING.md 的一个菜谱。"""
    commands: list   # ```sh 代码块里的每一行，按出现的顺序
    files: set       # 「涉及的文件：」那一行里用反引号写的路径；以 / 结尾的是文件夹（… 代表任何文字）
    counts: dict     # 写了「`文件夹/` 的 N 个文件」的文件夹 -> N

    def filled(self, names):
        """把占位 <名字> 换成 names[名字]（例：{"文件夹": "ch06_x", "章节": "ch06_std"}）。"""
        def fill(text):
            return re.sub(r"<(\w+)>", lambda m: names.get(m.group(1), m.group(0)), text)
        return Recipe([fill(c) for c in self.commands], {fill(f) for f in self.files},
                      {fill(f): n for f, n in self.counts.items()})


def recipe(title, text=None):
    """CONTRIBUTING.md 里标题以 title 开头的那一节（### 或 ####，到下一个标题为止）：Recipe。"""
    text = text if text is not None else (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    found = re.findall(rf"^#{{3,4}} {re.escape(title)}[^\n]*\n(.*?)(?=^##|\Z)", text, re.M | re.S)
    assert len(found) == 1, f"CONTRIBUTING.md 里以「{title}」开头的菜谱标题有 {len(found)} 个，应恰好 1 个"
    body = found[0]
    commands = [line.strip() for block in re.findall(r"```sh\n(.*?)```", body, re.S)
                for line in block.splitlines() if line.strip()]
    files_line = re.search(r"^涉及的文件：(.*)$", body, re.M)
    assert files_line, f"「{title}」没有写「涉及的文件：」"
    files = set(re.findall(r"`([^`\s]+)`", files_line.group(1)))
    counts = {path: int(n) for path, n in re.findall(r"`([^`\s]+/)`\s*的 (\d+) 个文件", files_line.group(1))}
    return Recipe(commands, files, counts)


class RecipeTree:
    def __init__(self, folder, with_build=True):
        """folder 里放一份仓库：git 跟踪的文件（保留修改时间，make 才不会以为环境要重装）；with_build 时再复制 _build。"""
        self.root = Path(folder) / "repo"
        for name in git(["ls-files", "-z"], ROOT).split("\0"):
            if name and (ROOT / name).is_file():
                (self.root / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(ROOT / name, self.root / name)
        for name in LINKED:
            if (ROOT / name).exists():
                (self.root / name).symlink_to(ROOT / name)
        if with_build and (ROOT / "_build").exists():
            shutil.copytree(ROOT / "_build", self.root / "_build", symlinks=True,
                            ignore=shutil.ignore_patterns("screenshots", "reference_seed*.pt"))
        git(["init", "-q"], self.root)
        git(["add", "-A"], self.root)
        git(["-c", "user.name=recipe", "-c", "user.email=recipe@example.invalid", "commit", "-q", "-m", "副本"], self.root)

    def read(self, name):
        return (self.root / name).read_text(encoding="utf-8")

    def edit(self, name, change):
        path = self.root / name
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        new = change(old)
        assert new != old, f"{name} 没有改动"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(new, encoding="utf-8")

    def run(self, command, timeout=1800):
        env = dict(os.environ, PYTHONPATH=str(self.root))   # 副本自己的 dsx_book、dsx_util，而不是装在 .venv 里的原仓库
        for key in [k for k in env if k.startswith("PYTEST_XDIST") or k in ("DSX_XDIST_GROUPS", "DSX_RECORD_DURATIONS",
                                                                           "DSX_SHARD_PLAN")]:
            env.pop(key)   # 外层测试进程的 pytest-xdist 设置、量秒数的开关不带进菜谱的命令（否则副本的 durations.json 被改）
        done = subprocess.run(command, shell=True, cwd=self.root, env=env, capture_output=True, text=True,
                              timeout=timeout)
        assert done.returncode == 0, f"菜谱的命令失败：{command}\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
        return done.stdout

    def changed(self):
        """改动、新增、删除的文件（相对路径的集合）；git 忽略的（_build、.venv、__pycache__……）不算。"""
        lines = git(["status", "--porcelain", "-uall", "--no-renames"], self.root).splitlines()
        return {line[3:].strip('"') for line in lines}

    def assert_touched(self, steps):
        """改动的文件恰好是菜谱「涉及的文件」：列出的文件，加上列出的文件夹里的文件（每个文件夹至少一个，
        写了「的 N 个文件」时恰好 N 个）。返回 {文件夹: 其中改动的文件}。"""
        changed = self.changed()
        folders = {f for f in steps.files if f.endswith("/")}
        expected, inside = steps.files - folders, {}
        for folder in folders:
            inside[folder] = {c for c in changed if fnmatch.fnmatchcase(c, folder.replace("…", "*") + "*")}
            want = steps.counts.get(folder)
            assert inside[folder] and want in (None, len(inside[folder])), (folder, want, sorted(inside[folder]))
            expected |= inside[folder]
        assert changed == expected, f"多改的：{sorted(changed - expected)}；菜谱写了却没改的：{sorted(expected - changed)}"
        return inside


# ---------------------------------------------------------------- 「加一道练习」里要手改的几步
def template_of(command):
    """第 1 步 `cp -r dsx_util/exercises/items/<样板> dsx_util/exercises/items/<文件夹>` 里的样板文件夹名。"""
    match = re.fullmatch(rf"cp -r {ITEMS}/(\w+) {ITEMS}/\S+", command)
    assert match, f"「加一道练习」的第一条命令应是复制样板文件夹：{command}"
    return match.group(1)


def rename_exercise(tree, folder, title_prefix, chapter=None):
    """第 2 步（其余文件照搬样板：一道内容相同、名字不同的练习）：__init__.py 的 TITLE 前加上 title_prefix、
    CHECKER 换成 check_<文件夹去掉章节前缀>，给了 chapter 时换掉 CHAPTER；check.py 里的检查函数改成新名字。
    返回 (样板的检查函数名, 新的检查函数名, 练习所在的章)。"""
    init = f"{ITEMS}/{folder}/__init__.py"
    old_checker = re.search(r'CHECKER = "(\w+)"', tree.read(init)).group(1)
    new_checker = f"check_{folder.split('_', 1)[1]}"

    def retitle(text):
        text = text.replace('TITLE = "', f'TITLE = "{title_prefix}', 1)
        text = text.replace(f'CHECKER = "{old_checker}"', f'CHECKER = "{new_checker}"')
        return re.sub(r'CHAPTER = "\w+"', f'CHAPTER = "{chapter}"', text) if chapter else text

    tree.edit(init, retitle)
    tree.edit(f"{ITEMS}/{folder}/check.py", lambda t: t.replace(f"def {old_checker}(", f"def {new_checker}("))
    return old_checker, new_checker, re.search(r'CHAPTER = "(\w+)"', tree.read(init)).group(1)


def add_to_order(tree, after_id, new_id):
    """「在 dsx_util/exercises/items/__init__.py 的 ORDER 里按顺序加上练习 id」：放在 after_id 之后。"""
    def insert(text):
        assert f'    "{after_id}",\n' in text, f"ORDER 里没有 {after_id}"
        return text.replace(f'    "{after_id}",\n', f'    "{after_id}",\n    "{new_id}",\n')
    tree.edit(f"{ITEMS}/__init__.py", insert)
