"""Sphinx 小扩展：每页只加载它用得到的脚本和样式，首次绘制之后不再跳动。

- 搜索脚本（searchtools.js、language_data.js 和约 100 KB 的 searchindex.js）：pydata-sphinx-theme
  在每一页都加载它们，只为「边输入边搜索」（search_as_you_type，本书没有打开）；搜索框提交后打开的
  search.html 自己会加载。这里从其他页面去掉。
- sphinx-design 的样式和脚本（约 60 KB）：Jupyter Book 总会加载；本页没有用到 sphinx-design 的组件
  （class 以 sd- 开头的元素）时去掉。
- ipywidgets 的状态 JSON（有探索器的页面每页 20–40 KB）：myst-nb 把笔记本里保存的小部件状态写进 <head>，
  供 ipywidgets 的 HTML 管理器在页面上重建小部件；本书不加载那个管理器（nb_ipywidgets_js 为空），
  探索器用的是自带页面内计算的 text/html 版本，这份 JSON 没有任何代码读取，这里去掉。
- 代码高亮里不改变样式的 <span>：Pygments 给每个名字、标点、空白都包一层 <span class="n">…，
  而本书的两套高亮配色里这几类的颜色就是代码块的文字颜色（由 _static/pygments.css 判定，不是写死的），
  去掉这层 <span> 显示完全相同，代码多的章节 HTML 少 20%–30%。
- 网页版的插图 <img> 带上宽高（取自 SVG 本身）并延迟加载（loading="lazy"）：先到的是正文，
  图在读者滚动到附近时才下载；宽高让浏览器先留好位置，图到达时页面不跳动。
  单页 HTML（PDF 版的来源）不延迟：打印前要等全部图片加载完。
- 颜色模式在首次绘制之前定下来：主题先把 <html data-theme> 设为 "auto"，页面加载完后它的脚本才换成
  "light" 或 "dark"；代码高亮的样式（含行高）只认 light/dark，于是代码块在加载后变高，下面的正文整体下移
  （第 3 章的布局偏移 0.107 即由此而来）。这里在 <head> 里用一行脚本按同样的规则（系统是否暗色）先定好。
- 插图：matplotlib 写的 SVG 在构建结束时变小到原来的一半左右，看起来不变（见 dsx_book/svg_slim.py）。
"""
import re
from pathlib import Path

from .svg_slim import slim_svg

SEARCH_SCRIPTS = re.compile(r'\s*<script src="[^"]*(?:searchtools|language_data|searchindex)\.js"></script>')
DESIGN_FILES = ("sphinx-design", "design-tabs.js")
USES_DESIGN = re.compile(r'class="(?:[^"]*\s)?sd-')


def drop_search_scripts(app):
    """builder-inited：这三个 <script> 写在主题模板里，只能在模板渲染之后去掉。"""
    if app.builder.format != "html" or (app.config.html_theme_options or {}).get("search_as_you_type") in (True, "True", "true"):
        return
    templates = app.builder.templates
    render = templates.render

    def render_without_search_scripts(template, context):
        html = render(template, context)
        return html if context.get("pagename") == "search" else SEARCH_SCRIPTS.sub("", html)

    templates.render = render_without_search_scripts


def drop_unused_design_assets(app, pagename, templatename, context, doctree):
    if USES_DESIGN.search(context.get("body") or ""):
        return
    for key in ("css_files", "script_files"):
        if key in context:
            context[key] = [f for f in context[key]
                            if not any(name in str(getattr(f, "filename", f)) for name in DESIGN_FILES)]


WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


def drop_widget_state(app, pagename, templatename, context, doctree):
    """在 myst-nb 的 html-page-context 处理函数（优先级 500）之后运行，去掉它加进来的小部件状态。"""
    if "script_files" in context:
        context["script_files"] = [f for f in context["script_files"]
                                   if getattr(f, "attributes", {}).get("type") != WIDGET_STATE]


def slim_figures(app, exception):
    """build-finished：_images/ 里 matplotlib 写的 SVG 变小（已经变小的文件 slim_svg 原样返回）。"""
    if exception or app.builder.format != "html":
        return
    for path in sorted((Path(app.outdir) / "_images").glob("*.svg")):
        text = path.read_text(encoding="utf-8")
        slim = slim_svg(text)
        if slim != text:
            path.write_text(slim, encoding="utf-8")


PYGMENTS_RULE = re.compile(r'html\[data-theme="(\w+)"\] \.highlight((?: \.[\w-]+)?) \{([^}]*)\}')
PRE_BLOCK = re.compile(r"<pre>.*?</pre>", re.S)


def plain_token_classes(pygments_css):
    """在每一套配色里都只规定了 color、且等于代码块文字颜色的 Pygments 类（如名字 n、标点 p、空白 w）。"""
    base, rules = {}, {}
    for theme, selector, body in PYGMENTS_RULE.findall(pygments_css):
        declarations = {}
        for item in body.split(";"):
            if ":" in item:
                key, value = item.split(":", 1)
                declarations[key.strip()] = value.strip().lower()
        if selector:
            rules.setdefault(selector.strip()[1:], {})[theme] = declarations
        else:
            base[theme] = declarations.get("color")
    if not base or None in base.values():
        return set()
    return {name for name, themes in rules.items()
            if set(themes) == set(base) and all(d == {"color": base[t]} for t, d in themes.items())}


def unwrap_plain_tokens(html, classes):
    """代码块（<pre>）里 <span class="c">文字</span> → 文字，c 属于 classes。"""
    if not classes:
        return html
    names = "|".join(map(re.escape, sorted(classes)))
    span = re.compile(rf'<span class="(?:{names})">([^<]*)</span>')
    return PRE_BLOCK.sub(lambda m: span.sub(r"\1", m.group(0)), html)


FIGURE = re.compile(r'<img (?![^>]*\bloading=)([^>]*\bsrc="(?:\.\./)*_images/([^"/]+\.svg)"[^>]*?)\s*/?>')
SIZED = re.compile(r'\b(?:style|width|height)=')
SVG_SIZE = re.compile(r'<svg\b[^>]*?\bwidth="([\d.]+)(pt|px)?"[^>]*?\bheight="([\d.]+)(pt|px)?"')


def svg_size(path):
    """SVG 的显示尺寸（CSS 像素；1 pt = 4/3 px），文件不在或读不出时为 None。"""
    if not path.is_file():
        return None
    match = SVG_SIZE.search(path.read_text(encoding="utf-8")[:2000])
    if not match:
        return None
    px = lambda value, unit: float(value) * (4 / 3 if unit == "pt" else 1)  # noqa: E731
    return px(match.group(1), match.group(2)), px(match.group(3), match.group(4))


def lazy_figures(html, images):
    """<img src=".../_images/x.svg"> → 加上 width、height（整数像素）、精确的宽高比、loading="lazy"、decoding="async"。

    宽高只能写整数，取整后的比例与图本身差不到一个像素，图到达时仍会挪动一点；所以另写精确的 aspect-ratio。
    """
    def add(match):
        if SIZED.search(match.group(1)):       # 作者已给了大小（MyST 的 :width: 等）：不改
            return match.group(0)
        size = svg_size(images / match.group(2))
        if size is None:
            return match.group(0)
        width, height = size
        return (f'<img {match.group(1)} width="{round(width)}" height="{round(height)}" '
                f'style="aspect-ratio: {width:.2f} / {height:.2f}" loading="lazy" decoding="async" />')
    return FIGURE.sub(add, html)


def slim_pages(app, exception):
    """build-finished（在主题写出 pygments.css 之后）：改写全部页面的代码块和插图标签。"""
    if exception or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    css = outdir / "_static" / "pygments.css"
    classes = plain_token_classes(css.read_text(encoding="utf-8")) if css.exists() else set()
    for path in sorted(outdir.rglob("*.html")):
        if "_static" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        slim = unwrap_plain_tokens(text, classes)
        if app.builder.name == "html":
            slim = lazy_figures(slim, outdir / "_images")
        if slim != text:
            path.write_text(slim, encoding="utf-8")


# 与主题脚本的规则相同：模式（data-mode，读者选的 亮/暗/跟随系统）为 light、dark 时就用它；
# 跟随系统（auto 或空）时看系统是否暗色。不能信主题先写的 data-theme：主题把上次算出的亮/暗存在
# localStorage 里，系统改了颜色之后它是旧的
THEME_BEFORE_PAINT = ('(function () { var d = document.documentElement, m = d.dataset.mode;'
                      ' d.dataset.theme = (m === "light" || m === "dark") ? m :'
                      ' (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light"); })();')
