"""把一个 Markdown 单元格里的 MyST 语法改写成 Jupyter 和 Colab 能直接显示的普通 Markdown。

只做文本改写；每个值（glue 的文字、式号、页面标题与网址）都由调用方传入的 resolver 提供，
resolver 从 Sphinx 构建的结果里读出这些值（见 dsx_book/reader_edition.py），这里不重新计算任何东西。

resolver 需要提供：
- glue(key) -> {mime 类型: 数据}：这一章 glue 的输出；
- glue_text(key, fmt) -> str：与 {glue:text}`key:fmt` 在网页上显示的文字相同；
- xref(role, target, title) -> (文字, 网址或 None)：{eq}/{doc}/{ref}/{numref} 等交叉引用；
- admonition_title(name) -> str：note、tip 等提示框的标题（与网页相同的语言）；
- heading_number(title) -> str：网页上这个标题前的节号（如 "4.1. "），没有编号时为 ""；
- 可选 link(text, url) -> str：交叉引用写成的 Markdown 链接（笔记本压缩包里打开旁边的笔记本，网页地址作后备）。
"""
import re

# 开头的围栏：```{name} 参数 或 :::{name} 参数（反引号或冒号至少三个）
FENCE_OPEN = re.compile(r"^ {0,3}(?P<fence>`{3,}|:{3,})\{(?P<name>[^}\s]+)\}\s*(?P<arg>.*)$")
PLAIN_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
# 行内：可选的 {角色名}，紧跟一个代码片段（反引号数目任意）
INLINE = re.compile(r"(?:\{(?P<role>[\w:.+-]+)\})?(?P<ticks>`+)(?P<body>.+?)(?P=ticks)", re.S)
LABELED_MATH = re.compile(r"\$\$(?P<body>.+?)\$\$[ \t]*\((?P<label>[^()\s]+)\)", re.S)
HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*$")
EXPLICIT_TITLE = re.compile(r"^(?P<title>.+?)\s*<(?P<target>[^<>]+)>$", re.S)

# 折叠显示（<details>）的指令：参考答案、下拉框
FOLDED = {"dropdown", "solution", "toggle"}
# 参数是标题的指令，以及没有参数时的中文标题；其余的提示框（note、tip……）参数是正文的第一行，
# 标题用 Sphinx 的提示框标题（与网页相同的语言）
TITLED = {"admonition": "", "dropdown": "展开", "exercise": "练习", "margin": "旁注", "sidebar": "旁注",
          "topic": "", "card": ""}
# 跨多个单元格的练习、答案（sphinx-exercise 的 -start / -end 写法）：开头写一行粗体标题，结尾去掉
GATED = {"exercise-start": "练习", "solution-start": "参考答案"}
CODE_DIRECTIVES = {"code", "code-block", "sourcecode"}
GLUE_DIRECTIVES = {"glue", "glue:", "glue:any", "glue:figure", "glue:md", "glue:math"}


class Converter:
    """一个单元格一个 Converter：convert() 返回改写后的文字，attachments 收集 glue 的图片。"""

    def __init__(self, resolver):
        self.resolver = resolver
        self.attachments = {}

    # ------------------------------------------------------------------ 块级
    def convert(self, text):
        lines = text.split("\n")
        out, prose, i = [], [], 0

        def flush():
            if prose:
                out.append(self.inline("\n".join(prose)))
                prose.clear()

        while i < len(lines):
            line = lines[i]
            opened = FENCE_OPEN.match(line)
            plain = PLAIN_FENCE.match(line)
            if opened:
                flush()
                end = _closing(lines, i + 1, opened.group("fence"))
                out.append(self.directive(opened.group("name"), opened.group("arg").strip(), lines[i + 1:end]))
                i = end + 1
            elif plain:
                flush()
                end = _closing(lines, i + 1, plain.group(1))
                out.append("\n".join(lines[i:end + 1]))   # 普通代码块原样保留
                i = end + 1
            else:
                heading = HEADING.match(line)
                if heading:                       # 标题前加上网页上的节号
                    number = self.resolver.heading_number(heading.group(2))
                    prose.append(f"{heading.group(1)} {number}{heading.group(2)}")
                # 标签行 (name)=、块分隔 +++、MyST 注释 % ... 在笔记本里没有意义，去掉
                elif not (re.match(r"^\([^()\s]+\)=\s*$", line) or line.strip() == "+++" or line.startswith("%")):
                    prose.append(line)
                i += 1
        flush()
        return "\n".join(out)

    def directive(self, name, arg, body):
        options, body = _split_options(body)
        inner = "\n".join(body)
        if name in CODE_DIRECTIVES:
            return f"```{arg}\n{inner}\n```"
        if name == "math":
            return self.math(inner, options.get("label"))
        if name in GLUE_DIRECTIVES:
            return self.glue_block(arg, name, caption=self.convert(inner).strip())
        if name in ("image", "figure"):
            caption = self.convert(inner).strip()
            return f"![{options.get('alt', caption)}]({arg})" + (f"\n\n*{caption}*" if caption else "")
        if name in GATED:
            return f"**{GATED[name]}**"
        if name.endswith("-end"):
            return ""
        if name == "solution":            # 参数是对应练习的标签，不是标题
            title = "参考答案"
        elif name in TITLED:
            title = self.inline(arg) if arg else TITLED[name]
            if name == "exercise" and arg:
                title = f"练习：{title}"
        else:
            title = self.resolver.admonition_title(name) or name
            inner = "\n".join([arg] + body) if arg else inner
        content = self.convert(inner).strip("\n")
        if name in FOLDED or "dropdown" in options.get("class", "").split():
            return f"<details><summary>{title}</summary>\n\n{content}\n\n</details>"
        quoted = [f"> **{title}**", ">"] if title else []
        quoted += [f"> {line}" if line.strip() else ">" for line in content.split("\n")]
        return "\n".join(quoted)

    def math(self, body, label=None):
        tag = ""
        if label:
            number, _ = self.resolver.xref("eq", label, None)
            tag = f" \\tag{{{number.strip('()')}}}"
        return f"$$\n{body.strip()}{tag}\n$$"

    def glue_block(self, key, kind, caption=""):
        data = self.resolver.glue(key)
        if kind == "glue:md" and "text/markdown" in data:
            return data["text/markdown"]
        if kind == "glue:math" and "text/latex" in data:
            return f"$$\n{data['text/latex'].strip().strip('$')}\n$$"
        for mime in ("image/png", "image/jpeg"):   # glue 的图：作为单元格附件放进笔记本（数据已是 base64）
            if mime in data:
                name = f"{key}.{mime.split('/')[1]}"
                self.attachments[name] = {mime: data[mime]}
                return f"![{caption or key}](attachment:{name})" + (f"\n\n*{caption}*" if caption else "")
        return self.resolver.glue_text(key, "s")

    # ------------------------------------------------------------------ 行内
    def inline(self, text):
        text = LABELED_MATH.sub(lambda m: self.math(m.group("body"), m.group("label")), text)
        return INLINE.sub(self._inline_match, text)

    def _inline_match(self, match):
        role, body = match.group("role"), match.group("body")
        if role is None:
            return match.group(0)               # 普通的行内代码，原样保留
        if role == "glue:text":
            # 与 myst-nb 相同：最后一个冒号之后是格式说明，没有时按 "s"
            key, _, fmt = body.rpartition(":") if ":" in body else (body, "", "s")
            return self.resolver.glue_text(key, fmt)
        if role in ("glue", "glue:", "glue:any"):
            return self.resolver.glue(body)["text/plain"]   # 与 myst-nb 相同：原样显示 text/plain
        if role == "glue:md":
            return self.resolver.glue(body).get("text/markdown", self.resolver.glue_text(body, "s"))
        if role == "glue:math":
            return f"${self.resolver.glue(body).get('text/latex', '').strip().strip('$')}$"
        if role == "math":
            return f"${body}$"
        explicit = EXPLICIT_TITLE.match(body)
        title, target = (explicit.group("title"), explicit.group("target")) if explicit else (None, body)
        if role in ("eq", "doc", "ref", "numref", "any", "std:ref", "std:doc"):
            text, url = self.resolver.xref(role.split(":")[-1], target.strip(), title)
            if url and hasattr(self.resolver, "link"):   # 读者版的压缩包：打开旁边的笔记本（reader_edition.BuildResolver）
                return self.resolver.link(text, url)
            return f"[{text}]({url})" if url else text
        if role in ("sub", "sup"):
            return f"<{role}>{body}</{role}>"
        if role == "kbd":
            return f"<kbd>{body}</kbd>"
        if role in ("code", "samp", "file", "command"):
            return f"`{body}`"
        return title or target                  # abbr、term、index 等：只保留文字


def _closing(lines, start, fence):
    """从 start 起找与 fence 配对的结束围栏行号；找不到就到末尾。"""
    char = fence[0]
    for j in range(start, len(lines)):
        stripped = lines[j].strip()
        if stripped and set(stripped) == {char} and len(stripped) >= len(fence):
            return j
    return len(lines)


def _split_options(body):
    """拆出指令开头的选项：`:key: value` 行，或 --- 包起来的 YAML 块。"""
    options = {}
    if body and body[0].strip() == "---":
        end = next((j for j in range(1, len(body)) if body[j].strip() == "---"), None)
        if end is not None:
            import yaml
            options = {str(k): str(v) for k, v in (yaml.safe_load("\n".join(body[1:end])) or {}).items()}
            return options, body[end + 1:]
    k = 0
    while k < len(body) and re.match(r"^\s*:[\w-]+:", body[k]):
        key, _, value = body[k].strip()[1:].partition(":")
        options[key] = value.strip()
        k += 1
    return options, body[k:]
