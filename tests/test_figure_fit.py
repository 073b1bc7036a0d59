"""手机上的图：390 px 宽时没有一幅图需要横向滚动，图里最小的字（SVG 里的字号 × 显示宽度 / 原始宽度）
在 390 px 和 1280 px 宽时都不小于 9 CSS px；暗色模式下图仍然反色显示。数字都从构建好的网页和 SVG 文件里量出来。
"""
import re
from urllib.parse import unquote, urljoin, urlparse

import pytest

from conftest import html_dir

MIN_TEXT_PX = 9
PT_TO_PX = 4 / 3

# matplotlib 把文字存成轮廓（svg.fonttype = path）：一段文字是 <g transform="translate(…) [rotate(…)] scale(s -s)">，
# 字号 = 100·s 磅（matplotlib 的 TextToPath.FONT_SCALE 是 100）。dsx_book/svg_slim.py 变小之后仍是这个写法。
TEXT_GROUP = re.compile(r'<g transform="translate\([^)]*\)(?: rotate\([^)]*\))? scale\(([\d.]+) -([\d.]+)\)"')


def text_sizes_pt(svg):
    """SVG 里每段文字的字号（磅）。"""
    return [float(a) * 100 for a, b in TEXT_GROUP.findall(svg) if a == b]


# 正文里的每幅图（章节代码输出的 <img>）：原始宽度、显示宽度、是否需要横向滚动、暗色模式下的 filter
FIGURES = """() => {
    const article = document.querySelector('article.bd-article');
    const style = getComputedStyle(article);
    const a = article.getBoundingClientRect();
    const left = a.left + parseFloat(style.paddingLeft) - 1, right = a.right - parseFloat(style.paddingRight) + 1;
    return Array.from(article.querySelectorAll('div.cell_output img')).map(img => {
        const box = img.closest('div.cell_output');
        const r = img.getBoundingClientRect();
        return {src: img.src, alt: img.alt.slice(0, 24), natural: img.naturalWidth, shown: r.width,
                scrolls: box.scrollWidth > box.clientWidth + 1 || r.right > right || r.left < left,
                filter: getComputedStyle(img).filter};
    });
}"""


def chapter_pages_with_figures():
    root = html_dir()
    return sorted(str(p.relative_to(root)) for p in (root / "book").glob("ch*.html") if "_images/" in p.read_text("utf-8"))


FIGURE_PAGES = chapter_pages_with_figures()


@pytest.mark.book
def test_chapters_have_figures():
    assert len(FIGURE_PAGES) >= 5, f"{html_dir()} 里带插图的章节只有 {FIGURE_PAGES}：请先运行 make book"


def svg_of(src):
    path = html_dir() / unquote(urlparse(src).path).lstrip("/")
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("path", FIGURE_PAGES)
def test_figures_fit_the_column_with_readable_text(visited, path, width):
    """这一章的每幅图：不需要横向滚动，最小的字不小于 9 CSS px。（页面来自 visited：插图已全部加载。）"""
    figures = visited.evaluate(FIGURES)
    assert figures, f"{path} 里找不到插图"
    scrolling, small = [], []
    for f in figures:
        name = f"{path.split('/')[-1][:4]}「{f['alt']}」"
        if f["scrolls"]:
            scrolling.append(name)
        sizes = text_sizes_pt(svg_of(urljoin(visited.url, f["src"])))
        assert sizes, f"{name} 的 SVG 里读不出文字的字号（{f['src']}）"
        px = min(sizes) * PT_TO_PX * f["shown"] / f["natural"]
        if px < MIN_TEXT_PX - 0.05:
            small.append(f"{name} 最小的字 {px:.1f} px（{min(sizes):g} 磅，显示宽 {f['shown']:.0f} / 原宽 {f['natural']} px）")
    assert scrolling == [], f"{width} px 宽时 {path} 有 {len(scrolling)} 幅图需要横向滚动：{scrolling}"
    assert small == [], f"{width} px 宽时 {path} 有 {len(small)} 幅图的字太小：{small}"


@pytest.mark.parametrize("scheme", ["dark", "light"])
@pytest.mark.parametrize("path", FIGURE_PAGES[:3])
def test_figures_are_inverted_in_dark_mode(visited, path, scheme):
    """暗色模式下白底的图反色显示（_static/dsx.css），亮色模式下不反色。"""
    inverted = scheme == "dark"
    figures = visited.evaluate(FIGURES)
    wrong = [f["alt"] for f in figures if ("invert" in f["filter"]) != inverted]
    assert figures and wrong == [], f"{path}（{scheme}）的图{'没有' if inverted else '不该'}反色：{wrong}"


def test_text_sizes_are_read_from_slimmed_figures():
    """读字号的办法对 dsx_book/svg_slim.py 变小后的 matplotlib SVG 有效：读出的正是画图时给的字号。"""
    import io
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from dsx_book.svg_slim import slim_svg
    import dsx_util
    dsx_util.use_cjk_font()
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.set_title("标题", fontsize=14)
    ax.set_ylabel("竖排的标签", fontsize=12)
    ax.tick_params(labelsize=9.5)
    ax.text(0.5, 0.5, "$x^2$", fontsize=11)
    out = io.StringIO()
    fig.savefig(out, format="svg")
    plt.close(fig)
    sizes = text_sizes_pt(slim_svg(out.getvalue()))
    assert min(sizes) == pytest.approx(9.5) and max(sizes) == pytest.approx(14)
    assert {round(s, 1) for s in sizes} == {9.5, 11.0, 12.0, 14.0}


# ---------------------------------------------------------------- 拆开多幅子图（dsx_util.plotting.split_panels）
def two_panels(sharey):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import dsx_util
    dsx_util.use_cjk_font()
    fig, axes = plt.subplots(1, 2, figsize=(7, 3), sharey=sharey)
    for ax, k in zip(axes, (1, 2)):
        ax.plot([0, 1, 2], [0, k, 4])
        ax.set_title(f"第 {k} 幅")
        ax.set_xlabel("横轴")
    axes[0].set_ylabel("纵轴")
    fig.suptitle("总标题")
    fig.tight_layout()
    return fig, axes


def svg_width_pt(svg):
    return float(re.search(r'<svg[^>]*\bwidth="([\d.]+)pt"', svg).group(1))


def test_split_panels_gives_one_svg_per_panel_and_restores_the_figure():
    import matplotlib.pyplot as plt
    from dsx_util.plotting import split_panels
    fig, axes = two_panels(sharey=True)
    title, svgs = split_panels(fig)
    assert title == "总标题" and len(svgs) == 2
    full = fig.get_size_inches()[0] * 72
    assert all(svg_width_pt(s) < 0.6 * full for s in svgs), [svg_width_pt(s) for s in svgs]
    # 共用 y 轴时右边那幅原本没有刻度数字；拆开后与不共用 y 轴的同一幅图一样多段文字（刻度数字都在）
    fig2, _ = two_panels(sharey=False)
    _, svgs2 = split_panels(fig2)
    assert len(text_sizes_pt(svgs[1])) == len(text_sizes_pt(svgs2[1]))
    # 总标题不画进子图（它作为文字显示）；图恢复原样
    assert fig._suptitle.get_visible() and all(ax.get_visible() for ax in axes)
    assert axes[1].yaxis.get_tick_params(which="major").get("labelleft") is False
    plt.close("all")


def test_sharey_right_panel_gains_its_tick_labels():
    """对照：不拆时右边那幅（共用 y 轴）的文字比拆开后少，即拆开确实补上了刻度数字。"""
    import io
    import matplotlib.pyplot as plt
    from dsx_util.plotting import split_panels
    fig, axes = two_panels(sharey=True)
    axes[0].set_visible(False)
    fig._suptitle.set_visible(False)
    out = io.StringIO()
    fig.savefig(out, format="svg")
    axes[0].set_visible(True)
    fig._suptitle.set_visible(True)
    _, svgs = split_panels(fig)
    assert len(text_sizes_pt(svgs[1])) > len(text_sizes_pt(out.getvalue()))
    plt.close("all")


def test_single_panel_and_twin_axes_are_not_split():
    import matplotlib.pyplot as plt
    from dsx_util.plotting import split_panels
    fig, ax = plt.subplots()
    ax.twinx()
    assert split_panels(fig) == (None, [])
    plt.close("all")


def test_show_figure_displays_title_then_panels():
    """笔记本里（IPython）：plt.show() 经过 show_figure，输出总标题（HTML 文字）和每幅子图一张 SVG；单幅的图照常一张。"""
    import matplotlib.pyplot as plt
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.utils.capture import capture_output
    from matplotlib.figure import Figure
    import dsx_util
    shell = InteractiveShell.instance()
    dsx_util.use_cjk_font()
    assert shell.display_formatter.ipython_display_formatter.lookup_by_type(Figure) is not None
    fig, _ = two_panels(sharey=True)
    with capture_output() as captured:
        shell.display_formatter.format(fig)
    kinds = [sorted(set(out.data) - {"text/plain"}) for out in captured.outputs]
    assert kinds == [["text/html"], ["image/svg+xml"], ["image/svg+xml"]], kinds
    assert "总标题" in captured.outputs[0].data["text/html"]
    single, ax = plt.subplots()
    ax.set_title("一幅")
    with capture_output() as captured:
        shell.display_formatter.format(single)
    assert [sorted(out.data) for out in captured.outputs] == [["image/svg+xml", "text/plain"]]
    plt.close("all")


def test_panels_without_axes_are_cropped_to_what_is_drawn():
    """坐标轴关掉的子图（格子图）只裁到画出来的格子和标题：坐标范围里的大片空白不留在图里。"""
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle
    from dsx_util.plotting import split_panels
    fig, axes = plt.subplots(1, 2, figsize=(7, 3))
    for ax in axes:
        ax.add_patch(Rectangle((0, 0), 1, 1))
        ax.set_xlim(0, 1)
        ax.set_ylim(-3, 1)          # 格子只占坐标范围的上面四分之一
        ax.axis("off")
    _, svgs = split_panels(fig)
    frame_h = axes[0].get_position().height * 3 * 72
    heights = [float(re.search(r'<svg[^>]*\bheight="([\d.]+)pt"', s).group(1)) for s in svgs]
    assert all(h < 0.4 * frame_h for h in heights), (heights, frame_h)
    plt.close("all")
