"""纯 Python 检查器（dsx_util/exercises/list_checks.py）的承诺：不导入 torch、numpy；每个错误代码都能被识别；
笔记本的调用方式（先运行代码，再 check_x(函数)）和网页的调用方式（run_source）给出同样的代码。
"""
import ast
import re
import subprocess
import sys

import pytest


from dsx_util import exercises
from dsx_util.exercises import list_checks
from dsx_util.exercises.catalog import EXERCISES, get_exercise
from dsx_util.exercises.feedback import MESSAGES
from inpage_cases import FIRST_ERRORS, FULLWIDTH_ALLOWED, GENERIC, MISTAKES, NAME_ERRORS, NOVEL, PAGE_ONLY

IN_PAGE = [ex for ex in EXERCISES if ex.in_page]
CASES = [(ex_id, code, src) for ex_id, cases in MISTAKES.items() for code, src in cases.items()]


def test_module_imports_without_torch_and_numpy(tmp_path):
    """像网页那样把 feedback.py、list_checks.py 和网页练习的 check.py 放进一个包，在 torch、numpy 都无法导入的解释器里
    运行一次检查（每道网页练习的参考答案都通过）。"""
    import json
    import shutil
    from dsx_book.inpage import PAGE_PACKAGE, page_files
    package = tmp_path / PAGE_PACKAGE
    for rel, path in page_files():   # 与 worker.js 相同：每层文件夹一个空的 __init__.py
        dest = package / rel
        for folder in [package, *reversed(dest.relative_to(package).parents[:-1])]:
            (package / folder).mkdir(parents=True, exist_ok=True)
            (package / folder / "__init__.py").touch()
        shutil.copy2(path, dest)
    code = (
        "import sys, json\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('torch', 'numpy', 'IPython', 'matplotlib', 'dsx_util'):\n"
        "            raise ImportError('blocked ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        f"from {PAGE_PACKAGE} import list_checks as m\n"
        f"cases = json.loads({json.dumps([[e.solution, e.checker, e.entry, e.spec] for e in IN_PAGE])!r})\n"
        "passed = [m.run_source(*case)['passed'] for case in cases]\n"
        "print(all(passed), len(passed), sorted(k for k in sys.modules if k.split('.')[0] in ('torch', 'numpy', 'dsx_util')))\n"
    )
    # 在 tmp_path 里运行：python -c 从当前目录导入这个包（与网页的 Worker 从 /home/pyodide 导入一样）
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=tmp_path).stdout
    assert out.strip() == f"True {len(IN_PAGE)} []"


def test_only_standard_library_imports():
    from dsx_book.inpage import page_files
    for _, path in page_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                 for alias in node.names}
        names |= {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                  and node.level == 0}
        relative = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.level > 0}
        # IPython 只在它已经载入时（笔记本里）才用来显示结果；上面的测试里它被禁止导入，检查照样可用。
        # catalog 只在 CPython 里读（网页里没有它，要求由 run_source 的 spec 给出）
        assert names - {"IPython"} <= set(sys.stdlib_module_names), (path, names - set(sys.stdlib_module_names))
        assert relative <= {"feedback", "catalog", "list_checks"}, relative   # check.py 只从 ...feedback / ...list_checks 导入


def test_in_page_exercises_cover_the_chapters_of_the_issue():
    chapters = {ex.chapter[:4] for ex in IN_PAGE}
    assert chapters >= {"ch02", "ch04", "ch06", "ch07", "ch08", "ch11"}
    for ex in IN_PAGE:
        checker = list_checks.load_checker(ex.checker)
        assert checker.exercise_id == ex.id and checker.exercise == ex.title
        tried = set(MISTAKES[ex.id]) | {c for ex_id, _, _, codes in NOVEL if ex_id == ex.id for c in codes}
        assert set(checker.codes) - tried == set(), "每个错误代码都要有一段犯了这个错误的代码"


def test_novel_mistakes_get_a_step_or_combination_code():
    """至少 12 个目录里没有的新错误（每道网页练习 2 个以上，含两处错误的组合）得到逐步诊断或组合的代码。"""
    assert len(NOVEL) >= 12
    per_exercise = {ex.id: sum(1 for ex_id, *_ in NOVEL if ex_id == ex.id) for ex in IN_PAGE}
    assert min(per_exercise.values()) >= 2, per_exercise
    assert sum(1 for *_, codes in NOVEL if len(codes) >= 2) >= 4
    for ex_id, what, source, codes in NOVEL:
        ex = get_exercise(ex_id)
        result = list_checks.run_source(source, ex.checker, ex.entry)
        assert result["codes"] == codes, (what, result["messages"])
        assert "wrong_output" not in result["codes"]
        assert result["head"] == f"✗ {ex.title}：发现 {len(codes)} 个问题"
        for message in result["messages"]:
            assert not any(c in message for c in result["codes"]), message   # 说明里没有英文代码


@pytest.mark.parametrize("ex", IN_PAGE, ids=lambda ex: ex.id)
def test_solution_passes_and_template_is_not_done(ex):
    assert list_checks.run_source(ex.solution, ex.checker, ex.entry)["codes"] == []
    assert list_checks.run_source(ex.template, ex.checker, ex.entry)["codes"] == ["not_done"]


def _notebook_way(ex, source, capsys):
    """像笔记本那样：运行模板单元格里的代码，再运行检查单元格（检查结果在终端里打印出来）。"""
    ns = {"__name__": "__main__"}
    exec(compile(source, "<cell>", "exec"), ns)
    result = list_checks.load_checker(ex.checker)(ns[ex.entry])
    printed = capsys.readouterr().out
    assert printed.strip() == result.text()
    return result


@pytest.mark.parametrize("ex_id,code,source", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_named_mistake_same_code_both_ways(ex_id, code, source, capsys):
    ex = get_exercise(ex_id)
    page = list_checks.run_source(source, ex.checker, ex.entry)
    assert page["codes"] == [code], page["messages"]
    assert any("\u4e00" <= ch <= "\u9fff" for ch in page["messages"][0])   # 一句中文说明
    notebook = _notebook_way(ex, source, capsys)
    assert (notebook.codes, notebook.messages) == (page["codes"], page["messages"])
    assert code not in notebook.text()                       # 错误代码只在 result.codes 里，不在给人看的文字里


@pytest.mark.parametrize("code", sorted(GENERIC))
def test_generic_failures(code, monkeypatch):
    monkeypatch.setattr(list_checks, "TIME_LIMIT", 0.3)
    ex = get_exercise("ch04-layer-norm-rows")
    result = list_checks.run_source(GENERIC[code].replace("{entry}", ex.entry), ex.checker, ex.entry)
    assert result["codes"] == [code] and result["passed"] is False
    assert all("\u4e00" <= ch <= "\u9fff" or ch in "εμσγβ" for ch in result["messages"][0]
               if ch.isalpha() and not ch.isascii())
    assert any("\u4e00" <= ch <= "\u9fff" for ch in result["messages"][0].split("Python 的报错是")[0])   # 先说中文


def test_timeout_restores_tracing_and_catches_loops_that_swallow_exceptions(monkeypatch):
    monkeypatch.setattr(list_checks, "TIME_LIMIT", 0.3)
    stubborn = "def stable_var(values):\n    while True:\n        try:\n            pass\n        except Exception:\n            pass\n"
    before = sys.gettrace()
    assert list_checks.run_source(stubborn, "check_stable_var", "stable_var")["codes"] == ["timeout"]
    assert sys.gettrace() is before


def test_error_line_points_at_learner_code():
    source = "def relu_list(values):\n    x = 1\n    return values[99]\n"
    (message,) = list_checks.run_source(source, "check_relu", "relu_list")["messages"]
    assert "IndexError" in message and "第 3 行" in message


def test_checker_never_raises_on_odd_return_values(capsys):
    class Weird(list):
        def __len__(self):
            raise RuntimeError("坏对象")
    assert exercises.check_relu(lambda v: Weird()).codes == ["check_failed"]
    assert exercises.check_relu(lambda v: [float("nan")] * len(v)).codes[0] == "wrong_output"
    assert exercises.check_layer_norm_rows(lambda r, g, b, eps=1e-5: [["x"] * 4 for _ in r]).codes == ["not_number"]
    assert exercises.check_layer_norm_rows(lambda r, g, b, eps=1e-5: [["x"] * 4] * 3).codes == ["shared_rows"]
    assert exercises.check_stable_var(lambda v: None).codes == ["no_return"]
    assert exercises.check_stable_var(lambda v: "1.0").codes == ["not_number"]


FIRST = [(code, src) for code, sources in FIRST_ERRORS.items() for src in sources]


@pytest.mark.parametrize("code,source", FIRST, ids=[f"{c}-{i}" for i, (c, _) in enumerate(FIRST)])
def test_first_errors_get_their_own_message(code, source):
    """全角标点（说出是哪个字符、改成什么、切换输入法）、缩进、导入题目不许用的模块（说出「只用纯 Python」）：
    各有一句中文说明，不是 Python 的英文报错。"""
    ex = get_exercise("ch02-relu")
    result = list_checks.run_source(source, ex.checker, ex.entry)
    assert result["codes"] == [code], result
    (text,) = result["messages"]
    assert "invalid character" not in text and "indent" not in text and "ModuleNotFoundError" not in text
    if code == "fullwidth_punctuation":
        chars = [c for c in list_checks.FULLWIDTH if c in source]
        assert chars and all(f"「{c}」改成「{list_checks.FULLWIDTH[c]}」" in text for c in chars), text
        assert "输入法" in text
    if code == "forbidden_call":
        assert "只用纯 Python" in text and "第 1 行" in text and "导入了" in text
    if code.endswith("indent"):
        assert "缩进" in text and "第 " in text
    if code == "unexpected_indent":   # 评审 r40：网页编辑器回车后自动缩进，又自己打空格，缩进就多了：说出这个原因
        assert "自动缩进" in text and "又自己打了空格" in text, text
    if code == "mixed_tabs":
        assert "Tab" in text and "空格" in text and "第 " in text and "inconsistent" not in text
        lines = source.splitlines()   # 说出的 Tab 行与空格行正是代码里的（评审 r39：不叫人删掉并不存在的 Tab）
        tabs = [k for k, t in enumerate(lines, 1) if t.strip() and "\t" in t[:len(t) - len(t.lstrip())]]
        spaces = [k for k, t in enumerate(lines, 1) if t.strip() and t[:1] == " " and "\t" not in t[:len(t) - len(t.lstrip())]]
        named_tabs, named_spaces = re.findall(r"第 ([\d–、]+) 行用 Tab 缩进，第 ([\d–、]+) 行用空格缩进", text)[0]
        assert _numbers(named_tabs) == tabs and _numbers(named_spaces) == spaces, text


def _numbers(ranges):
    """“2–4、7” -> [2, 3, 4, 7]。"""
    out = []
    for part in ranges.split("、"):
        a, _, b = part.partition("–")
        out += list(range(int(a), int(b or a) + 1))
    return out


@pytest.mark.parametrize("source,words", NAME_ERRORS, ids=[w[-1] for _, w in NAME_ERRORS])
def test_missing_names_are_named_in_chinese_with_a_close_name(source, words):
    """KeyError、NameError、AttributeError、除以 0：Python 的英文报错前有一句中文，说出缺的名字；学习者自己的代码
    （或那个模块）里有相近的名字时说出它。"""
    ex = get_exercise("ch02-relu")
    result = list_checks.run_source(source, ex.checker, ex.entry)
    assert result["codes"] == ["raised"], result
    text = result["messages"][0]
    assert all(w in text for w in words), text
    assert text.index(words[0]) < text.index("Python 的报错是"), text   # 中文在前，Python 的原话在后


def test_no_close_name_is_invented():
    """代码里没有相近的名字时不编一个：只说出缺的名字和该查什么。"""
    ex = get_exercise("ch02-relu")
    text = list_checks.run_source("def relu_list(values):\n    return [max(0.0, v) for v in valuez_list]\n",
                                  ex.checker, ex.entry)["messages"][0]
    assert "没有叫 valuez_list 的名字" in text and "是不是" not in text, text


def test_the_page_python_is_derived_from_the_standard_library():
    """「网页里也没有 X」只对网页（只带标准库的 Pyodide）里真的没有的模块说：statistics 在，torch、numpy 不在。"""
    assert list_checks.in_page_python("statistics") and list_checks.in_page_python("math")
    assert not list_checks.in_page_python("torch") and not list_checks.in_page_python("numpy")
    ex = get_exercise("ch11-stable-var-list")
    text = list_checks.run_source("import statistics\n" + ex.solution, ex.checker, ex.entry)["messages"][0]
    assert "第 1 行导入了 statistics" in text and "网页里也没有" not in text, text


def test_one_wording_for_imports_in_every_pure_exercise():
    """每道网页练习里 import torch / numpy：题目写明不许用时说出这条要求；题目没有写时不编造要求（评审 r39），
    只说网页里没有它、这道题用不着它。两种都说出第几行、删掉它，而不是 ModuleNotFoundError。"""
    template = MESSAGES["forbidden_import"]
    head, tail = template.split("{rule}")[0], template.split("{line}")[1].split("{name}")[0]
    kinds = set()
    for ex in IN_PAGE:
        for name in ("torch", "numpy"):
            result = list_checks.run_source(f"import {name}\n" + ex.solution, ex.checker, ex.entry)
            text = result["messages"][0]
            assert f"第 1 行导入了 {name}" in text and "删掉这一行" in text and "ModuleNotFoundError" not in text, (ex.id, text)
            if name in ex.spec["forbidden"]:
                assert result["codes"] == ["forbidden_call"], (ex.id, result)
                assert text.startswith(head) and tail in text and f"（网页里也没有 {name}）" in text, (ex.id, text)
            else:
                assert result["codes"] == ["not_in_page"], (ex.id, result)
                assert "题目要求" not in text and "网页里的 Python 只有标准库" in text, (ex.id, text)
            kinds.add(result["codes"][0])
    assert kinds == {"forbidden_call", "not_in_page"}


@pytest.mark.parametrize("ex_id,source,code,words", PAGE_ONLY, ids=[c[0] for c in PAGE_ONLY])
def test_page_only_mistakes_are_explained_without_an_invented_rule(ex_id, source, code, words):
    ex = get_exercise(ex_id)
    result = list_checks.run_source(source, ex.checker, ex.entry)
    assert result["codes"] == [code], result
    assert all(w in result["messages"][0] for w in words) and "题目要求" not in result["messages"][0], result


def test_fullwidth_inside_strings_and_comments_is_fine():
    ex = get_exercise("ch02-relu")
    assert list_checks.run_source(FULLWIDTH_ALLOWED, ex.checker, ex.entry)["codes"] == []


def test_forbidden_import_is_named_in_every_pure_exercise_that_forbids_it():
    """每道写明「只用纯 Python」的网页练习：开头 import torch 得到这条规则，而不是网页里的 ModuleNotFoundError。"""
    for ex in IN_PAGE:
        if "torch" not in ex.spec["forbidden"]:
            continue
        source = "import torch\n" + ex.solution
        result = list_checks.run_source(source, ex.checker, ex.entry)
        assert result["codes"] == ["forbidden_call"] and "只用纯 Python" in result["messages"][0], (ex.id, result)
        assert "第 1 行导入了 torch" in result["messages"][0]


def test_missing_module_in_the_page_is_explained():
    """题目没有禁止 torch 的网页练习里导入 torch：网页里导入失败时，说明网页里没有 PyTorch、这道题不需要它。"""
    from dsx_util.exercises.feedback import explain_error
    assert "网页里只有标准库" in explain_error(ModuleNotFoundError("No module named 'torch'"))
    assert "NumPy" in explain_error(ModuleNotFoundError("No module named 'numpy'"))
