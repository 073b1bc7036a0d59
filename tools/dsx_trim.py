"""Sphinx 小扩展：每页只加载它用得到的脚本和样式。

- 搜索脚本（searchtools.js、language_data.js 和约 100 KB 的 searchindex.js）：pydata-sphinx-theme
  在每一页都加载它们，只为「边输入边搜索」（search_as_you_type，本书没有打开）；搜索框提交后打开的
  search.html 自己会加载。这里从其他页面去掉。
- sphinx-design 的样式和脚本（约 60 KB）：Jupyter Book 总会加载；本页没有用到 sphinx-design 的组件
  （class 以 sd- 开头的元素）时去掉。
"""
import re

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


def setup(app):
    app.connect("builder-inited", drop_search_scripts)
    app.connect("html-page-context", drop_unused_design_assets)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
