"""层归一化各实现的速度对比（第 11 章的配套测量脚本；这是测量，不是测试）。

用法：.venv/bin/python bench/bench_layernorm_speed.py [--repeats 15] [--no-compile]

计时用本书统一的方法 dsx_util.timing.compare（第 8、11 章也用它）：单线程、预热、交替重复、
取最小的 CPU 时间并报告离散；计时期间释放的内存留在进程里复用，缺页（新申请的内存页）单独计数。打印：
- 前向传播、前向 + 反向传播的用时，相对 F.layer_norm 与相对一次内存复制（写进预先分配的输出）的倍数；
- 目标：最快的从零实现（前向，含第 11 章的 numba 融合内核）用时不超过 F.layer_norm 的 1.2 倍，
  在单独的一对一交替测量中判定，打印 PASS / FAIL；
- RMSNorm 与 LayerNorm 的速度比。
数字因机器而异；只比较同一次运行里的结果。
"""
import argparse
import sys
import time

import torch
import torch.nn.functional as F

import dsx_util
from dsx_util.timing import compare

GOAL = 1.2   # 最快的从零实现（前向）相对 F.layer_norm 的目标倍数


def layer_norm_fast(x, scale, shift, eps=1e-5):
    """改进的从零实现（与第 11 章相同）：少遍历内存，少分配完整大小的临时张量。"""
    mean = x.mean(dim=-1, keepdim=True)
    xc = x - mean
    var = torch.linalg.vector_norm(xc, dim=-1, keepdim=True).square() / x.shape[-1]
    rstd = torch.rsqrt(var + eps)
    if torch.is_grad_enabled() and (x.requires_grad or scale.requires_grad or shift.requires_grad):
        return torch.addcmul(shift, xc * rstd, scale)
    return torch.addcmul(shift, xc.mul_(rstd), scale, out=xc)


def layer_norm_simple(x, scale, shift, eps=1e-5):
    """最朴素的公式，交给 torch.compile 融合。"""
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) * torch.rsqrt(var + eps) * scale + shift


def make_fused():
    """第 11 章的融合内核（numba 编译的按行循环）；没有 numba 时返回 None。"""
    try:
        import numpy as np
        from numba import njit
    except ImportError:
        return None

    @njit(fastmath=True)
    def layer_norm_rows(x, scale, shift, out, eps):
        rows, h = x.shape
        for r in range(rows):
            s = np.float32(0.0)
            for i in range(h):
                s += x[r, i]
            mean = s / h
            ss = np.float32(0.0)
            for i in range(h):
                d = x[r, i] - mean
                ss += d * d
            rstd = np.float32(1.0) / np.sqrt(ss / h + eps)
            for i in range(h):
                out[r, i] = (x[r, i] - mean) * rstd * scale[i] + shift[i]

    def fused(x, scale, shift, out, eps=1e-5):
        h = x.shape[-1]
        layer_norm_rows(x.view(-1, h).numpy(), scale.numpy(), shift.numpy(), out.view(-1, h).numpy(), np.float32(eps))
        return out

    return fused


class LayerNormFunction(torch.autograd.Function):
    """第 10 章的手写反向传播：前向保存 x_hat 与 1/σ。"""

    @staticmethod
    def forward(ctx, x, scale, shift, eps):
        var, mean = torch.var_mean(x, dim=-1, keepdim=True, correction=0)
        r = torch.rsqrt(var + eps)
        x_hat = (x - mean) * r
        ctx.save_for_backward(x_hat, r, scale)
        return torch.addcmul(shift, x_hat, scale)

    @staticmethod
    def backward(ctx, grad_out):
        x_hat, r, scale = ctx.saved_tensors
        rows = tuple(range(grad_out.dim() - 1))
        g_hat = grad_out * scale
        grad_x = r * (g_hat - g_hat.mean(-1, keepdim=True) - x_hat * (g_hat * x_hat).mean(-1, keepdim=True))
        return grad_x, (grad_out * x_hat).sum(dim=rows), grad_out.sum(dim=rows), None


def report(title, t, n_bytes, ref="F.layer_norm"):
    print()
    dsx_util.print_table(title, t.headers(ref=ref, n_bytes=n_bytes), t.rows(ref=ref, n_bytes=n_bytes), digits=2)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=25, help="交替测量的轮数（默认 25）")
    parser.add_argument("--shape", type=int, nargs=3, default=[8, 1024, 768], help="激活值形状（默认 8 1024 768）")
    parser.add_argument("--no-compile", action="store_true", help="不测量 torch.compile 版本")
    args = parser.parse_args()

    torch.manual_seed(123)
    shape = tuple(args.shape)
    emb_dim = shape[-1]
    x = torch.randn(shape)
    scale, shift = torch.rand(emb_dim) + 0.5, torch.randn(emb_dim)
    ln = dsx_util.LayerNorm(emb_dim)
    rms = dsx_util.RMSNorm(emb_dim)
    with torch.no_grad():
        ln.scale.copy_(scale)
        ln.shift.copy_(shift)
    fwd_bytes = 2 * x.numel() * x.element_size()   # 前向最少：读 x、写 y
    print(f"torch {torch.__version__}，测量时单线程，形状 {list(shape)}，float32，"
          f"每个实现 {args.repeats} 轮交替测量，取最小的 CPU 时间（time.thread_time）")
    fused = make_fused()
    out = torch.empty_like(x)
    if fused is None:
        print("没有安装 numba：跳过融合内核")
    else:
        t0 = time.perf_counter()
        fused(x, scale, shift, out)
        print(f"numba 融合内核编译用时 {time.perf_counter() - t0:.1f} 秒")

    compiled = None
    if not args.no_compile:
        import torch._inductor.config as inductor_config
        inductor_config.compile_threads = 1   # 不开编译工作进程池：它们会在后台抢占计时用的 CPU
        t0 = time.perf_counter()
        try:
            compiled = torch.compile(layer_norm_simple)
            with torch.no_grad():
                compiled(x, scale, shift)
            xg = x.clone().requires_grad_()
            compiled(xg, scale.clone().requires_grad_(), shift.clone().requires_grad_()).sum().backward()
            print(f"torch.compile 编译用时 {time.perf_counter() - t0:.1f} 秒（前向与反向）")
        except Exception as err:  # 例如没有 C++ 编译器
            compiled = None
            print(f"torch.compile 不可用，跳过：{type(err).__name__}: {str(err)[:200]}")

    # 正确性：每个实现都与 F.layer_norm 对照
    with torch.no_grad():
        ref = F.layer_norm(x, (emb_dim,), scale, shift)
        checks = {"dsx_util.LayerNorm": ln(x), "layer_norm_fast": layer_norm_fast(x, scale, shift),
                  "第 10 章 autograd.Function": LayerNormFunction.apply(x, scale, shift, 1e-5)}
        if compiled is not None:
            checks["torch.compile"] = compiled(x, scale, shift)
        if fused is not None:
            checks["融合内核（numba）"] = fused(x, scale, shift, torch.empty_like(x))
    for name, y in checks.items():
        diff = (y - ref).abs().max().item()
        if diff > 1e-4:
            sys.exit(f"{name} 的输出与 F.layer_norm 相差 {diff:.2e}，超过 1e-4：先修正实现再比较速度。")

    # 前向传播
    fwd = {
        "复制 out.copy_(x)": lambda: out.copy_(x),
        "F.layer_norm": lambda: F.layer_norm(x, (emb_dim,), scale, shift),
        "dsx_util.LayerNorm": lambda: ln(x),
        "layer_norm_fast": lambda: layer_norm_fast(x, scale, shift),
    }
    if compiled is not None:
        fwd["torch.compile"] = lambda: compiled(x, scale, shift)
    if fused is not None:
        fwd["融合内核（numba）"] = lambda: fused(x, scale, shift, out)
    fwd["RMSNorm（dsx_util）"] = lambda: rms(x)
    fwd["F.rms_norm"] = lambda: F.rms_norm(x, (emb_dim,), scale, eps=1e-6)
    t_fwd = compare(fwd, rounds=args.repeats)
    report("前向传播（torch.no_grad）", t_fwd, fwd_bytes)

    # 前向 + 反向传播
    xg = x.clone().requires_grad_()
    sg, bg = scale.clone().requires_grad_(), shift.clone().requires_grad_()
    grad_out = torch.randn(shape)
    ln_g = dsx_util.LayerNorm(emb_dim)

    def fb(f):
        def run():
            xg.grad = sg.grad = bg.grad = None
            ln_g.zero_grad(set_to_none=True)
            f().backward(grad_out)
        return run

    fb_fns = {
        "复制 x.clone()": fb(lambda: xg.clone()),
        "F.layer_norm": fb(lambda: F.layer_norm(xg, (emb_dim,), sg, bg)),
        "dsx_util.LayerNorm": fb(lambda: ln_g(xg)),
        "layer_norm_fast": fb(lambda: layer_norm_fast(xg, sg, bg)),
        "第 10 章 autograd.Function": fb(lambda: LayerNormFunction.apply(xg, sg, bg, 1e-5)),
    }
    if compiled is not None:
        fb_fns["torch.compile"] = fb(lambda: compiled(xg, sg, bg))
    t_fb = compare(fb_fns, rounds=max(3, args.repeats // 2), grad=True)
    report("前向 + 反向传播", t_fb, 2 * fwd_bytes)

    # 目标：最快的从零实现（前向）不超过 F.layer_norm 的 GOAL 倍。
    # 单独做一次「一对一」交替测量：大表里慢的实现会分配大量临时内存，改变分配器和缓存的状态，
    # 让排在它们后面的实现多付缺页的开销；目标只比较从零实现和 F.layer_norm 本身。
    head = {"F.layer_norm": fwd["F.layer_norm"]}
    head.update({n: fwd[n] for n in ("layer_norm_fast", "torch.compile", "融合内核（numba）") if n in fwd})
    t_head = compare(head, rounds=2 * args.repeats)
    best = min((n for n in t_head.names() if n != "F.layer_norm"), key=t_head.min_ms)
    ratio = t_head.ratio(best, "F.layer_norm")
    lo, hi = t_head.ratio_range(best, "F.layer_norm")
    verdict = "PASS" if ratio <= GOAL else "FAIL"
    print("\n一对一交替测量（前向）：" + "，".join(f"{n} {t_head.min_ms(n):.2f} ms" for n in t_head.names()))
    print(f"目标：最快的从零实现（前向）用时不超过 F.layer_norm 的 {GOAL} 倍 —— "
          f"最快的是 {best}，{ratio:.2f} 倍（三组分别重算：{lo:.2f}–{hi:.2f}）：{verdict}")

    print("\nRMSNorm 与 LayerNorm（前向，同一次运行）：")
    print(f"  从零实现：dsx_util.LayerNorm 用时是 dsx_util.RMSNorm 的 "
          f"{t_fwd.ratio('dsx_util.LayerNorm', 'RMSNorm（dsx_util）'):.2f} 倍")
    print(f"  PyTorch 内置：F.layer_norm 用时是 F.rms_norm 的 {t_fwd.ratio('F.layer_norm', 'F.rms_norm'):.2f} 倍")


if __name__ == "__main__":
    main()
