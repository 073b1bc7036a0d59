"""第 11 章的比值经得起机器忙碌吗：把第 11 章执行三遍（安静、旁边一个占满一个核的进程、再安静），比较 glue 的比值。

用法：.venv/bin/python bench/bench_ch11_load.py [--factor 1.35] [--busy 1]

忙碌的一遍夹在两遍安静的中间（ABA）：机器的内存快慢会随时间漂移（与别的虚拟机共享末级缓存和内存），
前后两遍安静的几何平均抵消其中随时间线性变化的部分，剩下的差别才算在忙碌进程头上。
第 11 章 glue 的每个比值（名字里含 `_vs_`）在忙碌的一遍与安静两遍的几何平均之间相差不得超过 --factor 倍（默认 1.35）；
打印对照表，全部在范围内时打印 PASS 并以 0 退出，否则打印 FAIL 并以 1 退出。
表里另有一列「两遍安静之间」的倍数作对照（不检查）：它也接近或超过 --factor 时，比值的变化来自机器随时间的漂移，
而不是旁边的忙碌进程。
忙碌进程是 `python -c "while True: pass"`：它不读写内存，只占用 CPU，模拟共享机器上的另一个程序。
另打印一张参考表（不检查）：每遍里复制的有效带宽，以及第 11 章三次重复测量之间复制与纯计算各自漂移了多少。
在安静的机器上重测时直接运行上面一行即可（不要加 nice：计时用的是本线程的 CPU 时间）。
"""
import argparse
import ast
import math
import os
import subprocess
import sys
import time
from pathlib import Path

import dsx_util
from dsx_book.run_notebook import execute

ROOT = Path(__file__).resolve().parent.parent

CHAPTER = ROOT / "book" / "ch11_speed.ipynb"


# 不检查、只打印的参考值：复制的有效带宽与三次测量之间复制、纯计算各自的漂移（见第 11 章「离复制还差多少」）
CONTEXT = ("ch11_copy_gbs", "ch11_copy_drift", "ch11_cache_drift")


def glued_ratios(nb, keep=lambda name: "_vs_" in name):
    """执行后的笔记本里名字含 _vs_ 的 glue 值：{名字: 浮点数}。"""
    values = {}
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            meta = out.get("metadata", {}).get("scrapbook")
            if meta and keep(meta.get("name", "")):
                text = out.get("data", {}).get(meta.get("mime_prefix", "") + "text/plain")
                values[meta["name"]] = float(ast.literal_eval(text)) if text not in (None, "nan") else math.nan
    return values


def run_once(label):
    t0 = time.perf_counter()
    nb, _ = execute(str(CHAPTER), timeout=600)
    print(f"{label}：第 11 章执行用时 {time.perf_counter() - t0:.0f} 秒；此刻 1 分钟平均负载 {os.getloadavg()[0]:.2f}")
    return glued_ratios(nb), glued_ratios(nb, keep=lambda name: name in CONTEXT)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--factor", type=float, default=1.35, help="忙碌的一遍与安静两遍之间允许相差的倍数（默认 1.35）")
    parser.add_argument("--busy", type=int, default=1, help="第二遍旁边运行几个忙碌进程（默认 1）")
    args = parser.parse_args()

    print(f"机器：{os.cpu_count()} 个逻辑核；开始前 1 分钟平均负载 {os.getloadavg()[0]:.2f}（机器与别的程序共享）")
    quiet1, quiet1_ctx = run_once("第一遍（安静）")
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)]
    try:
        time.sleep(1)
        loaded, loaded_ctx = run_once(f"第二遍（旁边 {args.busy} 个忙碌进程）")
    finally:
        for p in busy:
            p.kill()
            p.wait()
    quiet2, quiet2_ctx = run_once("第三遍（安静）")

    names = sorted(set(quiet1) | set(loaded) | set(quiet2))
    if not names:
        sys.exit("第 11 章没有 glue 任何名字含 _vs_ 的比值：先检查章节。")

    def factor(a, b):
        return max(a, b) / min(a, b) if a > 0 and b > 0 else math.nan

    rows, bad = [], []
    for name in names:
        q1, b, q2 = (d.get(name, math.nan) for d in (quiet1, loaded, quiet2))
        quiet = math.sqrt(q1 * q2) if q1 > 0 and q2 > 0 else math.nan
        f = factor(quiet, b)
        ok = f <= args.factor           # nan（缺失或未测量）也算不通过
        rows.append([name, q1, b, q2, f, factor(q1, q2), "是" if ok else "否"])
        if not ok:
            bad.append(name)
    print()
    dsx_util.print_table(f"第 11 章 glue 的比值：忙碌的一遍对安静两遍的几何平均（允许相差 {args.factor} 倍）",
                         ["glue 名字", "第一遍（安静）", "第二遍（忙碌）", "第三遍（安静）", "忙碌对安静",
                          "两遍安静之间（对照）", "在范围内"], rows, digits=2)
    dsx_util.print_table("参考（不检查）：复制的有效带宽 GB/s，三次测量之间复制与纯计算的漂移（最大 ÷ 最小）",
                         ["glue 名字", "第一遍（安静）", "第二遍（忙碌）", "第三遍（安静）"],
                         [[n, quiet1_ctx.get(n, math.nan), loaded_ctx.get(n, math.nan), quiet2_ctx.get(n, math.nan)]
                          for n in CONTEXT], digits=2)
    if bad:
        print(f"FAIL：{len(bad)} 个比值超出 {args.factor} 倍：{', '.join(bad)}")
        sys.exit(1)
    print(f"PASS：全部 {len(names)} 个比值在忙碌的一遍与安静两遍之间相差不超过 {args.factor} 倍")


if __name__ == "__main__":
    main()
