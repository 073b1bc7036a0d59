"""Sphinx 小扩展：不加载主题的图标脚本，图标字体只保留本书用到的几个图标。

pydata-sphinx-theme 在每页加载 Font Awesome 的脚本 fontawesome.js（约 1.5 MB），它把
`<i class="fa-solid fa-bars">` 换成内联 SVG。主题的 CSS 本身已能用图标字体画出这些图标（以及提示框、
面包屑等处 CSS 里的图标），所以这里：

- 从每一页去掉 fontawesome.js；
- 主题 CSS 里约 1900 条「图标名 -> 字符」的规则（约 90 KB）只留下本书用到的，网页改为加载这份精简的
  CSS（`_static/styles/pydata-sphinx-theme.dsx.css`）；
- 构建结束时，从主题自带的三个图标字体中只取出本书用到的字形（网页和脚本里出现的 `fa-名字`，
  以及主题 CSS 在伪元素里直接用到的图标），写成几 KB 的子集字体 `_static/dsx-icons/*.woff`，
  并用同名的 @font-face 覆盖主题的声明：浏览器只下载子集，不再下载完整的图标字体；
- 每页预先加载这几个子集字体：首次绘制时图标已就绪，字体到达后页眉不再跳动（布局偏移）。
"""
import re
from pathlib import Path

from .font_subset import write_woff_subset

from sphinx.util import logging

logger = logging.getLogger(__name__)

STATIC = "dsx-icons"
WEBFONTS = Path("_static") / "vendor" / "fontawesome" / "webfonts"
# 主题的 @font-face：(字体族, 字重, 字体文件名)
FACES = [("Font Awesome 6 Free", 900, "fa-solid-900"),
         ("Font Awesome 6 Free", 400, "fa-regular-400"),
         ("Font Awesome 6 Brands", 400, "fa-brands-400")]
PRELOAD = ("fa-solid-900", "fa-brands-400")     # 每页页眉都有的图标（菜单、搜索、GitHub）所在的字体
ICON_SCRIPT = re.compile(r'\s*<script[^>]*src="[^"]*fontawesome\.js[^"]*"[^>]*></script>')
THEME_CSS = Path("_static") / "styles" / "pydata-sphinx-theme.css"
SLIM_CSS = THEME_CSS.with_name("pydata-sphinx-theme.dsx.css")
CSS_RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
CODEPOINT = re.compile(r'"\\([0-9a-fA-F]{4,5})"|([\ue000-\uf8ff])')   # 转义写法，或直接写出的私用区字符
ICON_SELECTOR = re.compile(r"\.fa-([a-z0-9-]+):(?:before|after)")
ICON_CLASS = re.compile(r"\bfa-([a-z0-9-]+)")


def drop_icon_script(app):
    """builder-inited：每页渲染完模板之后去掉 fontawesome.js 的 <script>（它写在主题模板的宏里）。"""
    if app.builder.format != "html":
        return
    templates = app.builder.templates
    render = templates.render

    def render_without_icon_script(template, context):
        html = ICON_SCRIPT.sub("", render(template, context))
        return html.replace(f"{THEME_CSS.as_posix()}?", f"{SLIM_CSS.as_posix()}?")

    templates.render = render_without_icon_script
    app.add_css_file(f"{STATIC}/icons.css", priority=900)


def icon_codepoints(css_text):
    """(图标名 -> 码位, CSS 伪元素里直接用到的码位集合)。"""
    by_name, direct = {}, set()
    for selectors, body in CSS_RULE.findall(css_text):
        points = [int(hex_, 16) if hex_ else ord(char) for hex_, char in CODEPOINT.findall(body)]
        if not points:
            continue
        names = [ICON_SELECTOR.fullmatch(s.strip()) for s in selectors.split(",")]
        if all(names):
            for match in names:
                by_name[match.group(1)] = points[0]
        else:
            direct.update(points)
    return by_name, direct


def used_icons(outdir):
    """(全站用到的图标码位, 用到的图标名)：页面和脚本里出现的 fa-名字，加上 CSS 伪元素里直接写的图标。"""
    static = outdir / "_static"
    css = "".join(p.read_text(encoding="utf-8", errors="replace") for p in static.rglob("*.css")
                  if STATIC not in p.parts and p.name != SLIM_CSS.name)
    by_name, direct = icon_codepoints(css)
    names = set()
    for path in list(outdir.rglob("*.html")) + list(static.rglob("*.js")):
        if path.name == "fontawesome.js":
            continue
        names.update(ICON_CLASS.findall(path.read_text(encoding="utf-8", errors="replace")))
    names &= set(by_name)
    return direct | {by_name[n] for n in names}, names


def slim_theme_css(css_text, names):
    """去掉主题 CSS 里没用到的「.fa-名字:before{content:...}」规则。"""
    def keep(match):
        selectors = [ICON_SELECTOR.fullmatch(s.strip()) for s in match.group(1).split(",")]
        if not all(selectors) or not CODEPOINT.search(match.group(2)):
            return match.group(0)
        return match.group(0) if any(m.group(1) in names for m in selectors) else ""
    return CSS_RULE.sub(keep, css_text)


def write_subsets(app, exception):
    """build-finished：写出子集字体和覆盖主题 @font-face 的 icons.css。"""
    if exception or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    points, names = used_icons(outdir)
    theme_css = (outdir / THEME_CSS).read_text(encoding="utf-8")
    (outdir / SLIM_CSS).write_text(slim_theme_css(theme_css, names), encoding="utf-8")
    target = outdir / "_static" / STATIC
    target.mkdir(parents=True, exist_ok=True)
    rules = []
    for family, weight, name in FACES:
        source = outdir / WEBFONTS / f"{name}.ttf"
        if not source.exists():
            logger.warning(f"找不到主题的图标字体 {source}，图标可能显示不出来", type="dsx_icons")
            continue
        write_woff_subset(source, target / f"{name}.woff", points, layout_features=(),
                          stamps=Path(app.doctreedir) / "font-subsets.json")
        rules.append(f'@font-face {{ font-family: "{family}"; font-style: normal; font-weight: {weight}; '
                     f'font-display: block; src: url("{name}.woff") format("woff"); }}')
    css = "/* 本书用到的图标（由 dsx_book/icons.py 生成的子集字体），覆盖主题的完整图标字体 */\n"
    (target / "icons.css").write_text(css + "\n".join(rules) + "\n", encoding="utf-8")


def preload_subsets(app, pagename, templatename, context, doctree):
    root = context["pathto"](f"_static/{STATIC}/", 1)
    links = "".join(f'<link rel="preload" href="{root}{name}.woff" as="font" type="font/woff" crossorigin>\n'
                    for name in PRELOAD)
    context["metatags"] = context.get("metatags", "") + links
