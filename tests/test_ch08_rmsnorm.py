"""第 8 章：RMSNorm 的实现、与 torch.nn.RMSNorm 的对照、平移/缩放不变性，以及章节与包中代码一致。"""
import inspect

import re

import pytest
import torch

import dsx_util
from dsx_util.rmsnorm import RMSNorm
from conftest import glued_value


def test_chapter_shows_rmsnorm_verbatim(run_chapter):
    nb, _, _ = run_chapter("ch08_rmsnorm")
    source = inspect.getsource(RMSNorm)
    cells = [c.source for c in nb.cells if c.cell_type == "code" and "class RMSNorm" in c.source]
    assert len(cells) == 1, "第 8 章应当恰好有一个定义 RMSNorm 的代码单元格"
    assert source.strip() in cells[0], "章节里的 RMSNorm 与 dsx_util/rmsnorm.py 不一致，请让两者逐字相同"


def test_rmsnorm_matches_torch():
    torch.manual_seed(0)
    x = torch.randn(3, 5, 64) * 4 - 2
    ours = RMSNorm(64)
    with torch.no_grad():
        ours.scale.copy_(torch.rand(64) + 0.5)
    theirs = torch.nn.RMSNorm(64, eps=1e-6)
    with torch.no_grad():
        theirs.weight.copy_(ours.scale)
    assert (ours(x) - theirs(x)).abs().max().item() <= 1e-6
    assert ours.eps == 1e-6 and set(dict(ours.named_parameters())) == {"scale"}


def test_rmsnorm_differs_from_layernorm_when_mean_nonzero():
    torch.manual_seed(0)
    x = torch.randn(4, 32) + 3.0
    ln, rms = dsx_util.LayerNorm(32), RMSNorm(32)
    with torch.no_grad():
        assert (ln(x) - rms(x)).abs().max() > 0.5
        # 均值为 0 时，RMS 等于（有偏）标准差，两者几乎相同
        xc = x - x.mean(dim=-1, keepdim=True)
        assert torch.allclose(ln(xc), rms(xc), atol=1e-4)


def test_chapter_glued_values(run_chapter):
    _, glued, _ = run_chapter("ch08_rmsnorm")
    assert float(glued_value(glued, "ch08_torch_max_diff")) <= 1e-6
    assert glued_value(glued, "ch08_torch_match") == "在"
    assert int(glued_value(glued, "ch08_rms_params")) == 768 and int(glued_value(glued, "ch08_ln_params")) == 1536
    # 加常数 2 之后 RMSNorm 的输出明显改变；c=20 时输出每行的标准差被压得很小
    assert float(glued_value(glued, "ch08_rms_shift_diff")) > 0.5
    assert float(glued_value(glued, "ch08_rms_std_c20")) < 0.2
    for name in ("ch08_speed_ratio_ours", "ch08_speed_ratio_torch"):
        assert float(glued_value(glued, name)) > 0


def test_rows_have_unit_rms_but_nonzero_mean(run_chapter):
    _, glued, _ = run_chapter("ch08_rmsnorm")
    # 正文说每行的均方根「都是 x」或「在 a 到 b 之间」：说到的数都要接近 1
    span = glued_value(glued, "ch08_rms_after_span")
    ends = [float(v) for v in re.findall(r"\d+\.\d+", span)]
    assert ends and all(v == pytest.approx(1.0, abs=1e-4) for v in ends), span
    assert float(glued_value(glued, "ch08_mean_after_absmin")) > 0.01     # 正文：均值并不是 0
    assert float(glued_value(glued, "ch08_fp32_eps")) == pytest.approx(1.1920929e-07)
