"""Sphinx 小扩展：网页里能直接编辑、运行、检查的练习（纯 Python 练习，见 dsx_util/exercises/list_checks.py）。

- 章节笔记本里，纯 Python 练习的模板单元格带标签 inpage-exercise（由 dsx_book/nbsync.py 生成）；本扩展在每个这样的
  单元格后面放一条工具栏（「运行并检查」「重置」）和反馈区，外加一小段内联脚本。只读不练的读者不会多下载任何文件：
  内联脚本在读者第一次点工具栏或代码时才去加载 inpage.js、编辑器（CodeMirror 5）和浏览器里的 Python（Pyodide）。
  工具栏下面紧接着的检查单元格（笔记本里运行检查的代码）上方有一行说明：它是给 Jupyter、Colab 用的，网页上不用运行。
- 构建结束时把需要的文件复制进网站的 _static/：Pyodide 核心文件与 CodeMirror 来自 npm 包（make 安装到
  node_modules/，版本写在 package.json），检查器就是 dsx_util 里的那一份（feedback.py、list_checks.py 和各网页练习的 check.py）。网页不从外部加载任何东西。
"""
import html
import json
import shutil
from pathlib import Path

from docutils import nodes
from sphinx.errors import ExtensionError

ROOT = Path(__file__).resolve().parent.parent
STATIC = Path(__file__).resolve().parent / "inpage_static"
NODE = ROOT / "node_modules"
PYODIDE_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")
CODEMIRROR_FILES = ("lib/codemirror.js", "lib/codemirror.css", "mode/python/python.js")
TAG = "inpage-exercise"
# 网页里的检查器：标准库核心 feedback.py、纯 Python 检查机制 list_checks.py 和每道网页练习文件夹里的 check.py，
# 在 Pyodide 里作为包 PAGE_PACKAGE 载入（保持 items/<练习>/check.py 的相对路径，相对导入与 CPython 里一样）
PAGE_PACKAGE = "dsx_page"
EXERCISES_DIR = ROOT / "dsx_util" / "exercises"
PAGE_LIST = "page_files.json"   # 网站里这些文件的清单（worker.js 按它载入）


def page_files():
    """网页要载入的检查器文件：[(相对 EXERCISES_DIR 的路径, 文件), ...]；网页练习的 check.py 由练习目录推出。"""
    from dsx_util.exercises.catalog import EXERCISES
    files = [EXERCISES_DIR / "feedback.py", EXERCISES_DIR / "list_checks.py"]
    files += [EXERCISES_DIR / "items" / ex.id.replace("-", "_") / "check.py" for ex in EXERCISES if ex.in_page]
    return [(path.relative_to(EXERCISES_DIR).as_posix(), path) for path in files]

# 工具栏的样式与加载器：每页只放一次，内联在页面里（不产生额外请求）
_LOADER = """<style>
.dsx-inpage{margin:.2em 0 1.2em}.dsx-inpage-bar{display:flex;flex-wrap:wrap;gap:.5em;margin:.3em 0}
.dsx-inpage-bar button{font:inherit;font-size:.9em;padding:.25em .9em;border-radius:4px;cursor:pointer;
border:1px solid var(--pst-color-border,#ccc);background:var(--pst-color-surface,#f5f5f5);color:var(--pst-color-text-base,#222)}
.dsx-inpage-bar button[data-action=run]{background:var(--pst-color-primary,#1565c0);border-color:transparent;color:#fff}
.dsx-inpage-keys{font-size:.8em;color:var(--pst-color-text-muted,#555);margin:.2em 0}
.dsx-keys-touch{display:none}@media (hover:none) and (pointer:coarse){.dsx-keys-desk{display:none}.dsx-keys-touch{display:inline}}
.dsx-inpage-feedback{font-size:.9em;padding:.4em .7em;border-left:4px solid var(--pst-color-border,#bbb);
color:var(--pst-color-text-muted,#555);white-space:pre-wrap}
.dsx-check-label{font-size:.8em;color:var(--pst-color-text-muted,#555);margin:.8em 0 .2em}
</style>
<script>(function(){var s=null;function go(e){if(s)return;var t=e&&e.target&&e.target.closest&&
e.target.closest(".dsx-inpage button,.dsx-inpage-code");if(e&&!t)return;s=document.createElement("script");
s.src=document.querySelector(".dsx-inpage").dataset.static+"inpage.js";window.dsxInpageFirst=t;
document.head.appendChild(s)}document.addEventListener("click",go);document.addEventListener("focusin",go);
document.addEventListener("DOMContentLoaded",function(){var b=document.querySelectorAll(".dsx-inpage");
for(var i=0;i<b.length;i++)if(localStorage.getItem("dsx-inpage:"+b[i].dataset.exercise)!==null)return go()})})();
</script>"""


def _runtime_mb():
    return sum((NODE / "pyodide" / f).stat().st_size for f in PYODIDE_FILES if (NODE / "pyodide" / f).exists()) / 2**20


def _toolbar(ex, static, first):
    attrs = {"data-exercise": ex.id, "data-checker": ex.checker, "data-entry": ex.entry, "data-static": static,
             "data-runtime-mb": f"{_runtime_mb():.0f}", "data-spec": json.dumps(ex.spec, ensure_ascii=False)}
    data = " ".join(f'{k}="{html.escape(v)}"' for k, v in attrs.items())
    return (f'<div class="dsx-inpage" {data}>'
            '<div class="dsx-inpage-bar"><button type="button" data-action="run">运行并检查</button>'
            '<button type="button" data-action="reset">重置</button></div>'
            '<div class="dsx-inpage-feedback" role="status" aria-live="polite">可以直接在网页里改上面的代码，'
            '再按「运行并检查」：代码在你的浏览器里运行，不需要安装任何东西。</div>'
            '<div class="dsx-inpage-keys"><span class="dsx-keys-desk">编辑器里 Tab 是缩进；先按 Esc 再按 Tab 离开编辑器，'
            'Ctrl+Enter 运行并检查。</span><span class="dsx-keys-touch">点一下代码就能编辑；长的行在编辑器里自动折行；'
            '回车后编辑器会自动缩进（冒号后多缩进一层），不用自己打空格，在行首按一次退格键退回一层；'
            '改好后按「运行并检查」。</span></div>'
            '</div>'
            + (_LOADER if first else ""))


CHECK_TAG = "exercise-check"
# 网页练习的检查单元格（笔记本里运行检查的代码）上方的一行：手机上的读者曾把它当成要在网页里运行的东西（学习者评审 r39）。
# 只加在网页版：读者版笔记本由章节笔记本生成，PDF 由 singlehtml 生成，都不经过 add_toolbars
CHECK_LABEL = ("下面这一格是给 Jupyter、Colab 用的：在笔记本里运行它来检查。"
               "在网页上不用运行它，上面的「运行并检查」做的是同样的检查。")


def _torch_note(ex, docname):
    """网页上不能运行的练习（要 PyTorch）：检查单元格的输出换成“去哪里运行”，附本章读者版笔记本的链接。"""
    chapter = docname.rsplit("/", 1)[-1]
    link = "../" * docname.count("/") + f"notebooks/{chapter}.ipynb"
    return (f'<div class="dsx-check dsx-check-elsewhere" data-state="elsewhere" data-exercise="{html.escape(ex.id)}" '
            'style="border-left:4px solid var(--pst-color-border,#bbb);padding:2px 8px;margin:4px 0;'
            'color:var(--pst-color-text-muted,#57606a)">'
            '○ 这道练习要用 PyTorch，不能在网页里运行。请在本地的 Jupyter 里打开'
            f'<a href="{html.escape(link)}" download>本章的读者版笔记本（{html.escape(chapter)}.ipynb）</a>'
            '（笔记本压缩包里也有，首页「怎样阅读」下载；能打开 Colab 时也可以用页面顶部的火箭按钮），'
            '把模板换成你的实现后运行它下面的检查单元格。</div>')


def mark_check_cells(doctree, docname, exercises):
    """网页练习：检查单元格上方加一行 CHECK_LABEL（这一格是给 Jupyter、Colab 用的）；
    要 PyTorch 的练习：检查单元格的输出（构建时模板未作答的提示）换成 _torch_note。"""
    cells = [n for n in doctree.findall(nodes.container) if f"tag_{CHECK_TAG}" in n.get("classes", [])]
    if len(cells) != len(exercises):
        raise ExtensionError(f"{docname}：有 {len(cells)} 个检查单元格，但目录里有 {len(exercises)} 道练习。"
                             "请运行 python -m dsx_book.nbsync。")
    for cell, ex in zip(cells, exercises):
        if ex.in_page:
            label = f'<p class="dsx-check-label" data-exercise="{html.escape(ex.id)}">{CHECK_LABEL}</p>'
            cell.parent.insert(cell.parent.index(cell), nodes.raw("", label, format="html"))
            continue
        for child in list(cell.children):
            if "cell_output" in child.get("classes", []):
                cell.remove(child)
        cell.append(nodes.raw("", _torch_note(ex, docname), format="html"))


def add_toolbars(app, doctree, docname):
    if app.builder.name != "html":  # 只给网页版加：singlehtml（PDF 版的来源）把全书拼成一页，打印出来也点不了
        return
    from dsx_util.exercises.catalog import exercises_for
    mark_check_cells(doctree, docname, exercises_for(docname.rsplit("/", 1)[-1]))
    exercises = [ex for ex in exercises_for(docname.rsplit("/", 1)[-1]) if ex.in_page]
    cells = [n for n in doctree.findall(nodes.container) if f"tag_{TAG}" in n.get("classes", [])]
    if len(cells) != len(exercises):
        raise ExtensionError(f"{docname}：有 {len(cells)} 个带 {TAG} 标签的单元格，但目录里有 {len(exercises)} 道"
                             "网页练习。请运行 python -m dsx_book.nbsync。")
    static = "../" * docname.count("/") + "_static/dsx_inpage/"
    for n, (cell, ex) in enumerate(zip(cells, exercises)):
        cell["classes"].append("dsx-inpage-code")
        cell.parent.insert(cell.parent.index(cell) + 1, nodes.raw("", _toolbar(ex, static, n == 0), format="html"))


def copy_runtime(app, exception):
    if exception is not None or app.builder.name != "html":
        return
    missing = [f"pyodide/{f}" for f in PYODIDE_FILES if not (NODE / "pyodide" / f).exists()]
    missing += [f"codemirror/{f}" for f in CODEMIRROR_FILES if not (NODE / "codemirror" / f).exists()]
    if missing:
        raise ExtensionError(f"node_modules 里缺少 {', '.join(missing)}：请先运行 make node_modules/.installed"
                             "（按 package.json 从 npm 安装 pyodide 与 codemirror）。")
    out = Path(app.outdir) / "_static"
    shutil.rmtree(out / "pyodide", ignore_errors=True)   # 换了 Pyodide 版本时不留下旧版本的文件
    (out / "pyodide").mkdir(parents=True)
    for name in PYODIDE_FILES:
        shutil.copy2(NODE / "pyodide" / name, out / "pyodide" / name)
    for name in CODEMIRROR_FILES:
        (out / "codemirror" / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(NODE / "codemirror" / name, out / "codemirror" / name)
    (out / "dsx_inpage").mkdir(parents=True, exist_ok=True)
    for path in STATIC.iterdir():
        shutil.copy2(path, out / "dsx_inpage" / path.name)
    for rel, path in page_files():
        (out / "dsx_inpage" / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, out / "dsx_inpage" / rel)
    (out / "dsx_inpage" / PAGE_LIST).write_text(json.dumps([rel for rel, _ in page_files()]), encoding="utf-8")
