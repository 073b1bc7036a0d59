"""构建与执行耗时：冷构建、无改动的缓存重建、每个章节笔记本的执行时间。

冷构建在临时目录中进行（全新的执行缓存），不影响 _build/。
目标：无改动的缓存重建 < 10 s；基础章节每章 < 10 s，进阶章节（第 8 章起）每章 < 30 s。
"""
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tools"))
from conftest import chapter_paths  # noqa: E402
from run_notebook import execute  # noqa: E402

JB = str(Path(sys.executable).with_name("jupyter-book"))
ADVANCED_FROM = 8


def build(out):
    t0 = time.perf_counter()
    subprocess.run([JB, "build", str(ROOT), "--path-output", str(out), "-W", "-n", "-q"], check=True,
                   capture_output=True)
    return time.perf_counter() - t0


def main():
    with tempfile.TemporaryDirectory() as tmp:
        cold = build(tmp)
        warm = build(tmp)
    print(f"冷构建（执行全部章节）：{cold:6.1f} s")
    print(f"无改动的缓存重建：      {warm:6.1f} s   目标 < 10 s  {'PASS' if warm < 10 else 'FAIL'}")
    print("每章执行时间（nbclient，本机）：")
    for path in chapter_paths():
        _, seconds = execute(str(path), timeout=600)
        number = int(path.stem[2:4])
        limit = 30 if number >= ADVANCED_FROM else 10
        print(f"  {path.stem:<32s} {seconds:6.1f} s   目标 < {limit} s  {'PASS' if seconds < limit else 'FAIL'}")


if __name__ == "__main__":
    main()
