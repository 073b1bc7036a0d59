"""让 matplotlib 的图清楚好读：中文用简体中文字形（思源黑体 SC），字号、尺寸、清晰度统一。

字体来自 PyPI 包 noto-cjk-sans-otc（dsx_util 的依赖，随本包一起安装），因此在新机器、CI 和
Colab 上都不需要系统字体。这个字体文件是一个字体集合（.ttc），第一个字体是日文字形（JP），
简体中文字形（SC）排在后面：同一个汉字（如「偏」「值」「差」）在两者中写法不同，所以必须按名字选 SC。

- matplotlib 3.11 起能读出集合里的每个字体，直接按名字选用 SC；
- 更早的版本只能读集合里的第一个字体，这时把 SC 字体单独存成一个 .otf 文件（放在 matplotlib 的缓存目录，
  只做一次），再按路径注册。

按路径注册（addfont）意味着即使字体是在 matplotlib 缓存建立之后才安装的，也能立即使用，无需重启内核。

多幅子图的图（plt.subplots(1, 2) 之类）在笔记本里显示成每幅子图一张 SVG（见 show_figure）：网页上宽屏时
并排、手机上一幅接一幅，谁都不用横向滚动；画图的代码还是普通的 matplotlib，复制到别处照样能用。
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
    shell = get_ipython()
    if shell is not None:
        set_matplotlib_formats("svg")
        from matplotlib.figure import Figure
        shell.display_formatter.ipython_display_formatter.for_type(Figure, show_figure)


def _panels(fig):
    """图里的各幅子图：每组是同一个格子位置上的坐标轴（twinx 得到的坐标轴与原来的在同一组），按画图的顺序。"""
    groups = {}
    for ax in fig.axes:
        spec = ax.get_subplotspec() if ax.get_visible() else None
        if spec is None:
            return []                       # 不在网格里的坐标轴（如手动放的插图、颜色条）：不拆
        key = (spec.get_gridspec(), spec.rowspan.start, spec.rowspan.stop, spec.colspan.start, spec.colspan.stop)
        groups.setdefault(key, []).append(ax)
    return list(groups.values()) if len(groups) > 1 else []


def _panel_bbox(ax, renderer):
    """一幅子图占的区域（显示坐标）。坐标轴关掉的图（格子图、示意图）只算画出来的东西，不留坐标范围里的空白。"""
    from matplotlib.transforms import Bbox

    if ax.axison:
        return ax.get_tightbbox(renderer)
    frame = ax.get_window_extent(renderer)
    parts = []
    for artist in (*ax.patches, *ax.lines, *ax.collections, *ax.texts, ax.title, ax.get_legend()):
        if artist is None or not artist.get_visible() or (artist is ax.title and not artist.get_text()):
            continue
        extent = artist.get_window_extent(renderer)
        if artist.get_clip_on() and artist.get_clip_box() is not None:   # 裁在坐标框里的部分才画得出来
            extent = Bbox.intersection(extent, frame)
        if extent is not None and extent.width > 0 and extent.height > 0:
            parts.append(extent)
    return Bbox.union(parts) if parts else ax.get_tightbbox(renderer)


def split_panels(fig):
    """把多幅子图的图拆开：返回 (总标题, [每幅子图一张 SVG 的文字])；只有一幅子图时返回 (None, [])。

    每张 SVG 只画一幅子图（裁到它自己的标题、刻度和标签为止）。共用 y 轴（sharey=True）时 matplotlib 只在最左边一幅
    标刻度数字，拆开之后每幅都标上，手机上一幅接一幅看时也读得出数值。总标题（fig.suptitle）不画进图里，
    由调用者作为文字显示。画完后图恢复原样。
    """
    import io
    from matplotlib.transforms import Bbox

    panels = _panels(fig)
    if not panels:
        return None, []
    suptitle = getattr(fig, "_suptitle", None)
    title = suptitle.get_text() if suptitle is not None and suptitle.get_visible() and suptitle.get_text() else None
    shown = {ax: ax.get_visible() for ax in fig.axes}
    relabel = [ax for group in panels for ax in group if len(ax.get_shared_y_axes().get_siblings(ax)) > 1]
    labels = {ax: ax.yaxis.get_tick_params(which="major").get("labelleft", True) for ax in relabel}
    svgs = []
    try:
        if title:
            suptitle.set_visible(False)
        for ax in relabel:
            ax.yaxis.set_tick_params(which="both", labelleft=True)
        renderer = fig.canvas.get_renderer()
        to_inches = fig.dpi_scale_trans.inverted()
        for group in panels:
            for ax in fig.axes:
                ax.set_visible(ax in group)
            fig.canvas.draw()
            box = Bbox.union([_panel_bbox(ax, renderer) for ax in group]).transformed(to_inches)
            out = io.BytesIO()
            fig.savefig(out, format="svg", bbox_inches=box.padded(0.04),
                        facecolor=fig.get_facecolor(), edgecolor=fig.get_edgecolor())
            svgs.append(out.getvalue().decode("utf-8"))
    finally:
        for ax, visible in shown.items():
            ax.set_visible(visible)
        for ax, on in labels.items():
            ax.yaxis.set_tick_params(which="both", labelleft=on)
        if title:
            suptitle.set_visible(True)
    return title, svgs


def show_figure(fig):
    """笔记本显示 matplotlib 图的方式（use_cjk_font 注册，plt.show() 和单元格结尾都经过这里）。

    多幅子图：先显示总标题（文字），再每幅子图一张 SVG；网页版（_static/dsx.css）把它们在宽屏上并排、
    窄屏上一幅接一幅。只有一幅子图的图照常显示。
    """
    from IPython import get_ipython
    from IPython.display import HTML, display

    formatter = get_ipython().display_formatter.formatters["image/svg+xml"]
    try:
        title, svgs = split_panels(fig)
    except Exception:             # 拆不开的图（少见的布局）照常整张显示，不打断读者的单元格
        title, svgs = None, []
    if not svgs:
        data = formatter(fig)
        if data:
            display({"image/svg+xml": data, "text/plain": repr(fig)}, raw=True)
        return
    if title:
        from html import escape
        display(HTML(f'<div class="dsx-figure-title" style="font-weight: bold">{escape(title)}</div>'))
    for i, svg in enumerate(svgs, 1):
        display({"image/svg+xml": svg, "text/plain": f"<第 {i} 幅子图，共 {len(svgs)} 幅>"}, raw=True)


# matplotlib 对每个缺的字各说一次（一张带中文标题的图就有几十行）：普通文字用警告，公式里的文字用日志。
# 没有中文字体时，use_cjk_font 的那条中文警告已经说了原因和办法，这些就不再显示
def _no_glyph_record(record):
    return "does not have a glyph" not in record.getMessage()


def _quiet_missing_glyphs():
    import logging

    warnings.filterwarnings("ignore", message=r"Glyph \d+ .*missing from font", category=UserWarning)
    mathtext_log = logging.getLogger("matplotlib.mathtext")
    if _no_glyph_record not in mathtext_log.filters:
        mathtext_log.addFilter(_no_glyph_record)


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
            _quiet_missing_glyphs()
            return None
        _active_font = _register_sc_face(path)
    matplotlib.rcParams.update(FIGURE_DEFAULTS)
    matplotlib.rcParams["font.family"] = "sans-serif"
    sans = [_active_font] + [f for f in matplotlib.rcParams["font.sans-serif"] if f != _active_font]
    matplotlib.rcParams["font.sans-serif"] = sans
    _use_svg_in_notebook()
    return _active_font
