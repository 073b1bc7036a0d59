"""发布前检查：版本号只有一个，所有用到它的地方都一致。

    python -m dsx_book.release_check           # 检查仓库内的版本号（make test 通过 tests/test_release.py 运行）
    python -m dsx_book.release_check v0.2.0    # 另外检查标签（发布工作流在打标签时运行）

检查的地方：dsx_util/__init__.py 的 __version__（唯一写版本号的地方）、pyproject.toml（从 __version__
读取）、每章设置单元格固定的 dsx_util==<版本号>、wheel 的文件名与 git 标签、book/index.md 与各章正文里的
安装命令和 wheel 文件名、
发布工作流的标签模式，以及（给出时）标签本身。有问题时逐条打印中文说明并以退出码 1 结束。
"""
import fnmatch
import re
import sys
import tomllib
from pathlib import Path

import nbformat
import yaml

from .nbsync import ROOT, package_version

RELEASE_WORKFLOW = Path(".github/workflows/release.yml")
SEMVER = re.compile(r"\d+\.\d+\.\d+")


def _pyproject_problem(root, version):
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    static = project["project"].get("version")
    if static is not None:
        return (f"pyproject.toml 里写死了 version = {static!r}（dsx_util.__version__ 是 {version!r}）："
                "版本号只应写在 dsx_util/__init__.py，pyproject.toml 用 dynamic = [\"version\"] 从那里读取")
    attr = project.get("tool", {}).get("setuptools", {}).get("dynamic", {}).get("version", {}).get("attr")
    if "version" not in project["project"].get("dynamic", []) or attr != "dsx_util.__version__":
        return ("pyproject.toml 没有从 dsx_util.__version__ 读取版本号：应写 dynamic = [\"version\"] 和 "
                "[tool.setuptools.dynamic] version = {attr = \"dsx_util.__version__\"}")
    return None


def _setup_cell_problems(root, version):
    problems = []
    for path in sorted((root / "book").glob("*.ipynb")):
        cells = nbformat.read(path, as_version=4).cells
        source = cells[0].source if cells else ""
        pins = re.findall(r"dsx_util==([^\s\"']+)", source)
        tags = re.findall(r"git\+\S+?@v([^\s\"']+)", source)
        wheels = set(re.findall(r"dsx_util-([0-9][^-\s]*)-py3", source))
        if pins != [version] or tags != [version] or wheels != {version}:
            problems.append(f"book/{path.name} 的设置单元格固定的版本是 dsx_util=={'/'.join(pins) or '（无）'}、"
                            f"标签 v{'/'.join(tags) or '（无）'}、wheel {'/'.join(sorted(wheels)) or '（无）'}，"
                            f"而 __version__ 是 {version}："
                            "请运行 make sync（python -m dsx_book.nbsync）")
    return problems


def _versions_in_prose(text):
    """正文里写到的 dsx_util 版本号：安装命令 dsx_util==X、wheel 与 sdist 的文件名 dsx_util-X-…whl / dsx_util-X.tar.gz。"""
    return (re.findall(r"dsx_util==([0-9][^\s`\"'）]*)", text)
            + re.findall(r"dsx_util-([0-9][^-\s`\"'<>]*?)(?:-py3|\.tar\.gz)", text))


def _index_problem(root, version):
    pins = _versions_in_prose((root / "book" / "index.md").read_text(encoding="utf-8"))
    if not pins or set(pins) != {version}:
        return (f"book/index.md 的本机安装命令和下载链接写的是 dsx_util {'/'.join(sorted(set(pins))) or '（没有）'}，"
                f"应为 {version}：请改正文里的安装命令和 wheel 的文件名")
    return None


def _chapter_prose_problems(root, version):
    problems = []
    for path in sorted((root / "book").glob("*.ipynb")):
        text = "\n".join(c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "markdown")
        wrong = sorted(set(_versions_in_prose(text)) - {version})
        if wrong:
            problems.append(f"book/{path.name} 的正文写的是 dsx_util {'/'.join(wrong)}，应为 {version}：请改正文里的安装命令")
    return problems


def _workflow_problem(root, version):
    path = root / RELEASE_WORKFLOW
    if not path.exists():
        return f"缺少发布工作流 {RELEASE_WORKFLOW}"
    workflow = yaml.safe_load(path.read_text(encoding="utf-8"))
    trigger = workflow.get("on", workflow.get(True)) or {}   # PyYAML 把键 on 读成 True
    patterns = (trigger.get("push") or {}).get("tags") or []
    if not any(fnmatch.fnmatchcase(f"v{version}", p) for p in patterns):
        return f"{RELEASE_WORKFLOW} 的标签模式 {patterns} 不匹配 v{version}：打这个标签不会触发发布"
    return None


def problems(root=ROOT, tag=None):
    """返回所有不一致之处（中文说明）；空列表表示可以发布。tag 形如 "v0.1.0"。"""
    root = Path(root)
    version = package_version(root)
    found = []
    if not SEMVER.fullmatch(version):
        found.append(f"dsx_util.__version__ = {version!r} 不是 X.Y.Z 的形式（例如 0.1.0），无法对应 vX.Y.Z 标签")
    found += [p for p in (_pyproject_problem(root, version), _index_problem(root, version),
                          _workflow_problem(root, version)) if p]
    found += _setup_cell_problems(root, version) + _chapter_prose_problems(root, version)
    if tag is not None:
        match = re.fullmatch(r"v(\d+\.\d+\.\d+)", tag)
        if not match:
            found.append(f"标签 {tag!r} 不是 vX.Y.Z 的形式（本版本应为 v{version}）")
        elif match.group(1) != version:
            found.append(f"标签 {tag} 与 dsx_util.__version__ = {version!r} 不一致：先把 __version__ 改成 "
                         f"{match.group(1)}、运行 make sync 并提交，再打标签")
    return found


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    found = problems(tag=args[0] if args else None)
    for line in found:
        print(f"✗ {line}")
    if found:
        return 1
    print(f"✓ 版本号一致：{package_version()}" + (f"，标签 {args[0]}" if args else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
