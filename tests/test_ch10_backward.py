"""第 10 章：手写的 LayerNorm 反向传播与自动求导、梯度检验一致；章节 glue 的结论成立。"""
import torch

import dsx_util
from conftest import glued_value


def chapter_namespace(nb):
    """执行章节里定义 LayerNormFunction 的单元格，取出其中的函数（测试的是书里展示的那份代码）。"""
    cells = [c.source for c in nb.cells if c.cell_type == "code" and "class LayerNormFunction" in c.source]
    assert len(cells) == 1, "第 10 章应当恰好有一个定义 LayerNormFunction 的代码单元格"
    ns = {}
    exec(cells[0], ns)
    return ns


def test_manual_backward_matches_autograd(run_chapter):
    nb, _, _ = run_chapter("ch10_backward")
    manual = chapter_namespace(nb)["manual_layer_norm"]
    torch.manual_seed(1)
    x = torch.randn(2, 7, 48) * 3 - 1
    g = torch.randn_like(x)
    ref = dsx_util.LayerNorm(48)
    with torch.no_grad():
        ref.scale.copy_(torch.rand(48) + 0.5)
        ref.shift.copy_(torch.randn(48))
    xa = x.clone().requires_grad_()
    ref(xa).backward(g)
    xm = x.clone().requires_grad_()
    s = ref.scale.detach().clone().requires_grad_()
    b = ref.shift.detach().clone().requires_grad_()
    out = manual(xm, s, b, ref.eps)
    out.backward(g)
    assert torch.allclose(out, ref(x), atol=1e-5)
    assert torch.allclose(xm.grad, xa.grad, atol=1e-5)
    assert torch.allclose(s.grad, ref.scale.grad, atol=1e-4)
    assert torch.allclose(b.grad, ref.shift.grad, atol=1e-4)


def test_manual_backward_gradcheck(run_chapter):
    nb, _, _ = run_chapter("ch10_backward")
    manual = chapter_namespace(nb)["manual_layer_norm"]
    torch.manual_seed(2)
    x = torch.randn(2, 3, 6, dtype=torch.float64, requires_grad=True)
    s = (torch.rand(6, dtype=torch.float64) + 0.5).requires_grad_()
    b = torch.randn(6, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(manual, (x, s, b, 1e-5), eps=1e-6, atol=1e-6)


def test_chapter_glued_values(run_chapter):
    _, glued, _ = run_chapter("ch10_backward")
    assert float(glued_value(glued, "ch10_max_diff")) < 1e-4
    assert glued_value(glued, "ch10_allclose") == "都在"
    assert glued_value(glued, "ch10_gradcheck") == "通过"
    assert glued_value(glued, "ch10_orthogonal") == "都小于"
    assert int(glued_value(glued, "ch10_n_no_decay")) > int(glued_value(glued, "ch10_norm_params")) > 0
    assert int(glued_value(glued, "ch10_n_decay")) > 100 * int(glued_value(glued, "ch10_n_no_decay"))
