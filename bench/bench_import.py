"""导入开销：`import dsx_util` 与 `import torch, prettytable` 在同一次运行中交替测量，打印中位数和比值。

每次都在新的 Python 进程里导入（冷启动的解释器，热的磁盘缓存），两种导入交替进行以抵消机器负载的波动。
目标：import dsx_util 不超过 import torch, prettytable 的 1.15 倍。
"""
import statistics
import subprocess
import sys
import time

REPEATS = 15
CASES = {
    "torch+prettytable": "import torch, prettytable",
    "dsx_util": "import dsx_util",
    "dsx_util+LayerNorm": "import dsx_util; dsx_util.LayerNorm",   # 章节里的真实用法：第一次用到时才导入 torch
    "python": "pass",
}


def once(code):
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True)
    return time.perf_counter() - t0


def main():
    times = {name: [] for name in CASES}
    for _ in range(REPEATS):
        for name, code in CASES.items():  # 交替测量
            times[name].append(once(code))
    med = {name: statistics.median(v) for name, v in times.items()}
    base = med["torch+prettytable"]
    print(f"导入耗时（{REPEATS} 次交替测量的中位数，含解释器启动 {med['python'] * 1000:.0f} ms）")
    for name in CASES:
        print(f"  {name:<20s} {med[name] * 1000:8.1f} ms   {med[name] / base:5.2f}x")
    ratio = med["dsx_util"] / base
    real = med["dsx_util+LayerNorm"] / base
    print(f"import dsx_util / import torch, prettytable = {ratio:.2f}x  目标 ≤ 1.15x  {'PASS' if ratio <= 1.15 else 'FAIL'}")
    print(f"import dsx_util 并取用 LayerNorm（会导入 torch）= {real:.2f}x  目标 ≤ 1.15x  {'PASS' if real <= 1.15 else 'FAIL'}")


if __name__ == "__main__":
    main()
