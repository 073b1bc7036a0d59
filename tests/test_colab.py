"""仿 Colab 环境：ipywidgets 7.7.1、预装 torch、没有 dsx_util、没有中文字体、有一个 google.colab 替身模块。

每章从头到尾运行一遍；第一个单元格从本地服务器提供的网页版（_build/html，与发布的网站同样的文件）安装
dsx_util 的 wheel，且不得改动预装包的版本。环境由 make test 创建（.venv-colab，见 requirements-colab.txt）。

运行的是读者版笔记本（_build/reader/book/，构建时生成，Colab 按钮打开的就是它），而不是源笔记本：
读者版的代码单元格与源笔记本逐字相同（tests/test_reader_edition.py 断言这一点），只有 Markdown 不同，
所以运行读者版同时证明了源笔记本能运行，不必把每章跑两遍。

后半部分在断网的条件下（软件包索引和 GitHub 都连不上，只有 127.0.0.1）运行读者版的设置单元格本身：
Colab 里它自己找到网页版的 wheel 装上；不在 Colab 里时，没有 wheel 就打印中文的安装步骤，
笔记本压缩包解压出的文件夹里（wheel 就在笔记本旁边）则把它装上。
"""
import json
import os
import subprocess

import functools
import http.server
import threading
import zipfile

import nbformat
import pytest

from conftest import ROOT, chapter_paths, html_dir
from dsx_book.nbsync import package_version, setup_cell_source, wheel_name, wheel_url

COLAB_PY = ROOT / ".venv-colab" / "bin" / "python"
STUB = ROOT / "tests" / "colab_stub"
KEPT = ("torch", "numpy", "ipywidgets", "matplotlib")
CHAPTERS = chapter_paths()
READER = ROOT / "_build" / "reader" / "book"


def colab_versions():
    code = ("import json; from importlib import metadata as m\n"
            "def v(n):\n    try: return m.version(n)\n    except m.PackageNotFoundError: return None\n"
            f"print(json.dumps({{n: v(n) for n in {KEPT + ('dsx_util', 'noto-cjk-sans-otc')!r}}}))")
    # 在临时目录里运行：仓库根目录下的 dsx_util.egg-info 会被误认为「已安装」
    done = subprocess.run([str(COLAB_PY), "-c", code], capture_output=True, text=True, check=True, cwd="/tmp")
    return json.loads(done.stdout)


VERSION = package_version()
WHEEL = wheel_name()
# 设置单元格装 dsx_util 之前先说的一句（pip -q 不显示进度）
PROGRESS = f"正在安装 dsx_util {VERSION}（pip 不显示进度，可能要一两分钟）……\n"


def fresh_colab():
    """回到「Colab 刚启动」的状态：没有 dsx_util，也没有中文字体包；返回这时各包的版本。"""
    if not COLAB_PY.exists():
        pytest.fail("缺少仿 Colab 环境 .venv-colab：请运行 make test（它会创建这个环境）。")
    subprocess.run([str(COLAB_PY), "-m", "pip", "uninstall", "-y", "-q", "dsx_util", "noto-cjk-sans-otc"],
                   capture_output=True, cwd="/tmp")
    before = colab_versions()
    assert before["ipywidgets"].startswith("7.7"), before
    assert before["dsx_util"] is None and before["noto-cjk-sans-otc"] is None
    return before


class Site:
    """在 127.0.0.1 上提供构建好的网页版（与发布的网站同样的文件），记下每个请求的路径。"""

    def __init__(self, root):
        self.requests = []
        site = self

        class Handler(http.server.SimpleHTTPRequestHandler):
            def log_message(self, fmt, *args):
                site.requests.append((self.command, self.path, args[1] if len(args) > 1 else ""))

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                                      functools.partial(Handler, directory=str(root)))
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"


@pytest.fixture(scope="module")
def site():
    root = html_dir()
    if not (root / "dist" / WHEEL).exists():
        pytest.fail(f"网页版里没有 dist/{WHEEL}：请先运行 make book（它先运行 make dist）。")
    served = Site(root)
    yield served
    served.server.shutdown()


@pytest.fixture(scope="module")
def colab_env(tmp_path_factory, site):
    before = fresh_colab()
    # 设置单元格只用网页版的 wheel（本地服务器提供）；中文字体等依赖照常从软件包索引安装
    env = {"PYTHONPATH": str(STUB), "DSX_UTIL_SOURCE": site.url + f"dist/{WHEEL}",
           "MPLCONFIGDIR": str(tmp_path_factory.mktemp("mpl")), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    yield env, before, tmp_path_factory.mktemp("executed")
    after = colab_versions()
    for name in KEPT:
        assert after[name] == before[name], f"设置单元格改动了 Colab 预装的 {name}：{before[name]} -> {after[name]}"


@pytest.mark.parametrize("path", CHAPTERS, ids=[p.stem for p in CHAPTERS])
def test_chapter_runs_in_colab_like_env(colab_env, path):
    env, before, outdir = colab_env
    out = outdir / path.name
    reader = READER / path.name
    if not reader.exists():
        pytest.fail(f"没有找到读者版笔记本 {reader}：请先运行 make book（构建时生成）。")
    # 每章都像在刚启动的 Colab 里一样没有 dsx_util（中文字体包在第一章装好后留着，省得每章重装）
    subprocess.run([str(COLAB_PY), "-m", "pip", "uninstall", "-y", "-q", "dsx_util"], capture_output=True, cwd="/tmp")
    # -P：不把脚本所在的 dsx_book/ 放上 sys.path（仿 Colab 环境里没有装 dsx_book，脚本只用标准库与 nbclient）
    done = subprocess.run([str(COLAB_PY), "-P", str(ROOT / "dsx_book" / "run_notebook.py"), str(reader), "--out", str(out),
                           "--timeout", "300"], capture_output=True, text=True, env={**os.environ, **env},
                          cwd=outdir)
    assert done.returncode == 0, f"{path.stem} 在仿 Colab 环境中运行失败：\n{done.stderr[-3000:]}"
    nb = nbformat.read(out, as_version=4)
    setup_text = "".join(o.get("text", "") for o in nb.cells[0].outputs if o.output_type == "stream")
    assert setup_text.startswith(PROGRESS), f"设置单元格安装前没有先说一句：{setup_text!r}"
    setup_text = setup_text[len(PROGRESS):]
    assert setup_text.startswith(f"环境已就绪：dsx_util {VERSION} 装自DSX_UTIL_SOURCE {env['DSX_UTIL_SOURCE']}；"), \
        f"设置单元格没有报告它做了什么：{setup_text!r}"
    assert "还缺" not in setup_text and setup_text.count("\n") <= 1, "设置单元格应只打印一行，且依赖都装上了"
    for cell in nb.cells:
        for o in cell.get("outputs", []):
            assert o.output_type != "error"
            assert "missing from font" not in o.get("text", ""), f"{path.stem} 的图中有缺字"


def test_setup_cell_pins_a_release_not_a_branch():
    from dsx_book.nbsync import install_spec
    spec = install_spec()
    assert spec.startswith("dsx_util @ git+https://") and "@v" in spec.rsplit("/", 1)[-1]
    assert not spec.endswith(("@main", "@master"))


# ---------------------------------------------------------------- 断网时的设置单元格（读者版里的那一格本身）
DEAD = "http://127.0.0.1:9"   # 没有服务在听的端口：连接立即被拒绝


def offline_env(tmp_path, **extra):
    """软件包索引和 GitHub 都连不上的环境：pip 不读本机的配置（本机的 find-links 和本地索引也不算），
    索引指向一个没人听的端口，其余网络请求都经过同样连不上的代理，只有 127.0.0.1 能直连。"""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PIP_") and k.lower() not in ("pythonpath", "http_proxy", "https_proxy", "no_proxy")}
    env.update(PIP_CONFIG_FILE=os.devnull, PIP_INDEX_URL=f"{DEAD}/simple/", PIP_RETRIES="0", PIP_TIMEOUT="5",
               PIP_CACHE_DIR=str(tmp_path / "pip-cache"), PIP_DISABLE_PIP_VERSION_CHECK="1",
               HTTP_PROXY=DEAD, HTTPS_PROXY=DEAD, http_proxy=DEAD, https_proxy=DEAD, ALL_PROXY=DEAD,
               NO_PROXY="127.0.0.1", no_proxy="127.0.0.1", GIT_TERMINAL_PROMPT="0",
               MPLCONFIGDIR=str(tmp_path / "mpl"))
    env.update(extra)
    return env


def reader_setup_cell(name="ch04_formulas.ipynb"):
    """读者版笔记本（Colab 与下载得到的）里的设置单元格；它与 nbsync 生成的标准内容相同。"""
    path = READER / name
    if not path.exists():
        pytest.fail(f"没有找到读者版笔记本 {path}：请先运行 make book。")
    source = nbformat.read(path, as_version=4).cells[0].source
    assert source == setup_cell_source()
    return source


def run_cell(source, cwd, env):
    cwd.mkdir(parents=True, exist_ok=True)
    (cwd / "setup_cell.py").write_text(source, encoding="utf-8")
    return subprocess.run([str(COLAB_PY), "setup_cell.py"], capture_output=True, text=True, env=env, cwd=cwd,
                          timeout=300)


def installed_from():
    """.venv-colab 里 dsx_util 的版本、导入位置和 pip 记下的来源（direct_url.json）。"""
    code = ("import json, dsx_util; from importlib import metadata as m\n"
            "d = m.distribution('dsx_util')\n"
            "print(json.dumps([d.version, dsx_util.__file__, json.loads(d.read_text('direct_url.json'))['url']]))")
    done = subprocess.run([str(COLAB_PY), "-c", code], capture_output=True, text=True, cwd="/tmp", check=True)
    return json.loads(done.stdout)


@pytest.fixture
def clean_colab():
    before = fresh_colab()
    yield before
    subprocess.run([str(COLAB_PY), "-m", "pip", "uninstall", "-y", "-q", "dsx_util"], capture_output=True, cwd="/tmp")


def test_offline_colab_cell_installs_the_wheel_the_web_edition_serves(clean_colab, site, tmp_path):
    """仿 Colab、断网：软件包索引上的固定版本装不上，设置单元格自己改从网页版的 wheel 安装，并一行说清楚。"""
    url = site.url + f"dist/{WHEEL}"
    env = offline_env(tmp_path, PYTHONPATH=str(STUB), DSX_UTIL_WHEEL_URL=url)
    done = run_cell(reader_setup_cell(), tmp_path / "content", env)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert done.stdout.startswith(PROGRESS), done.stdout
    out = done.stdout[len(PROGRESS):]
    assert out.startswith(f"环境已就绪：dsx_util {VERSION} 装自网页版的 wheel {url}（软件包索引没装上）"), out
    # 断网时中文字体包装不上：导入不受影响（仍是「就绪」），单元格说出后果，并给出带国内镜像的命令
    assert "图用的中文字体 noto-cjk-sans-otc 没装上" in out and out.count("\n") == 1
    assert "pip install noto-cjk-sans-otc -i https://pypi.tuna.tsinghua.edu.cn/simple" in done.stdout
    version, where, source = installed_from()
    assert version == VERSION and "site-packages" in where and source == url
    assert ("GET", f"/dist/{WHEEL}", "200") in site.requests
    assert (html_dir() / "dist" / WHEEL).read_bytes() == (ROOT / "_build" / "dist" / WHEEL).read_bytes()
    after = colab_versions()
    assert {n: after[n] for n in KEPT} == {n: clean_colab[n] for n in KEPT}, "设置单元格改动了 Colab 预装的包"


def test_offline_colab_cell_without_the_wheel_fails_loudly(clean_colab, site, tmp_path):
    """对照：网页版上没有这个 wheel 时，断网环境里三个来源都装不上（证明上一个测试里的索引和 GitHub 确实连不上），
    单元格报错并列出试过的来源，而不是悄悄继续。"""
    env = offline_env(tmp_path, PYTHONPATH=str(STUB), DSX_UTIL_WHEEL_URL=site.url + f"no-such-dir/{WHEEL}")
    done = run_cell(reader_setup_cell(), tmp_path / "content", env)
    assert done.returncode != 0 and done.stdout == PROGRESS, done.stdout
    assert "RuntimeError: 安装 dsx_util 失败（试过：dsx_util==" in done.stderr, done.stderr[-2000:]
    assert "no-such-dir" in done.stderr and "git+https://github.com/" in done.stderr
    assert colab_versions()["dsx_util"] is None


def test_outside_colab_without_dsx_util_prints_install_steps(clean_colab, tmp_path):
    """不在 Colab 里、没有 dsx_util、笔记本旁边也没有 wheel：打印中文的安装步骤（不是什么也不说）。"""
    done = run_cell(reader_setup_cell(), tmp_path / "notebooks", offline_env(tmp_path))
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    assert out.startswith(f"没有找到本书的工具包 dsx_util {VERSION}，后面的单元格要用它。"), out
    for step in ("Windows、macOS、Linux", wheel_url(), "dsx-notebooks.zip", f"pip install ./{WHEEL}",
                 "放在本笔记本旁边再运行这一格", "-i https://"):
        assert step in out, f"安装步骤里缺少 {step!r}：{out}"
    assert colab_versions()["dsx_util"] is None


def test_outside_colab_installs_the_wheel_beside_the_notebook(clean_colab, tmp_path):
    """把笔记本压缩包解压后在那个文件夹里运行（Jupyter 的工作目录就是笔记本所在的文件夹）：
    设置单元格找到旁边的 wheel 装上；再运行一次，它说已经装好。"""
    with zipfile.ZipFile(html_dir() / "notebooks" / "dsx-notebooks.zip") as archive:
        archive.extractall(tmp_path / "unzipped")
    folder = tmp_path / "unzipped" / "dsx-notebooks"
    source = nbformat.read(folder / "ch04_formulas.ipynb", as_version=4).cells[0].source
    assert source == setup_cell_source()
    done = run_cell(source, folder, offline_env(tmp_path))
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.startswith(PROGRESS + f"环境已就绪：dsx_util {VERSION} 装自本笔记本旁边的 wheel ./{WHEEL}；"), done.stdout
    version, where, url = installed_from()
    assert version == VERSION and "site-packages" in where and url == (folder / WHEEL).as_uri()
    again = run_cell(source, folder, offline_env(tmp_path))
    assert again.stdout.startswith(f"环境已就绪：dsx_util {VERSION} 已经安装；"), again.stdout   # 第二次不再安装
    assert "装自" not in again.stdout, again.stdout


def test_setup_cell_is_folded_in_colab_and_jupyterlab():
    """设置单元格读起来短：Colab 按 # @title 和 cellView: form 只显示一行标题，JupyterLab 按 source_hidden 折叠代码。
    读者版（Colab 打开、下载得到的）保留这些元数据。"""
    for path in CHAPTERS:
        for nb_path in (path, READER / path.name):
            cell = nbformat.read(nb_path, as_version=4).cells[0]
            assert cell.source.startswith("# @title 环境设置"), nb_path
            assert cell.metadata.get("cellView") == "form", nb_path
            assert cell.metadata.get("jupyter", {}).get("source_hidden") is True, nb_path
