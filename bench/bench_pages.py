"""网页有多轻、多快：在 Chromium 里经本地服务器打开每一页，测传输量、请求数、首次绘制和公式可见的时间。

每页测两种加载：
- 冷加载：全新的浏览器缓存，直接打开这一页；
- 热加载：保留缓存，先打开另一章，再点进这一页（读者在章节之间翻页的情形）。
插图延迟加载（读者滚动到附近时才下载），所以另测「读完」：热加载之后一屏一屏滚到页尾，
这一页一共传输了多少（含全部插图），以及滚动途中的布局偏移（插图到达时页面不应跳动）。
时间取自浏览器的 Performance API：首次绘制（first-contentful-paint）；「公式全部可见」= 页面上每个公式
都已有排版结果、且公式用到的字体已下载完的时刻（不早于首次绘制）；布局偏移 = 首次绘制之后
layout-shift 条目之和。每项取多次运行的中位数。

用法：python bench/bench_pages.py [--runs 3] [--html 目录] [--before 目录]
  --before 给出另一份构建（例如改动前的 _build/html）时，两份结果并排打印。
目标（章节页）：冷加载 ≤ 1.0 MB（未压缩），热加载 ≤ 200 KB，公式在首次绘制时就可见，布局偏移 ≈ 0。
本地服务器（与测试相同的 http.server）不压缩；「gzip」列估算经压缩的服务器传输的量（文本按 gzip -6）。
"""
import argparse
import gzip
import statistics
import sys
from pathlib import Path
from urllib.parse import unquote, urlparse

from dsx_book.common import CHROMIUM, CHROMIUM_ARGS, chapter_paths, html_dir, serve_directory

ROOT = Path(__file__).resolve().parent.parent

COLD_GOAL_KB = 1000
WARM_GOAL_KB = 200
SHIFT_GOAL = 0.01
FRAME_MS = 20          # 「首次绘制时可见」允许的误差：一帧

# 在页面的任何脚本之前运行：记录布局偏移，以及每一帧里公式是否都已排版
PROBE = """(() => {
  window.__dsx = {shift: 0, mathReady: null};
  new PerformanceObserver(list => {
    for (const e of list.getEntries()) if (!e.hadRecentInput) window.__dsx.shift += e.value;
  }).observe({type: 'layout-shift', buffered: true});
  const rendered = el => el.querySelector('mjx-container') !== null;
  const tick = () => {
    const math = document.querySelectorAll('div.math, span.math');
    // 还没解析到任何公式时不算（除非整页已解析完）；流式解析中已出现的公式都已排版才算
    if ((math.length > 0 || document.readyState !== 'loading') && Array.from(math).every(rendered)) {
      window.__dsx.mathReady = performance.now();
    } else {
      requestAnimationFrame(tick);
    }
  };
  requestAnimationFrame(tick);
})();"""

COLLECT = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const res = performance.getEntriesByType('resource');
  const all = [nav, ...res];
  const fetched = all.filter(e => e.transferSize > 0);
  const paint = performance.getEntriesByType('paint').find(e => e.name === 'first-contentful-paint');
  const fonts = res.filter(e => /MathJax_[^/]*\\.woff2?(\\?|$)/.test(e.name));
  const fontsDone = fonts.length ? Math.max(...fonts.map(e => e.responseEnd)) : 0;
  const fcp = paint ? paint.startTime : null;
  const noMath = document.querySelectorAll('div.math, span.math').length === 0;
  const mathReady = noMath ? fcp : window.__dsx.mathReady;
  return {
    bytes: all.reduce((s, e) => s + e.transferSize, 0),
    requests: fetched.length,
    urls: fetched.map(e => e.name),
    fcp: fcp,
    visible: (fcp === null || mathReady === null) ? null : Math.max(fcp, mathReady, fontsDone),
    shift: window.__dsx.shift,
    parts: [fcp, mathReady, fontsDone].map(Math.round),
    scripts: res.filter(e => e.initiatorType === 'script' || /\\.js(\\?|$)/.test(e.name)).map(e => e.name),
  };
}"""


TEXT = (".html", ".css", ".js", ".svg", ".json", ".txt")


def gzip_kb(root, urls):
    """这些请求经过一台做 gzip 压缩的服务器（如 nginx、GitHub Pages）时大约要传多少 KB：文本按 gzip -6 计，图片和字体本已压缩、按原大小计。"""
    total = 0
    for url in urls:
        path = root / unquote(urlparse(url).path).lstrip("/")
        if path.is_dir():
            path = path / "index.html"
        data = path.read_bytes() if path.exists() else b""
        total += len(gzip.compress(data, 6)) if path.suffix in TEXT else len(data)
    return total / 1000


def pages(root):
    names = ["book/index.html"] + [f"book/{p.stem}.html" for p in chapter_paths()]   # 根目录 index.html 只是跳转
    return [n for n in names if (root / n).exists()]


SCROLL_TO_END = """async () => {
  const pause = () => new Promise(r => setTimeout(r, 150));
  for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight * 0.8) {
    window.scrollTo(0, y);
    await pause();
  }
  window.scrollTo(0, document.documentElement.scrollHeight);
  await pause();
}"""


def load(browser, url, via=None, read=False):
    """在新的浏览器上下文里打开 url（via 不为空时先打开 via，缓存保留），返回测量结果。

    read 为真时还要滚到页尾，返回值多出 read_bytes（这一页总共传输的字节）和 read_shift（含滚动途中的布局偏移）。
    """
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
    try:
        page = context.new_page()
        if via:
            page.goto(via, wait_until="load")
            page.wait_for_timeout(500)          # 让这一页的延迟加载（字体、脚本）也进入缓存
        page.add_init_script(PROBE)
        page.goto(url, wait_until="load")
        page.wait_for_function("() => window.__dsx.mathReady !== null", timeout=30000)
        page.wait_for_timeout(500)          # 让排版之后的布局偏移也被记下来
        result = page.evaluate(COLLECT)
        if read:
            page.evaluate(SCROLL_TO_END)
            page.wait_for_load_state("networkidle")
            page.wait_for_timeout(300)
            after = page.evaluate(COLLECT)
            result.update(read_bytes=after["bytes"], read_shift=after["shift"])
        return result
    finally:
        context.close()


def measure(browser, root, runs):
    server, base = serve_directory(root)
    try:
        names = pages(root)
        results = {}
        for i, name in enumerate(names):
            other = names[i - 1] if i > 0 else names[1]       # 热加载：从相邻的一页点过来
            cold = [load(browser, base + name) for _ in range(runs)]
            warm = [load(browser, base + name, via=base + other, read=True) for _ in range(runs)]
            med = lambda rows, key: statistics.median(r[key] for r in rows if r[key] is not None)  # noqa: E731
            results[name] = {
                "cold_kb": med(cold, "bytes") / 1000, "cold_req": med(cold, "requests"),
                "warm_kb": med(warm, "bytes") / 1000, "warm_req": med(warm, "requests"),
                "cold_gz": statistics.median(gzip_kb(root, r["urls"]) for r in cold),
                "warm_gz": statistics.median(gzip_kb(root, r["urls"]) for r in warm),
                "read_kb": med(warm, "read_bytes") / 1000, "read_shift": med(warm, "read_shift"),
                "fcp": med(cold, "fcp"), "visible": med(cold, "visible"), "shift": med(cold, "shift"),
                "scripts": sorted({Path(s.split("?")[0]).name for r in cold for s in r["scripts"]}),
            }
        return results
    finally:
        server.shutdown()


def row(name, r):
    return (f"{name:<36s} {r['cold_kb']:8.0f} {r['cold_gz']:6.0f} {r['cold_req']:5.0f}"
            f" {r['warm_kb']:8.0f} {r['warm_gz']:6.0f} {r['warm_req']:5.0f}"
            f" {r['fcp']:7.0f} {r['visible']:7.0f} {r['shift']:7.3f} {r['read_kb']:8.0f} {r['read_shift']:7.3f}")


def report(title, results):
    print(f"\n{title}")
    print(f"{'页面':<34s} {'冷KB':>8s} {'gzip':>6s} {'冷请求':>3s} {'热KB':>7s} {'gzip':>6s} {'热请求':>3s}"
          f" {'首绘ms':>5s} {'公式ms':>5s} {'布局偏移':>5s} {'读完KB':>6s} {'读完偏移':>4s}")
    for name, r in results.items():
        print(row(name, r))
    chapters = {n: r for n, r in results.items() if n.startswith("book/")}
    if not chapters:
        return
    worst_cold = max(r["cold_kb"] for r in chapters.values())
    worst_warm = max(r["warm_kb"] for r in chapters.values())
    worst_warm_gz = max(r["warm_gz"] for r in chapters.values())
    worst_delay = max(r["visible"] - r["fcp"] for r in chapters.values())
    worst_shift = max(max(r["shift"], r["read_shift"]) for r in chapters.values())
    worst_read = max(r["read_kb"] for r in chapters.values())
    verdict = lambda ok: "PASS" if ok else "FAIL"  # noqa: E731
    print(f"章节页冷加载最大 {worst_cold:.0f} KB        目标 ≤ {COLD_GOAL_KB} KB  {verdict(worst_cold <= COLD_GOAL_KB)}")
    print(f"章节页热加载最大 {worst_warm:.0f} KB        目标 ≤ {WARM_GOAL_KB} KB  {verdict(worst_warm <= WARM_GOAL_KB)}")
    print(f"  （经 gzip 压缩的服务器：{worst_warm_gz:.0f} KB  {verdict(worst_warm_gz <= WARM_GOAL_KB)}）")
    print(f"公式晚于首次绘制最多 {worst_delay:.0f} ms   目标 ≤ {FRAME_MS} ms（一帧）  {verdict(worst_delay <= FRAME_MS)}")
    print(f"首次绘制后布局偏移最大 {worst_shift:.3f}（含滚到页尾途中）   目标 ≤ {SHIFT_GOAL}  {verdict(worst_shift <= SHIFT_GOAL)}")
    print(f"（参考）热加载后读完一章最多传输 {worst_read:.0f} KB（含全部插图）")
    scripts = sorted({s for r in results.values() for s in r["scripts"]})
    print(f"加载的脚本：{', '.join(scripts)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="每页每种加载的次数（取中位数）")
    parser.add_argument("--html", type=Path, default=html_dir(), help="要测的构建（默认 _build/html）")
    parser.add_argument("--before", type=Path, help="改动前的构建，用来对比")
    args = parser.parse_args()
    for root in filter(None, [args.before, args.html]):
        if not (root / "index.html").exists():
            sys.exit(f"没有找到构建好的书：{root}/index.html。请先运行 make book。")

    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            if args.before:
                report(f"改动前：{args.before}", measure(browser, args.before, args.runs))
            report(f"{'改动后：' if args.before else ''}{args.html}", measure(browser, args.html, args.runs))
        finally:
            browser.close()


if __name__ == "__main__":
    main()
