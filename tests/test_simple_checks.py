"""simple_checks 的每个错误代码都能被识别：为每个代码写一个恰好犯了这个错误的实现，检查必须报出这个代码。

另外检查：通用代码（未完成、报错、超时、返回 None / NaN / 列表……）不会让检查崩溃；
检查不改动学习者的全局随机状态；反馈简短。
"""
import random

import pytest
import torch

from dsx_util import exercises
from dsx_util.exercises import torch_checks
from dsx_util.exercises.feedback import MESSAGES
from dsx_util.seed import set_seed


def _trunk(norm_mode):
    def gpt_trunk(x, blocks, final_norm, norm_position):
        if norm_mode == "first":
            x = final_norm(x)
        seq = blocks[::-1] if norm_mode == "reversed" else blocks
        for b in seq:
            x = b(x)
        if norm_mode == "always" or (norm_mode == "reversed" and norm_position == "pre"):
            x = final_norm(x)
        return x
    return gpt_trunk


_SHAPES = {
    "x.mean(dim=-1)": (2, 3),
    "x.mean(dim=-1, keepdim=True)": (2, 3, 1),
    "x.sum(dim=0)": (3, 4),
    "x.var(dim=1, keepdim=True)": (2, 1, 4),
    "x - x.mean(dim=-1, keepdim=True)": (2, 3, 4),
}


# (检查函数名, 错误代码, 恰好犯这个错误的实现)：从各练习文件夹的 mistakes.py 读出（错误写法只写在练习自己的文件夹里）
def _faults():
    import importlib
    from dsx_util.exercises.catalog import EXERCISES
    out = []
    for ex in EXERCISES:
        if ex.in_page or not hasattr(getattr(exercises, ex.checker), "codes"):
            continue
        m = importlib.import_module(f"dsx_util.exercises.items.{ex.id.replace('-', '_')}.mistakes")
        out += [(ex.checker, codes[0], attempt) for _, codes, attempt in m.MISTAKES]
    return out


FAULTS = _faults()


# torch_checks 的工具可能给出的通用代码（说明在 feedback.MESSAGES）
TENSOR_GENERIC = {"not_done", "raised", "timeout", "broadcast_error", "not_tensor", "wrong_shape", "nan_output",
                  "wrong_output", "check_failed", "modified_input"}


def _simple_checkers():
    """用 torch_checks 的工具的检查函数（各在自己练习文件夹的 check.py 里）：名字 -> 检查函数。"""
    from dsx_util.exercises.catalog import EXERCISES
    import inspect
    found = {ex.checker: getattr(exercises, ex.checker) for ex in EXERCISES if not ex.in_page}
    # 用 module_checks 的四个（模块类与均值方差）各有自己的测试文件（tests/test_check_*.py）
    return {name: c for name, c in found.items()
            if "module_checks" not in inspect.getsource(inspect.getmodule(c.__wrapped__))}


@pytest.mark.parametrize("checker, code, fn", FAULTS, ids=[f"{c}-{code}" for c, code, _ in FAULTS])
def test_fault_gets_its_code(checker, code, fn, capsys):
    check = getattr(exercises, checker)
    # 模块类练习的死循环只等 0.5 秒（默认的 5 秒由 test_checker_core 的死循环测试测过）
    options = {"timeout": 0.5} if code == "timeout" and check.runner else {}
    result = check(fn, **options)
    assert result.passed is False
    assert result.codes == [code], result.messages
    # 反馈是一两行中文，不是长篇大论（报错时会附上学习者出错的那一行代码）
    assert all(0 < len(m) <= 240 for m in result.messages), result.messages
    assert result.messages[0] in capsys.readouterr().out   # 终端里显示了反馈（中文说明；错误代码只在 codes 里）


def test_every_catalog_code_has_a_fault():
    tested = {(c, code) for c, code, _ in FAULTS}
    for name, checker in _simple_checkers().items():
        assert checker.codes, f"{name} 没有错误代码表"
        missing = [code for code in checker.codes if (name, code) not in tested]
        assert not missing, f"{name} 的这些错误代码没有测试：{missing}"
    # 通用代码至少在某个检查上测过一次（这里的和下面的健壮性测试合起来）
    generic_here = {code for _, code, _ in FAULTS} | {"not_done", "raised", "timeout", "nan_output", "check_failed"}
    assert TENSOR_GENERIC <= generic_here and TENSOR_GENERIC <= set(MESSAGES)   # 说明都在唯一的通用表里


def test_checker_exercise_ids_are_in_catalog():
    from dsx_util.exercises.catalog import EXERCISES
    ids = {ex.id for ex in EXERCISES}
    for name, checker in _simple_checkers().items():
        assert checker.exercise_id in ids, name


# ---------------------------------------------------------------- 健壮性：检查永远不抛出异常


def _not_done(x):
    raise NotImplementedError("请在这里写你的代码")


def _raises(x):
    return x / undefined_name  # noqa: F821


def _loops(x):
    while True:
        pass


@pytest.mark.parametrize("fn, code", [
    (_not_done, "not_done"),
    (_raises, "raised"),
    (lambda x: None, "not_tensor"),
    (lambda x: x.tolist(), "not_tensor"),
    (lambda x: torch.full_like(x, float("nan")), "nan_output"),
    (lambda x: x[0], "wrong_shape"),
    (lambda x: x * 0, "wrong_output"),
    (None, "raised"),
    ("不是函数", "raised"),
], ids=["not_done", "raised", "none", "list", "nan", "shape", "zeros", "none_fn", "str_fn"])
def test_robust_tensor_checker(fn, code, capsys):
    result = exercises.check_standardize_rows(fn)
    assert result.passed is False and result.codes == [code], result.messages


def test_timeout(monkeypatch, capsys):
    monkeypatch.setattr(torch_checks, "TIME_LIMIT", 0.3)
    result = exercises.check_batchnorm_axis(lambda x, eps=1e-5: _loops(x))
    assert result.codes == ["timeout"]


class _Weird(list):
    """一个看起来像列表、取长度时却出错的返回值。"""

    def __len__(self):
        raise RuntimeError("坏对象")


def test_check_itself_never_raises(capsys):
    assert exercises.check_table_rows(lambda data: [_Weird()] * len(data)).codes == ["check_failed"]
    # 复数张量：不能拿去和实数结果比较，要说清楚，而不是报错或给出警告
    result = exercises.check_rms(lambda x: x.pow(2).mean(-1, keepdim=True).sqrt().to(torch.complex64))
    assert result.codes == ["not_tensor"] and "复数" in result.messages[0]


def test_checks_do_not_touch_global_rng(capsys):
    torch.manual_seed(2024)
    random.seed(2024)
    expected = (torch.rand(3), random.random())
    torch.manual_seed(2024)
    random.seed(2024)
    exercises.check_seeded_noise(lambda seed: (set_seed(seed), torch.randn(3, 4))[1])
    exercises.check_standardize_rows(lambda x: x)
    exercises.check_gpt_trunk(_trunk("never"))
    assert torch.equal(torch.rand(3), expected[0]) and random.random() == expected[1]


def test_count_norms_formula_matches_real_model():
    """检查器用的公式 2L+1 个、每个 2E 个参数，与真正构建的 GPTModel 一致（两种配置）。"""
    from dsx_util.gpt import GPT_CONFIG_124M, GPTModel, count_layer_norms
    for n_layers, emb_dim in ((3, 64), (2, 32)):
        cfg = dict(GPT_CONFIG_124M, vocab_size=50, context_length=8, n_layers=n_layers, emb_dim=emb_dim, n_heads=4)
        n = 2 * n_layers + 1
        assert count_layer_norms(GPTModel(cfg)) == (n, n * 2 * emb_dim)


def test_predict_shapes_rule_is_what_pytorch_computes():
    """网页里的检查器不能运行 PyTorch，按规则算出形状：每道小题、以及每个维度 × keepdim 的归约，都与 PyTorch 相同。"""
    from dsx_util.exercises.items.ch03_predict_shapes import check as shapes
    x = torch.zeros(shapes.SHAPE_X)
    for expr, dims, keepdim in shapes.SHAPE_QUESTIONS:
        assert tuple(eval(expr, {"x": x}).shape) == shapes.true_shape(dims, keepdim) == _SHAPES[expr]
    for dim in range(-3, 3):
        for keepdim in (False, True):
            assert tuple(x.mean(dim=dim, keepdim=keepdim).shape) == shapes.reduced_shape((dim,), keepdim)
    assert shapes._as_shape(torch.Size([2, 3])) == (2, 3)   # 在笔记本里返回 x.shape 也算整数元组


def test_count_norms_in_page_config_is_gpt2_small():
    """网页里的检查器自带一份 GPT-2 small 的配置（不能导入 dsx_util.gpt）：与书里用的那份相同。"""
    from dsx_util.exercises.items.ch01_count_norms import check
    from dsx_util.gpt import GPT_CONFIG_124M
    assert check.GPT_CONFIG_124M == GPT_CONFIG_124M
