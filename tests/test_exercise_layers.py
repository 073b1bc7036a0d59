"""练习框架的分层是一条测试：dsx_util/exercises/ 下每个模块（练习文件夹里的也算）第一行写着它可以导入什么，
这里逐个解析它真正的 import（函数里的也算），超出第一行所写的就失败。check.py 也不许导入别的模块的私有名字。

第一行的写法：``# 导入：标准库、torch、feedback、torch_checks。``（“、”分隔，“。”结束；只写“无”表示什么都不导入）。
可以再加 ``；可选：IPython、catalog``：这些只许在函数里导入（模块本身不依赖它们；例如网页里没有 IPython 和练习目录）。
每一项是：
- ``标准库``：Python 自带的模块（sys.stdlib_module_names）；
- ``torch``、``numpy``、``nbformat``、``IPython``：这些第三方包；
- ``dsx_util.xxx``：本书包里 exercises 之外的模块（含其子模块）；
- 其他名字（``feedback``、``list_checks``、``catalog``、``items``、``shared.blocks``……）：dsx_util.exercises 里的模块；
- ``本文件夹``：同一个练习文件夹里的文件。
练习文件夹里的 template.py、solution.py 是学习者的代码（原样放进章节，不加这一行）：网页练习（IN_PAGE）只许用标准库，
其他练习还可以用 torch 和 dsx_util。
"""
import ast
import functools
import importlib
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "dsx_util" / "exercises"
ROOT_PACKAGE = "dsx_util.exercises"
THIRD_PARTY = {"torch", "numpy", "nbformat", "IPython"}
LEARNER_FILES = ("template.py", "solution.py")


def module_name(path, package_dir=PACKAGE):
    rel = path.relative_to(package_dir).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join([ROOT_PACKAGE, *parts])


def imports_of(source, name, is_package):
    """源码里每个 import（函数里的也算）解析成完整的模块名：[(行号, 模块名, 是否在函数里), ...]。"""
    tree = ast.parse(source)
    here = name.split(".") if is_package else name.split(".")[:-1]
    inside = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            inside |= {id(n) for n in ast.walk(node)} - {id(node)}
    found = []
    for node in ast.walk(tree):
        local = id(node) in inside
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, local) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                found.append((node.lineno, node.module, local))
                continue
            base = here[:len(here) - (node.level - 1)]
            if node.module:
                found.append((node.lineno, ".".join(base + [node.module]), local))
            else:   # from . import x：x 是子模块
                found += [(node.lineno, ".".join(base + [alias.name]), local) for alias in node.names]
    return found


def rule_of(source):
    """第一行写明的 (可以导入的项, 只许在函数里导入的可选项)；第一行不是这个格式时返回 None。"""
    first = source.splitlines()[0] if source else ""
    if not first.startswith("# 导入：") or not first.endswith("。"):
        return None
    required, _, optional = first[len("# 导入："):-1].partition("；可选：")

    def items(text):
        return {item.strip() for item in text.split("、") if item.strip()} - {"无"}
    return items(required), items(optional)


def allowed(module, rule, own_package):
    top = module.split(".")[0]
    if "标准库" in rule and top in sys.stdlib_module_names:
        return True
    if top in THIRD_PARTY:
        return top in rule
    for item in rule:
        if item == "本文件夹":
            prefix = own_package
        elif item.startswith("dsx_util."):
            prefix = item
        elif item in ("标准库",) or item in THIRD_PARTY:
            continue
        else:
            prefix = f"{ROOT_PACKAGE}.{item}"
        if module == prefix or module.startswith(prefix + "."):
            return True
    return False


def violations(path, package_dir=PACKAGE):
    """path 里超出第一行所写的 import：[(行号, 模块名), ...]；第一行格式不对时是 [(1, "第一行…")]。"""
    source = path.read_text(encoding="utf-8")
    name = module_name(path, package_dir)
    is_package = path.name == "__init__.py"
    own_package = name if is_package else name.rsplit(".", 1)[0]
    if path.name in LEARNER_FILES and path.parent.parent.name == "items":
        meta = path.parent / "__init__.py"
        in_page = "IN_PAGE = True" in meta.read_text(encoding="utf-8")
        rule = {"标准库"} if in_page else {"标准库", "torch", "dsx_util"}
        return [(line, m) for line, m, _ in imports_of(source, name, False)
                if not (allowed(m, rule, own_package) or (not in_page and m.split(".")[0] == "dsx_util"))]
    rule = rule_of(source)
    if rule is None:
        return [(1, "第一行应是「# 导入：……。」，写明这个模块可以导入什么")]
    required, optional = rule
    return [(line, m) for line, m, local in imports_of(source, name, is_package)
            if not allowed(m, required, own_package) and not (local and allowed(m, optional, own_package))]


MODULES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_imports_stay_inside_what_the_first_line_allows(path):
    assert violations(path) == [], path.relative_to(PACKAGE).as_posix()


def test_the_layers_are_the_documented_ones():
    """页面只载入标准库的两层；PyTorch 的层不被它们导入（网页里没有 torch）。"""
    rules = {p.name: rule_of(p.read_text(encoding="utf-8")) for p in PACKAGE.glob("*.py")}
    assert rules["feedback.py"][0] == {"标准库"} and rules["feedback.py"][1] <= {"IPython", "catalog"}
    assert rules["list_checks.py"][0] == {"标准库", "feedback"} and rules["list_checks.py"][1] <= {"catalog"}
    assert "torch" in rules["torch_checks.py"][0] and "torch" in rules["module_checks.py"][0]
    from dsx_book.inpage import page_files
    shipped = {rel for rel, _ in page_files()}
    assert {"feedback.py", "list_checks.py"} <= shipped and not shipped & {"torch_checks.py", "module_checks.py"}
    assert len(MODULES) >= 150   # 真的看了练习文件夹里的文件


def test_a_planted_import_outside_the_rule_is_caught(tmp_path):
    """在一份复制的包里给只用标准库的 feedback.py 加一行 import torch、给网页练习的 check.py 加一行
    导入 torch_checks：两处都被指出（规则不是摆设）。"""
    import shutil
    copy = tmp_path / "exercises"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    feedback = copy / "feedback.py"
    feedback.write_text(feedback.read_text(encoding="utf-8") + "\n\ndef _planted():\n    import torch\n    return torch\n",
                        encoding="utf-8")
    relu = copy / "items" / "ch02_relu" / "check.py"
    relu.write_text(relu.read_text(encoding="utf-8") + "\nfrom ...torch_checks import randn  # noqa\n", encoding="utf-8")
    assert [m for _, m in violations(feedback, copy)] == ["torch"]
    assert [m for _, m in violations(relu, copy)] == [f"{ROOT_PACKAGE}.torch_checks"]
    assert violations(copy / "list_checks.py", copy) == []


# ---------------------------------------------------------------- check.py 只用公开的名字
def shared_imports(path):
    """check.py 从共用模块导入的名字：[(模块, 名字), ...]（相对导入）。"""
    return [(node.module, alias.name) for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.ImportFrom) and node.level > 0 and node.module for alias in node.names]


def test_check_files_import_no_private_names():
    """check.py 从共用模块导入的都是公开的、有说明的名字（不以 _ 开头），且导入的名字真的存在。"""
    found = []
    checked = 0
    for path in sorted(PACKAGE.glob("items/*/check.py")):
        for module, name in shared_imports(path):
            checked += 1
            value = getattr(importlib.import_module(f"{ROOT_PACKAGE}.{module}"), name, None)
            if name.startswith("_") or value is None:
                found.append((path.parent.name, module, name))
            elif callable(value) and not isinstance(value, type) and not (value.__doc__ or "").strip():
                found.append((path.parent.name, module, name, "没有说明"))
    assert found == []
    assert checked >= 100


def test_a_planted_private_import_is_caught(tmp_path):
    planted = tmp_path / "check.py"
    planted.write_text((PACKAGE / "items" / "ch02_relu" / "check.py").read_text(encoding="utf-8")
                       + "\nfrom ...list_checks import _in_string_or_comment  # noqa\n", encoding="utf-8")
    assert [name for _, name in shared_imports(planted) if name.startswith("_")] == ["_in_string_or_comment"]


# ---------------------------------------------------------------- 每样知识只有一处定义
@functools.cache
def _nodes(path):
    """一个模块的全部语法树结点（每个模块只解析一次）。"""
    return list(ast.walk(ast.parse(path.read_text(encoding="utf-8"))))


def _defined(name):
    """给 name 赋值或定义 name 的模块（相对 PACKAGE 的路径）。"""
    found = []
    for path in MODULES:
        for node in _nodes(path):
            targets = [t.id for t in getattr(node, "targets", []) if isinstance(t, ast.Name)]
            if name in targets or (isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name == name):
                found.append(path.relative_to(PACKAGE).as_posix())
    return found


def test_one_definition_per_item_of_knowledge():
    """NOT_DONE、库的目录、找学习者出错的那一行、时限到了的说法、装饰器：各只在 feedback.py 定义一次。"""
    for name in ("NOT_DONE", "LIBRARY_DIRS", "learner_frame", "MESSAGES", "checker", "Checker", "Stop"):
        assert _defined(name) == ["feedback.py"], (name, _defined(name))
    walks = [p.relative_to(PACKAGE).as_posix() for p in MODULES
             if "__traceback__" in p.read_text(encoding="utf-8") or "extract_tb" in p.read_text(encoding="utf-8")]
    assert walks == ["feedback.py"]   # 只有 learner_frame 沿着回溯找学习者的帧
    wordings = [(p.relative_to(PACKAGE).as_posix(), node.value) for p in MODULES
                for node in _nodes(p)
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and "检查已中止" in node.value]
    assert [w for w, _ in wordings] == ["feedback.py"], wordings   # timeout 只有 MESSAGES 里的一种说法


def test_one_wording_for_an_exception_in_the_learners_code():
    """raised 的说明只由 feedback.exception_sentence 写成：列表检查、PyTorch 检查、网页里都用它。"""
    assert _defined("exception_sentence") == ["feedback.py"]
    users = sorted(p.relative_to(PACKAGE).as_posix() for p in MODULES if "exception_sentence(" in p.read_text(encoding="utf-8"))
    assert users == ["feedback.py", "list_checks.py"]
    assert not [p for p in MODULES if "error_text(" in p.read_text(encoding="utf-8")]
