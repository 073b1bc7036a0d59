"""第 6 章《有偏与无偏方差》的承诺：误用无偏方差时输出缩小到 √((H-1)/H) 倍，
H=5、6、768 时分别是 0.8944、0.9129、0.99935；GPT-2 的 norm() 与本书 LayerNorm 一致。"""
import math

import pytest
import torch

from conftest import glued_value

STEM = "ch06_biased_unbiased"

PUBLISHED = {5: 0.8944, 6: 0.9129, 768: 0.99935}


@pytest.fixture(scope="module")
def chapter(run_chapter):
    """执行本章（每次测试会话一次），返回 (笔记本, glue 值字典, 秒数)。"""
    return run_chapter(STEM)


@pytest.mark.parametrize("H", sorted(PUBLISHED))
def test_ratio_glued(chapter, H):
    _, glued, _ = chapter
    expected = math.sqrt((H - 1) / H)
    for key in (f"ch06_ratio_{H}", f"ch06_measured_{H}"):
        value = float(glued_value(glued, key))
        assert value == pytest.approx(expected, abs=5e-5), key
        assert value == pytest.approx(PUBLISHED[H], abs=5e-5), key


def test_published_ratios_are_the_formula():
    for H, published in PUBLISHED.items():
        assert math.sqrt((H - 1) / H) == pytest.approx(published, abs=5e-5)


def test_torch_defaults_stated_in_chapter(chapter):
    _, glued, _ = chapter
    v = torch.tensor([1.0, 2.0, 3.0, 4.0, 10.0])
    assert float(glued_value(glued, "ch06_var_default")) == pytest.approx(v.var(correction=1).item())
    assert float(glued_value(glued, "ch06_var_biased")) == pytest.approx(v.var(correction=0).item())
    assert float(glued_value(glued, "ch06_var_factor")) == pytest.approx(5 / 4)
    assert float(glued_value(glued, "ch06_numpy_var")) == pytest.approx(v.var(correction=0).item())
    assert float(glued_value(glued, "ch06_sim_biased")) == pytest.approx(0.8, abs=0.02)
    assert float(glued_value(glued, "ch06_sim_unbiased")) == pytest.approx(1.0, abs=0.02)
    assert glued_value(glued, "ch06_gpt2_match") == "一致"


