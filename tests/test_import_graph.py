"""模块之间没有导入的圈：dsx_util/、dsx_book/、tools/、bench/ 里每个 .py 文件的 import（包括写在函数里的）连成图，
图里不能有圈（A 导入 B、B 又直接或间接导入 A）。有圈时两边谁也离不开谁，只能一起读、一起改。

一个模块的名字来自它的路径（dsx_book/parallel.py → dsx_book.parallel，包的 __init__.py → 包名）；
`from 包 import 名字` 里的名字是一个模块时连到那个模块，否则连到包本身。只算这四个文件夹里的模块，别的库不算。
"""
import ast
from functools import cache

from conftest import ROOT

FOLDERS = ("dsx_util", "dsx_book", "tools", "bench")


def module_names(root, folders=FOLDERS):
    """{模块名: 文件路径}：folders 里（递归）每个 .py 文件。"""
    modules = {}
    for folder in folders:
        for path in sorted((root / folder).rglob("*.py")):
            if "__pycache__" in path.parts or any(p.endswith(".egg-info") for p in path.parts):
                continue
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


def imported_modules(name, path, known):
    """模块 name（文件 path）导入的、known 里的模块（集合）。"""
    is_package = path.name == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:   # 相对导入：从当前包往上 level-1 层
                parent = package.split(".") if package else []
                parent = parent[:len(parent) - (node.level - 1)]
                base = ".".join(parent + ([base] if base else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:   # import a.b.c 里只有 a.b 是这里的模块时，连到 a.b
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def import_graph(root, folders=FOLDERS):
    modules = module_names(root, folders)
    return {name: imported_modules(name, path, modules) for name, path in modules.items()}


def circles(graph):
    """图里的圈：强连通分量（Tarjan）里多于一个模块的那些，每个是排好序的模块名列表。"""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in graph.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                component.append(other)
                if other == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


@cache
def repo_graph():
    return import_graph(ROOT)


def test_no_import_circle():
    graph = repo_graph()
    assert len(graph) > 50, f"只找到 {len(graph)} 个模块：文件夹的路径不对？"
    assert circles(graph) == [], "模块之间有导入的圈（每行一个圈里的模块）：\n" + "\n".join(
        " ↔ ".join(c) for c in circles(graph))


def test_graph_sees_imports_inside_functions_and_relative_imports():
    """图确实连上了构建步骤之间的导入：setup() 里的 `from . import (…)`、函数里的导入、绝对导入。"""
    graph = repo_graph()
    assert {"dsx_book.parallel", "dsx_book.executed", "dsx_book.reader_edition"} <= graph["dsx_book"]
    assert "dsx_book.executed" in graph["dsx_book.parallel"]
    assert "dsx_util.reference_model" in graph["dsx_book.reference_extras"]


def test_a_planted_circle_is_found(tmp_path):
    """dsx_book/executed.py 的一份副本在函数里反过来导入 parallel：用它代替原文件，测试报出这个圈，别的不报。"""
    graph = dict(repo_graph())
    planted = tmp_path / "executed.py"
    planted.write_text((ROOT / "dsx_book" / "executed.py").read_text(encoding="utf-8")
                       + "\n\ndef planted():\n    from .parallel import jobs\n    return jobs\n", encoding="utf-8")
    graph["dsx_book.executed"] = imported_modules("dsx_book.executed", planted, graph)
    assert circles(graph) == [["dsx_book.executed", "dsx_book.parallel"]]


def test_widget_modules_import_no_private_names():
    """探索器的模块之间只用公开的名字（共同底座 base.py 的 Explorer、esc……），不从别的模块导入以 _ 开头的名字。"""
    bad = []
    for path in sorted((ROOT / "dsx_util" / "widgets").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                bad += [f"{path.name}: {alias.name}" for alias in node.names if alias.name.startswith("_")]
    assert bad == []
