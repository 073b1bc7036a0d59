"""检查器的说明不误导：未作答是中性的 ○；不冤枉写对的那一步；数清每个问题；数字写到看得出不同；
没有英文代码；常见 PyTorch 报错有中文解释；第 10 章说出缺了哪一项；第 1、9 章说出 norm1 / norm2 用混了。
"""
import re

import pytest
import torch

from dsx_util.exercises import list_checks
from dsx_util.exercises.catalog import EXERCISES, get_exercise
from dsx_util.exercises.feedback import CheckResult, fmt_pair
from mutation import run_checker


def _edit(ex_id, *pairs):
    source = get_exercise(ex_id).solution
    for old, new in pairs:
        assert old in source, old
        source = source.replace(old, new, 1)
    return run_checker(get_exercise(ex_id), source)


@pytest.mark.parametrize("ex", EXERCISES, ids=lambda ex: ex.id)
def test_untouched_template_is_calm_everywhere(ex):
    """原样的模板：终端、Jupyter / Colab 的 HTML、网页（run_source 的结果）里都是中性的「○ 尚未作答」，不是红色的 ✗。"""
    r = run_checker(ex, ex.template)
    assert r.state == "not_done" and r.codes == ["not_done"] and not r.passed
    assert r.text().startswith(f"○ {ex.title}：尚未作答") and "✗" not in r.text() and "not_done" not in r.text()
    html = r._repr_html_()
    assert 'data-state="not_done"' in html and "✗" not in html and "danger" not in html and "b3261e" not in html
    assert "font-weight:bold" not in html.split('class="dsx-check-head"', 1)[1].split(">", 1)[0]
    if ex.in_page:
        page = list_checks.run_source(ex.template, ex.checker, ex.entry, ex.spec)
        assert page["state"] == "not_done" and page["head"] == r.text()


def test_no_message_carries_a_code_tag():
    r = CheckResult("练习", codes=["eps_outside_sqrt", "wrong_output"], messages=["ε 加在了根号外面。", "差了一点。"])
    assert "eps_outside_sqrt" not in r.text() and "wrong_output" not in r._repr_html_().split("data-codes")[1][30:]
    assert r.text().splitlines()[0] == "✗ 练习：发现 2 个问题"


def test_two_numbers_are_written_with_enough_digits_to_differ():
    assert fmt_pair(-1.3627700, -1.3627742) == ("-1.36277", "-1.362774")
    assert fmt_pair(0.5, 0.25) == ("0.5", "0.25")
    a, b = fmt_pair(1e-7, 1.0000004e-7)
    assert a != b
    # 网页练习里“目录之外”的数值不对：两个数写到不同为止
    src = get_exercise("ch07-batch-norm-lists").solution.replace(
        "math.sqrt(var + eps)", "math.sqrt(var + eps * (1 + 1e-4 * (v > 100)))")
    result = list_checks.run_source(src, "check_batch_norm_lists", "batch_norm_lists")
    if result["codes"] == ["wrong_output"]:
        want, got = re.findall(r"应为 (\S+)，你的是 (\S+)。", result["messages"][0])[0]
        assert want != got


def test_a_flattened_list_is_described_as_such():
    src = "def layer_norm_rows(rows, gamma, beta, eps=1e-5):\n    return [0.0] * 12\n"
    result = list_checks.run_source(src, "check_layer_norm_rows", "layer_norm_rows")
    assert result["messages"] == ["输出应有 3 行（每行一个列表），实际有 12 行：看起来你把所有行拼成了一个扁平的列表，请每行单独成一个列表。"]


def test_every_wrong_shape_answer_is_counted():
    """第 3 章：五个答案全错 -> 发现 5 个问题，每个表达式一条。"""
    ex = get_exercise("ch03-predict-shapes")
    wrong = ("def predict_shapes():\n    return {\n        'x.mean(dim=-1)': (2, 3, 1),\n"
             "        'x.mean(dim=-1, keepdim=True)': (2, 3),\n        'x.sum(dim=0)': (2, 4),\n"
             "        'x.var(dim=1, keepdim=True)': (2, 4),\n        'x - x.mean(dim=-1, keepdim=True)': (2, 3, 1),\n    }\n")
    r = run_checker(ex, wrong)
    assert len(r.codes) == 5 and r.text().splitlines()[0].endswith("发现 5 个问题"), r.text()
    assert all(expr in "".join(r.messages) for expr in ("x.mean(dim=-1)", "x.sum(dim=0)", "x.var(dim=1"))


def test_mean_var_order_does_not_blame_the_mean():
    r = _edit("ch06-mean-var-list", ("return mean, squares / (h - 1 if unbiased else h)",
                                      "return squares / (h - 1 if unbiased else h), mean"))
    assert r.codes == ["swapped_order"] and "都对" in r.messages[0] and "均值是总和除以 H" not in r.text()


def test_wrong_default_names_the_default_not_the_branch():
    r = _edit("ch06-mean-var-list", ("unbiased=False):", "unbiased=True):"))
    assert r.codes == ["wrong_signature"] and "默认值应是 False" in r.messages[0], r.text()
    assert "你除以了 H−1" not in r.text()


def test_layer_norm_backward_names_the_missing_terms():
    """第 10 章：最常见的第一次尝试（只有直接路径 γ·g/σ）、求和代替平均、符号反了，都说出是哪一项。"""
    r = _edit("ch10-layer-norm-backward", ("(g - g_mean - x_hat * g_proj)", "g"))
    assert r.codes == ["missing_mean_term", "missing_projection_term"], r.text()
    assert "直接路径" in r.messages[0] and "μ" in r.messages[0] and "σ²" in r.messages[0]
    r = _edit("ch10-layer-norm-backward", ("g.mean(dim=-1, keepdim=True)                # 经过 μ",
                                            "g.sum(dim=-1, keepdim=True)                # 经过 μ"))
    assert r.codes == ["mean_term_sum"] and "H 倍" in r.messages[0], r.text()
    r = _edit("ch10-layer-norm-backward", ("(g - g_mean - x_hat * g_proj)", "(g + g_mean - x_hat * g_proj)"))
    assert r.codes == ["mean_term_sign"], r.text()
    r = _edit("ch10-layer-norm-backward", ("(g - g_mean - x_hat * g_proj)", "(g + g_mean)"))
    assert set(r.codes) == {"mean_term_sign", "missing_projection_term"} and r.messages[0].startswith("同时有两处错误")


@pytest.mark.parametrize("ex_id, old, new, codes, word", [
    ("ch01-pre-ln-block", "att(norm1(x))", "att(norm2(x))", ["norm_reused"], "都是 norm2"),
    ("ch01-pre-ln-block", "att(norm1(x))", "att(norm2(x))", ["norm_reused"], "norm1 给注意力子层"),
    ("ch09-post-ln-block", "norm1(x + att(x))", "norm2(x + att(x))", ["norm_reused"], "都是 norm2"),
])
def test_norm1_norm2_mix_ups_are_named(ex_id, old, new, codes, word):
    r = _edit(ex_id, (old, new))
    assert r.codes == codes and word in r.messages[0], r.text()


def test_swapped_norms_in_both_block_exercises():
    r = _edit("ch01-pre-ln-block", ("att(norm1(x))", "att(NORM(x))"), ("ff(norm2(x))", "ff(norm1(x))"),
              ("att(NORM(x))", "att(norm2(x))"))
    assert r.codes == ["swapped_norms"] and "norm1" in r.messages[0]
    r = _edit("ch09-post-ln-block", ("norm1(x + att(x))", "NORM(x + att(x))"), ("norm2(x + ff(x))", "norm1(x + ff(x))"),
              ("NORM(x + att(x))", "norm2(x + att(x))"))
    assert r.codes == ["swapped_norms"], r.text()
    # 两处错误同时出现：写成了后置归一化，且 norm1 / norm2 对调
    r = _edit("ch01-pre-ln-block", ("x = x + att(norm1(x))", "x = norm2(x + att(x))"),
              ("x = x + ff(norm2(x))", "x = norm1(x + ff(x))"))
    assert r.codes == ["post_ln_order", "swapped_norms"] and r.messages[0].startswith("同时有两处错误"), r.text()


def test_common_pytorch_errors_are_explained_in_chinese():
    # 第 5 章：copy_ 不在 torch.no_grad() 里
    r = _edit("ch05-copy-weights", ("    with torch.no_grad():\n", "    if True:\n"))
    assert r.codes == ["raised"] and "torch.no_grad()" in r.messages[0]
    head = r.messages[0].split("Python 的报错是")[0]
    assert re.search(r"[\u4e00-\u9fff]", head) and "leaf Variable" not in head
    # 第 8 章：RMSNorm 求均方时漏了 keepdim
    r = _edit("ch08-rms-norm", ("x.pow(2).mean(dim=-1, keepdim=True)", "x.pow(2).mean(dim=-1)"))
    assert "keepdim=True" in r.text() and "广播" in r.text(), r.text()
    # 第 8 章：rms_last_dim 漏了 keepdim 由目录认出
    r = _edit("ch08-rms", ("keepdim=True", "keepdim=False"))
    assert r.codes == ["no_keepdim"]


def test_forbidden_names_are_found_in_helpers_and_strings():
    src = get_exercise("ch05-layer-norm").solution + (
        "\n\ndef _helper(x, w, b, eps):\n    import torch.nn.functional as F\n    return F.layer_norm(x, w.shape, w, b, eps)\n")
    src = src.replace("        mean = x.mean(dim=-1, keepdim=True)\n",
                      "        return _helper(x, self.scale, self.shift, self.eps)\n        mean = x.mean(dim=-1, keepdim=True)\n")
    r = run_checker(get_exercise("ch05-layer-norm"), src)
    assert r.codes == ["forbidden_call"] and "`layer_norm`" in r.messages[0]


def test_messages_say_which_argument_was_ignored():
    r = _edit("ch04-normalize-eps", ("torch.sqrt(var + eps)", "torch.sqrt(var + 1e-5)"))
    assert r.codes == ["eps_ignored"] and "eps=0.5" in r.messages[0]
    torch.manual_seed(0)


# ---- 评审 r33 找到的说明问题：把评审的尝试交给检查器，说明要点出真正不同的那一处，不点出没错的那一处

def test_momentum_none_names_the_buffer_that_differs():
    """C1：momentum=None 时只有 running_var 用了有偏方差，说明要说 running_var，不能怪（对的）running_mean。"""
    r = _edit("ch07-batch-norm", ("self.running_var.mul_(1 - m).add_(m * x.var(dim=0, unbiased=True))",
                                  "self.running_var.mul_(1 - m).add_(m * x.var(dim=0, unbiased=self.momentum is not None))"))
    assert r.codes == ["momentum_none_wrong"], r.text()
    msg = r.messages[0]
    assert "`running_var` 第" in msg and "无偏方差" in msg and "`running_mean` 第" not in msg, msg
    got, want = re.findall(r"是 (\S+)，应是 3 个批量.*?的平均 (\S+)：", msg)[0]
    assert got != want, msg
    # running_mean 错了（momentum=None 退回 0.1）时仍说 running_mean
    r = _edit("ch07-batch-norm", ("m = 1.0 / float(self.num_batches_tracked)", "m = 0.1"))
    assert r.codes == ["momentum_none_wrong"] and "`running_mean` 第" in r.messages[0], r.text()


def test_float_num_batches_tracked_is_asked_for_long_not_called_missing():
    """P3：float 的 num_batches_tracked 找得到，也能互相加载；说明要说 dtype 应为 torch.long。"""
    r = _edit("ch07-batch-norm", ("torch.tensor(0, dtype=torch.long)", "torch.tensor(0.0)"))
    assert r.codes == ["no_batches_tracked"], r.text()
    msg = r.messages[0]
    assert "torch.long" in msg and "float32" in msg, msg
    assert "找不到" not in msg and "不能互相加载" not in msg, msg
    r = _edit("ch07-batch-norm", ('self.register_buffer("num_batches_tracked", torch.tensor(0, dtype=torch.long))', ""))
    assert r.codes[0] == "no_batches_tracked" and "找不到" in r.messages[0], r.text()


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_two_pass_in_low_precision_is_told_about_the_dtype(dtype):
    """C2：两遍法却在 float16 / bfloat16 里算、最后转回 float32：说明说出那个类型，不说一遍法 E[x²] − E[x]²。"""
    r = _edit("ch11-stable-layer-norm",
              ("    mean = x.mean(dim=-1, keepdim=True)                # 第一遍",
               f"    x = x.to(torch.{dtype})\n    mean = x.mean(dim=-1, keepdim=True)                # 第一遍"),
              ("return diff / torch.sqrt(var + eps)", "return (diff / torch.sqrt(var + eps)).float()"))
    assert r.codes == ["low_precision"], r.text()
    assert dtype in r.messages[0] and "float32 里算" in r.messages[0] and "E[x²]" not in r.text(), r.text()
    # 真用了一遍法时仍说一遍法
    r = _edit("ch11-stable-layer-norm", ("var = (diff * diff).mean(dim=-1, keepdim=True)",
                                         "var = (x * x).mean(dim=-1, keepdim=True) - mean * mean"))
    assert r.codes == ["single_pass_variance"] and "E[x²]" in r.messages[0], r.text()


@pytest.mark.parametrize("handled", [
    "return torch.nan_to_num((x - mean) / torch.sqrt(var))",
    "return torch.where(var == 0, torch.zeros_like(x), (x - mean) / torch.sqrt(var))",
])
def test_constant_row_handled_without_eps_is_not_told_about_nan(handled):
    """P4：常数行另作处理、分母里没有 ε 的答案不会出 NaN：说明说少了 ε，不说 0/0 = NaN。"""
    r = _edit("ch04-normalize-eps", ("return (x - mean) / torch.sqrt(var + eps)", handled))
    assert r.codes == ["no_eps"], r.text()
    assert "ε" in r.messages[0] and "√(σ² + ε)" in r.messages[0] and "NaN" not in r.text(), r.text()


def test_zero_centered_low_precision_error_shows_two_different_numbers():
    """P5：(1 + γ) 在 float16 里算：最大误差与允许的误差写到看得出不同。"""
    r = _edit("ch12-zero-centered-rms-norm", ("(1 + gamma.float())", "(1 + gamma.to(x.dtype)).float()"))
    assert r.codes == ["low_precision_error"], r.text()
    diff, budget = re.findall(r"最大相差 (\S+)，超出了.*?误差上限 (\S+)：", r.messages[0])[0]
    assert diff != budget, r.messages[0]


def test_layer_norm_backward_without_eps_names_eps():
    """P6：反向里 σ = √σ²（没有 ε）：说出少了 ε，而不只是「最大相差 2.2×10⁻⁵」。"""
    r = _edit("ch10-layer-norm-backward", ("std = torch.sqrt(var + eps)", "std = torch.sqrt(var)"))
    assert r.codes == ["no_eps"] and "ε" in r.messages[0], r.text()
