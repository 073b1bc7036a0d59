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
        assert install.mirror_note() in text, f"{place} 缺镜像只对虚拟环境有效的说明（install.mirror_note）"
    assert all(part in text for part in install.trouble_note()), f"{place} 缺「装不上时」的说明（install.trouble_note）"
    assert "-i 镜像地址" not in text and "download.pytorch.org/whl" not in text


def test_trouble_note_says_what_to_do_when_the_block_fails():
    """镜像连不上：说出 pip 的两种报错、第二个镜像（与第一个不同，也在国内）；Windows：逐行运行与两种激活命令；
    Debian、Ubuntu：python3 与 python3-venv。「整块复制」只对 macOS、Linux 说。"""
    note = "".join(install.trouble_note())
    assert "NewConnectionError" in note and "No matching distribution found" in note
    assert "多半是镜像连不上" not in note and "镜像里没有这个包" in note   # r43：镜像连得上、只是缺这个包时也会这样报
    assert f"pip config --site set global.index-url {install.PYPI_MIRROR_2}" in note and install.PYPI_MIRROR_2 != install.PYPI_MIRROR
    assert re.match(r"https://[a-z.]+\.(edu\.cn|aliyun\.com)/", install.PYPI_MIRROR_2)
    assert "逐行运行" in note and ".venv\\Scripts\\activate" in note and "Activate.ps1" in note
    assert "python3 -m venv .venv" in note and "python3-venv" in note
    # r45：离线时 pip 的报错里是字体包的名字，说明要说出它是什么（它确实是 wheel 的依赖，名字取自 pyproject.toml）
    fonts = re.findall(r'"(noto-[a-z-]+)', (ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert fonts and all(f"`{font}`" in note for font in fonts) and "字体" in note
    for place, text in PLACES.items():
        for sentence in re.findall(r"[^。\n]*整块复制[^。\n]*", text()):
            assert "macOS、Linux" in sentence, (place, sentence)


@pytest.mark.parametrize("place", sorted(PLACES))
def test_text_around_the_block_does_not_overclaim(place):
    """评审 r33 M4：命令块要从 PyPI 镜像装 PyTorch，不能说「不需要 PyPI」；块里激活虚拟环境的一行
    只适用于 macOS / Linux，不能说三种系统「都一样」而不提 Windows 的不同。"""
    text = PLACES[place]()
    assert "pip config --site set global.index-url" in install.install_block(WHEEL)   # 块确实用了 PyPI 的镜像
    assert not re.search(r"不需要 PyPI[，,]", text), place
    assert "source .venv/bin/activate" in install.install_block(WHEEL)
    for claim in re.finditer(r"Windows、macOS、Linux\s*(都一样|的做法相同)(.{0,40})", text):
        assert "Windows 上不同" in claim.group(2), (place, claim.group(0))
    assert re.search(r"Windows、macOS、Linux[^：]{0,60}不同", text), place


def test_block_works_without_foreign_sites():
    block = install.install_block(WHEEL)
    commands = [shlex.split(line) for line in block.splitlines() if line.startswith("pip ")]
    # 第一条 pip 命令把国内镜像设为 pip 的默认索引（只在这个虚拟环境里：--site），之后的每条 pip install 都从它下载；
    # 注释里写着怎样撤销，撤销的也是虚拟环境里的那一份
    assert commands[0] == ["pip", "config", "--site", "set", "global.index-url", install.PYPI_MIRROR]
    assert "# 撤销：pip config --site unset global.index-url" in block
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
    # 每行不超过 install.MAX_LINE 格（汉字按两格）：列表里的代码框在 1280 px 宽时不用横向滚动（浏览器层的
    # test_nothing_wider_than_the_column 在首页和第 0 章上实际量）；不用 \\ 续行（Windows 的命令提示符不认）
    assert all(sum(2 if ord(ch) > 0x2E80 else 1 for ch in line) <= install.MAX_LINE for line in block.splitlines())
    assert not any(line.endswith("\\") for line in block.splitlines())


def test_mirror_is_set_for_the_virtual_environment_only():
    """评审 r40：pip config set（不带 --site）写的是用户的 pip 设置，这台电脑上以后的每个 pip 都会用这个镜像。
    读者看到的每一处 pip config 命令（块、注释、「装不上时」的第二个镜像）都带 --site，并且在激活虚拟环境之后；
    块的注释与块下面的说明说出它只对这个虚拟环境有效、写在哪个文件（两种系统），以及要先激活。"""
    block = install.install_block(WHEEL)
    texts = {"install_block": block, "trouble_note": "\n".join(install.trouble_note()), **{p: f() for p, f in PLACES.items()}}
    for name, text in texts.items():
        uses = re.findall(r"pip config (?:--\w+ )?(?:set|unset)", text)
        assert uses, f"{name} 里没有 pip config 命令"
        assert all(u.startswith("pip config --site ") for u in uses), f"{name} 里有写进用户设置的 pip config：{uses}"
    lines = block.splitlines()
    setting = next(i for i, line in enumerate(lines) if line.startswith("pip config"))
    assert lines.index("source .venv/bin/activate") < setting   # 激活之后 --site 才指虚拟环境
    assert "只写进这个虚拟环境" in lines[setting - 2]
    note = install.mirror_note()
    assert "只对这个虚拟环境有效" in note and "`.venv/pip.conf`" in note and "`.venv\\pip.ini`" in note
    assert "激活之后运行" in note


@pytest.mark.slow
def test_block_writes_the_mirror_into_the_venv(tmp_path):
    """照块里的写法在一个新建的虚拟环境里运行 pip config 那一行：镜像写进 <虚拟环境>/pip.conf（pip config list 读得到），
    用户的 pip 设置文件没有出现；再运行注释里的撤销命令，镜像就没了。"""
    import os
    import subprocess
    import venv

    env_dir = tmp_path / ".venv"
    venv.create(env_dir, with_pip=True)
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "VIRTUAL_ENV"))}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), PIP_DISABLE_PIP_VERSION_CHECK="1",
               VIRTUAL_ENV=str(env_dir), PATH=f"{env_dir / 'bin'}{os.pathsep}{env['PATH']}")   # 相当于 source .venv/bin/activate

    def pip(line):
        return subprocess.run(shlex.split(line), env=env, cwd=tmp_path, capture_output=True, text=True, check=True)

    block = install.install_block(WHEEL)
    pip(next(line for line in block.splitlines() if line.startswith("pip config")))
    assert not [p for p in home.rglob("*") if p.is_file()], "pip config 写进了用户的设置"
    assert f"index-url = {install.PYPI_MIRROR}" in (env_dir / "pip.conf").read_text(encoding="utf-8")
    assert f"global.index-url='{install.PYPI_MIRROR}'" in pip("pip config list").stdout   # 虚拟环境里的 pip 用它
    # 评审 r43：环境变量 PIP_INDEX_URL 优先于 pip config；「装不上时」说的认法（pip config list 里的 :env:.index-url）与撤销都成立
    note = next(part for part in install.trouble_note() if "PIP_INDEX_URL" in part)
    assert "`unset PIP_INDEX_URL`" in note and "`:env:.index-url=…`" in note
    assert "`Looking in indexes: …`" in note   # r47：说出怎样从 pip 的输出看出它用的不是你设的镜像（下面的 pip 确实这样打印）
    dead = "http://127.0.0.1:9/simple"
    env["PIP_INDEX_URL"] = dead
    assert f":env:.index-url='{dead}'" in pip("pip config list").stdout
    used = subprocess.run(shlex.split("pip download --no-deps -d dl --retries 0 --timeout 2 dsx-no-such-package"),
                          env=env, cwd=tmp_path, capture_output=True, text=True)
    looked = re.search(r"Looking in indexes: ([^,\s]+)", used.stdout)
    assert looked and looked.group(1) == dead, used.stdout   # pip 真的用环境变量的地址，不用 pip.conf 里的镜像
    del env["PIP_INDEX_URL"]   # unset PIP_INDEX_URL
    assert ":env:.index-url" not in pip("pip config list").stdout
    pip(re.search(r"# 撤销：(.+)", block).group(1))
    assert "index-url" not in (env_dir / "pip.conf").read_text(encoding="utf-8")
    assert install.PYPI_MIRROR not in pip("pip config list").stdout


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
