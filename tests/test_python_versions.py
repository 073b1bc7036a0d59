"""支持的 Python 只有一个来源：pyproject.toml（requires-python 与 classifiers，dsx_book/install.py 读出）。

在列出的每个小版本上：新建虚拟环境，从 make dist 的 wheel 安装 dsx_util（不装依赖、不联网），在 torch、numpy
都没有的环境里运行它的纯 Python 部分——每道网页练习的参考答案通过、模板显示「尚未作答」、每条编目的错误写法
得到它的代码；再用这个版本编译每一章的代码单元格。比下限老一个小版本的 Python，pip 拒绝安装这个 wheel。
找不到某个版本的解释器时测试失败（不跳过）：CI 的工作流先装好它们（.github/workflows/ci.yml）。
"""
import glob
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT
from dsx_book import install, nbsync

WHEEL = ROOT / "_build" / "dist" / nbsync.wheel_name()

CHECK = r'''
import importlib, json, sys
from dsx_util.exercises import list_checks
from dsx_util.exercises.catalog import EXERCISES
assert "site-packages" in list_checks.__file__, list_checks.__file__   # 用的是装好的 wheel，不是仓库里的源码
problems, count = [], 0
for ex in EXERCISES:
    if not ex.in_page:
        continue
    if list_checks.run_source(ex.solution, ex.checker, ex.entry)["codes"] != []:
        problems.append((ex.id, "参考答案没有通过"))
    if list_checks.run_source(ex.template, ex.checker, ex.entry)["codes"] != ["not_done"]:
        problems.append((ex.id, "模板不是「尚未作答」"))
    module = importlib.import_module(f"dsx_util.exercises.items.{ex.id.replace('-', '_')}.mistakes")
    for what, codes, source in module.MISTAKES + getattr(module, "NOVEL", []):
        got = list_checks.run_source(source, ex.checker, ex.entry)["codes"]
        count += 1
        if got != codes:
            problems.append((ex.id, what, codes, got))
blocked = sorted(k for k in sys.modules if k.split(".")[0] in ("torch", "numpy"))
cells = json.load(open(sys.argv[1], encoding="utf-8"))
bad = []
for name, source in cells:
    try:
        compile(source, name, "exec")
    except SyntaxError as exc:
        bad.append(f"{name}: {exc}")
print(json.dumps({"version": sys.version.split()[0], "problems": problems, "mistakes": count,
                  "imported": blocked, "cells": len(cells), "syntax": bad}, ensure_ascii=False))
'''


def find_python(minor):
    """某个 Python 小版本的解释器：PATH 上的 python3.X，或 pyenv、uv 装在本机的那一个；找不到时返回 None。"""
    candidates = [shutil.which(f"python{minor}")]
    home = Path.home()
    candidates += sorted(glob.glob(str(home / ".pyenv" / "versions" / f"{minor}.*" / "bin" / f"python{minor}")))
    candidates += sorted(glob.glob(str(home / ".local" / "share" / "uv" / "python" / f"cpython-{minor}.*" / "bin"
                                       / f"python{minor}")))
    for path in filter(None, candidates):
        run = subprocess.run([path, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                             capture_output=True, text=True)
        if run.returncode == 0 and run.stdout.strip() == minor:
            return path
    return None


def _chapter_cells():
    """每一章的代码单元格（去掉 %、! 开头的 IPython 行），(名字, 源码)。"""
    cells = []
    for path in sorted((ROOT / "book").glob("ch*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        for i, cell in enumerate(nb["cells"]):
            if cell["cell_type"] == "code":
                lines = "".join(cell["source"]).splitlines()
                cells.append((f"{path.name}#{i}", "\n".join(ln for ln in lines if not ln.lstrip().startswith(("%", "!")))))
    return cells


def _venv(python, where):
    subprocess.run([python, "-m", "venv", str(where)], check=True, capture_output=True)
    return where / "bin" / "python"


@pytest.fixture(scope="module")
def wheel():
    if not WHEEL.exists():
        pytest.fail(f"没有 {WHEEL}：请先运行 make dist（make book、make test 都会先运行它）。")
    return WHEEL


@pytest.mark.parametrize("minor", install.tested_pythons())
def test_wheel_installs_and_its_pure_python_part_works(minor, wheel, tmp_path):
    python = find_python(minor)
    assert python, (f"找不到 Python {minor}：pyproject.toml 说测试过它。请装上它（例如 uv python install {minor}），"
                    "或把它从 classifiers 里去掉（requires-python 的下限随之改变）。")
    venv = _venv(python, tmp_path / "venv")
    subprocess.run([str(venv), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
                   check=True, capture_output=True)
    cells = tmp_path / "cells.json"
    cells.write_text(json.dumps(_chapter_cells(), ensure_ascii=False), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    run = subprocess.run([str(venv), "-c", CHECK, str(cells)], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report["version"].startswith(minor + ".")
    assert report["problems"] == [] and report["mistakes"] >= 40, report["problems"]
    assert report["imported"] == []            # 纯 Python 部分不导入 torch、numpy（环境里也没有它们）
    assert report["cells"] > 100 and report["syntax"] == [], report["syntax"]


def test_one_version_older_is_refused_by_pip(wheel, tmp_path):
    """比下限老一个小版本时，pip 拒绝安装（本机有那个版本时检查；它是 requires-python 的实际效果）。"""
    major, low = install.min_python().split(".")
    older = f"{major}.{int(low) - 1}"
    python = find_python(older)
    assert python, f"找不到 Python {older}：用它来确认 pip 会拒绝比 requires-python 更老的版本"
    venv = _venv(python, tmp_path / "venv")
    run = subprocess.run([str(venv), "-m", "pip", "install", "--no-deps", "--no-index", str(wheel)],
                         capture_output=True, text=True)
    assert run.returncode != 0 and "requires a different Python" in run.stdout + run.stderr
