# 导入：feedback、torch_checks。
"""练习 ch10-centering-backward 的检查器（题目、模板、参考答案在同一个文件夹；编目的错误写法在 mistakes.py）。"""
from ...feedback import checker
from ...torch_checks import case, randn, run_cases

CODES = {
    "missing_mean_term": "每个 x 都通过均值影响所有输出：梯度里还少了经过均值的那一部分。",
    "sign_flipped": "符号反了：直接路径的梯度是 +grad_out，经过均值的那一部分是减去的。",
    "wrong_dim": "经过均值的那一项要在最后一维（同一个词元的特征）上算，不是第 0 维。",
    "wrong_scale": "经过均值的那一项大小不对：均值是“求和 ÷ H”，别忘了除以 H。",
}


@checker(__name__, CODES, each=True)
def check_centering_backward(fn):
    """检查 centering_backward(grad_out)：y = x − mean(x, 最后一维) 时，损失对 x 的梯度。"""
    return run_cases(fn, [_case(randn(0, 3, 5)), _case(randn(1, 2, 4, 6))], CODES, atol=1e-5, rtol=1e-4)


def _case(g):
    """上游梯度 g 的用例：正确的梯度 g − mean(g)，以及四种典型错误。"""
    gm = g.mean(-1, keepdim=True)
    wrong = {"missing_mean_term": g, "sign_flipped": gm - g, "wrong_dim": g - g.mean(0, keepdim=True),
             "wrong_scale": g - g.sum(-1, keepdim=True)}
    return case((g,), g - gm, wrong)
