"""代码的注释与文档字符串里不写带日期的测量（「某月某日量到 684 s → 315 s」）：这样的数会过时，又没有人复测。
测量放在能重新运行的地方：bench/ 的输出、CONTRIBUTING.md（写明复测的命令）、CHANGELOG.md。

这里查仓库跟踪的每个 .py、.js、.css 文件（Makefile 与 .github/ 不是这几种文件）：Python 的注释与文档字符串，
JS 与 CSS 的注释，里面出现日期（年-月-日、某年某月、某月某日，写法见 DATE）就算违反。
"""
import ast
import io
import re
import subprocess
import tokenize

from conftest import ROOT

DATE = re.compile(r"20\d\d-\d\d-\d\d|20\d\d ?年 ?\d{1,2} ?月|\d{1,2} ?月 ?\d{1,2} ?日")
BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.S)
LINE_COMMENT = re.compile(r"(?<![:\"'\\])//[^\n]*")


def python_comments(text):
    """(行号, 文字)：每条 # 注释，以及模块、类、函数的文档字符串。"""
    found = [(tok.start[0], tok.string) for tok in tokenize.generate_tokens(io.StringIO(text).readline)
             if tok.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc is not None:
                found.append((node.body[0].lineno, doc))
    return found


def js_css_comments(text):
    """(行号, 文字)：/* … */ 注释，以及 JS 的 // 注释（不算 URL 里的 //）。"""
    pattern = BLOCK_COMMENT if "//" not in text else re.compile(f"{BLOCK_COMMENT.pattern}|{LINE_COMMENT.pattern}", re.S)
    return [(text.count("\n", 0, m.start()) + 1, m.group()) for m in pattern.finditer(text)]


def dated_comments(path, text):
    if not DATE.search(text):   # 大多数文件里根本没有日期：不必解析
        return []
    comments = python_comments(text) if path.endswith(".py") else js_css_comments(text)
    return [f"{path}:{line}: {DATE.search(comment).group()}" for line, comment in comments if DATE.search(comment)]


def tracked_sources():
    out = subprocess.run(["git", "ls-files", "*.py", "*.js", "*.css"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.split()
    return [name for name in out if not name.startswith((".github/", "node_modules/"))]


def test_no_dated_measurement_in_code_comments():
    names = tracked_sources()
    assert len(names) > 100, names
    bad = [hit for name in names for hit in dated_comments(name, (ROOT / name).read_text(encoding="utf-8"))]
    assert not bad, "注释或文档字符串里有日期（测量请移到 bench/ 的输出、CONTRIBUTING.md 或 CHANGELOG.md）：\n" + "\n".join(bad)


def test_a_dated_measurement_is_found_in_each_kind_of_comment():
    """每种注释里放一条带日期的测量都会被找到；同样的日期写在代码的字符串里（不是注释）不算。"""
    measured = "2026-12-01 量到 684 s → 315 s"
    python = f'"""模块。\n\n{measured}。"""\nx = 1  # 12 月 1 日量到 3 s\n\n\ndef f():\n    """2026 年 12 月重测。"""\n'
    assert [hit.split(": ")[1] for hit in dated_comments("a.py", python)] == ["12 月 1 日", "2026-12-01", "2026 年 12 月"]
    assert dated_comments("b.js", f"var url = 'http://x/';  // {measured}\n") == ["b.js:1: 2026-12-01"]
    assert dated_comments("c.css", f"a {{ color: red; }}\n/* {measured} */\n") == ["c.css:2: 2026-12-01"]
    assert dated_comments("d.py", f'STAMP = "{measured}"\n') == []
    assert dated_comments("e.js", f"var s = '{measured}';\n") == []
