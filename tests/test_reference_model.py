"""第 13 章的参考模型（dsx_util.reference_model）：检查点随包发布、能载入、与语料和训练日志对得上；出错时说中文。

重跑训练的前几步、核对日志的复现测试在 tests/test_reference_reproducible.py（慢层）。
"""
import hashlib
import json

import pytest
import torch

from conftest import ROOT
from dsx_util import reference_model as rm
from dsx_util.layernorm import LayerNorm

DATA = ROOT / "dsx_util" / "data"


@pytest.fixture(scope="module")
def loaded():
    return rm.load_reference_model()


def test_checkpoint_is_small_and_stored_as_float16():
    path = DATA / rm.CHECKPOINT_FILE
    assert path.stat().st_size <= 5 * 1024 * 1024, f"检查点 {path.stat().st_size} 字节，超过 5 MB"
    ckpt = torch.load(path, weights_only=True)
    assert {v.dtype for v in ckpt["state_dict"].values()} == {torch.float16}
    assert ckpt["chars"] == rm.tokenizer().chars


def test_loads_in_eval_mode_as_float32(loaded):
    model, tok = loaded
    assert not model.training and all(not m.training for m in model.modules())
    assert {p.dtype for p in model.parameters()} == {torch.float32}
    assert tok.vocab_size == model.out_head.out_features == model.tok_emb.num_embeddings
    assert len(rm.layer_norms(model)) == 9 and all(isinstance(n, LayerNorm) for _, n in rm.layer_norms(model))


def test_trained_model_beats_the_initial_one_on_validation(loaded):
    model, tok = loaded
    ids = torch.tensor(tok.encode(rm.validation_text()[:3000]))
    trained, fresh = rm.evaluate(model, ids), rm.evaluate(rm.initial_model(), ids)
    assert fresh > 6.5 and trained < fresh - 3, (trained, fresh)


def test_initial_model_is_the_seeded_initialisation():
    a, b = rm.initial_model(), rm.initial_model()
    assert all(torch.equal(p, q) for p, q in zip(a.parameters(), b.parameters()))
    c = rm.initial_model(seed=1)
    assert not torch.equal(a.tok_emb.weight, c.tok_emb.weight)
    assert not a.training


def test_log_belongs_to_this_corpus_and_recipe():
    log = rm.training_log()
    corpus = rm.corpus_text()
    assert log["corpus_chars"] == len(corpus) and log["vocab_size"] == len(set(corpus))
    assert log["corpus_sha256"] == hashlib.sha256(corpus.encode("utf-8")).hexdigest()
    assert log["train"] == rm.TRAIN and log["steps"] == rm.TRAIN["steps"] and log["seed"] == rm.SEED
    assert log["train_chars"] + log["val_chars"] == len(corpus)
    assert log["val_chars"] == pytest.approx(rm.VAL_FRACTION * len(corpus), abs=1)
    steps = [e["step"] for e in log["log"]]
    assert steps[0] == 1 and steps[-1] == rm.TRAIN["steps"] and steps == sorted(steps)
    assert log["n_params"] == sum(p.numel() for p in rm.initial_model().parameters())
    assert log["wall_seconds"] > 0 and log["machine"]["threads"] == 1


def test_split_is_by_position_and_disjoint():
    text = rm.corpus_text()
    assert rm.training_text() + rm.validation_text() == text
    train_ids, val_ids = rm.encode_corpus()
    assert len(train_ids) == len(rm.training_text()) and len(val_ids) == len(rm.validation_text())


def test_corpus_snapshot_has_no_markup():
    text = rm.corpus_text()
    for markup in ("{glue:", "```", "$$", "](http", "**"):
        assert markup not in text, f"语料快照里还有排版标记 {markup!r}"


def test_tokenizer_round_trip_and_clear_errors():
    tok = rm.tokenizer()
    text = rm.validation_text()[:200]
    assert tok.decode(tok.encode(text)) == text
    with pytest.raises(ValueError, match="不在参考模型的词表里") as err:
        tok.encode("层归一化🦄")
    assert "🦄" in str(err.value)
    with pytest.raises(TypeError, match="需要一个字符串"):
        tok.encode([1, 2])
    with pytest.raises(ValueError, match=f"超出词表范围 0–{tok.vocab_size - 1}"):
        tok.decode([tok.vocab_size])


def test_norm_inputs_hooks_see_every_layer_norm_and_leave_none_behind(loaded):
    model, _ = loaded
    ids = rm.probe_batch(2)
    seen = rm.norm_inputs(model, ids)
    assert list(seen) == [n for n, _ in rm.layer_norms(model)]
    assert all(x.shape == (2, rm.CONTEXT_LENGTH, 128) for x in seen.values())
    # 第 1 个层归一化的输入就是嵌入之和
    emb = model.tok_emb(ids) + model.pos_emb(torch.arange(ids.shape[1]))
    assert torch.allclose(seen["块 1 norm1"], emb)
    assert all(not m._forward_pre_hooks for m in model.modules())
    with pytest.raises(ValueError, match="二维张量"):
        rm.norm_inputs(model, ids[0])


def test_frozen_sigma_layer_norm_equals_layer_norm_when_sigma_matches():
    torch.manual_seed(0)
    norm = LayerNorm(16)
    with torch.no_grad():
        norm.scale.copy_(torch.rand(16) + 0.5)
        norm.shift.copy_(torch.randn(16))
    z = torch.randn(5, 16)
    z = (z - z.mean(-1, keepdim=True)) / z.std(-1, keepdim=True, unbiased=False)   # 每行 σ 都是 1
    x = 3.0 * z + torch.randn(5, 1)                                                 # 每行 σ 都是 3，μ 各不相同
    frozen = rm.FrozenSigmaLayerNorm(norm, (9.0 + norm.eps) ** 0.5)
    assert torch.allclose(frozen(x), norm(x), atol=1e-5)
    assert not torch.allclose(frozen(2 * x), norm(2 * x), atol=1e-2)              # σ 变了，冻结的不再跟着变


def test_freeze_sigmas_replaces_only_the_named_norms_and_explains_bad_names(loaded):
    import copy

    model, _ = loaded
    sigmas = rm.typical_sigmas(model, rm.probe_batch(2, split="train"))
    assert list(sigmas) == [n for n, _ in rm.layer_norms(model)] and all(s > 0 for s in sigmas.values())
    one = rm.freeze_sigmas(copy.deepcopy(model), sigmas, names=["final_norm"])
    assert isinstance(one.final_norm, rm.FrozenSigmaLayerNorm)
    assert all(isinstance(b.norm1, LayerNorm) for b in one.trf_blocks)
    every = rm.freeze_sigmas(copy.deepcopy(model), sigmas)
    assert sum(isinstance(m, rm.FrozenSigmaLayerNorm) for m in every.modules()) == 9
    with pytest.raises(ValueError, match="没有这些层归一化：'块 9 norm1'"):
        rm.freeze_sigmas(copy.deepcopy(model), sigmas, names=["块 9 norm1"])
    with pytest.raises(ValueError, match="缺少这些层归一化的 σ：final_norm"):
        rm.freeze_sigmas(copy.deepcopy(model), {k: v for k, v in sigmas.items() if k != "final_norm"})
    with pytest.raises(ValueError, match="split='test' 只能是"):
        rm.probe_batch(2, split="test")
    with pytest.raises(ValueError, match="n_windows=0"):
        rm.probe_batch(0)


def test_generate_is_seeded_and_checks_its_arguments(loaded):
    model, tok = loaded
    a = rm.generate(model, tok, "层归一化", n_chars=20, seed=3)
    assert len(a) == 20 and a == rm.generate(model, tok, "层归一化", n_chars=20, seed=3)
    with pytest.raises(ValueError, match="temperature=0"):
        rm.generate(model, tok, "层", temperature=0)
    with pytest.raises(ValueError, match="prompt 不能是空字符串"):
        rm.generate(model, tok, "", n_chars=3)


def test_learning_rate_schedule():
    steps = rm.TRAIN["steps"]
    assert rm.lr_at(1, steps) == pytest.approx(rm.TRAIN["lr"] / rm.TRAIN["warmup"])
    assert rm.lr_at(rm.TRAIN["warmup"], steps) == pytest.approx(rm.TRAIN["lr"])
    assert rm.lr_at(steps, steps) == pytest.approx(rm.TRAIN["min_lr"])


def test_extras_cover_what_chapter_13_reads():
    extras = rm.extras_log()
    assert set(extras["seeds"]) == {"0", "1", "2"}
    for seed in ("1", "2"):
        assert extras["seeds"][seed]["train_log"][-1]["step"] == rm.TRAIN["steps"]
    assert extras["frozen_finetune"]["frozen_log"][-1]["step"] == extras["finetune_steps"]
    assert extras["frozen_finetune"]["plain_log"][-1]["step"] == extras["finetune_steps"]
    for norm in ("ln", "rms", "dyt", "none"):
        assert len(extras["ch12_long"][f"{norm}_120"]) == len(extras["ch12_long"][f"{norm}_{extras['long_steps']}"]) == 3


def test_package_data_ships_the_reference_files():
    """pyproject.toml 的 package-data 覆盖 data/ 里的每个文件（wheel 的内容另由 tests/test_release.py 检查）。"""
    import fnmatch
    import tomllib

    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]["dsx_util"]
    for path in DATA.iterdir():
        rel = path.relative_to(ROOT / "dsx_util").as_posix()
        assert any(fnmatch.fnmatch(rel, p) for p in patterns), f"{rel} 不在 package-data 里，wheel 里不会有它"
    assert json.loads((DATA / rm.LOG_FILE).read_text(encoding="utf-8"))
