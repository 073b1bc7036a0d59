"""维护者的一步：训练第 13 章的参考模型（make model）。构建时从不运行它。

    python -m dsx_book.train_reference            # 训练，写出检查点、训练日志、其他结果
    python -m dsx_book.train_reference --corpus   # 只重新生成语料快照（会改变训练结果，慎用）

写出的文件都在 dsx_util/data/（随 wheel 发布）：
- reference_model.pt：训练好的权重（float16）与词表；
- reference_log.json：设置、机器、用时，每 log_every 步的训练损失与验证损失；
- reference_extras.json：第 13 章需要、但构建时算不起的结果（冻结 σ 后的微调、其他种子、第 12 章对比的长训练）。
确定性：固定种子、torch.set_num_threads(1)、固定步数；tests/test_reference_model.py（慢层）重跑前几步核对日志。
"""
import argparse
import hashlib
import json
import os
import re
import time

from dsx_util import reference_model as rm

from . import reference_extras
from .reference_training import DATA, ROOT, machine, save_checkpoint, train_other_seed, train_reference


# ---------------------------------------------------------------- 语料快照
def clean_markdown(text):
    """把章节的 Markdown 变成朴素的正文：去掉代码块、公式块、标签行、glue 与交叉引用的标记、链接地址。"""
    lines, fence, math = [], False, False
    for line in text.splitlines():
        s = line.strip()
        if s.startswith(("```", ":::")):
            fence = not fence
            continue
        if s.startswith("$$"):
            if s == "$$" or not (len(s) > 4 and s.endswith("$$")):   # 单独一行的 $$…$$ 不改变状态
                math = not math
            continue
        if fence or math or re.fullmatch(r"\(.*\)=", s) or s.startswith(("<", "|")):
            continue
        lines.append(line)
    out = "\n".join(lines)
    out = re.sub(r"\{glue:[a-z]+\}`[^`]*`", "", out)                        # 数字由代码填入，语料里去掉
    out = re.sub(r"\{(?:doc|ref|numref|eq|term)\}`([^`<]*?)\s*(?:<[^`]*>)?`", r"\1", out)
    out = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", out)                      # 链接只留文字
    out = out.replace("**", "")
    out = re.sub(r"\n{3,}", "\n\n", out)
    return out.strip() + "\n"


def snapshot_corpus():
    """从 book/ch00–ch12 的 Markdown 单元格生成语料快照（冻结：之后章节改了，快照不变）。"""
    parts = []
    for path in sorted((ROOT / "book").glob("ch*.ipynb")):
        if int(path.name[2:4]) > 12:
            continue
        nb = json.loads(path.read_text(encoding="utf-8"))
        for cell in nb["cells"]:
            if cell["cell_type"] == "markdown":
                text = clean_markdown("".join(cell["source"]))
                if text.strip():
                    parts.append(text)
    corpus = "\n".join(parts)
    (DATA / rm.CORPUS_FILE).write_text(corpus, encoding="utf-8")
    print(f"语料快照：{len(corpus)} 个字符，{len(set(corpus))} 个不同字符 → {DATA / rm.CORPUS_FILE}")


def main(argv=None):
    parser = argparse.ArgumentParser(description="训练第 13 章的参考模型")
    parser.add_argument("--corpus", action="store_true", help="只重新生成语料快照")
    parser.add_argument("--steps", type=int, default=None, help="训练步数（默认 TRAIN['steps']；试跑用）")
    parser.add_argument("--no-extras", action="store_true", help="不算 reference_extras.json")
    parser.add_argument("--seed", type=int, default=None,
                        help="只训练这个种子的模型，存到 _build/reference_seed<种子>.pt（不发布；其他结果会用它，省得重训）")
    args = parser.parse_args(argv)
    if args.corpus:
        snapshot_corpus()
        return
    if args.seed is not None:
        train_other_seed(args.seed)
        return
    tok = rm.tokenizer()
    model, log, seconds = train_reference(args.steps)
    save_checkpoint(model, tok)
    corpus = rm.corpus_text()
    info = {
        "seed": rm.SEED, "steps": args.steps or rm.TRAIN["steps"], "train": rm.TRAIN,
        "config": rm.model_config(tok.vocab_size),
        "n_params": sum(p.numel() for p in model.parameters()),
        "corpus_chars": len(corpus), "vocab_size": tok.vocab_size,
        "corpus_sha256": hashlib.sha256(corpus.encode("utf-8")).hexdigest(),
        "train_chars": rm.split_point(corpus), "val_chars": len(corpus) - rm.split_point(corpus),
        "wall_seconds": round(seconds, 1), "machine": machine(),
        "date": time.strftime("%Y-%m-%d"), "log": log,
    }
    (DATA / rm.LOG_FILE).write_text(json.dumps(info, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"训练 {info['steps']} 步用了 {seconds:.0f} 秒；检查点 {os.path.getsize(DATA / rm.CHECKPOINT_FILE) / 1e6:.2f} MB")
    if not args.no_extras:
        reference_extras.main([])


if __name__ == "__main__":
    main()
