"""第 12 章：现代变体。读构建执行的结果（run_chapter），检查 glue 出来的数字与正文的说法一致。

正文里的每个定性说法（相同、正好 s² 倍、饱和、不受影响、范围分开或重叠、溢出、消失、dtype）在这里各有一条断言；
训练对比换种子、换语料的复核在 tests/test_seed_robustness.py（慢层）。
"""
import math

import pytest
import torch

from conftest import glued_value


@pytest.fixture(scope="module")
def g(run_chapter):
    _, glued, _ = run_chapter("ch12_modern_variants")
    return lambda name: glued_value(glued, name)


def test_bias_free_layer_norm(g):
    assert g("ch12_no_bias_same") == "相同"
    assert g("ch12_n_norms") == 25
    assert g("ch12_saved_params") == "19,200"
    assert g("ch12_saved_percent") == pytest.approx(100 * 19200 / 163_009_536)   # 「约 0.012%」
    assert g("ch12_total_yi") == pytest.approx(1.63, abs=0.005)


def test_zero_centred_gamma_and_weight_decay(g):
    assert g("ch12_zc_max_diff") < 1e-6                              # 同一个函数
    # AdamW 只有权重衰减时每步乘以 (1 − lr·wd)：3000 步、lr 3e-3、wd 0.1
    assert g("ch12_decay_plain") == pytest.approx((1 - 3e-3 * 0.1) ** 3000, rel=1e-3)
    assert g("ch12_decay_zc") == pytest.approx(1.0)


def test_attention_logits_grow_as_s_squared_and_qk_norm_bounds_them(g):
    assert g("ch12_logit_ratio") == pytest.approx(256, rel=1e-4)        # 「正好 16² 倍」
    assert g("ch12_top_s1") < 0.5 < 0.95 < g("ch12_top_s16")              # 饱和成几乎独热
    assert g("ch12_qk_logit_s1") == pytest.approx(g("ch12_qk_logit_s16"), rel=1e-4)   # s 对分数没有影响
    assert g("ch12_qk_logit_s16") <= g("ch12_qk_bound") + 1e-6
    assert g("ch12_qk_bound") == pytest.approx(math.sqrt(g("ch12_head_dim")))
    assert g("ch12_qk_top_s16") < 0.6


def test_peri_ln_caps_a_large_sublayer(g):
    assert g("ch12_pre_last_50") > 5 * g("ch12_pre_last_1")
    assert abs(g("ch12_peri_last_50") - g("ch12_peri_last_1")) < 0.05 * g("ch12_peri_last_1")   # 几乎不受影响
    assert g("ch12_peri_last_1") > g("ch12_pre_last_1")          # Peri-LN 的残差流更大
    assert g("ch12_peri_last_1") == pytest.approx(g("ch12_peri_predicted"), rel=0.1)   # 「与 √17 接近」


def test_dyisru_is_nearly_the_identity_at_its_initial_kappa(g):
    assert g("ch12_dyisru_near_identity") < 0.05 and g("ch12_sqrt_h") > 2


def test_dyt_saturates(g):
    assert g("ch12_dyt_sat_1") < 0.05 and g("ch12_dyt_sat_100") > 0.9


def test_training_comparison_claims(g):
    r = {n: (g(f"ch12_final_{n}_min"), g(f"ch12_final_{n}_max")) for n in ("ln", "rms", "dyt", "derf", "dyisru", "none")}
    floor, uniform = g("ch12_floor"), g("ch12_uniform")
    assert uniform == pytest.approx(math.log(8))
    assert all(floor + 0.1 < lo <= hi < uniform for lo, hi in r.values())   # 都学到了东西，离下限都还远
    ln, rms, dyt, none = r["ln"], r["rms"], r["dyt"], r["none"]
    assert ln[0] <= rms[1] and rms[0] <= ln[1]          # LayerNorm 与 RMSNorm 的范围重叠
    assert dyt[0] > max(ln[1], rms[1])                  # DyT 的每个种子都比两者的每个种子差
    assert none[1] < ln[0]                              # 不归一化在这份语料上 3 个种子都更低
    derf, dyisru = r["derf"], r["dyisru"]
    assert derf[0] <= dyt[1] and dyt[0] <= derf[1]      # Derf 与 DyT 的范围重叠
    assert derf[0] > max(ln[1], rms[1])                 # Derf 的每个种子都比 LayerNorm、RMSNorm 的差
    assert dyisru[0] <= none[1] and none[0] <= dyisru[1]   # DyISRU 与不归一化的范围重叠
    assert g("ch12_n_runs") == 18 and g("ch12_steps") == 120
    assert g("ch12_seconds_per_run") == pytest.approx(g("ch12_train_seconds") / g("ch12_n_runs"))


def test_derf_dyt_paired_statement(g):
    """正文按种子配对比较 Derf 与 DyT：说法跟着 glue 的差走，「全部同号的机会」是 2 × 0.5³。"""
    lo, hi = g("ch12_derf_dyt_diff_min"), g("ch12_derf_dyt_diff_max")
    verdict = g("ch12_derf_dyt_paired")
    assert ("都是 Derf 略低" in verdict) == (lo > 0)
    assert ("都是 DyT 略低" in verdict) == (hi < 0)
    assert ("有的种子" in verdict) == (lo <= 0 <= hi)
    assert g("ch12_same_sign_chance") == pytest.approx(0.25)


def test_precision_lab(g):
    assert g("ch12_fp16_max") == "65,504"
    assert g("ch12_eps5_fp16") == pytest.approx(1.0013580322265625e-05)
    assert g("ch12_eps5_fp16") < torch.finfo(torch.float16).tiny   # 落在非正规数里
    assert g("ch12_eps8_fp16") == 0.0                              # 直接消失
    assert g("ch12_autocast_linear") == "bfloat16"
    assert g("ch12_autocast_ln_bf16") == "bfloat16"               # CPU 上 autocast 没有把 layer_norm 升到 float32
    assert g("ch12_autocast_ln_fp32") == "float32"
    assert g("ch12_kernel_same") == "相同"                        # 与先转 float32 再转回逐位相同（这一个张量）
    # 随机输入上只有极少数元素差一个 bfloat16 单位（正文说「极少数」「最多一个单位」）
    n = int(g("ch12_kernel_n_elems").replace(",", ""))
    assert n == 50 * 4 * g("ch12_H")
    assert 0 <= g("ch12_kernel_n_differ") < n / 1000 and g("ch12_kernel_max_units") <= 1
    assert g("ch12_err_ratio") == pytest.approx(g("ch12_err_manual") / g("ch12_err_kernel"))
    assert g("ch12_err_ratio") > 1.5                              # 逐步在 bfloat16 里算更差（约 2 倍）


def test_adding_eps_in_float16_is_not_the_hazard(g):
    """正文：方差约为 1 时加不加 ε 远小于 float16 的舍入；方差 10⁻³ 时 float16 里的 σ²+ε 误差与一次舍入相当；
    落进非正规数（10⁻⁶）时才超过。"""
    half_ulp = torch.finfo(torch.float16).eps / 2
    assert g("ch12_fp16_half_ulp") == pytest.approx(half_ulp)
    assert g("ch12_eps_effect_var1") < half_ulp / 50
    assert g("ch12_sum16_err_1e3") <= half_ulp
    assert g("ch12_sum16_err_1e6") > half_ulp



def test_float16_overflow_zeroes_the_whole_token():
    """正文：「一个分量溢出，毁掉的是整个词元」——不依赖章节，自己算一遍。"""
    h = torch.randn(768, generator=torch.Generator().manual_seed(0))
    h[0] = 300.0
    h16 = h.half()
    y = h16 * torch.rsqrt(h16.pow(2).mean(-1, keepdim=True) + 1e-6)
    assert torch.isinf(h16.pow(2).mean())
    assert (y == 0).all()                          # 连 300 那一项也是 0
