"""基准：网页练习（Pyodide 在 Web Worker 里运行纯 Python 检查器）的速度，以及只读页面多下载了多少。

- 第一次检查：在全新的浏览器上下文里（没有缓存）打开页面，按「运行并检查」，直到反馈出现。
  包括从本地服务器下载编辑器与 Pyodide、启动 Python、载入检查器、运行检查。目标 ≤ 5 s（中位数）。
- 再次检查：同一页面再按一次（Pyodide 已在 Worker 里）。目标 ≤ 200 ms（中位数）。
- 只读的页面：打开页面、滚到底，不点任何东西；统计网页练习的文件（_static/dsx_inpage、pyodide、codemirror）
  的请求数与字节数，目标 0；另外报告页面 HTML 里内联的工具栏与加载器有多少字节（它们随页面一起到达，不是额外请求）。

本机是多人共用的 2 核机器时，时间受负载影响很大：同时打印 1 分钟平均负载，以及第一次检查时浏览器各进程
合计用掉的 CPU 时间（不受别人占用影响），供解读。
用法：make book 之后 .venv/bin/python bench/bench_inpage.py [--page book/ch04_formulas.html] [--n 5]；
任一项未达标时退出码为 1。
"""
import argparse
import os
import re
import statistics
import sys
import time
from pathlib import Path

from dsx_book.common import CHROMIUM, CHROMIUM_ARGS, serve_directory

ROOT = Path(__file__).resolve().parent.parent

FIRST_GOAL_S, REPEAT_GOAL_MS = 5.0, 200.0
FEATURE = ("/_static/dsx_inpage/", "/_static/pyodide/", "/_static/codemirror/")
DONE = "document.querySelector('.dsx-inpage-feedback').className.match(/pass|fail/)"


def browser_cpu_seconds():
    """本进程的所有子孙进程（Playwright 驱动与它启动的 Chromium）已用掉的 CPU 时间（用户态 + 内核态）。

    本机被别人占满时墙钟时间会被拉长，这个数不受影响：空闲的机器上，墙钟时间大致不会超过它。
    """
    parents, times = {}, {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry)] = int(fields[1])
            times[int(entry)] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    mine, frontier = set(), {os.getpid()}
    while frontier:
        frontier = {pid for pid, ppid in parents.items() if ppid in frontier} - mine
        mine |= frontier
    return sum(times[pid] for pid in mine)


def click_run(page):
    """按「运行并检查」直到出现结论；返回 (墙钟秒数, 浏览器用掉的 CPU 秒数)。"""
    page.evaluate("document.querySelector('.dsx-inpage-feedback').className = 'dsx-inpage-feedback'")
    cpu0, t0 = browser_cpu_seconds(), time.perf_counter()
    page.locator(".dsx-inpage button[data-action=run]").first.click()
    page.wait_for_function(DONE, timeout=120_000)
    return time.perf_counter() - t0, browser_cpu_seconds() - cpu0


def feature_bytes(requests):
    out = [r for r in requests if any(f in r.url for f in FEATURE)]
    return len(out), sum((r.sizes()["responseBodySize"] if r.response() else 0) for r in out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--page", default="book/ch04_formulas.html")
    parser.add_argument("--n", type=int, default=5)
    args = parser.parse_args()
    html_root = ROOT / "_build" / "html"
    html = (html_root / args.page).read_text(encoding="utf-8")
    inline = sum(len(m.encode()) for m in re.findall(r'<div class="dsx-inpage".*?</script>|<div class="dsx-inpage".*?</div></div>',
                                                     html, re.S))
    url = serve_directory(html_root)[1] + args.page

    from playwright.sync_api import sync_playwright
    first, first_cpu, repeat = [], [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        # 只读：打开、滚到底，什么也不点
        context = browser.new_context()
        requests = []
        context.on("requestfinished", lambda r: requests.append(r))
        page = context.new_page()
        page.goto(url, wait_until="networkidle")
        page.mouse.wheel(0, 20000)
        page.wait_for_timeout(1000)
        read_count, read_bytes = feature_bytes(requests)
        context.close()
        # 第一次检查（全新上下文，没有缓存）与再次检查
        for _ in range(args.n):
            context = browser.new_context()
            requests = []
            context.on("requestfinished", lambda r: requests.append(r))
            page = context.new_page()
            page.goto(url, wait_until="networkidle")
            wall, cpu = click_run(page)
            first.append(wall)
            first_cpu.append(cpu)
            repeat += [click_run(page)[0] for _ in range(3)]
            run_count, run_bytes = feature_bytes(requests)
            context.close()
        browser.close()

    load = os.getloadavg()[0]
    first_s, repeat_ms = statistics.median(first), statistics.median(repeat) * 1000
    print(f"页面：{args.page}；1 分钟平均负载 {load:.1f}（CPU {os.cpu_count()} 核）")
    print(f"只读页面：网页练习的请求 {read_count} 个、{read_bytes} 字节（目标 0）；"
          f"页面 HTML 里内联的工具栏与加载器 {inline} 字节（随 HTML 到达，不是额外请求）")
    print(f"第一次检查需要下载 {run_count} 个文件、{run_bytes / 2**20:.1f} MB（只在读者按「运行并检查」之后）")
    print(f"第一次检查：中位数 {first_s:.2f} s（{', '.join(f'{t:.2f}' for t in first)}），目标 ≤ {FIRST_GOAL_S:g} s")
    print(f"第一次检查时浏览器用掉的 CPU 时间（各进程合计，不受别人占用影响）：中位数 {statistics.median(first_cpu):.2f} s")
    print(f"再次检查：中位数 {repeat_ms:.0f} ms（{len(repeat)} 次），目标 ≤ {REPEAT_GOAL_MS:g} ms")
    ok = read_count == 0 and read_bytes == 0 and first_s <= FIRST_GOAL_S and repeat_ms <= REPEAT_GOAL_MS
    print("达标" if ok else "未达标")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
