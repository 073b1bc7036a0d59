"""dsx_book/myst_markdown.py：书里暂时还没用到、但写章节时随时会加上的 MyST 写法，也要改写成普通 Markdown。

值由一个替身 resolver 提供（真实构建里由 dsx_book/reader_edition.py 从 Sphinx 取值）；这里只检查改写本身。
"""


from dsx_book.myst_markdown import Converter

MYST_MARKS = ["{glue", "{eq}", "{doc}", "{ref}", "{math}", "```{", ":::"]


class FakeResolver:
    glued = {"ch99_mean": {"text/plain": "0.123456"}, "ch99_fig": {"image/png": "iVBORw0KGgo=", "text/plain": "<Figure>"}}

    def glue(self, key):
        return self.glued[key]

    def glue_text(self, key, fmt):
        from myst_nb.core.variables import format_plain_text
        return format_plain_text(self.glued[key]["text/plain"], fmt)

    def xref(self, role, target, title):
        if role == "eq":
            return "(9.2)", None
        return title or "第九章", f"https://example.org/book/{target}.html"

    @staticmethod
    def heading_number(title):
        return "9.1. " if title == "小节" else ""

    @staticmethod
    def admonition_title(name):
        return {"note": "备注", "warning": "警告"}.get(name, "")


def convert(text):
    converter = Converter(FakeResolver())
    return converter.convert(text), converter.attachments


def assert_plain(text):
    for mark in MYST_MARKS:
        assert mark not in text, f"改写后还有 {mark!r}：\n{text}"


def test_colon_fence_admonition_with_labelled_math_directive():
    out, _ = convert(":::{note}\n均值是 {glue:text}`ch99_mean:.2f`：\n\n```{math}\n:label: eq-mean\n\\mu = 1\n```\n:::")
    assert_plain(out)
    assert out.startswith("> **备注**\n>")
    assert "> 均值是 0.12：" in out
    assert "\\mu = 1 \\tag{9.2}" in out and out.count("$$") == 2


def test_admonition_text_on_the_directive_line_is_body_not_title():
    out, _ = convert("```{warning} 不要这样做。\n第二行。\n```")
    assert out == "> **警告**\n>\n> 不要这样做。\n> 第二行。"


def test_dropdown_and_solution_fold_exercise_gets_a_title():
    out, _ = convert("::::{exercise} 手算方差\n算一算。\n::::\n\n:::{solution} ex-var\n答案见 {eq}`eq-var`。\n:::\n\n"
                     "```{dropdown} 想一想\n为什么？\n```\n\n```{admonition} 小结\n:class: dropdown\n三点。\n```")
    assert_plain(out)
    assert "> **练习：手算方差**" in out
    assert "<details><summary>参考答案</summary>\n\n答案见 (9.2)。\n\n</details>" in out
    assert "<details><summary>想一想</summary>" in out and "<details><summary>小结</summary>" in out


def test_cross_references_and_labelled_dollar_math():
    out, _ = convert("(sec-x)=\n% 作者注释\n见 {doc}`ch09_x` 与 {ref}`另一节 <sec-y>`。\n\n$$\na = b\n$$ (eq-a)")
    assert_plain(out)
    assert "(sec-x)=" not in out and "作者注释" not in out
    assert "见 [第九章](https://example.org/book/ch09_x.html) 与 [另一节](https://example.org/book/sec-y.html)。" in out
    assert "a = b \\tag{9.2}\n$$" in out


def test_code_is_left_alone():
    text = "写法是 `{glue:text}`，例如：\n\n```python\nx = '{eq}`a`'\n```"
    out, _ = convert(text)
    assert out == text


def test_glued_figure_becomes_a_cell_attachment():
    out, attachments = convert("```{glue:figure} ch99_fig\n:name: fig-x\n分布图\n```")
    assert_plain(out)
    assert out.startswith("![分布图](attachment:ch99_fig.png)")
    assert attachments == {"ch99_fig.png": {"image/png": "iVBORw0KGgo="}}


def test_headings_get_the_web_section_number():
    out, _ = convert("## 小节\n正文\n\n## 练习")
    assert out == "## 9.1. 小节\n正文\n\n## 练习"
