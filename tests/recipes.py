"""跟着 CONTRIBUTING.md 的菜谱在仓库的一份副本里做一遍：tests/test_recipes.py 用它。

    tree = RecipeTree(tmp_path)        # 复制 git 跟踪的文件；.venv、node_modules 链接到原处；_build 复制一份（执行缓存）
    tree.edit("book/x.ipynb", f)       # 菜谱里「改这个文件」的一步：f(旧文字) -> 新文字
    tree.run("make sync")              # 菜谱里写的一条命令，在副本里运行；退出码不是 0 时测试失败，带上输出
    tree.changed()                     # 与复制时相比改动、新增、删除的文件（git 忽略的不算）
    recipe("改一句正文")                # CONTRIBUTING.md 里这个菜谱的命令（```sh 块里的行，按顺序）与「涉及的文件」

副本里运行的命令导入副本自己的 dsx_book 与 dsx_util（环境变量指向副本，见 run），不碰原来的仓库。
"""
import os
import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINKED = (".venv", ".venv-colab", "node_modules")   # 环境太大，不复制：链接到原处（只读着用）


def git(args, cwd):
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout


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

    def edit(self, name, change):
        path = self.root / name
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        new = change(old)
        assert new != old, f"{name} 没有改动"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(new, encoding="utf-8")

    def run(self, command, timeout=1800):
        env = dict(os.environ, PYTHONPATH=str(self.root))   # 副本自己的 dsx_book、dsx_util，而不是装在 .venv 里的原仓库
        env.pop("PYTEST_XDIST_WORKER", None)
        done = subprocess.run(command, shell=True, cwd=self.root, env=env, capture_output=True, text=True,
                              timeout=timeout)
        assert done.returncode == 0, f"菜谱的命令失败：{command}\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
        return done.stdout

    def changed(self):
        """改动、新增、删除的文件（相对路径的集合）；git 忽略的（_build、.venv……）不算。"""
        lines = git(["status", "--porcelain", "-uall", "--no-renames"], self.root).splitlines()
        return {line[3:].strip('"') for line in lines}


def recipe(title, text=None):
    """CONTRIBUTING.md 里标题为「### title」的菜谱：(命令列表, 涉及的文件集合)。

    命令是这一节 ```sh 代码块里的每一行（按出现的顺序）；涉及的文件是「涉及的文件：」那一行里用反引号写的路径。"""
    text = text if text is not None else (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    match = re.search(rf"^### {re.escape(title)}\n(.*?)(?=^##|\Z)", text, re.M | re.S)
    assert match, f"CONTRIBUTING.md 里没有「### {title}」"
    body = match.group(1)
    commands = [line.strip() for block in re.findall(r"```sh\n(.*?)```", body, re.S)
                for line in block.splitlines() if line.strip()]
    files_line = re.search(r"^涉及的文件：(.*)$", body, re.M)
    assert files_line, f"「{title}」没有写「涉及的文件：」"
    files = set(re.findall(r"`([^`\s]+)`", files_line.group(1)))
    return commands, files
