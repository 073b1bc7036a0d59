"""dsx_util 基础函数的单元测试：show_version、set_seed、print_table、glue、use_cjk_font 与轻量导入。"""
import json
import random
import subprocess
import sys
import warnings

import numpy as np
import pytest
import torch

import dsx_util
from dsx_util.table import Table, format_value


def run_python(code):
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return out.stdout


# ---------------------------------------------------------------- 导入
def test_import_is_light():
    loaded = json.loads(run_python(
        "import sys, json, dsx_util; "
        "print(json.dumps([m for m in ('torch', 'matplotlib', 'ipywidgets', 'IPython', 'prettytable', 'numpy') "
        "if m in sys.modules]))"))
    assert loaded == []


def test_lazy_exports_resolve():
    assert dsx_util.LayerNorm.__name__ == "LayerNorm"
    assert callable(dsx_util.print_table) and callable(dsx_util.set_seed) and callable(dsx_util.show_version)
    assert "print_table" in dir(dsx_util)


def test_unknown_attribute_message_is_chinese():
    with pytest.raises(AttributeError, match="没有属性"):
        dsx_util.not_a_thing  # noqa: B018


# ---------------------------------------------------------------- set_seed
def test_set_seed_makes_all_generators_repeat():
    def draw():
        return random.random(), np.random.rand(), torch.rand(1).item()

    assert dsx_util.set_seed(7) == 7
    first = draw()
    dsx_util.set_seed(7)
    assert draw() == first
    dsx_util.set_seed(8)
    assert draw() != first


@pytest.mark.parametrize("bad", [1.5, "123", None, True, -1, 2**32])
def test_set_seed_rejects_bad_seed(bad):
    with pytest.raises(ValueError, match="种子|整数"):
        dsx_util.set_seed(bad)


# ---------------------------------------------------------------- show_version
def test_show_version_tables_and_no_rng_side_effect(capsys):
    torch.manual_seed(0)
    random.seed(0)
    np.random.seed(0)
    expected = (torch.rand(1).item(), random.random(), np.random.rand())
    torch.manual_seed(0)
    random.seed(0)
    np.random.seed(0)
    dsx_util.show_version()
    after = (torch.rand(1).item(), random.random(), np.random.rand())
    assert after == expected, "show_version 改变了随机数状态"
    out = capsys.readouterr().out
    for text in ("本书", "运行环境", "Python", "PyTorch", "PyTorch Lightning", "matplotlib", "ipywidgets",
                 "prettytable", "jupyter-book", torch.__version__):
        assert text in out
    assert "未安装" in out  # 测试环境没有安装 Lightning：显示「未安装」而不是报错


def test_missing_package_shows_not_installed():
    from dsx_util.info import package_version
    assert package_version("surely-not-installed-dsx") == "未安装"


# ---------------------------------------------------------------- print_table
def test_print_table_terminal_alignment_with_chinese(capsys):
    from wcwidth import wcswidth
    dsx_util.print_table("均值与方差", ["行", "均值", "方差（有偏）"],
                         [["第一行", 0.13243, [0.1, 0.22222]], ["二", torch.tensor(2.0), torch.tensor([[1.0, 2.0]])]])
    lines = capsys.readouterr().out.strip().splitlines()
    widths = {wcswidth(line) for line in lines}
    assert len(widths) == 1, f"各行显示宽度不一致：{lines}"
    text = "\n".join(lines)
    assert "0.1324" in text and "[0.1000, 0.2222]" in text and "[[1.0000, 2.0000]]" in text and "2.0000" in text


def test_print_table_html_in_notebook():
    html = Table("标题", ["名称", "值"], [["<均值>", 0.5]])._repr_mimebundle_()["text/html"]
    assert html.startswith("<table") and "<caption>标题</caption>" in html
    assert "<th>名称</th>" in html and "<td>0.5000</td>" in html and "&lt;均值&gt;" in html


def test_format_value_digits_and_types():
    assert format_value(1 / 3, digits=2) == "0.33"
    assert format_value(np.float32(0.5)) == "0.5000"
    assert format_value(np.array([1.0, 2.5])) == "[1.0000, 2.5000]"
    assert format_value(torch.tensor(3)) == "3"
    assert format_value(7) == "7" and format_value(True) == "True" and format_value(None) == ""


@pytest.mark.parametrize("field_names, rows, match", [
    (["a", "b"], [[1, 2], [3]], "第 2 行"),
    ([], [[1]], "空列表"),
    (["a"], "abc", "rows 应为"),
    (["a"], {"x": 1}, "rows 应为"),
    ("ab", [[1]], "表头"),
    (["a"], [1], "第 1 行"),
])
def test_print_table_bad_input_prints_nothing(capsys, field_names, rows, match):
    with pytest.raises(ValueError, match=match):
        dsx_util.print_table("t", field_names, rows)
    assert capsys.readouterr().out == ""


def test_dsxllm_style_call_show_version_then_data_keyword(capsys):
    """《动手学大语言模型》第 26 章的写法（from dsxllm.util import ... 换成 dsx_util）：show_version()，
    再 print_table(标题, field_names=[...], data=[[名称, 嵌套列表], ...])；还有 show_headers。"""
    from dsx_util import print_table, show_version
    show_version()
    shown = capsys.readouterr().out
    assert "dsx_util 版本" in shown and "PyTorch" in shown and "Python" in shown
    x = torch.randn(2, 5, 100, generator=torch.Generator().manual_seed(0))
    y = dsx_util.LayerNorm(100)(x)
    print_table(
        "层归一化示例",
        field_names=["Information", "Value"],
        data=[
            ["归一化前的数据均值", [[round(v, 4) for v in row] for row in x.mean(dim=-1).tolist()]],
            ["归一化后的数据方差", [[round(v, 4) for v in row] for row in y.var(dim=-1, unbiased=False).tolist()]],
        ],
    )
    text = capsys.readouterr().out
    lines = text.strip().splitlines()
    assert "层归一化示例" in lines[1] and "Information" in text and "Value" in text
    assert "归一化前的数据均值" in text and "归一化后的数据方差" in text and "[[1.0000, 1.0000" in text
    print_table("无表头", field_names=["a", "b"], data=[["x", 1.5]], show_headers=False)
    headless = capsys.readouterr().out
    assert "1.5000" in headless and "| a" not in headless and "无表头" in headless
    html = Table("t", ["a", "b"], [["x", 1]], show_headers=False).to_html()
    assert "<thead>" not in html and "<td>x</td>" in html


def test_print_table_rows_and_data_are_one_thing():
    with pytest.raises(ValueError, match="只需给出一个"):
        dsx_util.print_table("t", ["a"], [[1]], data=[[1]])
    with pytest.raises(ValueError, match="没有给出表格的行"):
        dsx_util.print_table("t", ["a"])
    with pytest.raises(ValueError, match="show_headers"):
        dsx_util.print_table("t", ["a"], [[1]], show_headers="no")


def test_print_table_bad_digits():
    with pytest.raises(ValueError, match="digits"):
        dsx_util.print_table("t", ["a"], [[1.0]], digits=-1)


# ---------------------------------------------------------------- glue
def test_glue_shows_nothing_and_works_without_myst_nb(monkeypatch):
    assert dsx_util.glue("x", 1.5) is None
    monkeypatch.setitem(sys.modules, "myst_nb", None)  # 模拟 Colab：没有安装 myst-nb
    assert dsx_util.glue("x", 1.5) is None


# ---------------------------------------------------------------- 中文字体
def test_cjk_font_renders_chinese_without_missing_glyphs(tmp_path):
    code = (
        "import warnings, matplotlib; matplotlib.use('Agg'); import matplotlib.pyplot as plt, dsx_util\n"
        "warnings.simplefilter('error')\n"
        "name = dsx_util.use_cjk_font()\n"
        "fig, ax = plt.subplots(); ax.set_title('层归一化：均值 μ 与方差 σ²'); ax.set_xlabel('词元');"
        f" fig.savefig(r'{tmp_path}/f.png')\n"
        "print(name)\n")
    assert "CJK" in run_python(code)


def test_without_font_chinese_is_tofu_warning(tmp_path):
    """对照组：不调用 use_cjk_font 时 matplotlib 确实会警告缺字，说明上面的测试能发现问题。"""
    code = (
        "import warnings, matplotlib; matplotlib.use('Agg'); import matplotlib.pyplot as plt\n"
        "matplotlib.rcParams['font.sans-serif'] = ['DejaVu Sans']\n"
        "with warnings.catch_warnings(record=True) as w:\n"
        "    warnings.simplefilter('always')\n"
        f"    fig, ax = plt.subplots(); ax.set_title('层归一化'); fig.savefig(r'{tmp_path}/f.png')\n"
        "print(any('missing from font' in str(x.message) for x in w))\n")
    assert run_python(code).strip() == "True"


def test_font_registered_after_cache_was_built(tmp_path):
    """matplotlib 的字体缓存建立之后才「安装」的字体：use_cjk_font 按路径注册，仍然可用。"""
    code = (
        "import matplotlib; matplotlib.use('Agg'); from matplotlib import font_manager\n"
        "font_manager.fontManager  # 先建立缓存（此时缓存里没有本包的字体）\n"
        "import dsx_util\n"
        "name = dsx_util.use_cjk_font()\n"
        "print(font_manager.findfont(name, fallback_to_default=False))\n")
    env_code = f"import os; os.environ['MPLCONFIGDIR'] = r'{tmp_path}'\n" + code
    assert "NotoSansCJK" in run_python(env_code)


def test_missing_font_package_gives_chinese_warning(monkeypatch):
    import dsx_util.plotting as plotting
    monkeypatch.setattr(plotting, "_active_font", None)
    monkeypatch.setattr(plotting, "cjk_font_path", lambda: None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert plotting.use_cjk_font() is None
    assert any("没有找到中文字体" in str(w.message) for w in caught)


def test_after_the_chinese_warning_missing_glyphs_stay_quiet(tmp_path):
    """没有中文字体时：一条中文警告说明原因和办法，之后画带中文的图不再逐字警告「Glyph … missing from font」
    （学习者评审 r41：第 4 章一张图几十行）。对照：同一段画图代码不经 use_cjk_font 时确实逐字警告（上面的测试）。"""
    code = (
        "import warnings, matplotlib; matplotlib.use('Agg'); import matplotlib.pyplot as plt\n"
        "import dsx_util.plotting as plotting\n"
        "plotting.cjk_font_path = lambda: None\n"
        "with warnings.catch_warnings(record=True) as w:\n"
        "    warnings.simplefilter('always')\n"
        "    plotting.use_cjk_font()\n"
        "    matplotlib.rcParams['font.sans-serif'] = ['DejaVu Sans']\n"
        f"    fig, ax = plt.subplots(); ax.set_title('层归一化'); ax.set_xlabel('$均值$'); fig.savefig(r'{tmp_path}/f.png')\n"
        "texts = [str(x.message) for x in w]\n"
        "print(sum('没有找到中文字体' in t for t in texts), sum('glyph' in t.lower() for t in texts))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    # 普通文字缺字是警告（上面数），公式里缺字是 matplotlib 的日志（写在 stderr）
    assert done.stdout.split() == ["1", "0"] and "glyph" not in done.stderr.lower(), (done.stdout, done.stderr[-500:])
