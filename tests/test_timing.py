"""dsx_util.timing.compare：本书唯一的计时方法。这里测它的行为（线程数、缺页计数、比值与范围、错误信息），不测速度。"""
import pytest
import torch

from dsx_util.timing import compare


def test_one_thread_inside_and_restored_after():
    seen = []
    old = torch.get_num_threads()
    compare({"记录线程数": lambda: seen.append(torch.get_num_threads())}, rounds=3, warmup=1)
    assert set(seen) == {1}
    assert torch.get_num_threads() == old


def test_every_candidate_runs_warmup_plus_rounds_interleaved():
    calls = []
    t = compare({"a": lambda: calls.append("a"), "b": lambda: calls.append("b")}, rounds=4, warmup=2)
    # 预热 2 次 + 4 轮 + 分配器恢复后数缺页的 1 次；每轮换起点：第 2 轮先跑 b
    assert calls.count("a") == calls.count("b") == 2 + 4 + 1
    assert calls[4:8] == ["a", "b", "b", "a"]
    assert len(t.seconds["a"]) == 4


def test_page_faults_counted_for_fresh_memory_only():
    n = 3 * 8 * 1024 * 768          # 75 MB：比 glibc 愿意留在进程里的块大，每次都是新内存
    big = torch.empty(n)
    t = compare({"新申请": lambda: torch.empty(n).fill_(1.0), "预先分配": lambda: big.fill_(1.0)},
                rounds=3, warmup=1, reuse_memory=False)
    if t.page_faults("新申请") is None:
        pytest.skip("没有 resource 模块（Windows）：不统计缺页")
    assert t.page_faults("新申请") >= n * 4 // 4096
    assert t.page_faults("预先分配") < 100


def test_faults_at_min_reports_the_faults_of_the_fastest_round():
    """第 11 章：取到最小用时的那一轮缺页了没有（faults_at_min）。每次新申请 25 MB 并写满的实现，
    在不复用内存时每一轮都缺页，最小用时那一轮也不例外；预先分配的一页也不缺。"""
    n = 8 * 1024 * 768              # 25 MB：与第 11 章的输出一样大
    big = torch.empty(n)
    t = compare({"新申请": lambda: torch.empty(n).fill_(1.0), "预先分配": lambda: big.fill_(1.0)},
                rounds=5, warmup=1, reuse_memory=False)
    if t.faults_at_min("新申请") is None:
        pytest.skip("没有 resource 模块（Windows）：不统计缺页")
    assert len(t.round_faults["新申请"]) == 5
    assert t.faults_at_min("新申请") >= n * 4 // 4096 - 10
    assert t.faults_at_min("预先分配") < 100
    fastest = t.seconds["新申请"].index(min(t.seconds["新申请"]))
    assert t.faults_at_min("新申请") == t.round_faults["新申请"][fastest]


def test_ratio_lies_within_its_range_and_spread_is_nonnegative():
    x = torch.randn(256, 256)
    t = compare({"加法": lambda: x + 1, "矩阵乘": lambda: x @ x}, rounds=6, warmup=1)
    lo, hi = t.ratio_range("矩阵乘", "加法")
    assert lo <= t.ratio("矩阵乘", "加法") <= hi
    assert t.spread("加法") >= 0 and t.min_ms("加法") <= t.median_ms("加法")
    assert t.headers(ref="加法")[-1] == "每次缺页" and len(t.rows(ref="加法")[0]) == len(t.headers(ref="加法"))


@pytest.mark.parametrize("bad, words", [
    ({}, "非空字典"),
    ([lambda: None], "非空字典"),
    ({"x": 3}, "可以直接调用的函数"),
])
def test_bad_candidates_get_a_chinese_error(bad, words):
    with pytest.raises(ValueError, match=words):
        compare(bad, rounds=2)


def test_bad_rounds_and_unknown_names():
    with pytest.raises(ValueError, match="rounds 应为正整数"):
        compare({"a": lambda: None}, rounds=0)
    t = compare({"a": lambda: None}, rounds=2, warmup=0)
    with pytest.raises(KeyError, match="测过的有：a"):
        t.min_ms("b")
