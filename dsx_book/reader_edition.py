"""Sphinx 小扩展：构建网页的同时生成「读者版笔记本」，并让 Colab 按钮和下载按钮指向它。

书中的章节笔记本是唯一的源文件：正文里有 {glue:text}、{eq}、{doc} 等 MyST 语法，在网页上会被换成
数字、式号和链接，但在 Jupyter 或 Colab 里打开源文件时只会原样显示。构建结束时，本扩展为每一章写出
一个读者版笔记本，正文中的这些语法都换成网页上显示的内容（值从本次构建的结果里读，不重新计算）：

- _build/reader/book/<章>.ipynb：发布流程把 _build/reader/ 推到仓库的 notebooks 分支，Colab 从那里打开；
- _build/html/notebooks/<章>.ipynb：网页上的下载按钮给的就是这个文件；
- _build/html/notebooks/dsx-notebooks.zip：全部章节、dsx_util 的 wheel 和一份「本地运行说明.md」；
- _build/html/dist/：make dist 构建的 wheel 与 sdist（首页的下载链接和 Colab 里的设置单元格指向这里），
  读者不需要 PyPI 上的发布、也不需要访问 GitHub 就能安装 dsx_util。

网页版的地址默认由 _config.yml 的 repository.url 推出（GitHub Pages：https://<owner>.github.io/<repo>/），
需要时在 _config.yml 的 sphinx.config 里设 dsx_web_url 覆盖。
"""
import json
import re
import time
import zipfile
from pathlib import Path
from urllib.parse import urljoin

import nbformat
from docutils import nodes
from sphinx import addnodes
from sphinx.errors import ExtensionError
from sphinx.locale import admonitionlabels
from sphinx.util import logging

from .executed import executed_notebook, output_folder
from .myst_markdown import Converter

NOTEBOOKS_BRANCH = "notebooks"   # 发布流程把 _build/reader/ 推到这个分支的根目录
ARCHIVE = "dsx-notebooks.zip"
DIST = Path(__file__).resolve().parent.parent / "_build" / "dist"   # make dist 的输出
SITE_DIST = "dist"               # 网站里放 wheel 与 sdist 的文件夹（nbsync.wheel_url 用同一个名字）
logger = logging.getLogger(__name__)
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
RERUN_HINT = ("> **重新打开笔记本之后**：下面的探索器是交互部件（widget），只在运行它的那次内核会话里有效。"
              "关掉再打开本笔记本时，它的位置会显示「Error displaying widget: model not found」。"
              "这不是错误：从头依次重新运行单元格（至少重新运行前面的 import 和探索器所在的单元格）即可。")


# ---------------------------------------------------------------- 地址
def repo_parts(config):
    """(owner, repo)：取自 _config.yml 的 repository.url（Jupyter Book 把它放进 html_theme_options）。"""
    url = (config.html_theme_options or {}).get("repository_url", "")
    match = re.match(r"https?://github\.com/([^/]+)/([^/#?]+?)(?:\.git)?/?$", url)
    if not match:
        raise ExtensionError(f"_config.yml 的 repository.url 不是 GitHub 仓库地址：{url!r}。"
                             "请写成 https://github.com/<owner>/<repo>。")
    return match.group(1), match.group(2)


def web_url(config):
    """网页版的根地址，以 / 结尾。"""
    if config.dsx_web_url:
        return config.dsx_web_url.rstrip("/") + "/"
    owner, repo = repo_parts(config)
    return f"https://{owner.lower()}.github.io/{repo}/"


def colab_url(config, docname):
    owner, repo = repo_parts(config)
    launch = (config.html_theme_options or {}).get("launch_buttons", {})
    base = (launch.get("colab_url") or "https://colab.research.google.com").rstrip("/")
    return f"{base}/github/{owner}/{repo}/blob/{NOTEBOOKS_BRANCH}/{docname}.ipynb"


def chapters(app):
    """以 .ipynb 为源文件的页面（按文档名排序）。"""
    return sorted(d for d in app.env.found_docs if str(app.env.doc2path(d)).endswith(".ipynb"))


# ---------------------------------------------------------------- 从构建结果里取值
class BuildResolver:
    """给 myst_markdown.Converter 提供一章的 glue 值、式号和页面链接，全部取自本次 Sphinx 构建。"""

    def __init__(self, app, docname, local=None):
        self.app, self.docname = app, docname
        self.page_url = urljoin(web_url(app.config), app.builder.get_target_uri(docname))
        self._glue, self._numbers = {}, None
        # 压缩包版：{文档名: 压缩包里同一文件夹中的文件名}；链接到这些文档时打开旁边的文件，后面附上网页地址
        self.local = local or {}

    def glue(self, key):
        doc, _, name = key.rpartition("::")
        docname = self.docname if not doc else str(Path(self.docname).parent / Path(doc).with_suffix(""))
        if docname not in self._glue:
            path = output_folder(self.app) / f"{docname}.glue.json"
            self._glue[docname] = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        data = self._glue[docname].get(name)
        if data is None:
            raise ExtensionError(f"读者版笔记本：{docname} 里没有名为 {name!r} 的 glue 值。"
                                 "请检查正文里的名字，或确认这一章的代码调用了 glue(...)。")
        return data["data"]

    def glue_text(self, key, fmt):
        from myst_nb.core.variables import format_plain_text
        return format_plain_text(self.glue(key)["text/plain"], fmt)

    def xref(self, role, target, title):
        env, builder = self.app.env, self.app.builder
        if role in ("ref", "numref"):
            target = target.lower()      # 与 Sphinx 的 ref、numref 角色一样，标签不区分大小写
        domain = env.get_domain("math" if role == "eq" else "std")
        content = nodes.inline(title or target, title or target)
        pending = addnodes.pending_xref("", content, refdomain=domain.name, reftype=role, reftarget=target,
                                        refexplicit=title is not None, refdoc=self.docname, refwarn=True)
        if role == "any":
            found = domain.resolve_any_xref(env, self.docname, builder, target, pending, content)
            resolved = found[0][1] if found else None
        else:
            resolved = domain.resolve_xref(env, self.docname, builder, role, target, pending, content)
        if resolved is None:
            raise ExtensionError(f"读者版笔记本：{self.docname} 里的 {{{role}}}`{target}` 找不到目标。")
        text = resolved.astext()
        uri = resolved.get("refuri")
        if not uri and role != "eq" and resolved.get("refid"):   # 同一页里的 {ref}：链接到网页上的这一节
            uri = "#" + resolved["refid"]
        return text, (urljoin(self.page_url, uri) if uri else None)

    def link(self, text, url):
        """Markdown 链接。压缩包版里指向另一章或术语表的链接打开旁边的笔记本，后面的「网页」链接是后备
        （单独拿到一个笔记本、旁边没有别的文件时用）。"""
        if self.local and url:
            base = web_url(self.app.config)
            path = url[len(base):].split("#")[0] if url.startswith(base) else ""
            target = self.local.get(path[:-len(".html")] if path.endswith(".html") else None)
            if target and path != self.app.builder.get_target_uri(self.docname):
                return f"[{text}]({target})<sup>[网页]({url})</sup>"
        return f"[{text}]({url})"

    def heading_number(self, title):
        """网页上这个标题前的节号（如 "4.1. "），取自 Sphinx 排好的目录；没有编号时返回 ""。"""
        if self._numbers is None:
            toc = self.app.env.tocs.get(self.docname)
            suffix = self.app.config.html_secnumber_suffix
            self._numbers = {_plain(ref.astext()): ".".join(map(str, ref["secnumber"])) + suffix
                             for ref in (toc.findall(nodes.reference) if toc else []) if ref.get("secnumber")}
        return self._numbers.get(_plain(title), "")

    @staticmethod
    def admonition_title(name):
        return str(admonitionlabels[name]) if name in admonitionlabels else ""


def _plain(title):
    """比较标题用：去掉 Markdown 标记（`、*、$）和空白。"""
    return re.sub(r"[`*$\s]", "", title)


# ---------------------------------------------------------------- 生成
def reader_notebook(app, docname, local=None):
    """按源笔记本生成读者版：Markdown 单元格改写，代码单元格原样保留、清空输出；glue 单元格不要。
    local（压缩包版）：{文档名: 旁边的文件名}，交叉引用打开旁边的笔记本（见 BuildResolver.link）。"""
    source = nbformat.read(str(app.env.doc2path(docname)), as_version=4)
    resolver = BuildResolver(app, docname, local)
    widget_cells = widget_cell_ids(executed_notebook(app, docname, source))
    cells, hinted = [], False
    for cell in source.cells:
        if cell.cell_type == "markdown":
            converter = Converter(resolver)
            cell.source = converter.convert(cell.source)
            if converter.attachments:
                cell["attachments"] = converter.attachments
        elif cell.cell_type == "code":
            if is_glue_cell(cell):
                continue   # 书自己的记账（把数交给正文），网页上也不显示；读者版里没有它，笔记本照样从头运行
            cell.outputs, cell.execution_count = [], None
            if not hinted and cell.get("id") in widget_cells:
                cells.append(nbformat.v4.new_markdown_cell(RERUN_HINT))
                hinted = True
        cells.append(cell)
    source.cells = cells
    return source


def is_glue_cell(cell):
    """只给正文供数的隐藏单元格（标签 glue 和 remove-cell）：网页、PDF 与读者版都不显示。"""
    tags = cell.get("metadata", {}).get("tags", [])
    return cell.get("cell_type") == "code" and "glue" in tags and "remove-cell" in tags


def widget_cell_ids(executed):
    """输出含交互部件（ipywidgets，如探索器）的代码单元格的 id。检查器的输出是静态 HTML，重新打开后照常显示。"""
    return {cell.get("id") for cell in executed.cells if cell.cell_type == "code"
            and any(WIDGET_MIME in out.get("data", {}) for out in cell.get("outputs", []))}


def local_run_notes(app, docnames):
    from . import install, nbsync
    version, wheel = nbsync.package_version(), nbsync.wheel_name()
    url = web_url(app.config)
    listing = "\n".join(f"- `{Path(d).name}.ipynb`：{BuildResolver(app, d).heading_number(app.env.titles[d].astext())}"
                        f"{app.env.titles[d].astext()}" for d in docnames)
    if GLOSSARY in app.env.found_docs:
        listing += "\n- `glossary.ipynb`：术语表"
    trouble = "\n\n".join(install.trouble_note())
    return f"""# 本地运行说明

这里是《{app.config.html_title}》全部章节的笔记本，以及本书的工具包 dsx_util 的安装文件 `{wheel}`。
正文里的数字就是构建网页时代码算出的值；在自己的电脑上从头运行每一章，得到的应当是同样的结果。
网页版：{url}
网页版的压缩包（下载后不联网也能读，见下面「完全没有网络时」）：{url}{install.WEB_ARCHIVE}

## 1. 安装（Windows、macOS、Linux 都能用；不需要 make，也不需要访问 GitHub）

{install.python_sentence()}。在本文件所在的文件夹里打开终端（Windows 用「命令提示符」或 PowerShell），
运行下面的命令：建一个虚拟环境并激活它，装只带 CPU 的 PyTorch，再从本文件夹里的 wheel 安装 dsx_util 和 JupyterLab。
国内镜像已经写在命令里（`pip config` 那一行与 `-f` 后面的地址），在 macOS、Linux 上整块复制即可（Windows 见命令下面的说明）；不需要访问 download.pytorch.org、PyPI 或 GitHub。

```bash
{install.install_block(wheel)}
```

{install.mirror_note()}

{install.torch_note()[0]}

{install.torch_note()[1]}

{trouble}

其他安装来源：dsx_util 发布到 PyPI 之后（镜像同步之后也一样），可以直接 `pip install dsx_util=={version} jupyterlab`；
能访问 GitHub 时，也可以从仓库的版本标签安装：`pip install "{nbsync.install_spec()}"`。

## 2. 以后再打开

在本文件所在的文件夹里先激活虚拟环境（`source .venv/bin/activate`，Windows：`.venv\\Scripts\\activate`），再运行：

```bash
jupyter lab
```

浏览器会打开 JupyterLab，双击任一章即可。每章的第一个单元格（已折叠）检查 dsx_util：已经装好就直接用；
没装时安装本文件夹里的 `{wheel}`，找不到它就打印安装步骤。最后它在这个内核里逐个导入 dsx_util 和它的依赖，
都导入得了才说「环境已就绪」；导入不了时说出是哪个包，以及要重启内核还是重装。
交互探索器和练习检查器需要运行单元格才会出现；重新打开笔记本后，从头再运行一遍即可。
正文里指向其他章节和术语表的链接打开本文件夹里的笔记本；链接后面的「网页」打开网页版的同一处（需要能访问网页版）。

## 章节

{listing}
"""


def remember_read_docs(app, env, docnames):
    """env-before-read-docs：记下这次构建重新读入了哪些文档（什么都没改时是空的）。"""
    app.dsx_read_docs = list(docnames)


def up_to_date(app, archive):
    """这次构建没有重新读入任何文档，读者版也比生成它的代码新：上次写出的读者版仍然正确，不必重写。

    任何一章重新读入都全部重写（式号、跨章链接可能随之变化）；改 dsx_util 会让各章重新读入（dsx_status.py），
    make dist 重新构建的 wheel 比压缩包新，也会重写。
    """
    if getattr(app, "dsx_read_docs", None) != [] or not archive.exists():
        return False
    inputs = [Path(__file__), Path(__file__).with_name("myst_markdown.py"), *DIST.glob("dsx_util-*")]
    return archive.stat().st_mtime >= max(p.stat().st_mtime for p in inputs)

def copy_dist(outdir):
    """把 make dist 构建的 wheel 与 sdist 复制到网站的 dist/ 下；返回 wheel 的路径（没有时给出警告并返回 None）。"""
    from . import nbsync
    version = nbsync.package_version()
    files = [DIST / nbsync.wheel_name(version), DIST / f"dsx_util-{version}.tar.gz"]
    missing = [f.name for f in files if not f.is_file()]
    if missing:
        logger.warning(f"没有找到 {'、'.join(missing)}：网页版和笔记本压缩包里不会有 dsx_util 的安装文件。"
                       "请先运行 make dist（make book 会先运行它）。")
        return None
    target = Path(outdir) / SITE_DIST
    target.mkdir(parents=True, exist_ok=True)
    for old in target.glob("dsx_util-*"):
        old.unlink()
    for f in files:
        (target / f.name).write_bytes(f.read_bytes())
    return target / files[0].name


def write_reader_edition(app, exception):
    # 只在网页版构建时写：singlehtml（PDF 版的来源）的 format 也是 html，但它没有各章自己的式号与页面
    if exception is not None or app.builder.name != "html":
        return
    reader_root = Path(app.outdir).parent / "reader"
    download_dir = Path(app.outdir) / "notebooks"
    if up_to_date(app, download_dir / ARCHIVE):
        return
    download_dir.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    names, docnames = [], chapters(app)
    for docname in docnames:
        text = nbformat.writes(reader_notebook(app, docname)) + "\n"
        target = reader_root / f"{docname}.ipynb"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        name = Path(docname).name
        (download_dir / f"{name}.ipynb").write_text(text, encoding="utf-8")
        names.append(name)
    wheel = copy_dist(app.outdir)
    local = archive_links(app, docnames)
    with zipfile.ZipFile(download_dir / ARCHIVE, "w", zipfile.ZIP_DEFLATED) as archive:
        for docname in docnames:   # 压缩包里的章节：交叉引用打开旁边的笔记本或术语表
            archive.writestr(f"dsx-notebooks/{local[docname]}", nbformat.writes(reader_notebook(app, docname, local)) + "\n")
        if GLOSSARY in app.env.found_docs:
            archive.writestr(f"dsx-notebooks/{local[GLOSSARY]}", nbformat.writes(glossary_notebook(app, local)) + "\n")
        if wheel is not None:   # 放在笔记本旁边：设置单元格找到它就会安装
            archive.write(wheel, f"dsx-notebooks/{wheel.name}")
        archive.writestr("dsx-notebooks/本地运行说明.md", local_run_notes(app, docnames))
    logger.info(f"读者版笔记本：{len(names)} 章，写到 {reader_root} 和 {download_dir}"
                f"（{time.perf_counter() - started:.1f} 秒）")


GLOSSARY = "book/glossary"


def archive_links(app, docnames):
    """压缩包里每个文档的文件名：各章是 <章>.ipynb，术语表是 glossary.ipynb（一个 Markdown 单元格）。"""
    names = {d: f"{Path(d).name}.ipynb" for d in docnames}
    if GLOSSARY in app.env.found_docs:
        names[GLOSSARY] = f"{Path(GLOSSARY).name}.ipynb"
    return names


def glossary_notebook(app, local):
    """术语表做成只有一个 Markdown 单元格的笔记本，条目里的链接同样打开旁边的章节。"""
    text = Path(app.env.doc2path(GLOSSARY)).read_text(encoding="utf-8")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(Converter(BuildResolver(app, GLOSSARY, local)).convert(text))]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return nb


# ---------------------------------------------------------------- 页面上的按钮
def point_buttons_at_reader_edition(app, pagename, templatename, context, doctree):
    """章节页面：Colab 按钮打开 notebooks 分支上的读者版，下载按钮给读者版 .ipynb。"""
    if pagename not in app.env.found_docs or not str(app.env.doc2path(pagename)).endswith(".ipynb"):
        return
    pathto = context["pathto"]
    for group in context.get("header_buttons", []):
        for button in group.get("buttons", []):
            if button.get("text") == "Colab":
                button["url"] = colab_url(app.config, pagename)
            elif button.get("label") == "download-source-button":
                button["url"] = pathto(f"notebooks/{Path(pagename).name}.ipynb", 1)
                button["text"] = ".ipynb"
                button["tooltip"] = "下载本章笔记本（正文中的数字已填好）"
