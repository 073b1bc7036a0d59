"""执行一个章节笔记本（不改动原文件），把执行后的笔记本写到 --out，并打印耗时。

用法：python -m dsx_book.run_notebook book/ch02_why_normalize.ipynb [--out 执行结果.ipynb] [--timeout 120]
用哪个 Python 运行本脚本，就用哪个 Python 的内核执行笔记本（Colab 仿真环境靠这一点）。
"""
import argparse
import json
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent


def execute(path, timeout=120):
    """执行笔记本，返回 (执行后的 nbformat 对象, 秒数)。任何单元格报错都会抛出 CellExecutionError。"""
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3",
                            resources={"metadata": {"path": str(Path(path).parent)}})
    t0 = time.perf_counter()
    client.execute()
    return nb, time.perf_counter() - t0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("notebook")
    parser.add_argument("--out")
    parser.add_argument("--timeout", type=int, default=120)
    args = parser.parse_args()
    nb, seconds = execute(args.notebook, args.timeout)
    if args.out:
        nbformat.write(nb, args.out)
    print(json.dumps({"notebook": args.notebook, "seconds": round(seconds, 2), "python": sys.executable}))


if __name__ == "__main__":
    main()
