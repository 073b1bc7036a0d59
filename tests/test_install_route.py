"""读者复制的安装命令只有一个来源（dsx_book/install.py），在中国大陆整块复制就能运行：

- 首页、第 0 章、README 里的命令块与 install.install_block() 一字不差（「本地运行说明」由它生成）；
- 块里每条下载东西的 pip 命令都带着国内镜像（-i），PyTorch 取阿里云镜像的 CPU 版（-f），不经过 download.pytorch.org；
- 给读者看的每一处「需要 Python …」都取自 requires-python（install.python_sentence()），没有别的版本号。
"""
import json
import re
import shlex

import pytest

from conftest import ROOT
from dsx_book import install, nbsync

WHEEL = nbsync.wheel_name()


def ch00_markdown():
    nb = json.loads((ROOT / "book" / "ch00_environment.ipynb").read_text(encoding="utf-8"))
    text = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    return re.sub(r"^  ", "", text, flags=re.M)   # 列表项里的代码块缩进两格


PLACES = {
    "book/index.md": lambda: (ROOT / "book" / "index.md").read_text(encoding="utf-8"),
    "ch00": ch00_markdown,
    # README 里给读者的一节（后面给维护者的 make 命令另有 TORCH_INDEX 的说明）
    "README.md": lambda: (ROOT / "README.md").read_text(encoding="utf-8").split("## 两个命令")[0],
}


@pytest.mark.parametrize("place", sorted(PLACES))
def test_each_place_shows_the_one_install_block(place):
    text = PLACES[place]()
    assert f"```bash\n{install.install_block(WHEEL)}\n```" in text, f"{place} 的命令块与 dsx_book/install.py 不同"
    assert install.python_sentence() in text
    if place != "README.md":
        assert all(part in text for part in install.torch_note())
    assert all(part in text for part in install.trouble_note()), f"{place} 缺「装不上时」的说明（install.trouble_note）"
    assert "-i 镜像地址" not in text and "download.pytorch.org/whl" not in text


def test_trouble_note_says_what_to_do_when_the_block_fails():
    """镜像连不上：说出 pip 的两种报错、第二个镜像（与第一个不同，也在国内）；Windows：逐行运行与两种激活命令；
    Debian、Ubuntu：python3 与 python3-venv。「整块复制」只对 macOS、Linux 说。"""
    note = "".join(install.trouble_note())
    assert "NewConnectionError" in note and "No matching distribution found" in note
    assert f"pip config set global.index-url {install.PYPI_MIRROR_2}" in note and install.PYPI_MIRROR_2 != install.PYPI_MIRROR
    assert re.match(r"https://[a-z.]+\.(edu\.cn|aliyun\.com)/", install.PYPI_MIRROR_2)
    assert "逐行运行" in note and ".venv\\Scripts\\activate" in note and "Activate.ps1" in note
    assert "python3 -m venv .venv" in note and "python3-venv" in note
    for place, text in PLACES.items():
        for sentence in re.findall(r"[^。\n]*整块复制[^。\n]*", text()):
            assert "macOS、Linux" in sentence, (place, sentence)


@pytest.mark.parametrize("place", sorted(PLACES))
def test_text_around_the_block_does_not_overclaim(place):
    """评审 r33 M4：命令块要从 PyPI 镜像装 PyTorch，不能说「不需要 PyPI」；块里激活虚拟环境的一行
    只适用于 macOS / Linux，不能说三种系统「都一样」而不提 Windows 的不同。"""
    text = PLACES[place]()
    assert "pip config set global.index-url" in install.install_block(WHEEL)   # 块确实用了 PyPI 的镜像
    assert not re.search(r"不需要 PyPI[，,]", text), place
    assert "source .venv/bin/activate" in install.install_block(WHEEL)
    for claim in re.finditer(r"Windows、macOS、Linux\s*(都一样|的做法相同)(.{0,40})", text):
        assert "Windows 上不同" in claim.group(2), (place, claim.group(0))
    assert re.search(r"Windows、macOS、Linux[^：]{0,60}不同", text), place


def test_block_works_without_foreign_sites():
    block = install.install_block(WHEEL)
    commands = [shlex.split(line) for line in block.splitlines() if line.startswith("pip ")]
    # 第一条 pip 命令把国内镜像设为 pip 的默认索引，之后的每条 pip install 都从它下载；注释里写着怎样撤销
    assert commands[0] == ["pip", "config", "set", "global.index-url", install.PYPI_MIRROR]
    assert "pip config unset global.index-url" in block
    installs = commands[1:]
    assert len(installs) == 2 and all(c[:2] == ["pip", "install"] for c in installs)
    torch, book = installs
    assert torch[2] == "torch" and torch[torch.index("-f") + 1] == install.TORCH_CPU_MIRROR
    assert f"./{WHEEL}" in book and "jupyterlab" in book
    assert block.index("pip install torch") < block.index(f"pip install ./{WHEEL}")   # 先装 CPU 版：之后 pip 不再换成 CUDA 版
    for url in (install.PYPI_MIRROR, install.TORCH_CPU_MIRROR):
        assert re.match(r"https://[a-z.]+\.(edu\.cn|aliyun\.com)/", url)
    note = "".join(install.torch_note())
    assert "download.pytorch.org" not in block + note
    assert "+cpu" in note and "torch==<版本>+cpu" in note   # 说出怎样核对装上的是 CPU 版，以及镜像缺新版本时怎么办
    # 每行不超过 72 格（汉字按两格）：列表里的代码框在 1280 px 宽时不用横向滚动；不用 \\ 续行（Windows 的命令提示符不认）
    assert all(sum(2 if ord(ch) > 0x2E80 else 1 for ch in line) <= 72 for line in block.splitlines())
    assert not any(line.endswith("\\") for line in block.splitlines())


def test_python_version_comes_from_requires_python(tmp_path):
    """改 requires-python 与 classifiers，说法随之改变；读者看到的文字里没有别的「Python 3.x 或更新」。"""
    low = install.min_python()
    assert install.python_sentence().startswith(f"需要 Python {low} 或更新版本")
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(
        text.replace(f'">={low}"', '">=3.12"').replace('"Programming Language :: Python :: 3.10",\n', "")
        .replace('"Programming Language :: Python :: 3.11",\n', ""), encoding="utf-8")
    assert install.min_python(tmp_path) == "3.12"
    assert install.python_sentence(tmp_path).startswith("需要 Python 3.12 或更新版本（测试过 3.12、3.13）")
    reader_facing = [ROOT / "README.md", ROOT / "book" / "index.md", ROOT / "dsx_book" / "reader_edition.py",
                     ROOT / "dsx_book" / "nbsync.py", *sorted((ROOT / "book").glob("ch*.ipynb"))]
    for path in reader_facing:
        for version in re.findall(r"Python (3\.\d+) 或更新", path.read_text(encoding="utf-8")):
            assert version == low, f"{path.name} 写着 Python {version} 或更新，requires-python 说 {low}"
