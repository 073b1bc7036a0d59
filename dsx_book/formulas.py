"""Sphinx 小扩展：构建时排版全部公式，网页里不再需要 MathJax 脚本。

读完全部章节之后（env-updated），把所有公式一次交给 node 运行的 MathJax 3（npm 包 mathjax-full，
见 dsx_book/formulas.js），整本书只启动一个 node 进程；结果按公式缓存在 doctree 目录里，
公式没有变化的重建不启动 node。写网页时，公式直接以排版好的 CommonHTML 写进页面：
首次绘制时就能看到，之后不会重排，打印也无需脚本。

- 行内公式 `<span class="math">`、行间公式 `<div class="math">` 与编号 `<span class="eqno">`
  的结构与 Sphinx 自带的 MathJax 渲染器相同，`{eq}` 引用照常工作；
- 公式样式（只含本书用到的字符）写在 `_static/dsx-math/math.css`，字体在 `_static/dsx-math/fonts/`，
  样式每页都引用（全站共用、只下载一次），含公式的页面预先加载本页用到的字体；
- 字体是 MathJax 字体的子集，只含样式里出现的字符（全书约 80 个），约为完整字体的三分之一；
- 每个公式带一份看不见的 TeX 源码：复制一段正文时，公式以 `$...$` 的形式一起被复制；
- 公式写错时构建报警告（-W 下即失败），并指明章节和公式。
"""
import hashlib
import json
import re
import shutil
import subprocess
from html import escape
from pathlib import Path

from docutils import nodes
from sphinx.util import logging
from sphinx.util.math import get_node_equation_number

from .font_subset import write_woff_subset

logger = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parent.parent
RENDER_JS = Path(__file__).with_name("formulas.js")
MATHJAX = ROOT / "node_modules" / "mathjax-full"
FONTS = MATHJAX / "es5" / "output" / "chtml" / "fonts" / "woff-v2"
STATIC = "dsx-math"                    # 输出目录 _static/ 下的子目录
CACHE = "dsx_math.json"                # doctree 目录里的缓存文件


# ---------------------------------------------------------------- 公式的 TeX
def display_tex(node):
    """行间公式交给 MathJax 的 TeX：与 sphinx.ext.mathjax 的拼法相同（多段用 aligned，含换行的段用 split）。"""
    if node["nowrap"]:
        return node.astext()
    parts = [p for p in node.astext().split("\n\n") if p.strip()]
    parts = [r"\begin{split}" + p + r"\end{split}" if r"\\" in p else p for p in parts]
    if len(parts) > 1:
        return r"\begin{align}\begin{aligned}" + r"\\".join(parts) + r"\end{aligned}\end{align}"
    return parts[0] if parts else ""


def formula_key(node):
    if isinstance(node, nodes.math_block):
        return ("display", display_tex(node))
    return ("inline", node.astext())


def _fingerprint():
    version = json.loads((MATHJAX / "package.json").read_text(encoding="utf-8"))["version"]
    return hashlib.sha256((version + RENDER_JS.read_text(encoding="utf-8")).encode()).hexdigest()[:16]


# ---------------------------------------------------------------- 一次排版全书
def typeset_all(app, env):
    """env-updated：收集全书的公式；缓存里缺的时候用一个 node 进程把全部公式重新排版一遍。

    返回排版结果有变化的章节（例如换了 MathJax 版本），Sphinx 会重写这些页面。
    """
    if app.builder.format != "html":
        return []
    if not (MATHJAX / "package.json").exists():
        logger.warning("构建时排版公式需要 npm 包 mathjax-full：请先运行 make node_modules/.installed"
                       "（即 npm install）", type="dsx_math")
        app.dsx_math = {"html": {}, "css": ""}
        return []
    docs = {}
    for docname in sorted(env.found_docs):
        for node in env.get_doctree(docname).findall(lambda n: isinstance(n, (nodes.math, nodes.math_block))):
            docs.setdefault(formula_key(node), set()).add(docname)

    cache_file = Path(app.doctreedir) / CACHE
    cache = json.loads(cache_file.read_text(encoding="utf-8")) if cache_file.exists() else {}
    old = {tuple(json.loads(k)): v for k, v in cache.get("html", {}).items()}
    fingerprint = _fingerprint()
    if cache.get("fingerprint") != fingerprint or not set(docs) <= set(old):
        cache = _run_node(list(docs), docs)
        cache["fingerprint"] = fingerprint
        cache_file.write_text(json.dumps(cache, ensure_ascii=False), encoding="utf-8")
    html = {tuple(json.loads(k)): v for k, v in cache["html"].items()}
    app.dsx_math = {"html": html, "css": cache["css"]}
    return sorted({d for key, names in docs.items() if html.get(key) != old.get(key) for d in names})


def _run_node(keys, docs):
    request = {"fontURL": "fonts", "formulas": [{"tex": tex, "display": kind == "display"} for kind, tex in keys]}
    done = subprocess.run(["node", str(RENDER_JS)], input=json.dumps(request), capture_output=True,
                          text=True, encoding="utf-8", cwd=ROOT)
    if done.returncode != 0:
        raise RuntimeError(f"node 排版公式失败（退出码 {done.returncode}）：{done.stderr[-2000:]}")
    result = json.loads(done.stdout)
    html = {}
    for key, out, error in zip(keys, result["html"], result["errors"]):
        if error:
            logger.warning(f"公式无法排版（{error}）：{key[1]!r}", location=min(docs[key]), type="dsx_math")
        else:
            html[json.dumps(key, ensure_ascii=False)] = out
    return {"html": html, "css": result["css"]}


# ---------------------------------------------------------------- 写进网页
def _rendered(self, node):
    key = formula_key(node)
    html = self.builder.app.dsx_math["html"].get(key)
    if html is None:
        logger.warning(f"公式没有在构建时排版：{key[1]!r}", location=node, type="dsx_math")
        return escape(key[1])
    tex = node.astext().strip()
    source = f"${tex}$" if key[0] == "inline" else f"$${tex}$$"
    # 看不见、读屏软件也跳过，但能被选中复制的 TeX 源码，放在 mjx-container 里面
    copy = f'<span class="dsx-math-tex" aria-hidden="true">{escape(source)}</span>'
    return html[: -len("</mjx-container>")] + copy + "</mjx-container>"


def visit_math(self, node):
    self.body.append(self.starttag(node, "span", "", CLASS="math notranslate nohighlight"))
    self.body.append(_rendered(self, node) + "</span>")
    raise nodes.SkipNode


def visit_displaymath(self, node):
    self.body.append(self.starttag(node, "div", CLASS="math notranslate nohighlight"))
    if node["number"] and not node["nowrap"]:
        number = get_node_equation_number(self, node)
        self.body.append(f'<span class="eqno">({number})')
        self.add_permalink_ref(node, "Link to this equation")
        self.body.append("</span>")
    self.body.append(_rendered(self, node) + "</div>\n")
    raise nodes.SkipNode


# ---------------------------------------------------------------- 样式与字体
FONT_CLASS = re.compile(r'class="mjx-c[0-9A-F]+ TEX-([A-Z0-9]+)"')


def _font_files(css):
    """@font-face 的字体名 -> 字体文件名。"""
    return dict(re.findall(r'font-family: (MJX[A-Z0-9-]+);\s*src: url\("fonts/([^"]+)"\)', css))


def add_page_assets(app, pagename, templatename, context, doctree):
    """每页都引用公式样式（与主题样式一样全站共用：读者翻到下一章时它已在缓存里）；
    含公式的页面预先加载本页用到的字体（与样式并行下载，首次绘制时已就绪），字体只在用到时才下载。"""
    if not getattr(app, "dsx_math", None):
        return
    app.add_css_file(f"{STATIC}/math.css")
    body = context.get("body") or ""
    if "<mjx-container" not in body:
        return
    files = _font_files(app.dsx_math["css"])
    families = ["MJXZERO", "MJXTEX"] + [f"MJXTEX-{c}" for c in sorted(set(FONT_CLASS.findall(body)))]
    root = context["pathto"](f"_static/{STATIC}/fonts/", 1)
    links = "".join(f'<link rel="preload" href="{root}{files[f]}" as="font" type="font/woff" crossorigin>\n'
                    for f in families if f in files)
    context["metatags"] = context.get("metatags", "") + links


def write_assets(app, exception):
    """build-finished：写出公式样式（外加复制用 TeX 的隐藏样式），复制样式里引用到的字体。"""
    if exception or app.builder.format != "html" or not getattr(app, "dsx_math", None):
        return
    out = Path(app.outdir) / "_static" / STATIC
    (out / "fonts").mkdir(parents=True, exist_ok=True)
    css = app.dsx_math["css"] + """
/* 复制用的 TeX 源码：看不见、不占位置，但选中一段正文复制时会带上它 */
.dsx-math-tex {
  position: absolute; width: 1px; height: 1px; overflow: hidden; white-space: pre;
  clip-path: inset(50%); line-height: normal;
}
"""
    target = out / "math.css"
    if not target.exists() or target.read_text(encoding="utf-8") != css:
        target.write_text(css, encoding="utf-8")
    chars = css_characters(css)
    for name in _font_files(css).values():
        if name == ZERO_FONT:        # 只有一个零宽字形、排在每个公式字体列表最前面的小字体：原样复制
            shutil.copyfile(FONTS / name, out / "fonts" / name)
        else:
            write_woff_subset(FONTS / name, out / "fonts" / name, chars, stamps=Path(app.doctreedir) / "font-subsets.json")


ZERO_FONT = "MathJax_Zero.woff"
CSS_CONTENT = re.compile(r'content: "((?:[^"\\]|\\.)*)"')
CSS_ESCAPE = re.compile(r'\\([0-9A-Fa-f]{1,6}) ?|\\(.)')


def css_characters(css):
    """样式里 content: "..." 写出的全部字符（CSS 转义如 \\2211 已解码）：公式里会显示的字符只有这些。"""
    chars = set()
    for text in CSS_CONTENT.findall(css):
        decoded = CSS_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)) if m.group(1) else m.group(2), text)
        chars.update(map(ord, decoded))
    return chars
