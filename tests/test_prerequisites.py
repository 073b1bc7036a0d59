"""make book / make test 的系统前提（tools/prerequisites.sh）：齐全时不出声，缺了就用一行中文说出包名和命令。"""
import os
import subprocess

from conftest import ROOT

SCRIPT = ROOT / "tools" / "prerequisites.sh"


def run(tmp_path, fake=None, mode="book"):
    """fake：{命令名: 它打印的内容}，放在 PATH 最前面，冒充一个旧版本或一个坏掉的命令。"""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    for name, output in (fake or {}).items():
        (bin_dir / name).write_text(f"#!/bin/sh\n{output}\n")
        (bin_dir / name).chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "DSX_NO_APT": "1"}
    return subprocess.run(["sh", str(SCRIPT), mode], capture_output=True, text=True, env=env)


def test_silent_when_everything_is_there(tmp_path):
    done = run(tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_old_node_is_named_with_the_install_command(tmp_path):
    done = run(tmp_path, {"node": "echo v16.20.0"})
    lines = done.stdout.strip().splitlines()
    assert done.returncode == 1 and len(lines) == 1, done.stdout
    assert "缺少系统包" in lines[0] and "nodejs npm" in lines[0] and "sudo apt-get install" in lines[0]


def test_python_without_venv_is_named(tmp_path):
    done = run(tmp_path, {"python3": "exit 1"})  # 一个 import ensurepip 会失败的 python3
    assert done.returncode == 1 and "python3-venv" in done.stdout, done.stdout


def test_test_mode_also_needs_the_browser(tmp_path):
    fake_dir = tmp_path / "nochromium"
    env = {**os.environ, "DSX_NO_APT": "1"}
    script = SCRIPT.read_text().replace("/usr/bin/chromium", str(fake_dir / "chromium"))
    (tmp_path / "p.sh").write_text(script)
    done = subprocess.run(["sh", str(tmp_path / "p.sh"), "test"], capture_output=True, text=True, env=env)
    assert done.returncode == 1 and "chromium" in done.stdout
    book = subprocess.run(["sh", str(tmp_path / "p.sh"), "book"], capture_output=True, text=True, env=env)
    assert book.returncode == 0, book.stdout
