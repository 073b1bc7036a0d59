"""check_mean_var：每种错误都被点名；不同写法的正确实现都通过。"""

import pytest
import torch

from dsx_util.exercises.items.ch03_mean_var.check import check_mean_var
from dsx_util.exercises.items.ch03_mean_var.mistakes import good, missing_keepdim, unbiased


def good_var_mean(x):
    var, mean = torch.var_mean(x, dim=-1, keepdim=True, correction=0)
    return mean, var


def good_sums(x):
    n = x.shape[-1]
    mean = x.sum(-1, keepdim=True) / n
    return mean, ((x - mean) ** 2).sum(-1, keepdim=True) / n


def good_list(x):   # 返回列表也可以
    mean = x.mean(-1).unsqueeze(-1)
    return [mean, (x - mean).pow(2).mean(-1).unsqueeze(-1)]


@pytest.mark.parametrize("fn", [good, good_var_mean, good_sums, good_list])
def test_correct_implementations_pass(fn):
    r = check_mean_var(fn, show=False)
    assert r.passed, r.text()


def test_evidence_is_concrete():
    r = check_mean_var(missing_keepdim, show=False)
    assert "(2, 3)" in r.messages[0] and "(2, 3, 1)" in r.messages[0]
    r = check_mean_var(unbiased, show=False)
    assert "1.143" in r.messages[0]          # H/(H−1) = 8/7，由数据量出的比值


def test_two_mistakes_at_once():
    r = check_mean_var(lambda x: (x.mean(dim=-1), x.var(dim=-1)), show=False)
    assert set(r.codes) == {"missing_keepdim", "unbiased_variance"}


@pytest.mark.parametrize("value", [None, 3.0, "mean", (1, 2, 3)])
def test_wrong_return_types(value):
    r = check_mean_var(lambda x: value, show=False)
    assert r.codes == ["wrong_shape_or_dtype"], r.text()
