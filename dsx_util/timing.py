"""compare：本书唯一的计时方法（第 8、11 章与 bench/ 共用），在一台忙碌的共享机器上也能给出可重复的比值。

做法：
- 只用一个线程（测量期间 torch.set_num_threads(1)，结束后恢复原值）：多线程的用时取决于此刻有几个空闲核；
- 每个实现先预热（第一次调用含一次性的开销：编译、首次分配内存）；
- 多轮交替运行所有实现，每轮换一个起点，机器负载的起伏平均地落到每个实现上；
- 计的是本线程占用的 CPU 时间（time.thread_time，含内核替它处理缺页的时间），
  不含线程被别的进程挤下 CPU、排队等待的时间；
- 报告最小值（最不受打扰的一次）和离散程度（中位数比最小值多百分之几）；比值取两者最小值之比，
  它的可重复程度用分组重算给出（ratio_range）；
- 每次调用的缺页（page fault）次数用 resource.getrusage 的 ru_minflt 单独记下：
  新分配的内存第一次写入时要逐页向操作系统要，这部分开销与内存带宽无关，要分开看。
"""
import statistics
import time

try:
    import resource
except ImportError:          # Windows 没有 resource 模块：不统计缺页
    resource = None


def _minor_faults():
    if resource is None:
        return 0
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


class Timings:
    """compare 的结果：每个实现各轮的 CPU 时间（秒）与每次调用的缺页次数。"""

    def __init__(self, seconds, faults, rounds, clock):
        self.seconds = seconds      # {名字: [各轮用时（秒）]}
        self.faults = faults        # {名字: [各轮缺页次数]}
        self.rounds = rounds
        self.clock = clock

    def __contains__(self, name):
        return name in self.seconds

    def names(self):
        return list(self.seconds)

    def _check(self, name):
        if name not in self.seconds:
            raise KeyError(f"没有测量名为 {name!r} 的实现；测过的有：{', '.join(self.seconds)}")

    def min_ms(self, name):
        """最小用时（毫秒）：最不受打扰的一次。"""
        self._check(name)
        return min(self.seconds[name]) * 1e3

    def median_ms(self, name):
        self._check(name)
        return statistics.median(self.seconds[name]) * 1e3

    def spread(self, name):
        """离散程度：中位数比最小值多出的比例（0.05 表示多 5%）。"""
        return self.median_ms(name) / self.min_ms(name) - 1

    def page_faults(self, name):
        """每次调用的缺页次数（各轮的中位数）；没有 resource 模块时为 None。"""
        self._check(name)
        if resource is None:
            return None
        return statistics.median(self.faults[name])

    def ratio(self, name, ref):
        """name 的最小用时是 ref 的几倍。"""
        return self.min_ms(name) / self.min_ms(ref)

    def ratio_range(self, name, ref, parts=3):
        """比值的可重复程度：把各轮按序号分成 parts 组（第 0、3、6… 轮一组，依此类推），
        每组各自算一次「最小用时之比」，返回这些比值中的 (最小, 最大)。"""
        self._check(name)
        self._check(ref)
        parts = max(1, min(parts, self.rounds))
        ratios = [min(self.seconds[name][k::parts]) / min(self.seconds[ref][k::parts]) for k in range(parts)]
        return min(ratios), max(ratios)

    def rows(self, ref=None, n_bytes=None):
        """表格行：[名字, 最小毫秒, 离散, (有效 GB/s), (相对 ref), 每次缺页]。"""
        out = []
        for name in self.seconds:
            row = [name, self.min_ms(name), f"{self.spread(name):.0%}"]
            if n_bytes is not None:
                row.append(n_bytes / (self.min_ms(name) / 1e3) / 1e9)
            if ref is not None:
                row.append(self.ratio(name, ref))
            faults = self.page_faults(name)
            row.append("—" if faults is None else int(faults))
            out.append(row)
        return out

    def headers(self, ref=None, n_bytes=None):
        head = ["实现", "最小毫秒", "离散"]
        if n_bytes is not None:
            head.append("有效带宽 GB/s")
        if ref is not None:
            head.append(f"相对 {ref}")
        head.append("每次缺页")
        return head


def compare(candidates, rounds=15, warmup=2, threads=1):
    """交替测量 candidates（{名字: 无参数函数}）里的每个实现，返回 Timings。

    rounds：交替的轮数，每轮每个实现各跑一次；warmup：正式计时前每个实现先跑几次；
    threads：测量期间 PyTorch 使用的线程数（默认 1，结束后恢复原值）。
    """
    if not isinstance(candidates, dict) or not candidates:
        raise ValueError(f"candidates 应为非空字典 {{名字: 无参数函数}}，收到的是 {candidates!r:.80}。")
    for name, fn in candidates.items():
        if not callable(fn):
            raise ValueError(f"candidates[{name!r}] 应为可以直接调用的函数（例如 lambda: F.layer_norm(x, ...)），"
                             f"收到的是 {type(fn).__name__}。")
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise ValueError(f"rounds 应为正整数，收到的是 {rounds!r}。")
    import torch

    names = list(candidates)
    seconds = {n: [] for n in names}
    faults = {n: [] for n in names}
    old_threads = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        with torch.no_grad():
            for _ in range(warmup):
                for fn in candidates.values():
                    fn()
            for r in range(rounds):
                order = names[r % len(names):] + names[:r % len(names)]   # 每轮换一个起点
                for name in order:
                    fn = candidates[name]
                    f0 = _minor_faults()
                    t0 = time.thread_time()
                    fn()
                    t1 = time.thread_time()
                    faults[name].append(_minor_faults() - f0)
                    seconds[name].append(t1 - t0)
    finally:
        torch.set_num_threads(old_threads)
    return Timings(seconds, faults, rounds, clock="time.thread_time")
