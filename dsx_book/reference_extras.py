"""维护者一步的第二部分：第 13 章需要、构建时算不起的结果，写进 dsx_util/data/reference_extras.json。

- seeds：同样的配方换种子 1、2 各训练一个模型，算 reference_model.summarize 的统计量（种子 0 用发布的检查点）；
- frozen_finetune：冻结全部 σ 之后再训练 FINETUNE_STEPS 步的验证损失，对照组是不冻结、同样再训练的模型；
- checkpoint：只用发布的检查点（不训练）、构建时嫌慢的量：整个训练集上评估模式的损失、几个种子生成的文字与
  验证集原文各自的 n 字片段在训练文本中的比例、与 β 同样大小的随机噪声的对照；
- ch12_long：第 12 章的归一化对比（variants.NORM_KINDS 的每一种）（同样的语料、模型与学习率）训练 120 步与 LONG_STEPS 步的评估损失。
"""
import copy
import json
import time

import torch

from dsx_util import reference_model as rm
from dsx_util import variants

from .reference_training import DATA, ROOT, load_other_seed

OTHER_SEEDS = (1, 2)
FINETUNE_STEPS = 200
FINETUNE = dict(rm.TRAIN, lr=3e-4, min_lr=3e-4, warmup=1, log_every=50)
LONG_STEPS = 600


def finetune(model, steps=FINETUNE_STEPS, seed=100):
    train_ids, val_ids = rm.encode_corpus()
    return rm.train(model, train_ids, val_ids, steps, seed=seed, cfg=FINETUNE)


def ch12_long(log=print):
    """第 12 章训练对比的设置（VOCAB 8、T 32、lr 1e-2、种子 0–2），训练 120 步与 LONG_STEPS 步。"""
    tokens, _ = variants.markov_corpus(60_000, vocab_size=8, seed=0)
    train_tokens, eval_tokens = tokens[:50_000], tokens[50_000:]
    cfg = variants.tiny_config(vocab_size=8, context_length=32, emb_dim=32, n_layers=2)
    out = {}
    for steps in (120, LONG_STEPS):   # 同一个实验走 120 步（第 12 章构建时的结果）与 LONG_STEPS 步
        for norm in variants.NORM_KINDS:
            out[f"{norm}_{steps}"] = [variants.train_variant(norm, seed, train_tokens, steps=steps, lr=1e-2, cfg=cfg,
                                                             eval_tokens=eval_tokens)[1] for seed in (0, 1, 2)]
            log(f"第 12 章对比 {norm} {steps} 步：{out[f'{norm}_{steps}']}")
    return out


def part_ch12_long():
    return {"ch12_long": ch12_long()}


def part_frozen_finetune():
    train_ids, val_ids = rm.encode_corpus()
    model, _ = rm.load_reference_model()
    sigmas = rm.typical_sigmas(model, rm.probe_batch(16, "train"))
    frozen = rm.freeze_sigmas(copy.deepcopy(model), sigmas)
    plain = copy.deepcopy(model)
    out = {"before": rm.evaluate(model, val_ids), "frozen": rm.evaluate(frozen, val_ids),
           "frozen_log": finetune(frozen), "plain_log": finetune(plain)}
    print("冻结 σ 后微调：", out["frozen_log"][-1], "对照：", out["plain_log"][-1], flush=True)
    return {"frozen_finetune": out}


def part_seeds():
    _, val_ids = rm.encode_corpus()
    probe = rm.probe_batch()
    model, _ = rm.load_reference_model()
    seeds = {"0": rm.summarize(model, probe, val_ids)}
    for seed in OTHER_SEEDS:
        other, log, seconds = load_other_seed(seed)
        seeds[str(seed)] = dict(rm.summarize(other, probe, val_ids), train_log=log, wall_seconds=round(seconds, 1))
    return {"seeds": seeds}


SAMPLE_SEEDS = (0, 1, 2, 3, 4)
NOISE_DRAWS = 3


def copy_rates(text, train_text, step=1):
    """text 的 4、8、16 字片段（每 step 个位置取一个）在 train_text 里原样出现过的比例。"""
    out = {}
    for n in (4, 8, 16):
        pieces = [text[i : i + n] for i in range(0, len(text) - n + 1, step)]
        out[str(n)] = sum(p in train_text for p in pieces) / len(pieces)
    return out


def part_checkpoint():
    train_ids, val_ids = rm.encode_corpus()
    model, tok = rm.load_reference_model()
    train_text, val_text = rm.training_text(), rm.validation_text()
    samples = [rm.generate(model, tok, "层归一化", n_chars=200, temperature=0.8, seed=s) for s in SAMPLE_SEEDS]
    base = rm.evaluate(model, val_ids)
    gen = torch.Generator().manual_seed(0)
    noise = []
    for _ in range(NOISE_DRAWS):   # 每个 β 加上与它同样均方根大小的高斯噪声
        m = copy.deepcopy(model)
        with torch.no_grad():
            for _, norm in rm.layer_norms(m):
                b = norm.shift
                b.add_(torch.randn(b.shape, generator=gen) * b.pow(2).mean().sqrt())
        noise.append(rm.evaluate(m, val_ids) - base)
    out = {"train_loss_eval": rm.evaluate(model, train_ids), "val_loss": base,
           "sample_seeds": list(SAMPLE_SEEDS), "sample_chars": 200,
           "sample_copy": [copy_rates(s, train_text) for s in samples],
           "val_copy": copy_rates(val_text, train_text, step=7), "beta_noise_cost": noise}
    print("检查点上的统计：", out, flush=True)
    return {"checkpoint": out}


PARTS = {"ch12_long": part_ch12_long, "frozen_finetune": part_frozen_finetune, "seeds": part_seeds, "checkpoint": part_checkpoint}


def main(argv=None):
    """依次算完各部分写进 reference_extras.json；--part 只算一部分（存到 _build/，可以几个进程同时算），--merge 合并。"""
    import argparse

    parser = argparse.ArgumentParser(description="第 13 章的其他结果")
    parser.add_argument("--part", choices=sorted(PARTS))
    parser.add_argument("--merge", action="store_true")
    parser.add_argument("--update", choices=sorted(PARTS), help="只重算这一部分，写进已有的 reference_extras.json")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    part_path = lambda name: ROOT / "_build" / f"reference_extras_{name}.json"   # noqa: E731
    start = time.perf_counter()
    if args.update:
        path = DATA / rm.EXTRAS_FILE
        result = json.loads(path.read_text(encoding="utf-8"))
        result.update(PARTS[args.update]())
        result["wall_seconds"][args.update] = round(time.perf_counter() - start, 1)
        path.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"{args.update}：{result['wall_seconds'][args.update]:.0f} 秒 → {path}", flush=True)
        return
    if args.part:
        result = PARTS[args.part]()
        result["wall_seconds"] = round(time.perf_counter() - start, 1)
        part_path(args.part).parent.mkdir(exist_ok=True)
        part_path(args.part).write_text(json.dumps(result, ensure_ascii=False), encoding="utf-8")
        print(f"{args.part}：{result['wall_seconds']:.0f} 秒 → {part_path(args.part)}", flush=True)
        return
    result = {"finetune_steps": FINETUNE_STEPS, "finetune_lr": FINETUNE["lr"], "long_steps": LONG_STEPS, "wall_seconds": {}}
    for name, fn in PARTS.items():
        if args.merge:
            part = json.loads(part_path(name).read_text(encoding="utf-8"))
        else:
            t = time.perf_counter()
            part = dict(fn(), wall_seconds=round(time.perf_counter() - t, 1))
        result["wall_seconds"][name] = part.pop("wall_seconds")
        result.update(part)
    (DATA / rm.EXTRAS_FILE).write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"其他结果 → {DATA / rm.EXTRAS_FILE}（各部分用时 {result['wall_seconds']} 秒）")


if __name__ == "__main__":
    main()
