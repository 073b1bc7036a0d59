"""Sphinx 小扩展：章节的执行缓存随 dsx_util 一起失效；执行状态页（myst-nb 的 nb-exec-table）的表格用中文。

缓存：jupyter-cache 只比较代码单元格，改了 dsx_util（探索器的脚本、检查器的提示）而章节没改时，
构建会照旧用缓存里的旧输出。这里把 dsx_execution_inputs 列出的目录（默认 dsx_util/）的内容算成一个摘要，
存在缓存目录里；摘要变了就清空缓存，并让 Sphinx 重新读入全部笔记本，于是每一章都重新执行。

表格：myst-nb 生成的表头是英文，状态一列是 ✅ / ❌ 这两个表情符号（很多机器没有表情字体，显示成方框）。
这里把表头译成中文，状态写成「成功」「失败」，文档名换成章节标题。
"""
import hashlib
from pathlib import Path

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform

HEADERS = {"Document": "章节", "Modified": "最近运行", "Method": "方式", "Run Time (s)": "耗时（秒）",
           "Status": "结果"}
CELLS = {"✅": "成功", "❌": "失败", "cache": "缓存", "force": "重新运行", "auto": "自动", "inline": "直接运行"}


def _translate(table, titles):
    for entry in table.findall(nodes.entry):
        for text in list(entry.findall(nodes.Text)):
            value = str(text)
            new = HEADERS.get(value) or CELLS.get(value)
            if new is None and value in titles:  # 文档名（如 book/ch01_gpt_architecture）换成章节标题
                new = titles[value].astext()
            if new is not None:
                text.parent.replace(text, nodes.Text(new))


class ChineseExecutionTable(SphinxPostTransform):
    """在 myst-nb 生成表格（优先级 8）之后、解析交叉引用（10）之前运行。"""
    default_priority = 9

    def run(self, **kwargs):
        for table in self.document.findall(nodes.table):
            header = [e.astext() for e in table.findall(nodes.entry)][:len(HEADERS)]
            if header == list(HEADERS):
                _translate(table, self.env.titles)


STAMP = "dsx_inputs.sha256"


def inputs_digest(folders):
    """folders 里全部文件（按相对路径排序，跳过 __pycache__ 与 .pyc）的路径和内容的 SHA-256。"""
    digest = hashlib.sha256()
    for folder in map(Path, folders):
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            if "__pycache__" in path.parts or path.suffix == ".pyc":
                continue
            digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def expire_cache_when_inputs_change(app, env, added, changed, removed):
    """摘要与缓存里记下的不同：清空执行缓存，返回全部笔记本章节，让它们重新读入、重新执行。"""
    config = getattr(env, "mystnb_config", None)
    if config is None or config.execution_mode != "cache":
        return []
    cache = Path(config.execution_cache_path)
    digest = inputs_digest(Path(app.confdir) / f for f in app.config.dsx_execution_inputs)
    stamp = cache / STAMP
    if stamp.exists() and stamp.read_text().strip() == digest:
        return []
    if cache.exists():
        from jupyter_cache import get_cache
        get_cache(cache).clear_cache()
    cache.mkdir(parents=True, exist_ok=True)
    stamp.write_text(digest + "\n")
    return sorted(name for name in env.found_docs
                  if Path(env.doc2path(name)).suffix == ".ipynb" and name not in added and name not in changed)
