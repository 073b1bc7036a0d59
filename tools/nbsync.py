"""让每个章节笔记本保持统一：第一个单元格是标准的环境设置单元格，「## 练习」之后的单元格由
dsx_util/exercises/items/ 里的练习文件生成（练习只在那里维护），输出与执行计数全部清空。

python tools/nbsync.py          # 就地修正
python tools/nbsync.py --check  # 只检查，有不一致就退出码 1（测试用）

设置单元格先从软件包索引安装 dsx_util==<版本号>，索引里没有时改从仓库的同版本标签安装；版本号来自
dsx_util/__init__.py 的 __version__，仓库地址来自 _config.yml 的 repository.url（都不是会移动的分支）。
改仓库地址只需改 _config.yml，再运行本脚本。
"""
import argparse
import re
import sys
from pathlib import Path

import nbformat
import yaml

ROOT = Path(__file__).resolve().parent.parent

SETUP_TEMPLATE = '''# 环境设置：在 Google Colab 中安装本书的工具包 dsx_util；在其他环境中什么也不做。
import os, subprocess, sys
try:
    import google.colab  # noqa: F401  只有 Colab 里有这个模块
    IN_COLAB = True
except ImportError:
    IN_COLAB = False
if IN_COLAB:
    from importlib import metadata
    # 先从软件包索引（PyPI 或你配置的国内镜像）安装固定版本；索引里没有这个版本时，改从仓库的同版本标签安装。
    # 环境变量 DSX_UTIL_SOURCE 可以指定别的来源（任何 pip 能接受的写法）。
    sources = ["{pin}", "{git}"]
    if os.environ.get("DSX_UTIL_SOURCE"):
        sources = [os.environ["DSX_UTIL_SOURCE"]]
    # 把 Colab 预装的 torch、numpy、ipywidgets 固定在现有版本，安装时不升级也不降级
    keep = []
    for name in ("torch", "numpy", "ipywidgets", "matplotlib"):
        try:
            keep.append(f"{{name}}=={{metadata.version(name)}}")
        except metadata.PackageNotFoundError:
            pass
    with open("/tmp/dsx_keep.txt", "w") as f:
        f.write("\\n".join(keep) + "\\n")
    for source in sources:
        done = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "-c", "/tmp/dsx_keep.txt", source],
                              capture_output=True, text=True)
        if done.returncode == 0:
            break
    else:
        print(done.stdout[-2000:], done.stderr[-2000:])
        raise RuntimeError(f"安装 dsx_util 失败（试过：{{'；'.join(sources)}}）。请检查网络后重新运行本单元格。")
    print(f"Colab 环境已就绪：已安装 dsx_util（来源：{{source}}），未改动预装的 {{', '.join(keep)}}。")'''


# remove-cell：网页上不显示这个单元格（它只在 Colab 中起作用），笔记本里照常可见、照常运行
SETUP_TAGS = ["setup", "remove-cell"]


EXERCISES_INTRO = """## 练习

每道练习有四步：在模板单元格里写代码；运行紧跟其后的检查单元格，它会指出具体错在哪里，而不只是说「不对」；\
卡住时展开「提示」；参考答案默认折叠，想看时再运行（或在网页上展开）`show_solution(...)` 那一格。"""


def package_version(root=ROOT):
    """dsx_util 的版本号：只写在 dsx_util/__init__.py 的 __version__ 一处（pyproject.toml 从那里读）。"""
    text = (Path(root) / "dsx_util" / "__init__.py").read_text(encoding="utf-8")
    return re.search(r'^__version__\s*=\s*"([^"]+)"', text, re.M).group(1)


def index_spec():
    """设置单元格先试的安装来源：软件包索引（PyPI 或国内镜像）上的固定版本。"""
    return f"dsx_util=={package_version()}"


def install_spec():
    """索引里没有这个版本时的后备来源：仓库里同一版本的标签（不是会移动的分支）。"""
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    url = config["repository"]["url"].rstrip("/")
    return f"dsx_util @ git+{url}@v{package_version()}"


def setup_cell_source():
    return SETUP_TEMPLATE.format(pin=index_spec(), git=install_spec())


def chapters():
    sys.path.insert(0, str(ROOT / "tests"))
    from conftest import chapter_paths
    return chapter_paths()


def sync(path, check=False):
    """返回需要修正的问题列表；check=False 时同时写回修正后的文件。"""
    nb = nbformat.read(path, as_version=4)
    problems = []
    setup = setup_cell_source()
    first = nb.cells[0] if nb.cells else None
    if first is None or first.cell_type != "code" or "setup" not in first.metadata.get("tags", []):
        problems.append("第一个单元格不是带 setup 标签的设置单元格")
        nb.cells.insert(0, nbformat.v4.new_code_cell(setup, metadata={"tags": SETUP_TAGS}))
    else:
        if first.source != setup:
            problems.append("设置单元格与标准内容不一致")
            first.source = setup
        if first.metadata.get("tags") != SETUP_TAGS:
            problems.append("设置单元格的标签应为 " + str(SETUP_TAGS))
            first.metadata["tags"] = SETUP_TAGS
    for cell in nb.cells:
        if "exercises" in cell.metadata.get("tags", []) and cell.source != EXERCISES_INTRO:
            problems.append("「## 练习」标记单元格与标准内容不一致")
            cell.source = EXERCISES_INTRO
    from dsx_util.exercises.catalog import fill_exercises
    if fill_exercises(nb, Path(path).stem):
        problems.append("练习单元格与 dsx_util/exercises/items/ 里的练习不一致")
    for cell in nb.cells:
        if cell.cell_type == "code" and (cell.outputs or cell.execution_count):
            problems.append("有未清空的输出")
            cell.outputs, cell.execution_count = [], None
    nb.metadata.setdefault("kernelspec", {"name": "python3", "display_name": "Python 3", "language": "python"})
    nb.metadata.setdefault("colab", {"provenance": []})
    if problems and not check:
        nbformat.write(nb, path)
    return sorted(set(problems))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    bad = 0
    for path in chapters():
        problems = sync(path, check=args.check)
        if problems:
            bad += 1
            print(f"{path.relative_to(ROOT)}: {'；'.join(problems)}")
    if args.check and bad:
        sys.exit(1)


if __name__ == "__main__":
    main()
