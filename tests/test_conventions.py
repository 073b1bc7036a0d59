"""维护约定：pre-commit 的本地钩子确实能跑、确实会拦下该拦的东西。"""
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
    for name in ("tools", "dsx_util", "tests"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("_config.yml", "_toc.yml"):
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
