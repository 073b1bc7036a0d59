"""训练参考模型的函数（make model 的 train_reference.py 与 reference_extras.py 都用）：同一配方、给定种子，单线程。

训练出来的其他种子的模型存在 _build/（不发布），reference_extras 算其他种子的统计量时载入。
"""
import platform
import time
from pathlib import Path

import torch

from dsx_util import reference_model as rm

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "dsx_util" / "data"


def machine():
    return {"machine": platform.machine(), "processor": platform.processor() or platform.machine(),
            "python": platform.python_version(), "torch": torch.__version__, "threads": torch.get_num_threads()}


def train_reference(steps=None, seed=rm.SEED, quiet=False):
    """按 rm.TRAIN 训练参考模型，返回 (模型, 日志列表, 用时秒数)。"""
    torch.set_num_threads(1)
    steps = steps or rm.TRAIN["steps"]
    train_ids, val_ids = rm.encode_corpus()
    model = rm.initial_model(seed).train()
    start = time.perf_counter()
    log = rm.train(model, train_ids, val_ids, steps, seed=seed, total_steps=rm.TRAIN["steps"],
                   on_log=None if quiet else lambda e: print(e, flush=True))
    return model, log, time.perf_counter() - start


def save_checkpoint(model, tok):
    state = {k: v.detach().half().contiguous() for k, v in model.state_dict().items()}
    torch.save({"state_dict": state, "chars": tok.chars}, DATA / rm.CHECKPOINT_FILE)


def other_seed_path(seed):
    return ROOT / "_build" / f"reference_seed{seed}.pt"


def train_other_seed(seed):
    """同样的配方换一个种子训练；float32 的权重与日志存到 _build/（不发布），返回 (模型, 日志, 秒数)。"""
    model, log, seconds = train_reference(seed=seed, quiet=True)
    other_seed_path(seed).parent.mkdir(exist_ok=True)
    torch.save({"state_dict": model.state_dict(), "log": log, "seconds": seconds, "train": rm.TRAIN},
               other_seed_path(seed))
    print(f"种子 {seed}：验证损失 {log[-1]['val_loss']}，{seconds:.0f} 秒", flush=True)
    return model, log, seconds


def load_other_seed(seed):
    """_build/ 里有同一配方训练好的种子 seed 就载入，否则现在训练。"""
    path = other_seed_path(seed)
    if path.exists():
        saved = torch.load(path, weights_only=True)
        if saved["train"] == rm.TRAIN:
            model = rm.initial_model(seed)
            model.load_state_dict(saved["state_dict"])
            return model.eval(), saved["log"], saved["seconds"]
    return train_other_seed(seed)
