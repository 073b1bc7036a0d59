"""Sphinx 小扩展：保证书的网页离线可用、控制台没有错误。

Jupyter Book 1 总会加载 sphinx-thebe（在线运行代码的按钮），它在每页插入两次同一段
`const THEBE_JS_URL = ...` 声明（地址指向公共 CDN），浏览器因此报错。
本书不提供 Thebe（它需要联网的 Binder 服务器），这里把这些脚本从每一页移除。
"""


def _is_thebe(script):
    name = getattr(script, "filename", None) or ""
    body = (getattr(script, "attributes", None) or {}).get("body", "")
    return "thebe" in str(name) or "THEBE_JS_URL" in body


def remove_thebe_scripts(app, pagename, templatename, context, doctree):
    if "script_files" in context:
        context["script_files"] = [s for s in context["script_files"] if not _is_thebe(s)]
