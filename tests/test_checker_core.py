"""练习检查器的公共部分：学习者的代码怎样出错都不会让检查器（和内核）崩溃；反馈只显示一次。"""
import time

import pytest
import torch
import torch.nn as nn

from dsx_util.exercises.feedback import (NOT_DONE, CheckResult, call_learner, describe_exception,
                                      finish)
from dsx_util.exercises import check_batch_norm
from dsx_util.exercises import check_layer_norm
from dsx_util.exercises import check_rms_norm
from dsx_util.exercises import check_mean_var


# ---------------------------------------------------------------- call_learner
def test_call_learner_returns_value_and_captures_output():
    def f(a, b=1):
        print("hello")
        return a + b

    out = call_learner(f, 1, b=2)
    assert out.ok and out.value == 3 and out.code is None
    assert out.printed == "hello\n" and out.printed_chars == 6


def test_exception_is_one_line_pointing_at_learner_code():
    def learner(x):
        y = x * 2
        return y / 0

    out = call_learner(learner, 1)
    assert not out.ok and out.code == "raised"
    assert out.error.startswith("ZeroDivisionError: division by zero")
    assert "`return y / 0`" in out.error and "\n" not in out.error
    assert "（test_checker_core.py 第" in out.error       # 指向学习者的文件，不是检查器内部
    assert "dsx_util" not in out.error and "threading" not in out.error


def test_exception_inside_torch_points_at_learner_line():
    out = call_learner(lambda x: x @ torch.ones(3, 2), torch.ones(2, 2))
    assert out.code == "raised" and "RuntimeError" in out.error
    assert "torch" not in out.error.split("（")[-1] or "lambda" in out.error


def test_not_implemented_means_not_done():
    def template():
        raise NotImplementedError("请在这里写你的代码")

    out = call_learner(template)
    assert out.code == NOT_DONE == "not_done"
    assert out.message.startswith("尚未作答：")


def test_megabytes_of_output_are_truncated():
    def noisy():
        print("x" * 10_000_000)
        for i in range(1000):
            print(i)
        return 1

    out = call_learner(noisy, max_output_chars=500)
    assert out.ok and out.value == 1
    assert len(out.printed) == 500 and out.printed_chars > 10_000_000


def test_infinite_loop_times_out_and_thread_is_stopped():
    import threading

    def spin():
        while True:
            pass

    t = time.perf_counter()
    out = call_learner(spin, timeout=0.5)
    assert out.code == "timeout" and time.perf_counter() - t < 2
    time.sleep(0.3)
    assert not any(th.name == "dsx-learner-code" for th in threading.enumerate())


def test_describe_exception_without_traceback():
    assert describe_exception(ValueError("坏值\n第二行")) == "ValueError: 坏值"


# ---------------------------------------------------------------- CheckResult / finish
def test_finish_builds_result_and_prints_once(capsys):
    r = finish("练习 1", [("raised", "甲"), ("raised", "重复的会被去掉"), ("wrong_dim", "乙")])
    assert isinstance(r, CheckResult) and not r and r.passed is False
    assert r.codes == ["raised", "wrong_dim"] and r.messages == ["甲", "乙"]
    printed = capsys.readouterr().out
    assert printed.count("练习 1") == 1 and "  - 乙" in printed and "wrong_dim" not in printed
    ok = finish("练习 2", [], show=False)
    assert ok and ok.passed and ok.codes == [] and capsys.readouterr().out == ""
    assert "✓" in str(ok) and "✓" in repr(ok) and "✗" in str(r)


def test_html_is_compact_and_escaped():
    r = CheckResult("ex", False, ["raised"], ["<b>x</b> 出错"])
    h = r._repr_html_()
    assert "&lt;b&gt;x&lt;/b&gt;" in h and "<script" not in h and "✗" in h
    assert "✓" in CheckResult("ex", True)._repr_html_()


def test_notebook_shows_feedback_exactly_once(tmp_path):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    src = [
        "from dsx_util.exercises.feedback import finish",
        "finish('甲', [('raised', '出错了')])",                 # 最后一个表达式：只显示一次
        "r = finish('乙', [])",                                 # 赋值：显示一次
        "r",                                                     # 后面的单元格再看：再显示一次
        "for i in range(2):\n    finish(f'丙{i}', [])",          # 循环：每次一次
    ]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in src])
    nbclient.NotebookClient(nb, timeout=60, kernel_name="python3").execute()
    counts = [len(c.outputs) for c in nb.cells]
    assert counts == [0, 1, 1, 1, 2], counts
    html = nb.cells[1].outputs[0]["data"]["text/html"]
    assert "出错了" in html and "✗" in html


# ---------------------------------------------------------------- 检查器的健壮性
class Base(nn.Module):
    def __init__(self, d, eps=1e-5, momentum=0.1):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(d))
        self.shift = nn.Parameter(torch.zeros(d))
        self.weight = nn.Parameter(torch.ones(d))
        self.bias = nn.Parameter(torch.zeros(d))
        self.register_buffer("running_mean", torch.zeros(d))
        self.register_buffer("running_var", torch.ones(d))
        self.register_buffer("num_batches_tracked", torch.tensor(0, dtype=torch.long))


def module_returning(fn):
    class M(Base):
        def forward(self, x):
            return fn(x)
    return M


BEHAVIOURS = {
    "raises": (lambda x: {}["key"], "raised", "KeyError"),
    "none": (lambda x: None, "wrong_shape_or_dtype", "None"),
    "nan": (lambda x: torch.full_like(x, float("nan")), "wrong_output", "NaN"),
    "list": (lambda x: x.tolist(), "wrong_shape_or_dtype", "list"),
    "shape": (lambda x: x.reshape(-1), "wrong_shape_or_dtype", "形状"),
}
# 用工厂函数传入（检查器也接受 lambda d: ...）：这里只看健壮性，不比较构造函数的签名
CHECKERS = {
    "layer_norm": lambda f, **kw: check_layer_norm(lambda d: module_returning(f)(d), **kw),
    "rms_norm": lambda f, **kw: check_rms_norm(lambda d: module_returning(f)(d), **kw),
    "batch_norm": lambda f, **kw: check_batch_norm(lambda d: module_returning(f)(d), **kw),
    "mean_var": lambda f, **kw: check_mean_var(
        lambda x: (f(x.mean(-1, keepdim=True)), f(x.var(-1, keepdim=True, unbiased=False))), **kw),
}


@pytest.mark.parametrize("checker", sorted(CHECKERS))
@pytest.mark.parametrize("behaviour", sorted(BEHAVIOURS))
def test_bad_learner_code_gets_a_clear_message(checker, behaviour):
    fn, code, word = BEHAVIOURS[behaviour]
    r = CHECKERS[checker](fn, show=False)
    assert not r.passed and r.codes[0] == code, r.text()
    assert word in r.messages[0]


@pytest.mark.parametrize("checker", sorted(CHECKERS))
def test_printing_megabytes_is_summarised_not_shown(checker, capsys):
    from dsx_util.exercises.items.ch05_layer_norm import check as layernorm_check  # noqa: F401

    def noisy(x):
        print("调试" * 5_000_000)        # 10 MB 的字符
        return x

    r = CHECKERS[checker](noisy)
    shown = capsys.readouterr().out
    assert len(shown) < 3000
    (note,) = r.notes
    total = int(note.split("打印了 ")[1].split(" 个字符")[0].replace(",", ""))
    assert total >= 10_000_000 and "调试调试" in note and len(note) < 200


def test_infinite_loop_returns_within_six_seconds():
    def spin(x):
        while True:
            pass

    t = time.perf_counter()
    r = CHECKERS["layer_norm"](spin, show=False)      # 默认 timeout=5 秒
    assert time.perf_counter() - t < 6.5
    assert r.codes == ["timeout"] and "秒" in r.messages[0]


def test_a_bug_inside_the_checker_becomes_one_message(monkeypatch):
    from dsx_util.exercises.items.ch05_layer_norm import check as layernorm_check

    def broken(*args):
        raise IndexError("内部错误")

    monkeypatch.setattr(layernorm_check, "_fixture", broken)   # 检查函数体用到的第一个内部函数
    r = check_layer_norm(nn.LayerNorm, show=False)
    assert r.codes == ["check_failed"] and "IndexError" in r.messages[0]


def test_time_limit_is_kept_in_the_learners_code_not_inside_libraries():
    """计时只在学习者的代码里停下：标准库、torch 等已装的包和 import 机制不逐行计时（不会停在 import 进行到一半）；
    学习者的循环即使每一步都调用库函数，照样超时停下。"""
    import inspect as inspect_module
    import statistics

    import torch

    from dsx_util.exercises.feedback import in_library, run_limited
    assert in_library(torch.__file__) and in_library(inspect_module.__file__)
    assert in_library("<frozen importlib._bootstrap>")
    assert not in_library(__file__) and not in_library("<学习者的代码>")

    def busy():
        while True:
            statistics.mean([1.0, 2.0, 3.0])
    run = run_limited(busy, timeout=0.2)
    assert run["timed_out"] and run["seconds"] < 2
