"""让 matplotlib 正确显示中文：注册一个开源（OFL）的思源黑体 / Noto Sans CJK 字体。

字体来自 PyPI 包 noto-cjk-sans-otc（dsx_util 的依赖，随本包一起安装），因此在新机器、CI 和
Colab 上都不需要系统字体。matplotlib 会缓存字体列表；我们按文件路径直接注册字体（addfont），
所以即使字体是在缓存建立之后才安装的，也能立即使用，无需删除缓存或重启内核。
"""
import os
import warnings

_active_font = None


def cjk_font_path():
    """返回 noto-cjk-sans-otc 包里的字体文件路径；没有安装该包时返回 None。"""
    try:
        import noto_cjk_sans_otc
    except ImportError:
        return None
    path = str(noto_cjk_sans_otc.FONT_PATH)
    return path if os.path.exists(path) else None


def use_cjk_font():
    """让之后画的 matplotlib 图能显示中文，返回所用字体的名字；重复调用没有副作用。

    找不到中文字体时不会报错中断，而是给出一条中文警告并返回 None（图照常画，只是中文显示为方框）。
    """
    global _active_font
    import matplotlib
    from matplotlib import font_manager

    if _active_font is None:
        path = cjk_font_path()
        if path is None:
            warnings.warn("没有找到中文字体，图中的中文会显示成方框。请运行 pip install noto-cjk-sans-otc "
                          "后重新调用 use_cjk_font()（不需要重启内核）。",
                          stacklevel=2)
            return None
        font_manager.fontManager.addfont(path)
        _active_font = font_manager.FontProperties(fname=path).get_name()
    matplotlib.rcParams["font.family"] = "sans-serif"
    sans = [_active_font] + [f for f in matplotlib.rcParams["font.sans-serif"] if f != _active_font]
    matplotlib.rcParams["font.sans-serif"] = sans
    matplotlib.rcParams["axes.unicode_minus"] = False  # 负号用 ASCII 的 "-"，任何字体都有
    return _active_font
