"""Sphinx 小扩展：让单页 HTML（singlehtml，PDF 版的来源）和网页版渲染相同的节点。

Sphinx 为某个构建器找节点的渲染函数时，只要有扩展为 singlehtml 单独注册过节点（sphinx-exercise 就这样做），
就不再回退到 html 的注册表，于是 myst-nb 折叠单元格用的 HideCodeCellNode 等节点在 singlehtml 里无法渲染。
这里在 singlehtml 构建开始时把 html 的注册表并入 singlehtml 的（singlehtml 自己注册的优先）。
同样，_config.yml 里为 html 设的输出类型优先级（探索器显示页面内视图）也照搬给 singlehtml。
"""


def share_mime_priority(app, config):
    overrides = list(config.nb_mime_priority_overrides or [])
    single = {mime for builder, mime, _ in overrides if builder == "singlehtml"}
    overrides += [("singlehtml", mime, priority) for builder, mime, priority in overrides
                  if builder == "html" and mime not in single]
    config.nb_mime_priority_overrides = overrides


def share_html_handlers(app):
    if app.builder.name != "singlehtml":
        return
    handlers = app.registry.translation_handlers
    merged = dict(handlers.get("html", {}))
    merged.update(handlers.get("singlehtml", {}))
    handlers["singlehtml"] = merged


def setup(app):
    app.connect("config-inited", share_mime_priority)
    app.connect("builder-inited", share_html_handlers)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
