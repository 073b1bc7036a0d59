"""基准：从拨动 γ 滑块到视图更新完成的时间（中位数），H = 768。

- 内核端：给 ipywidgets 的 γ 滑块赋值 → observe 回调用 torch 重算 → 重新生成内联 SVG 与数字（HTML 控件的值更新）。
  目标 ≤ 50 ms。（不含把 HTML 经 comm 发给前端的时间：这里没有前端。）
- 页面内：在 Chromium 里给 γ 的 <input type="range"> 派发 input 事件，用 performance.now() 计时，
  直到显示的输出方差文字更新并完成布局。目标 ≤ 16 ms（一帧）。

另测第 13 章的真实激活值探索器（4 块、128 维、4 头的随机初始化模型读 40 个词元，9 个层归一化）：
内核端换层或换词元（torch 重算 + 重画散点图）目标 ≤ 50 ms；页面内换词元、换到没去过的层（重算本层全部散点）目标 ≤ 16 ms。

用法：.venv/bin/python bench/bench_widgets.py [--h 768] [--n 50]；任一项未达标时退出码为 1。
"""
import argparse
import statistics
import sys
import time


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]
KERNEL_GOAL_MS, PAGE_GOAL_MS = 50.0, 16.0

PAGE_JS = """
([n]) => {
  const root = document.querySelector('[data-explorer="layer_norm"]');
  const slider = root.querySelector('[data-role="gamma"]');
  const out = root.querySelector('[data-role="out-var"]');
  const times = [];
  let changed = 0;
  for (let i = 0; i < n; i++) {
    const before = out.textContent;
    const t0 = performance.now();
    slider.value = String(((i % 2) ? 2.0 : 1.5) + i * 0.01);
    slider.dispatchEvent(new Event('input', {bubbles: true}));
    void root.offsetHeight;  // 强制完成样式与布局
    const text = out.textContent;
    times.push(performance.now() - t0);
    if (text !== before) { changed++; }
  }
  return {times, changed};
}
"""


def median_ms(seconds):
    return statistics.median(seconds) * 1000.0


def bench_kernel(h, n):
    import torch
    from dsx_util.widgets import layer_norm_explorer

    torch.manual_seed(0)
    ex = layer_norm_explorer(torch.randn(h))
    _ = ex.widget  # 建好 ipywidgets 视图
    slider, view = ex._w["gamma"], ex._w["view"]
    times = []
    for i in range(n):
        before = view.value
        t0 = time.perf_counter()
        slider.value = (2.0 if i % 2 else 1.5) + i * 0.001  # 每次都与上一次不同
        after = view.value
        times.append(time.perf_counter() - t0)
        assert after != before, "视图没有更新"
    return median_ms(times)


def bench_page(h, n):
    import torch
    from playwright.sync_api import sync_playwright
    from dsx_util.widgets import layer_norm_explorer

    torch.manual_seed(0)
    page_html = "<!doctype html><html><body>" + layer_norm_explorer(torch.randn(h))._repr_html_() + "</body></html>"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page()
        errors = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.set_content(page_html)
        page.evaluate(PAGE_JS, [10])  # 预热
        result = page.evaluate(PAGE_JS, [n])
        browser.close()
    if errors or result["changed"] < n - 1:
        raise SystemExit(f"页面内视图没有正常更新：errors={errors}, changed={result['changed']}/{n}")
    return statistics.median(result["times"])


ACT_PAGE_JS = """
([n, layers]) => {
  const root = document.querySelector('[data-explorer="activations"]');
  const layer = root.querySelector('[data-role="layer"]'), token = root.querySelector('[data-role="token"]');
  const out = root.querySelector('[data-role="act-sigma"]');
  const T = token.options.length, tok = [], lay = [];
  for (let i = 0; i < n; i++) {
    token.value = String((i * 7 + 3) % T);
    let t0 = performance.now();
    token.dispatchEvent(new Event('change', {bubbles: true}));
    void root.offsetHeight; void out.textContent;
    tok.push(performance.now() - t0);
  }
  for (let i = 0; i < layers; i++) {      // 每一层第一次去：要重算这一层全部 T × H 个散点
    layer.value = String(i);
    let t0 = performance.now();
    layer.dispatchEvent(new Event('change', {bubbles: true}));
    void root.offsetHeight;
    lay.push(performance.now() - t0);
  }
  return {tok, lay};
}
"""


def _act_explorer(tokens=40):
    import torch
    from dsx_util.gpt import GPTModel
    from dsx_util.widgets import activation_data, activation_explorer

    torch.manual_seed(0)
    model = GPTModel({"vocab_size": 1019, "context_length": 256, "emb_dim": 128, "n_heads": 4, "n_layers": 4,
                      "drop_rate": 0.1, "qkv_bias": False})
    return activation_explorer(activation_data(model, list(range(tokens))))


def bench_activations(n):
    """(内核端中位数, 页面内换词元中位数, 页面内换到新的层中位数)，单位 ms。"""
    from playwright.sync_api import sync_playwright

    ex = _act_explorer()
    ex.widget  # noqa: B018  建好 ipywidgets 视图
    times = []
    for i in range(n):
        t0 = time.perf_counter()
        ex.set(layer=i % len(ex.layers), token=(i * 7) % ex.t_count)
        times.append(time.perf_counter() - t0)
    kernel = median_ms(times)
    html = "<!doctype html><html><body>" + _act_explorer()._repr_html_() + "</body></html>"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page()
        errors = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.set_content(html)
        result = page.evaluate(ACT_PAGE_JS, [n, len(ex.layers)])
        browser.close()
    if errors:
        raise SystemExit(f"真实激活值探索器的页面内视图出错：{errors}")
    return kernel, statistics.median(result["tok"]), statistics.median(result["lay"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--h", type=int, default=768, help="输入向量长度 H（默认 768，GPT-2 small 的嵌入维度）")
    parser.add_argument("--n", type=int, default=50, help="拨动次数（取中位数）")
    args = parser.parse_args()

    kernel = bench_kernel(args.h, args.n)
    page = bench_page(args.h, args.n)
    act_kernel, act_token, act_layer = bench_activations(args.n)
    ok = True
    print(f"交互探索器更新时间（H = {args.h}，{args.n} 次拨动取中位数；真实激活值探索器：40 个词元 × 128 维 × 9 层）")
    for name, value, goal in (("内核端（回调 + 重绘）", kernel, KERNEL_GOAL_MS), ("页面内（input 事件 → 文字与布局更新）", page, PAGE_GOAL_MS),
                              ("真实激活值：内核端换层或换词元", act_kernel, KERNEL_GOAL_MS),
                              ("真实激活值：页面内换词元", act_token, PAGE_GOAL_MS),
                              ("真实激活值：页面内换到新的一层（重算全部散点）", act_layer, PAGE_GOAL_MS)):
        verdict = "PASS" if value <= goal else "FAIL"
        ok &= verdict == "PASS"
        print(f"  {value:8.2f} ms   目标 ≤ {goal:2.0f} ms   占目标 {value / goal:6.1%}   {verdict}   {name}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
