"""Sphinx 小扩展：把执行状态页（myst-nb 的 nb-exec-table）的表格改成中文。

myst-nb 生成的表头是英文，状态一列是 ✅ / ❌ 这两个表情符号（很多机器没有表情字体，显示成方框）。
这里把表头译成中文，状态写成「成功」「失败」，文档名换成章节标题。
"""
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


def setup(app):
    app.add_post_transform(ChineseExecutionTable)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
