"""第 13 章：打开一个训练好的模型。读构建执行的结果（run_chapter），检查 glue 出来的数字与正文的说法一致。

参考模型换种子（1、2）的复核在 tests/test_seed_robustness.py（慢层），冻结 σ 后的微调与第 12 章对比的长训练
来自随包发布的 reference_extras.json（维护者一步算好），这里核对章节读出的数与文件一致。
"""
import math

import pytest

from conftest import glued_value
from dsx_util import reference_model as rm
from dsx_util import variants


@pytest.fixture(scope="module")
def g(run_chapter):
    _, glued, _ = run_chapter("ch13_trained_model")
    return lambda name: glued_value(glued, name)


def test_states_corpus_split_and_training_from_the_log(g):
    log = rm.training_log()
    assert g("ch13_corpus_chars") == f"{log['corpus_chars']:,}"
    assert g("ch13_train_chars") == f"{log['train_chars']:,}" and g("ch13_val_chars") == f"{log['val_chars']:,}"
    assert g("ch13_vocab") == log["vocab_size"]
    assert g("ch13_steps") == f"{log['steps']:,}" and g("ch13_n_params") == f"{log['n_params']:,}"
    assert g("ch13_train_minutes") == pytest.approx(log["wall_seconds"] / 60)


def test_trained_model_learned_something(g):
    assert g("ch13_uniform") == pytest.approx(math.log(g("ch13_vocab")))
    assert g("ch13_val_fresh") > g("ch13_uniform") - 0.5                  # 初始化时近乎瞎猜
    assert g("ch13_val_trained") < g("ch13_val_fresh") - 3
    # float16 存储只让验证损失变化一点点
    assert g("ch13_val_trained") == pytest.approx(g("ch13_val_final_log"), abs=0.01)


def test_training_and_sample_claims(g):
    # 「整个训练集上（评估模式）的损失比验证损失低得多：在背训练集」「验证损失直到最后仍在下降（最低的一次在第 N 步）」
    assert g("ch13_train_eval") < g("ch13_val_trained") - 0.5
    assert g("ch13_train_val_gap") == pytest.approx(g("ch13_val_trained") - g("ch13_train_eval"))
    assert g("ch13_val_best_step") == rm.TRAIN["steps"]
    # 「它不是在背诵」：几段生成的文字照搬训练文本的比例，不比验证集原文（真正的新文字）高，8 字以上还低得多
    assert g("ch13_n_samples") >= 3
    assert g("ch13_copy4") <= g("ch13_val_copy4") + 5
    assert g("ch13_copy8") < g("ch13_val_copy8") / 2 and g("ch13_copy16") < g("ch13_val_copy16")
    assert g("ch13_copy4") <= g("ch13_copy4_max")
    assert g("ch13_copy4") > 10                                           # 「学会了本书文字的样子」：常见的词都有


@pytest.mark.book   # 在整个训练集上评估一遍，十几秒：不放进单元层
def test_checkpoint_numbers_are_recomputed_from_the_shipped_checkpoint():
    """reference_extras.json 的 checkpoint 部分（构建时算不起）与从检查点现算的一致：训练集损失、种子 0 的样本、噪声对照的大小。"""
    import copy

    import torch

    from dsx_book.reference_extras import copy_rates
    torch.set_num_threads(1)
    ck = rm.extras_log()["checkpoint"]
    model, tok = rm.load_reference_model()
    train_ids, val_ids = rm.encode_corpus(tok)
    assert ck["train_loss_eval"] == pytest.approx(rm.evaluate(model, train_ids), abs=1e-4)
    assert ck["val_loss"] == pytest.approx(rm.evaluate(model, val_ids), abs=1e-4)
    sample = rm.generate(model, tok, "层归一化", n_chars=ck["sample_chars"], temperature=0.8, seed=ck["sample_seeds"][0])
    assert ck["sample_copy"][0] == pytest.approx(copy_rates(sample, rm.training_text()))
    # 噪声对照的第一次抽样（同一个随机数生成器、同样的大小）
    gen = torch.Generator().manual_seed(0)
    m = copy.deepcopy(model)
    with torch.no_grad():
        for _, norm in rm.layer_norms(m):
            norm.shift.add_(torch.randn(norm.shift.shape, generator=gen) * norm.shift.pow(2).mean().sqrt())
    assert ck["beta_noise_cost"][0] == pytest.approx(rm.evaluate(m, val_ids) - ck["val_loss"], abs=1e-4)


def test_residual_stream_claims(g):
    # 「初始化时几乎一样大」「训练之后随深度变大」「词元之间拉开」「μ 一直很小」
    assert g("ch13_sigma_last_init") < 1.1 * g("ch13_sigma_first_init")
    assert g("ch13_sigma_last") > 1.3 * g("ch13_sigma_first")
    assert g("ch13_spread_init_max") < g("ch13_spread_max")
    assert g("ch13_spread_min") < g("ch13_spread_max")
    assert g("ch13_mu_over_sigma") < 0.1


def test_s_curve_claims(g):
    assert g("ch13_s_layer") == "final_norm"                               # σ 在词元之间差得最多的一层
    assert g("ch13_slope_small") > g("ch13_slope_big")
    assert g("ch13_big_share") > 20                                        # 是 10% 的两倍以上：来自 σ 大的词元
    assert g("ch13_s_sigma_ratio") == pytest.approx(g("ch13_s_sigma_max") / g("ch13_s_sigma_min"))
    # 「定得准的是原点处的斜率 a·b」：正文不再给 a、b 各自的数字
    assert 0.2 < g("ch13_tanh_slope") < 1
    # 「直线的 R² 随深度变低」
    assert g("ch13_line_r2_last") < g("ch13_line_r2_first")
    assert g("ch13_line_r2_last") == pytest.approx(g("ch13_r2_line"))     # final_norm 就是上面拟合的那一层
    # 「S 形只是轻轻一弯」：tanh 比直线好，但只好一点
    assert 0 <= g("ch13_r2_tanh") - g("ch13_r2_line") < 0.05
    assert 0.5 < g("ch13_r2_line") <= g("ch13_r2_tanh") <= 1


def test_no_massive_activations(g):
    assert g("ch13_max_ratio") < 20                                       # 单个数值：「与上千倍差得很远」
    assert g("ch13_chan_ratio") < 3                                       # 按通道平均：「也没有离群特征」
    assert 5 < g("ch13_max_ratio_init") < 9                               # 「初始化时本来就是七倍左右」


def test_gamma_and_beta_claims(g):
    assert g("ch13_final_gamma_min") > 1                                  # 「全部大于 1」
    assert g("ch13_final_gamma_min") <= g("ch13_final_gamma_mean") <= g("ch13_final_gamma_max")
    assert g("ch13_norm2_gamma_mean_min") > g("ch13_norm1_gamma_mean_max")
    assert max(abs(g("ch13_corr_min")), abs(g("ch13_corr_max"))) < 0.4   # 「几乎无关」
    assert g("ch13_no_beta_cost") > 0.02 and g("ch13_no_final_beta_cost") > 0
    assert g("ch13_no_final_beta_cost") > g("ch13_no_beta_cost")          # 「只去掉 final_norm 的 β 比去掉全部还糟」
    # 对照：同样大小的噪声代价小得多（「是 β 的具体数值在起作用」）
    assert g("ch13_beta_noise_draws") >= 3 and g("ch13_beta_noise_max") < g("ch13_no_beta_cost") / 3
    # 「逐通道的 γ 几乎不起作用」：换成每层的平均值，代价比去掉 β 小一个数量级
    assert abs(g("ch13_flat_gamma_cost")) < 0.01 and abs(g("ch13_flat_gamma_cost")) < g("ch13_no_beta_cost") / 10


def test_frozen_sigma_claims(g):
    assert g("ch13_frozen_cost") > 0.1                                    # 直接冻结会变差
    assert g("ch13_ft_frozen_after") < g("ch13_val_frozen")
    # 「以对照组为准，补回了 N%」：分母是冻结后的损失减去对照组的
    ft = rm.extras_log()["frozen_finetune"]
    assert g("ch13_ft_recovered") == pytest.approx(
        100 * (ft["frozen"] - ft["frozen_log"][-1]["val_loss"]) / (ft["frozen"] - ft["plain_log"][-1]["val_loss"]))
    assert 50 < g("ch13_ft_recovered") < 100                              # 「大部分可以补回来」，但没有全部
    # 「只训练 1 步就补回了一大块」
    assert g("ch13_ft_one_step") == 1
    assert g("ch13_ft_frozen_after") < g("ch13_ft_one_step_val") < g("ch13_val_frozen")
    assert g("ch13_ft_one_step_share") > 20
    assert g("ch13_ft_gap") == pytest.approx(g("ch13_ft_frozen_after") - g("ch13_ft_plain_after"))


def test_ch12_long_run_changes_the_ranking(g):
    assert g("ch13_best120") == "不归一化" and g("ch13_worst120") == "DyT"   # 第 12 章的结果
    assert g("ch13_worstL") == "不归一化"                                   # 训练久了反而最差


def test_extras_numbers_come_from_the_shipped_file(g):
    extras = rm.extras_log()
    ft = extras["frozen_finetune"]
    assert g("ch13_ft_steps") == extras["finetune_steps"]
    assert g("ch13_ft_frozen_after") == pytest.approx(ft["frozen_log"][-1]["val_loss"])
    assert g("ch13_ft_plain_after") == pytest.approx(ft["plain_log"][-1]["val_loss"])
    assert g("ch13_val_frozen") == pytest.approx(ft["frozen"], abs=1e-4)     # 章节现算的与维护者一步算的相同
    assert g("ch13_long_steps") == extras["long_steps"]
    for norm in variants.NORM_KINDS:
        assert g(f"ch13_long_{norm}_min") == pytest.approx(min(extras["ch12_long"][f"{norm}_{extras['long_steps']}"]))
        assert g(f"ch13_short_{norm}_max") == pytest.approx(max(extras["ch12_long"][f"{norm}_120"]))


def test_short_run_is_chapter_12s_own_result(run_chapter):
    """第 12 章构建时训练 120 步的结果，与维护者一步重跑的 120 步相同：长训练确实是同一个实验走得更久。"""
    _, glued, _ = run_chapter("ch12_modern_variants")
    extras = rm.extras_log()
    # 相对 1e-5：换一台机器构建（另一种处理器），float32 的舍入经过 120 步训练会差 1e-6 量级
    # （一次构建里 DyISRU 差 1.8e-6，相对 1.1e-6）；最接近的两种归一化（ln 与 rms 的最小值）相对差 3.5e-4，仍然分得清
    for norm in variants.NORM_KINDS:
        runs = extras["ch12_long"][f"{norm}_120"]
        assert glued_value(glued, f"ch12_final_{norm}_min") == pytest.approx(min(runs), rel=1e-5)
        assert glued_value(glued, f"ch12_final_{norm}_max") == pytest.approx(max(runs), rel=1e-5)


def test_parameter_count_is_about_a_million(g):
    assert 0.9e6 < int(g("ch13_n_params").replace(",", "")) < 1.2e6      # 「约一百万个参数」


# ---------------------------------------------------------------- 第 2、9、12 章指向参考模型的段落
def test_ch02_and_ch09_pointers_agree_with_chapter_13(run_chapter, g):
    """第 2、9 章：「训练好的模型里残差流同样随深度变大，增长是训练出来的；刚初始化时几乎不变」。"""
    for chapter, prefix in (("ch02_why_normalize", "ch02"), ("ch09_pre_post_ln", "ch09")):
        _, glued, _ = run_chapter(chapter)
        v = lambda name: glued_value(glued, f"{prefix}_{name}")   # noqa: E731
        assert v("ref_first") == pytest.approx(g("ch13_sigma_first")) and v("ref_last") == pytest.approx(g("ch13_sigma_last"))
        assert v("ref_growth") > 1.3 and v("ref_growth_init") < 1.1


def test_ch12_pointers_agree_with_chapter_13(run_chapter, g):
    """第 12 章：「训练久了，不归一化的 3 个种子都比其他五种的每个种子差；DyT 不再比两者慢；LayerNorm 与 RMSNorm 仍分不出高下」。"""
    _, glued, _ = run_chapter("ch12_modern_variants")
    v = lambda name: glued_value(glued, name)   # noqa: E731
    extras = rm.extras_log()
    long = {n: extras["ch12_long"][f"{n}_{extras['long_steps']}"] for n in variants.NORM_KINDS}
    others = [n for n in variants.NORM_KINDS if n != "none"]
    assert set(others) >= {"ln", "rms", "dyt", "derf", "dyisru"}
    assert v("ch12_long_none_min") == pytest.approx(min(long["none"]))
    assert v("ch12_long_none_min") > v("ch12_long_others_max")
    assert v("ch12_long_others_max") == pytest.approx(max(max(long[n]) for n in others))

    def overlap(a, b):
        return min(long[a]) <= max(long[b]) and min(long[b]) <= max(long[a])
    assert overlap("ln", "rms") and overlap("dyt", "ln") and overlap("dyt", "rms")
    assert g("ch13_worstL") == "不归一化" and g("ch13_worstL_margin") > 0
    assert g("ch13_n_others") == len(others)
    # 「弯得很浅」：第 12 章量的与第 13 章散点图那一层是同一个（σ 不含 ε，所以只近似相等）
    assert v("ch12_ref_sigma_ratio") == pytest.approx(g("ch13_s_sigma_ratio"), rel=0.02)
    assert v("ch12_ref_sigma_ratio") < 5
