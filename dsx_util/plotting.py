"""让 matplotlib 的图清楚好读：中文用简体中文字形（思源黑体 SC），字号、尺寸、清晰度统一。

字体来自 PyPI 包 noto-cjk-sans-otc（dsx_util 的依赖，随本包一起安装），因此在新机器、CI 和
Colab 上都不需要系统字体。这个字体文件是一个字体集合（.ttc），第一个字体是日文字形（JP），
简体中文字形（SC）排在后面：同一个汉字（如「偏」「值」「差」）在两者中写法不同，所以必须按名字选 SC。

- matplotlib 3.11 起能读出集合里的每个字体，直接按名字选用 SC；
- 更早的版本只能读集合里的第一个字体，这时把 SC 字体单独存成一个 .otf 文件（放在 matplotlib 的缓存目录，
  只做一次），再按路径注册。

按路径注册（addfont）意味着即使字体是在 matplotlib 缓存建立之后才安装的，也能立即使用，无需重启内核。
"""
import os
import warnings

SC_FAMILY = "Noto Sans CJK SC"

# 全书统一的图形设置：宽度不超过正文栏（约 7 英寸），字号不小于 10 磅，SVG 矢量图在高分屏上也清晰
FIGURE_DEFAULTS = {
    "figure.figsize": (7.0, 3.5),
    "font.size": 11,
    "axes.titlesize": 12,
    "axes.labelsize": 11,
    "xtick.labelsize": 10,
    "ytick.labelsize": 10,
    "legend.fontsize": 10,
    "figure.titlesize": 12,
    "svg.fonttype": "path",         # SVG 里的文字存成轮廓：读者的机器不需要装中文字体
    "axes.unicode_minus": False,    # 负号用 ASCII 的 "-"，任何字体都有
}

_active_font = None


def cjk_font_path():
    """返回 noto-cjk-sans-otc 包里的字体文件路径；没有安装该包时返回 None。"""
    try:
        import noto_cjk_sans_otc
    except ImportError:
        return None
    path = str(noto_cjk_sans_otc.FONT_PATH)
    return path if os.path.exists(path) else None


def extract_face(collection_path, family, out_dir):
    """把字体集合（.ttc）里名为 family 的字体单独存成 out_dir 下的 .otf 文件，返回其路径（已存在则直接返回）。"""
    from fontTools.ttLib import TTCollection

    out = os.path.join(out_dir, family.replace(" ", "") + ".otf")
    if not os.path.exists(out):
        faces = TTCollection(collection_path, lazy=True).fonts
        names = [face["name"].getDebugName(1) for face in faces]
        if family not in names:
            raise ValueError(f"字体文件 {collection_path} 里没有 {family!r}，只有：{names}")
        os.makedirs(out_dir, exist_ok=True)
        tmp = f"{out}.{os.getpid()}.tmp"
        faces[names.index(family)].save(tmp)
        os.replace(tmp, out)  # 先写临时文件再改名：两个内核同时运行也不会读到写了一半的文件
    return out


def _reads_font_collections():
    """matplotlib 能否读出 .ttc 里的每一个字体（3.11 起字体条目带 index 字段）。"""
    from matplotlib import font_manager
    return "index" in getattr(font_manager.FontEntry, "__dataclass_fields__", {})


def _register_sc_face(path):
    """注册字体集合里的 SC 字体，返回 matplotlib 认得的字体名。"""
    import matplotlib
    from matplotlib import font_manager

    if not _reads_font_collections():
        path = extract_face(path, SC_FAMILY, os.path.join(matplotlib.get_cachedir(), "dsx_util"))
    font_manager.fontManager.addfont(path)
    return SC_FAMILY


def _use_svg_in_notebook():
    """在 Jupyter / Colab 里让内联图输出为 SVG（矢量图，任何屏幕上都清晰）；不在笔记本里时什么也不做。"""
    try:
        from IPython import get_ipython
        from matplotlib_inline.backend_inline import set_matplotlib_formats
    except ImportError:
        return
    if get_ipython() is not None:
        set_matplotlib_formats("svg")


def use_cjk_font():
    """让之后画的 matplotlib 图显示简体中文并使用全书统一的图形设置，返回所用字体的名字；重复调用没有副作用。

    找不到中文字体时不会报错中断，而是给出一条中文警告并返回 None（图照常画，只是中文显示为方框）。
    """
    global _active_font
    import matplotlib

    if _active_font is None:
        path = cjk_font_path()
        if path is None:
            warnings.warn("没有找到中文字体，图中的中文会显示成方框。请运行 pip install noto-cjk-sans-otc "
                          "后重新调用 use_cjk_font()（不需要重启内核）。",
                          stacklevel=2)
            return None
        _active_font = _register_sc_face(path)
    matplotlib.rcParams.update(FIGURE_DEFAULTS)
    matplotlib.rcParams["font.family"] = "sans-serif"
    sans = [_active_font] + [f for f in matplotlib.rcParams["font.sans-serif"] if f != _active_font]
    matplotlib.rcParams["font.sans-serif"] = sans
    _use_svg_in_notebook()
    return _active_font
