"""构建耗时：什么都没改时再运行一次 make book 要多久；每章执行了多久（读构建自己的执行缓存）。

    python bench/bench_book.py          # 先 make book；再测无改动的 make book（预热一次，取 5 次的最小值与中位数）
    python bench/bench_book.py --cold   # 另在临时目录里冷构建一次（全新的执行缓存，不影响 _build/）

目标：无改动的 make book ≤ 3 s；基础章节每章执行 < 10 s，进阶章节（第 8 章起）每章 < 30 s。
"""
import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
JB = str(Path(sys.executable).with_name("jupyter-book"))
CACHE = ROOT / "_build" / ".jupyter_cache"
ADVANCED_FROM = 8
GOAL_REBUILD = 3.0


def timed(command, **kwargs):
    t0 = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, cwd=ROOT, **kwargs)
    return time.perf_counter() - t0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cold", action="store_true", help="另做一次冷构建（执行全部章节，几分钟）")
    args = parser.parse_args()
    if args.cold:
        with tempfile.TemporaryDirectory() as tmp:
            cold = timed([JB, "build", str(ROOT), "--path-output", tmp, "-W", "-n", "-q"])
        print(f"冷构建（执行全部章节）：{cold:6.1f} s")

    timed(["make", "-s", "book"])                      # 让 _build/ 是最新的（也当预热）
    runs = [timed(["make", "-s", "book"]) for _ in range(5)]
    best, median = min(runs), statistics.median(runs)
    print(f"无改动的 make book：最小 {best:.2f} s，中位数 {median:.2f} s，最大 {max(runs):.2f} s（5 次）"
          f"   目标 ≤ {GOAL_REBUILD:.0f} s  {'PASS' if best <= GOAL_REBUILD else 'FAIL'}")

    from jupyter_cache import get_cache
    print("每章执行时间（构建时记下的，jupyter-cache）：")
    for record in sorted(get_cache(CACHE).list_cache_records(), key=lambda r: Path(r.uri).name):
        name = Path(record.uri).stem
        seconds = record.data.get("execution_seconds", float("nan"))
        limit = 30 if int(name[2:4]) >= ADVANCED_FROM else 10
        print(f"  {name:<32s} {seconds:6.1f} s   目标 < {limit} s  {'PASS' if seconds < limit else 'FAIL'}")


if __name__ == "__main__":
    main()
