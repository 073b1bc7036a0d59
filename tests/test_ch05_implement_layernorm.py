"""第 5 章《实现 LayerNorm》的承诺：书中的类与 dsx_util 逐字相同、与 nn.LayerNorm 一致、梯度检验通过、
第 2 章例子的输出方差是 0.9995 / 0.9997，
Raschka 的例子是 1.0000；归一化不改变分布的形状。"""
import inspect

import nbformat
import pytest
import torch
import torch.nn as nn

import dsx_util.layernorm
from conftest import BOOK, glued_value

STEM = "ch05_implement_layernorm"


@pytest.fixture(scope="module")
def chapter(run_chapter):
    """执行本章（每次测试会话一次），返回 (笔记本, glue 值字典, 秒数)。"""
    return run_chapter(STEM)


def test_class_in_book_is_verbatim_copy_of_dsx_util():
    source = inspect.getsource(dsx_util.layernorm.LayerNorm).rstrip("\n")
    nb = nbformat.read(BOOK / f"{STEM}.ipynb", as_version=4)
    class_cells = [c.source for c in nb.cells if c.cell_type == "code" and "class LayerNorm" in c.source]
    assert len(class_cells) == 1, "第 5 章应当恰好有一个定义 class LayerNorm 的代码单元格"
    assert source in class_cells[0], "第 5 章展示的 LayerNorm 与 dsx_util/layernorm.py 中的类不再逐字相同"
    # 单元格里除了 import 行之外只有这个类
    rest = class_cells[0].replace(source, "").strip().splitlines()
    assert all(line.startswith("import ") or not line.strip() for line in rest), rest


def test_dsx_util_layernorm_matches_torch_and_gradcheck():
    torch.manual_seed(0)
    x = torch.randn(2, 5, 100) * 3 + 2
    ours, ref = dsx_util.layernorm.LayerNorm(100), nn.LayerNorm(100)
    assert (ours(x) - ref(x)).abs().max().item() <= 1e-6
    ln64 = dsx_util.layernorm.LayerNorm(7).double()
    x64 = torch.randn(3, 7, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(ln64, (x64,))


def test_chapter_glued_checks(chapter):
    _, glued, _ = chapter
    assert glued_value(glued, "ch05_torch_match") == "不超过"
    assert float(glued_value(glued, "ch05_torch_max_diff")) <= 1e-6
    assert glued_value(glued, "ch05_gradcheck") == "通过"
    assert glued_value(glued, "ch05_load_params_equal") == "相同"
    assert glued_value(glued, "ch05_load_match") == "一致"
    assert glued_value(glued, "ch05_mean_after_tiny") == "都小于"


def test_ch02_example_variance_below_one(chapter):
    _, glued, _ = chapter
    # 已发表的数字：LayerNorm(6) 作用在第 2 章的 Linear+ReLU 输出上，有偏方差为 0.9995 与 0.9997
    assert float(glued_value(glued, "ch05_ch02_var0")) == pytest.approx(0.9995, abs=1e-4)
    assert float(glued_value(glued, "ch05_ch02_var1")) == pytest.approx(0.9997, abs=1e-4)
    # 独立重算：输出方差 = σ²/(σ²+ε)，σ² 是激活值每行自己的有偏方差
    torch.manual_seed(123)
    batch_example = torch.randn(2, 5)
    out = nn.Sequential(nn.Linear(5, 6), nn.ReLU())(batch_example).detach()
    sigma2 = out.var(dim=-1, unbiased=False)
    for i in range(2):
        expected = (sigma2[i] / (sigma2[i] + 1e-5)).item()
        assert float(glued_value(glued, f"ch05_ch02_ratio{i}")) == pytest.approx(expected, abs=1e-6)
        assert float(glued_value(glued, f"ch05_ch02_var{i}")) == pytest.approx(expected, abs=1e-6)
        assert float(glued_value(glued, f"ch05_ch02_sigma2_{i}")) == pytest.approx(sigma2[i].item(), rel=1e-5)
        # 用默认的无偏方差去量，会多出 H/(H-1) = 6/5 的因子
        assert float(glued_value(glued, f"ch05_ch02_var_unbiased{i}")) == pytest.approx(expected * 6 / 5, abs=1e-5)
    assert glued_value(glued, "ch05_ratio_matches") == "一致"




def test_raschka_example_variance_is_one(chapter):
    """Raschka 书中的 LayerNorm(emb_dim=5)(batch_example) 打印出方差 1.0000：ε/σ² 比本书的例子小一个数量级。"""
    _, glued, _ = chapter
    var_min = float(glued_value(glued, "ch05_raschka_var_min"))
    assert f"{var_min:.4f}" == "1.0000"                       # 已发表的数字（保留 4 位小数）
    assert var_min < 1.0                                      # 严格地说仍略小于 1
    assert float(glued_value(glued, "ch05_raschka_gap")) == pytest.approx(1 - var_min)
    assert float(glued_value(glued, "ch05_raschka_eps_rel_max")) < 1e-4
    # 对照：第 2 章激活值的 ε/σ² 大好几倍，所以输出方差在第 4 位小数上就低于 1
    ratio = float(glued_value(glued, "ch05_eps_rel_ratio"))
    assert ratio > 5
    assert ratio == pytest.approx(min(float(glued_value(glued, f"ch05_ch02_eps_rel{i}")) for i in range(2))
                                  / float(glued_value(glued, "ch05_raschka_eps_rel_max")))
    assert float(glued_value(glued, "ch05_ch02_var0")) < var_min


def test_normalization_keeps_the_shape_of_the_distribution(chapter):
    """纠正误解「标准化后就服从标准正态分布」：偏斜的输入，归一化后偏度不变。"""
    _, glued, _ = chapter
    before = float(glued_value(glued, "ch05_skew_before"))
    after = float(glued_value(glued, "ch05_skew_after"))
    assert before > 1.0                                       # 指数分布明显右偏（理论偏度为 2）
    assert after == pytest.approx(before, rel=1e-4)
    assert glued_value(glued, "ch05_skew_mean_after") == "小于"
    v = float(glued_value(glued, "ch05_var_after_max_gap"))
    assert 0 < v < 1e-3                                       # 输出方差略小于 1，但四位小数上仍是 1
    assert f"{float(glued_value(glued, 'ch05_var_after_min')):.4f}" == "1.0000"
    assert f"{float(glued_value(glued, 'ch05_var_after_max')):.4f}" == "1.0000"   # 正文：保留四位小数都是 1.0000
    assert float(glued_value(glued, "ch05_var_after_max")) < 1.0      # 正文：全都略小于 1
