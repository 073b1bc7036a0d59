"""compare：本书唯一的计时方法（第 8、11 章与 bench/ 共用），在一台忙碌的共享机器上也能给出可重复的比值。

做法：
- 只用一个线程（测量期间 torch.set_num_threads(1)，结束后恢复原值）：多线程的用时取决于此刻有几个空闲核；
- 每个实现先预热（第一次调用含一次性的开销：编译、首次分配内存）；
- 多轮交替运行所有实现，每轮换一个起点，机器负载的起伏平均地落到每个实现上；
- 计的是本线程占用的 CPU 时间（time.thread_time，含内核替它处理缺页的时间），
  不含线程被别的进程挤下 CPU、排队等待的时间；
- 报告最小值（最不受打扰的一次）和离散程度（中位数比最小值多百分之几）；比值取两者最小值之比，
  它的可重复程度用分组重算给出（ratio_range）；
- 申请内存与缺页（page fault）单独统计：新申请的内存第一次写入时要一页一页地向操作系统要，
  这部分开销与内存带宽无关，而且取决于分配器此刻的状态（释放的内存是留在进程里复用，还是还给了操作系统）。
  所以计时期间让分配器把释放的内存留在进程里复用（Linux/glibc 上用 mallopt；其他系统保持原样），
  测完恢复 glibc 的默认阈值，再把每个实现各调用一次，用 resource.getrusage 的 ru_minflt
  数出它每次调用新申请、写入了多少内存页。
"""
import contextlib
import ctypes
import statistics
import time

try:
    import resource
except ImportError:          # Windows 没有 resource 模块：不统计缺页
    resource = None


M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3          # glibc 的 mallopt 参数编号
DEFAULT_MMAP_THRESHOLD = DEFAULT_TRIM_THRESHOLD = 128 * 1024   # glibc 的默认值（字节）


def _libc():
    try:
        libc = ctypes.CDLL("libc.so.6")
        return libc if hasattr(libc, "mallopt") else None
    except OSError:                                    # 不是 Linux/glibc
        return None


@contextlib.contextmanager
def reuse_freed_memory():
    """在 with 块内让 glibc 把释放的大块内存留在进程里复用，退出时恢复默认阈值；返回是否生效。"""
    libc = _libc()
    ok = bool(libc) and bool(libc.mallopt(M_MMAP_THRESHOLD, 1 << 30)) \
        and bool(libc.mallopt(M_TRIM_THRESHOLD, (1 << 31) - 1))
    try:
        yield ok
    finally:
        if libc:
            libc.mallopt(M_MMAP_THRESHOLD, DEFAULT_MMAP_THRESHOLD)
            libc.mallopt(M_TRIM_THRESHOLD, DEFAULT_TRIM_THRESHOLD)
            libc.malloc_trim(0)                       # 把留下的内存还给操作系统


@contextlib.contextmanager
def fresh_memory():
    """在 with 块内把 glibc 的大块阈值固定为默认值：大块内存每次都向操作系统新要（所以会缺页）。
    不固定时 glibc 会在第一次释放一大块之后自动抬高阈值，之后的同样大小的块从堆里复用、不再缺页，
    于是「不复用」的测量只在前一两轮缺页；本进程里调用过 reuse_freed_memory 的话，阈值已经是固定的。返回 False（不复用）。"""
    libc = _libc()
    if libc:
        libc.mallopt(M_MMAP_THRESHOLD, DEFAULT_MMAP_THRESHOLD)
        libc.mallopt(M_TRIM_THRESHOLD, DEFAULT_TRIM_THRESHOLD)
        libc.malloc_trim(0)
    yield False


def _minor_faults():
    if resource is None:
        return 0
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


class Timings:
    """compare 的结果：每个实现各轮的 CPU 时间（秒）与每次调用的缺页次数。"""

    def __init__(self, seconds, faults, rounds, clock, reused, round_faults=None):
        self.seconds = seconds      # {名字: [各轮用时（秒）]}
        self.faults = faults        # {名字: 每次调用的缺页次数（分配器默认设置下单独调用一次）}
        self.round_faults = round_faults or {}   # {名字: [计时的各轮里的缺页次数]}
        self.rounds = rounds
        self.clock = clock
        self.reused = reused        # 计时期间释放的内存是否留在进程里复用

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
        """每次调用的缺页次数（即新申请并写入的内存页数）；没有 resource 模块时为 None。"""
        self._check(name)
        if resource is None:
            return None
        return self.faults[name]

    def faults_at_min(self, name):
        """取到最小用时的那一轮里的缺页次数（计时期间的缺页是否算进了最小用时）；没有 resource 模块时为 None。"""
        self._check(name)
        if resource is None or not self.round_faults.get(name):
            return None
        times = self.seconds[name]
        return self.round_faults[name][times.index(min(times))]

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


def compare(candidates, rounds=15, warmup=2, threads=1, reuse_memory=True, grad=False):
    """交替测量 candidates（{名字: 无参数函数}）里的每个实现，返回 Timings。

    rounds：交替的轮数，每轮每个实现各跑一次；warmup：正式计时前每个实现先跑几次；
    threads：测量期间 PyTorch 使用的线程数（默认 1，结束后恢复原值）；
    reuse_memory：计时期间让释放的内存留在进程里复用（默认 True）；要测量缺页本身的开销时设为 False；
    grad：是否允许求梯度（默认 False：在 torch.no_grad() 里测量；测反向传播时设为 True）。
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
    round_faults = {n: [] for n in names}   # 计时的各轮里数到的缺页（计时之外数，不算进用时）
    faults = {}
    old_threads = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        with torch.set_grad_enabled(grad):
            with (reuse_freed_memory() if reuse_memory else fresh_memory()) as reused:
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
                        seconds[name].append(time.thread_time() - t0)
                        round_faults[name].append(_minor_faults() - f0)
            # 分配器恢复默认之后，每个实现再调用一次，只数缺页，不计时
            for name, fn in candidates.items():
                f0 = _minor_faults()
                fn()
                faults[name] = _minor_faults() - f0
    finally:
        torch.set_num_threads(old_threads)
    return Timings(seconds, faults, rounds, clock="time.thread_time", reused=reused, round_faults=round_faults)
