"""让每个章节笔记本保持统一：第一个单元格是标准的环境设置单元格，「## 练习」之后的单元格由
dsx_util/exercises/items/ 里的练习文件生成（练习只在那里维护），输出与执行计数全部清空。

python -m dsx_book.nbsync          # 就地修正
python -m dsx_book.nbsync --check  # 只检查，有不一致就退出码 1（测试用）

设置单元格保证 dsx_util 就绪，并且总用中文说明它做了什么：已经装好就直接用；在 Colab 里依次试
软件包索引上的固定版本 dsx_util==<版本号>（发布之后才有）、网页版提供的 wheel、仓库的同版本标签；
不在 Colab 里时，安装本笔记本旁边的 wheel（笔记本压缩包里就有），没有就打印中文的安装步骤。
最后在正在运行的内核里逐个导入 dsx_util 和它的每个依赖（安装信息说装好了不算数：可能只剩 dist-info 或一个空目录，
或是刚装进正在运行的内核），逐个报告；都导入得了才说「就绪」，导入不了时说要重启内核或重装。
版本号来自 dsx_util/__init__.py 的 __version__；网页版与仓库的地址来自 _config.yml
（sphinx.config.dsx_web_url，没写时由 repository.url 推出 GitHub Pages 的地址）。改了它们运行本脚本即可。
"""
import argparse
import re
import sys
from pathlib import Path

import nbformat
import yaml

ROOT = Path(__file__).resolve().parent.parent

# 设置单元格的模板：__VERSION__、__WHEEL__、__PIN__、__WHEEL_URL__、__GIT__ 换成实际的值（写成字面量，dsx_book/release_check.py 核对其中的版本号）。
# Colab 把 # @title 的单元格显示成一行标题（元数据 cellView: form），JupyterLab 按 source_hidden 折叠它。
SETUP_TEMPLATE = '''# @title 环境设置：准备本书的工具包 dsx_util（先运行这一格，它会说明做了什么）
import os, re, subprocess, sys, tempfile
from importlib import import_module, invalidate_caches, metadata

VERSION, WHEEL = "__VERSION__", "__WHEEL__"
WHEEL_URL = os.environ.get("DSX_UTIL_WHEEL_URL") or "__WHEEL_URL__"  # 网页版提供的 wheel（环境变量可换地址）
try:
    import google.colab  # noqa: F401  只有 Colab 里有这个模块
    # 依次尝试：软件包索引（发布之后才有）、网页版提供的 wheel、仓库的版本标签
    SOURCES = [("软件包索引", "__PIN__"), ("网页版的 wheel", WHEEL_URL),
               ("仓库的版本标签", "__GIT__")]
except ImportError:  # 不在 Colab 里：安装本笔记本旁边的 wheel（笔记本压缩包里就有）
    SOURCES = [("本笔记本旁边的 wheel", "./" + WHEEL)] if os.path.exists(WHEEL) else []
if os.environ.get("DSX_UTIL_SOURCE"):  # 测试用：只试这一个来源
    SOURCES = [("DSX_UTIL_SOURCE", os.environ["DSX_UTIL_SOURCE"])]


def version(name):
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def pip_error(stderr):
    """pip 的报错里要引用的一行：最后一个 ERROR 行；没有时是最后一行，跳过升级 pip 的 [notice]（它常排在最后）。"""
    said = [x.strip() for x in (stderr or "").splitlines() if x.strip() and not x.startswith("[notice]")]
    return ([x for x in said if x.startswith("ERROR")] or said or [None])[-1]


def import_error(name):
    """在这个内核里导入发行包 name（如 noto-cjk-sans-otc → noto_cjk_sans_otc）：导入得了返回 None，否则返回原因。"""
    try:
        module = import_module(name.replace("-", "_"))
    except Exception as e:  # 任何错误都说明后面的单元格导入它时也会失败
        return f"{type(e).__name__}: {e}"[:200]
    if getattr(module, "__file__", None) is None:  # 只剩一个空目录：Python 把它当作命名空间包，导入「成功」却什么也没有
        return f"{module.__name__} 只是一个没有代码的空目录（{next(iter(module.__path__), '')}）"
    return None


# 已装好的 torch、numpy、ipywidgets、matplotlib（例如 Colab 预装的）固定在现有版本，安装时不升级也不降级
keep = [f"{n}=={version(n)}" for n in ("torch", "numpy", "ipywidgets", "matplotlib") if version(n)]
KEEP = os.path.join(tempfile.gettempdir(), "dsx_keep.txt")
with open(KEEP, "w") as f:
    f.write("\\n".join(keep) + "\\n")
loaded = {n: version(n) for n in ("dsx_util", "torch", "numpy", "ipywidgets", "matplotlib") if n in sys.modules}
done = "已经安装" if version("dsx_util") == VERSION else None
failed, errors = [], []
if done is None and sys.version_info < (__PYMIN__):   # pip 会拒绝安装（requires a different Python）
    SOURCES = []
    errors.append(f"这个内核的 Python 是 {sys.version.split()[0]}，本书的工具包需要 Python __PYMIN_TEXT__ 或更新版本，"
                  "pip 不会安装它。请装一个更新的 Python，用它建虚拟环境（见网页版首页或本地运行说明），在 Jupyter 里选它的内核。")
# 没有 torch 时只装 dsx_util 本身（--no-deps）：让 pip 从索引解析 torch，Linux 上会装带 CUDA 的版本（几个 GB），
# 缺的依赖在下面逐个说出，torch 走只带 CPU 的路线
no_torch = version("torch") is None
dep_error = None   # 依赖没装上时 pip 的最后一行报错
if SOURCES and not done:
    print(f"正在安装 dsx_util {VERSION}（pip 不显示进度，可能要一两分钟）……", flush=True)
for label, source in [] if done else SOURCES:
    pip = [sys.executable, "-m", "pip", "install", "-q", "-c", KEEP, source]
    runs = [subprocess.run(pip + (["--no-deps"] if no_torch else []), capture_output=True, text=True)]
    if runs[0].returncode and not no_torch:   # 依赖从软件包索引装不上（例如断网）时只装 dsx_util 本身，再说出还缺哪些
        runs.append(subprocess.run(pip + ["--no-deps"], capture_output=True, text=True))
        if not runs[-1].returncode:
            dep_error = pip_error(runs[0].stderr)
    if runs[-1].returncode:
        failed.append(label)
        said = pip_error(runs[-1].stderr)
        errors.append(f"{label}没装上（pip：{said[:200]}）" if said else f"{label}没装上。")
        continue
    invalidate_caches()
    done = f"装自{label} {source}" + (f"（{'、'.join(failed)}没装上）" if failed else "")
    break
if done is None and "google.colab" in sys.modules:
    raise RuntimeError(f"安装 dsx_util 失败（试过：{'；'.join(s[1] for s in SOURCES)}）。请检查网络后重新运行这一格。")
if done is None:
    print("".join(e + "\\n" for e in errors) + f"没有找到本书的工具包 dsx_util {VERSION}，后面的单元格要用它。安装方法"
          f"（Windows、macOS、Linux 相同）：\\n1. 下载 {WHEEL_URL}（网页版首页有链接，笔记本压缩包 dsx-notebooks.zip 里也有）；\\n"
          f"2. 把它放在本笔记本旁边再运行这一格（它会替你安装），或在终端里（激活同一个虚拟环境）运行\\n"
          f"   pip install ./{WHEEL} -i __MIRROR__\\n   然后重新运行这一格。"
          + ("\\n出现 Retrying … NewConnectionError 时是连不上镜像，出现 No matching distribution found 时是连不上镜像或镜像里没有这个包："
             "把 -i 后的地址换成 __SECOND_MIRROR__ 再试，或检查网络与代理。" if errors else ""))
else:
    # 逐个报告依赖，并且在这个内核里真的导入一次：只有安装信息（空目录、残留的 dist-info）或刚装进正在运行的内核、
    # 还导入不了的包，后面的单元格照样会失败，不算就绪。中文字体只影响图里的字，单独说
    invalidate_caches()
    needs = [re.split(r"[ ;<>=!~\\[(]", r)[0] for r in metadata.requires("dsx_util") or [] if "extra ==" not in r]
    have = {n: version(n) for n in needs}
    font = "noto-cjk-sans-otc"
    tried = {n: import_error(n) for n in ["dsx_util"] + [n for n, v in have.items() if v]}
    broken = {n: e for n, e in tried.items() if e}
    missing = [n for n, v in have.items() if v is None and n != font]
    unusable = [n for n in broken if n != font]   # 安装信息说装着，这个内核却导入不了
    deps = "、".join(f"{n}（缺）" if v is None else f"{n} {v}" + ("（导入失败）" if n in broken else "")
                    for n, v in have.items())
    stale = [n for n, v in loaded.items() if version(n) != v]   # 这次会话里已经导入、现在版本变了
    torch_cpu = " -f __TORCH_CPU__" if "torch" in missing + unusable else ""
    if missing or unusable:
        why = (f"\\n依赖没装上，pip 的报错：{dep_error[:200]}" if dep_error else "") + (
            "\\n没有 torch：本格不替你装它（从软件包索引装，Linux 上会得到带 CUDA 的版本，几个 GB），请按下面的命令装只带 CPU 的版本；"
            "装好后在 Linux 上核对 torch.__version__ 以 +cpu 结尾（不是时：阿里云镜像还没有最新的版本，pip 改取了 -i 镜像里"
            "带 CUDA 的版本；怎么办见本地运行说明里「核对：」那一段）。"
            if "torch" in missing else "")
        wrong = "，".join(([f"缺少 {'、'.join(missing)}"] if missing else [])
                         + ([f"这个内核导入不了 {'、'.join(unusable)}（安装信息说装着）"] if unusable else []))
        print(f"还没有就绪：dsx_util {VERSION} {done}，但{wrong}，后面的单元格导入它们时会失败。依赖：{deps}。{why}")
        if unusable:
            again = " ".join("./" + WHEEL if n == "dsx_util" else n for n in unusable)
            print("导入时的报错：" + "；".join(f"import {n.replace('-', '_')}：{broken[n]}" for n in unusable)
                  + "\\n刚装进正在运行的内核的包（这一格刚装的，或你在终端里装的），要重启内核（Kernel → Restart Kernel）才导入得了："
                  "请重启内核，再运行这一格。重启后仍导入不了，说明安装不完整（例如只剩安装信息或一个空目录），"
                  f"请在终端里（激活同一个虚拟环境）重装：pip install --force-reinstall --no-deps {again} -i __MIRROR__{torch_cpu}")
        if missing:   # 字体另起一条命令：它是可选的，装不上时不该连累必需的包（评审 r47；r43：pip 的报错可能正是关于它的）
            print(f"请在终端里（激活同一个虚拟环境）运行：pip install {' '.join(missing)} -i __MIRROR__{torch_cpu}")
            if have.get(font) is None:
                print(f"图里中文用的字体 {font} 也没装上（可选：只影响图里的中文）：装好上面的包之后再运行 "
                      f"pip install {font} -i __MIRROR__，装不上可以跳过。")
        print("出现 Retrying … NewConnectionError 时是连不上镜像，出现 No matching distribution found 时是连不上镜像或镜像里没有这个包："
              "把 -i 后的地址换成 __SECOND_MIRROR__ 再试，或检查网络与代理。"
              "\\n装好后重新运行这一格（一般不必重启内核：它会在这个内核里逐个导入检查，导入不了时会告诉你）。")
    else:
        no_font = not have.get(font) or font in broken   # 字体是可选的：不列在「都能导入」的依赖里，单独说
        if no_font:
            deps = "、".join(f"{n} {v}" for n, v in have.items() if n != font)
        print(f"环境已就绪：dsx_util {VERSION} {done}；依赖都能导入：{deps}"
              + (f"；图用的中文字体 {font} {'导入不了' if font in broken else '没装上'}（可选：只影响图里的中文，"
                 "其余照常运行），图里的中文会显示成方框"
                 f"（联网后运行 pip install {'--force-reinstall ' if font in broken else ''}{font} -i __MIRROR__）"
                 if no_font else "")
              + (f"；未改动已装的 {' '.join(keep)}。" if keep and done != "已经安装" else "。"))
    if stale:
        print(f"请重启内核（Kernel → Restart Kernel），再从头运行：这次会话里已经导入的 {'、'.join(stale)} 换了版本。")'''


# setup：nbsync 认得它；remove-cell：网页和 PDF 上不显示这个单元格（笔记本里照常运行）
SETUP_TAGS = ["setup", "remove-cell"]
# Colab 的表单视图只显示 # @title 那一行；JupyterLab 折叠代码，点一下才展开
SETUP_METADATA = {"cellView": "form", "jupyter": {"source_hidden": True}}


EXERCISES_INTRO = """## 练习

每道练习有四步：在模板单元格里写代码；运行紧跟其后的检查单元格，它会指出具体错在哪里，而不只是说「不对」；\
卡住时展开「提示」；参考答案默认折叠，想看时再运行（或在网页上展开）`show_solution(...)` 那一格。"""


def package_version(root=ROOT):
    """dsx_util 的版本号：只写在 dsx_util/__init__.py 的 __version__ 一处（pyproject.toml 从那里读）。"""
    text = (Path(root) / "dsx_util" / "__init__.py").read_text(encoding="utf-8")
    return re.search(r'^__version__\s*=\s*"([^"]+)"', text, re.M).group(1)


def _config():
    return yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))


def index_spec():
    """设置单元格先试的安装来源：软件包索引（PyPI 或国内镜像）上的固定版本（发布之后才有）。"""
    return f"dsx_util=={package_version()}"


def wheel_name(version=None):
    """make dist 构建、网页版和笔记本压缩包提供的 wheel 的文件名。"""
    return f"dsx_util-{version or package_version()}-py3-none-any.whl"


def web_url(config=None):
    """网页版的根地址（以 / 结尾）：_config.yml 里 sphinx.config.dsx_web_url，没写时是 repository.url 的 GitHub Pages
    地址（与 dsx_book/reader_edition.py 的 web_url 相同）。"""
    config = config or _config()
    explicit = ((config.get("sphinx") or {}).get("config") or {}).get("dsx_web_url")
    if explicit:
        return explicit.rstrip("/") + "/"
    owner, repo = re.match(r"https?://github\.com/([^/]+)/([^/#?]+?)(?:\.git)?/?$", config["repository"]["url"]).groups()
    return f"https://{owner.lower()}.github.io/{repo}/"


def wheel_url():
    """网页版提供的 wheel 的地址：构建时复制到网站的 dist/ 下（dsx_book/reader_edition.py）。"""
    return f"{web_url()}dist/{wheel_name()}"


def install_spec():
    """最后的后备来源：仓库里同一版本的标签（不是会移动的分支；需要能访问 GitHub）。"""
    url = _config()["repository"]["url"].rstrip("/")
    return f"dsx_util @ git+{url}@v{package_version()}"


def setup_cell_source():
    from . import install
    low = install.min_python()
    values = {"__VERSION__": package_version(), "__WHEEL__": wheel_name(), "__PIN__": index_spec(),
              "__WHEEL_URL__": wheel_url(), "__GIT__": install_spec(), "__PYMIN_TEXT__": low,
              "__PYMIN__": low.replace(".", ", "), "__MIRROR__": install.PYPI_MIRROR,
              "__TORCH_CPU__": install.TORCH_CPU_MIRROR, "__SECOND_MIRROR__": install.PYPI_MIRROR_2}
    source = SETUP_TEMPLATE
    for key, value in values.items():
        source = source.replace(key, value)
    return source


def chapters():
    from .common import chapter_paths
    return chapter_paths()


MANUAL = "需要手动修正："   # make sync 改不了的问题以它开头；有这样的问题时 make sync 以退出码 1 结束


def sync(path, check=False):
    """返回需要修正的问题列表；check=False 时同时写回修正后的文件（以 MANUAL 开头的问题除外）。"""
    nb = nbformat.read(path, as_version=4)
    problems = []
    setup = setup_cell_source()
    first = nb.cells[0] if nb.cells else None
    if first is None or first.cell_type != "code" or "setup" not in first.metadata.get("tags", []):
        problems.append("第一个单元格不是带 setup 标签的设置单元格")
        nb.cells.insert(0, nbformat.v4.new_code_cell(setup, metadata={"tags": SETUP_TAGS, **SETUP_METADATA}))
    else:
        if first.source != setup:
            problems.append("设置单元格与标准内容不一致")
            first.source = setup
        if first.metadata.get("tags") != SETUP_TAGS:
            problems.append("设置单元格的标签应为 " + str(SETUP_TAGS))
            first.metadata["tags"] = SETUP_TAGS
        for key, value in SETUP_METADATA.items():
            if first.metadata.get(key) != value:
                problems.append(f"设置单元格的元数据 {key} 应为 {value}（Colab 与 JupyterLab 里折叠代码）")
                first.metadata[key] = value
    for cell in nb.cells:
        if "exercises" in cell.metadata.get("tags", []) and cell.source != EXERCISES_INTRO:
            problems.append("「## 练习」标记单元格与标准内容不一致")
            cell.source = EXERCISES_INTRO
    from dsx_util.exercises.catalog import exercises_for, fill_exercises
    marked = any("exercises" in cell.metadata.get("tags", []) for cell in nb.cells)
    has_exercises = bool(exercises_for(Path(path).stem))
    if marked and has_exercises and fill_exercises(nb, Path(path).stem):
        problems.append("练习单元格与 dsx_util/exercises/items/ 里的练习不一致")
    elif marked and not has_exercises:
        problems.append(MANUAL + "有「## 练习」标记单元格，但 dsx_util/exercises/items/ 里没有这一章的练习："
                        "删掉标记单元格（没有练习的一章不要它），或先加练习（CONTRIBUTING.md「加一道练习」）")
    elif has_exercises and not marked:
        problems.append(MANUAL + "dsx_util/exercises/items/ 里有这一章的练习，笔记本里却没有「## 练习」标记单元格："
                        "在「## 小结」之后加上它（python -m dsx_book.new_chapter … --exercises 生成的章节有它）")
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
    bad = manual = 0
    for path in chapters():
        problems = sync(path, check=args.check)
        if problems:
            bad += 1
            manual += any(p.startswith(MANUAL) for p in problems)
            print(f"{path.relative_to(ROOT)}: {'；'.join(problems)}")
    if (args.check and bad) or manual:
        sys.exit(1)


if __name__ == "__main__":
    main()
