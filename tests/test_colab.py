"""仿 Colab 环境：ipywidgets 7.7.1、预装 torch、没有 dsx_util、没有中文字体、有一个 google.colab 替身模块。

每章从头到尾运行一遍；第一个单元格从本仓库（DSX_UTIL_SOURCE）安装 dsx_util，且不得改动预装包的版本。
环境由 make test 创建（.venv-colab，见 requirements-colab.txt）。

运行的是读者版笔记本（_build/reader/book/，构建时生成，Colab 按钮打开的就是它），而不是源笔记本：
读者版的代码单元格与源笔记本逐字相同（tests/test_reader_edition.py 断言这一点），只有 Markdown 不同，
所以运行读者版同时证明了源笔记本能运行，不必把每章跑两遍。
"""
import json
import os
import subprocess
import sys

import nbformat
import pytest

from conftest import ROOT, chapter_paths

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


@pytest.fixture(scope="module")
def colab_env(tmp_path_factory):
    if not COLAB_PY.exists():
        pytest.fail("缺少仿 Colab 环境 .venv-colab：请运行 make test（它会创建这个环境）。")
    # 每次都从「Colab 刚启动」的状态开始：没有 dsx_util，也没有中文字体包
    subprocess.run([str(COLAB_PY), "-m", "pip", "uninstall", "-y", "-q", "dsx_util", "noto-cjk-sans-otc"],
                   capture_output=True, cwd="/tmp")
    before = colab_versions()
    assert before["ipywidgets"].startswith("7.7"), before
    assert before["dsx_util"] is None and before["noto-cjk-sans-otc"] is None
    env = {"PYTHONPATH": str(STUB), "DSX_UTIL_SOURCE": str(ROOT),
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
    done = subprocess.run([str(COLAB_PY), str(ROOT / "tools" / "run_notebook.py"), str(reader), "--out", str(out),
                           "--timeout", "300"], capture_output=True, text=True, env={**os.environ, **env},
                          cwd=outdir)
    assert done.returncode == 0, f"{path.stem} 在仿 Colab 环境中运行失败：\n{done.stderr[-3000:]}"
    nb = nbformat.read(out, as_version=4)
    setup_text = "".join(o.get("text", "") for o in nb.cells[0].outputs if o.output_type == "stream")
    assert "Colab 环境已就绪" in setup_text, f"设置单元格没有报告它做了什么：{setup_text!r}"
    assert setup_text.count("\n") <= 1, "设置单元格应只打印一行"
    for cell in nb.cells:
        for o in cell.get("outputs", []):
            assert o.output_type != "error"
            assert "missing from font" not in o.get("text", ""), f"{path.stem} 的图中有缺字"


def test_setup_cell_does_nothing_outside_colab(tmp_path):
    """不在 Colab 中时，设置单元格不安装、不打印任何东西。"""
    from nbsync import setup_cell_source
    done = subprocess.run([sys.executable, "-c", setup_cell_source()], capture_output=True, text=True,
                          env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"}, cwd=tmp_path)
    assert done.returncode == 0 and done.stdout == "" and done.stderr == ""


def test_setup_cell_pins_a_release_not_a_branch():
    from nbsync import install_spec
    spec = install_spec()
    assert spec.startswith("dsx_util @ git+https://") and "@v" in spec.rsplit("/", 1)[-1]
    assert not spec.endswith(("@main", "@master"))
