"""安装说明的唯一来源：支持的 Python 版本、读者复制的命令块、只有 CPU 时 PyTorch 从哪里装。

- 支持的 Python 来自 pyproject.toml 的 requires-python（下限）与 classifiers 里列出的各个小版本（测试过的），
  tests/test_python_versions.py 在每个列出的版本上安装 wheel、运行它的纯 Python 检查；
- 命令块（首页、第 0 章、README、「本地运行说明」）由 install_block() 给出，国内镜像写在块里（-i），
  复制整块就能在中国大陆运行；tests/test_install_route.py 核对每处的命令块与这里一字不差；
- 只有 CPU 的机器：PyPI（和它的镜像）在 Linux 上给的是带 CUDA 的 torch（几个 GB）。阿里云镜像
  （mirrors.aliyun.com/pytorch-wheels/cpu/）同步了 download.pytorch.org 的 CPU 版 wheel，用 pip 的 -f 指向它，
  不需要访问 download.pytorch.org。Windows 与 macOS 上 PyPI 的 torch 本来就只带 CPU。
"""
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYPI_MIRROR = "https://pypi.tuna.tsinghua.edu.cn/simple"             # 清华大学的 PyPI 镜像
PYPI_MIRROR_2 = "https://mirrors.aliyun.com/pypi/simple/"            # 第一个镜像连不上时的第二个（阿里云）
TORCH_CPU_MIRROR = "https://mirrors.aliyun.com/pytorch-wheels/cpu/"   # 阿里云镜像的 PyTorch CPU 版 wheel（-f 用的文件列表）
# 命令块每行最多几格（汉字两格）：代码字号 13px 时，第 0 章列表里的代码框在 1280 px 宽时放得下这么多
# （_static/dsx.css；浏览器层的 test_nothing_wider_than_the_column 实际量）
MAX_LINE = 79
WEB_ARCHIVE = "dsx-book-web.zip"   # 网页版的压缩包（dsx_book/web_archive.py 打包，放在网站根目录）


def _project(root=ROOT):
    return tomllib.loads((Path(root) / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def requires_python(root=ROOT):
    """pyproject.toml 的 requires-python，例如 ">=3.10"。"""
    return _project(root)["requires-python"]


def min_python(root=ROOT):
    """支持的最低 Python 小版本，例如 "3.10"（取自 requires-python 的 >= 下限）。"""
    match = re.search(r">=\s*(\d+\.\d+)", requires_python(root))
    if not match:
        raise ValueError(f"pyproject.toml 的 requires-python 应写成 '>=3.X'，实际是 {requires_python(root)!r}")
    return match.group(1)


def tested_pythons(root=ROOT):
    """classifiers 里列出的各个 Python 小版本（测试过的），从低到高，例如 ["3.10", "3.11", "3.12", "3.13"]。"""
    found = [c.rsplit("::", 1)[1].strip() for c in _project(root).get("classifiers", [])
             if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)]
    return sorted(found, key=lambda v: tuple(map(int, v.split("."))))


def python_sentence(root=ROOT):
    """给读者的一句话：需要哪个 Python。"""
    versions = tested_pythons(root)
    return f"需要 Python {min_python(root)} 或更新版本（测试过 {'、'.join(versions)}）"


def install_block(wheel):
    """读者复制的命令块（不含 ``` 围栏）：建虚拟环境、设国内镜像、装 CPU 版 PyTorch 和 dsx_util、打开 JupyterLab。
    国内镜像就写在命令里，整块复制即可运行；在能直接访问 PyPI 的地方，它同样能用。镜像设为 pip 的默认索引，
    但只在这个虚拟环境里：激活之后 pip config --site 写的是 <虚拟环境>/pip.conf（Windows 上是 pip.ini），
    不像清华镜像帮助页的 pip config set 那样写进用户的 pip 设置、让这台电脑上以后的每个 pip 都用它（注释里写着怎样撤销）。
    每行不超过 MAX_LINE 格（命令块在首页和第 0 章的列表里，1280 px 宽时不用横向滚动）；
    Windows 的命令提示符不认行尾的 \\ 续行，所以不用续行。"""
    return "\n".join([
        "python -m venv .venv",
        "source .venv/bin/activate",
        "# Windows 上激活用：.venv\\Scripts\\activate",
        "# 国内镜像（清华），只写进这个虚拟环境的 pip 设置（删掉 .venv 就没了）",
        "# 撤销：pip config --site unset global.index-url",
        f"pip config --site set global.index-url {PYPI_MIRROR}",
        "# 只带 CPU 的 PyTorch，取自阿里云镜像",
        f"pip install torch -f {TORCH_CPU_MIRROR}",
        f"pip install ./{wheel} jupyterlab",
        "jupyter lab",
    ])


def mirror_note():
    """命令块下面的一段话：镜像只设在这个虚拟环境里（写在哪个文件、为什么要先激活）。"""
    return ("镜像只对这个虚拟环境有效：`pip config --site` 把它写进 `.venv` 里的 pip 设置（macOS、Linux 上是 `.venv/pip.conf`，"
            "Windows 上是 `.venv\\pip.ini`），这台电脑上别的 Python 照旧。所以这一行要在激活之后运行（提示符前面已有 `(.venv)`），"
            "没激活时它会写进系统的 Python。")


def torch_note():
    """命令块下面的两段话：第一条 pip 做什么；怎样核对，镜像缺新版本时怎么办（读者在中国大陆也能照做）。"""
    return ("`pip install torch` 那一行从阿里云镜像安装只带 CPU 的 PyTorch：Linux 上 PyPI 镜像默认给带 CUDA 的版本（几个 GB）；"
            "Windows、macOS 上 PyPI 的 PyTorch 本来就只带 CPU，这一行照样可用。",
            "核对：`python -c \"import torch; print(torch.__version__)\"` 在 Linux 上应以 `+cpu` 结尾。"
            "不是时（阿里云镜像还没有最新版本，pip 改从 PyPI 镜像取了 CUDA 版），在上面 `-f` 后的列表里找一个有你的 Python 版本的 "
            "torch，把那一行的 `torch` 写成 `\"torch==<版本>+cpu\"`（本书需要 torch 2.4 或更新）。")


def trouble_note():
    """命令块下面「装不上时」的六段话：镜像连不上怎么办（第二个镜像），环境变量 PIP_INDEX_URL 盖过 pip config 时怎么办（看 pip 的第一行），报错里的字体包是什么，完全没有网络时怎么办，Windows 怎样运行（块里的 source 与 # 行是给
    macOS、Linux 终端的），Debian、Ubuntu 上没有 python 或 venv 时怎么办。"""
    return ("**装不上时**：`Retrying … NewConnectionError` 是连不上镜像；"
            "`No matching distribution found … (from versions: none)` 是连不上或镜像里没有这个包。"
            f"换第二个镜像 `pip config --site set global.index-url {PYPI_MIRROR_2}`，"
            "再运行失败的那一行；仍不行就检查网络和代理。某一行失败时先解决它再往下运行（否则最后会是 "
            "`jupyter: command not found`）。",
            "**pip 输出的第一行 `Looking in indexes: …` 不是你设的镜像时**：多半是环境变量 `PIP_INDEX_URL` 盖过了 "
            "`pip config` 设的镜像（`pip config list` 里有一行 `:env:.index-url=…`），换镜像也没用。先运行 `unset PIP_INDEX_URL`"
            "（Windows 命令提示符：`set PIP_INDEX_URL=`，PowerShell：`Remove-Item Env:PIP_INDEX_URL`），再运行失败的那一行。",
            "**报错里的包名是 `noto-cjk-sans-otc` 时**：它是图里中文用的字体，dsx_util 依赖它，pip 要和其他包一起从镜像下载它；"
            "办法同上（换镜像、检查网络）。",
            "**完全没有网络时**：装不上（torch、jupyterlab 等都要从镜像下载），联网后再装。在那之前可以读网页版的压缩包 "
            f"`{WEB_ARCHIVE}`（趁有网络时从本书网站首页「怎样阅读」下的「下载网页版」取得）：解压后用浏览器打开其中的 "
            "`index.html` 就能离线阅读，手机上也一样，只有网页里的练习要在电脑上、在解压出的文件夹里运行 "
            "`python -m http.server` 后打开。",
            "**Windows**：上面的块是给 macOS、Linux 终端的：`source` 在 Windows 上不能用，以 `#` 开头的注释行在命令提示符里会报错。请逐行运行、"
            "跳过 `#` 行，第 2 行换成 `.venv\\Scripts\\activate`（命令提示符）或 `.venv\\Scripts\\Activate.ps1`（PowerShell；"
            "提示禁止运行脚本时，先运行 `Set-ExecutionPolicy -Scope CurrentUser RemoteSigned`）。激活后提示符前面会出现 `(.venv)`。",
            "**Debian、Ubuntu**：没有 `python` 命令时把第 1 行写成 `python3 -m venv .venv`；提示 `ensurepip is not available` 时，"
            "先运行 `sudo apt install python3-venv`。")
