"""print_table：在终端里打印对齐的文本表格，在 Jupyter / Colab / HTML 书里显示真正的 HTML 表格。"""
import html
import numbers

from .notebook import in_notebook


def format_value(value, digits=4):
    """把单元格的值变成字符串：浮点数保留 digits 位小数，张量和（嵌套）列表逐个元素格式化。"""
    if value is None:
        return ""
    if isinstance(value, (bool, str)):
        return str(value)
    if hasattr(value, "detach") and hasattr(value, "tolist"):   # torch.Tensor
        value = value.detach().cpu().tolist()
    elif hasattr(value, "tolist") and hasattr(value, "dtype"):  # numpy 数组或标量
        value = value.tolist()
    if isinstance(value, (bool, str)):
        return str(value)
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        return f"{float(value):.{digits}f}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(format_value(v, digits) for v in value) + "]"
    return str(value)


def _validate(title, field_names, rows, digits):
    if isinstance(digits, bool) or not isinstance(digits, int) or not 0 <= digits <= 15:
        raise ValueError(f"digits 应为 0 到 15 之间的整数，收到的是 {digits!r}。")
    if isinstance(field_names, str) or not isinstance(field_names, (list, tuple)):
        raise ValueError(f"表头 field_names 应为列表，例如 ['名称', '值']；收到的是 {field_names!r}。")
    if len(field_names) == 0:
        raise ValueError("表头 field_names 是空列表：请至少给出一列的名字，例如 ['名称', '值']。")
    if isinstance(rows, (str, bytes)) or not isinstance(rows, (list, tuple)):
        raise ValueError(f"rows 应为由行组成的列表，例如 [['均值', 0.1]]；收到的是 {type(rows).__name__} 类型的 {rows!r:.60}。")
    for i, row in enumerate(rows):
        if isinstance(row, (str, bytes)) or not isinstance(row, (list, tuple)):
            raise ValueError(f"第 {i + 1} 行应为列表或元组，收到的是 {row!r:.60}。")
        if len(row) != len(field_names):
            raise ValueError(f"第 {i + 1} 行 {list(row)!r:.80} 有 {len(row)} 个值，但表头有 {len(field_names)} 列"
                             f"（{', '.join(map(str, field_names))}）：请让每一行的长度与表头一致。")


class Table:
    """一张已经格式化好的表格；同时提供文本（终端）和 HTML（笔记本、书）两种显示方式。"""

    def __init__(self, title, field_names, rows, digits=4, show_headers=True):
        _validate(title, field_names, rows, digits)
        if not isinstance(show_headers, bool):
            raise ValueError(f"show_headers 应为 True 或 False（是否显示表头），收到的是 {show_headers!r}。")
        self.title = "" if title is None else str(title)
        self.field_names = [str(f) for f in field_names]
        self.rows = [[format_value(v, digits) for v in row] for row in rows]
        self.show_headers = show_headers

    def to_text(self):
        from prettytable import PrettyTable
        table = PrettyTable()
        # prettytable 不允许重名的列；重名时在后面补空格，显示效果不变
        names, seen = [], set()
        for name in self.field_names:
            while name in seen:
                name += " "
            seen.add(name)
            names.append(name)
        table.field_names = names
        table.add_rows(self.rows)
        table.header = self.show_headers
        if self.title:
            table.title = self.title
        return table.get_string()

    def to_html(self):
        esc = html.escape
        head = "".join(f"<th>{esc(f)}</th>" for f in self.field_names)
        body = "".join("<tr>" + "".join(f"<td>{esc(v)}</td>" for v in row) + "</tr>" for row in self.rows)
        caption = f"<caption>{esc(self.title)}</caption>" if self.title else ""
        thead = f"<thead><tr>{head}</tr></thead>" if self.show_headers else ""
        return (f'<table class="dsx-table docutils align-default">{caption}'
                f"{thead}<tbody>{body}</tbody></table>")

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"text/plain": self.to_text(), "text/html": self.to_html()}

    def __str__(self):
        return self.to_text()


_MISSING = object()


def print_table(title, field_names, rows=_MISSING, digits=4, show_headers=True, *, data=_MISSING):
    """显示一张表格：终端里是对齐的文本表格（中文按双倍宽度对齐），笔记本和书里是 HTML 表格。

    title：表格标题；field_names：表头列表；rows：行的列表，每行长度必须与表头相同。
    也可以像《动手学大语言模型》的 dsxllm.util.print_table 那样，把行写成关键字参数 data=[...]（与 rows 二选一）。
    show_headers=False 时不显示表头（列数仍按 field_names 计）。
    浮点数、张量与嵌套的数字列表统一保留 digits 位小数。输入有误时抛出中文 ValueError，不打印任何内容。
    """
    if rows is not _MISSING and data is not _MISSING:
        raise ValueError("rows 和 data 是同一个东西（表格的行），只需给出一个：例如 print_table(标题, 表头, data=[[...], ...])。")
    if rows is _MISSING and data is _MISSING:
        raise ValueError("没有给出表格的行：请传入 rows（第三个参数）或 data=[[...], ...]。")
    table = Table(title, field_names, data if rows is _MISSING else rows, digits, show_headers)
    if in_notebook():
        from IPython.display import display
        display(table)
    else:
        print(table.to_text())
