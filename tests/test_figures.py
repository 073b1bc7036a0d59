"""书中的图：中文用简体中文字形（Noto Sans CJK SC，不是排在字体集合第一位的日文字形 JP），
在本地环境和仿 Colab 环境里都一样；全书统一的字号与尺寸；章节代码不把字号调到 10 磅以下、不把图画得比正文栏宽。
"""
import json
import os
import re
import subprocess
import sys

import nbformat
import pytest

from conftest import ROOT, chapter_paths

COLAB_PY = ROOT / ".venv-colab" / "bin" / "python"

# 画一个带中文的图，报告 matplotlib 实际用来画这段文字的字体（字体族名）与全局设置
PROBE = """
import json, matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib import font_manager
import dsx_util
name = dsx_util.use_cjk_font()
fig, ax = plt.subplots()
text = ax.set_title("偏差与方差的值")
fig.savefig(r"{out}")
used = font_manager.get_font(font_manager.findfont(text.get_fontproperties()))
rc = matplotlib.rcParams
print(json.dumps({{"name": name, "family": used.family_name, "figsize": list(rc["figure.figsize"]),
                  "sizes": [rc[k] for k in ("font.size", "xtick.labelsize", "ytick.labelsize", "legend.fontsize")]}}))
"""


def probe(python, tmp_path, env=None, cwd=None):
    done = subprocess.run([str(python), "-c", PROBE.format(out=tmp_path / "f.png")], capture_output=True, text=True,
                          cwd=cwd or tmp_path, env={**os.environ, "MPLCONFIGDIR": str(tmp_path / "mpl"), **(env or {})})
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_font_is_simplified_chinese_face(tmp_path):
    result = probe(sys.executable, tmp_path)
    assert result["name"] == "Noto Sans CJK SC"
    assert result["family"] == "Noto Sans CJK SC", f"图中的中文用的是 {result['family']}，应当是简体中文字形"


def test_font_is_simplified_chinese_face_in_colab_like_env(tmp_path):
    """仿 Colab 环境（没有系统中文字体）：dsx_util 来自本仓库，字体包装进临时目录。"""
    if not COLAB_PY.exists():
        pytest.fail("缺少仿 Colab 环境 .venv-colab：请运行 make .venv-colab/.installed（make test 会创建它）。")
    pin = next(line.strip() for line in (ROOT / "constraints.txt").read_text().splitlines()
               if line.startswith("noto-cjk-sans-otc=="))
    target = tmp_path / "site"
    subprocess.run([str(COLAB_PY), "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), pin],
                   check=True, capture_output=True)
    # dsx_util 来自本仓库：python -c 在当前目录（仓库根目录）里找模块；字体包在临时目录里（代替 Colab 里的 pip install）
    result = probe(COLAB_PY, tmp_path, env={"PYTHONPATH": str(target)}, cwd=ROOT)
    assert result["family"] == "Noto Sans CJK SC", f"仿 Colab 环境的图中用的是 {result['family']}"


def test_first_face_of_the_collection_is_japanese():
    """对照：字体文件里的第一个字体是日文字形，只按文件注册（旧做法）会用错字形。"""
    from matplotlib import ft2font
    from dsx_util.plotting import cjk_font_path
    assert ft2font.FT2Font(cjk_font_path()).family_name == "Noto Sans CJK JP"


def test_extract_face_for_older_matplotlib(tmp_path):
    """matplotlib 3.11 之前读不了字体集合里的其他字体：把 SC 字体单独存成文件，文件里就是 SC。"""
    from matplotlib import ft2font
    from dsx_util.plotting import cjk_font_path, extract_face
    out = extract_face(cjk_font_path(), "Noto Sans CJK SC", str(tmp_path))
    assert ft2font.FT2Font(out).family_name == "Noto Sans CJK SC"
    assert extract_face(cjk_font_path(), "Noto Sans CJK SC", str(tmp_path)) == out  # 第二次直接复用
    with pytest.raises(ValueError, match="没有 'Noto Sans CJK XX'"):
        extract_face(cjk_font_path(), "Noto Sans CJK XX", str(tmp_path / "x"))


def test_older_matplotlib_uses_the_extracted_sc_face(tmp_path):
    """模拟 matplotlib 3.11 之前的版本（Colab 常见 3.8–3.10）：注册的是单独存出的 SC 字体文件（.otf），里面是 SC 字形。"""
    code = (
        "import matplotlib; matplotlib.use('Agg'); from matplotlib import font_manager\n"
        "import dsx_util.plotting as plotting\n"
        "plotting._reads_font_collections = lambda: False\n"
        "name = plotting.use_cjk_font()\n"
        "otf = [e.fname for e in font_manager.fontManager.ttflist if e.fname.endswith('.otf')]\n"
        "print(name, len(otf), font_manager.get_font(otf[0]).family_name)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                          env={**os.environ, "MPLCONFIGDIR": str(tmp_path / "mpl")})
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["Noto", "Sans", "CJK", "SC", "1", "Noto", "Sans", "CJK", "SC"]


def test_figure_defaults_fit_the_column_with_readable_text(tmp_path):
    result = probe(sys.executable, tmp_path)
    assert result["figsize"][0] <= 7.0
    assert min(result["sizes"]) >= 10


# 章节代码里直接写出的字号与图宽（例如 fontsize=8、figsize=(9, 3)）
FONTSIZE = re.compile(r"\bfontsize\s*=\s*([0-9.]+)")
FIGSIZE = re.compile(r"\bfigsize\s*=\s*\(\s*([0-9.]+)")


@pytest.mark.parametrize("path", chapter_paths(), ids=lambda p: p.stem)
def test_chapter_figures_keep_text_readable_and_fit_the_column(path):
    nb = nbformat.read(path, as_version=4)
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    small = [float(v) for v in FONTSIZE.findall(code) if float(v) < 10]
    wide = [float(v) for v in FIGSIZE.findall(code) if float(v) > 7.0]
    assert not small, f"{path.stem} 的图里有小于 10 磅的字：fontsize={small}"
    assert not wide, f"{path.stem} 的图比正文栏宽（超过 7 英寸）：figsize 宽 {wide}"
