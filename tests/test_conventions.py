"""维护约定：pre-commit 的本地钩子确实能跑、确实会拦下该拦的东西。"""
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import yaml

from conftest import ROOT, chapter_paths

HOOKS = {h["id"]: h for repo in yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))["repos"]
         for h in repo["hooks"]}


def _entry(hook):
    """钩子的命令，.venv/bin/ 换成当前测试所用的环境（CI 里就是 .venv）。"""
    words = hook["entry"].split()
    words[0] = str(Path(sys.executable).with_name(Path(words[0]).name))
    return words


def test_hooks_are_local_and_use_the_projects_tools():
    assert set(HOOKS) == {"ruff", "chapters-stored-clean"}
    for hook in HOOKS.values():
        assert hook["language"] == "system" and hook["entry"].startswith(".venv/bin/")


def test_notebook_hook_rejects_a_chapter_with_outputs(tmp_path):
    """把仓库需要的几样东西复制一份，给第一章加上一个输出：钩子的命令以退出码 1 拒绝，并说出原因。"""
    for name in ("dsx_book", "dsx_util", "tests"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("_config.yml", "_toc.yml", "pyproject.toml"):   # pyproject.toml：设置单元格里的 Python 版本取自它
        shutil.copy(ROOT / name, tmp_path / name)
    shutil.copytree(ROOT / "book", tmp_path / "book")
    clean = subprocess.run(_entry(HOOKS["chapters-stored-clean"]), cwd=tmp_path, capture_output=True, text=True)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    path = tmp_path / "book" / chapter_paths()[1].name
    nb = nbformat.read(path, as_version=4)
    code = next(c for c in nb.cells[1:] if c.cell_type == "code")
    code.outputs = [nbformat.v4.new_output("stream", name="stdout", text="42\n")]
    nbformat.write(nb, path)
    dirty = subprocess.run(_entry(HOOKS["chapters-stored-clean"]), cwd=tmp_path, capture_output=True, text=True)
    assert dirty.returncode == 1 and "有未清空的输出" in dirty.stdout, dirty.stdout + dirty.stderr


# ---------------------------------------------------------------- 不改 sys.path：仓库里的代码都像别的包一样导入
# dsx_util（pip install -e .）与构建包 dsx_book（pip install -e ./dsx_book）都装在 .venv 里。下面几处不是为了找到
# 仓库里的代码，而是给子进程或浏览器里的 Python 放进一个替身或临时目录，每处写明原因；别处出现就算违反约定。
PATH_PATCHING = re.compile(r"sys\.path\.(?:insert|append)|PYTHONPATH")
ALLOWED_PATH_PATCHING = {
    ("dsx_book/inpage_static/worker.js", "sys.path.insert(0, '/home/pyodide')"):
        "浏览器里的 Pyodide：检查器的文件写在它的虚拟文件系统里，与仓库无关",
    ("tests/test_colab.py", '"PYTHONPATH": str(STUB)'): "google.colab 的替身（Colab 自带这个模块）注入仿 Colab 的内核",
    ("tests/test_colab.py", "PYTHONPATH=str(STUB)"): "同上：断网条件下运行设置单元格",
    ("tests/test_figures.py", '"PYTHONPATH": str(target)'): "临时目录里 pip install --target 的字体包（代替 Colab 里的 pip）",
    ("tests/test_release.py", "PYTHONPATH=os.pathsep.join(path)"): "假 pip 与 google.colab 的替身，给 python -S 的子进程",
    ("tests/test_release.py", '("PYTHONPATH", "VIRTUAL_ENV")'): "反过来：从全新环境的变量里去掉 PYTHONPATH",
    ("tests/test_release.py", 'os.environ["PYTHONPATH"].split(os.pathsep)[0]'):
        "假 pip 把「装上的」包的安装信息写进上面那个替身目录",
    ("tests/recipes.py", "PYTHONPATH=str(self.root)"): "照做菜谱的仓库副本：命令导入副本里的 dsx_book、dsx_util，不碰原仓库",
    ("tests/test_python_versions.py", '("PYTHONPATH", "PYTHONHOME")'): "反过来：装好 wheel 的虚拟环境里不用仓库的源码",
    ("tests/test_release.py", '("PYTHONPATH", "PYTHONHOME", "DSX_UTIL_SOURCE")'):
        "反过来：真 pip 的临时虚拟环境里不用仓库的源码",
}
SELF = "tests/test_conventions.py"   # 本检查自己（正则、允许表与对照样例里都写着这些词），不查
SCANNED = (".py", ".ipynb", ".js", ".sh", ".yml", ".yaml", ".toml", ".cfg", ".ini", "Makefile")


def path_patching(root, files):
    """files（相对 root 的路径）里改 sys.path 或设 PYTHONPATH 的行：[(路径, 行号, 行)]，允许的几处除外。"""
    found = []
    for name in files:
        if name == SELF or not name.endswith(SCANNED) or not (root / name).is_file():
            continue
        for number, line in enumerate((root / name).read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if PATH_PATCHING.search(line) and not any(f == name and part in line for f, part in ALLOWED_PATH_PATCHING):
                found.append((name, number, line.strip()[:120]))
    return found


def repo_files():
    done = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    return done.stdout.splitlines()


def test_no_file_patches_sys_path():
    found = path_patching(ROOT, repo_files())
    assert found == [], "这些行改了 sys.path 或设了 PYTHONPATH（改成 import dsx_book / dsx_util，或在 ALLOWED_PATH_PATCHING 里写明原因）：\n" + \
        "\n".join(f"{name}:{number}: {line}" for name, number, line in found)


def test_path_patching_check_sees_a_planted_line_and_every_allowance_is_used(tmp_path):
    """对照：检查能看出一行新加的 sys.path.insert 与一处 PYTHONPATH；允许表里的每一处仍在仓库里（过时的就删掉）。"""
    (tmp_path / "bench").mkdir()
    (tmp_path / "bench" / "x.py").write_text("import sys\nsys.path.insert(0, 'tools')\n", encoding="utf-8")
    (tmp_path / "Makefile").write_text("t:\n\tPYTHONPATH=. python -m pytest\n", encoding="utf-8")
    assert [(n, i) for n, i, _ in path_patching(tmp_path, ["bench/x.py", "Makefile"])] == [("bench/x.py", 2), ("Makefile", 2)]
    for name, part in ALLOWED_PATH_PATCHING:
        assert part in (ROOT / name).read_text(encoding="utf-8"), f"允许表里的 {name}「{part}」已不在文件里：从表里删掉"
