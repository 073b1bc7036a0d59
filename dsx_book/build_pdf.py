"""PDF 版：把整本书打印成一个中文 PDF（make pdf 运行它）。

路线：Sphinx 的 singlehtml 构建器把全书渲染成一页 HTML（与网页版同一份源文件、同一个执行缓存
_build/.jupyter_cache，网页版是最新的时候不会再执行任何一章），再由 Debian 的 chromium（Playwright 驱动）
打印成 PDF：公式等 MathJax 排好版后再打印（构建时已排好版的公式直接打印），书签来自各级标题（tagged PDF），
页码在页脚。版面改造在 dsx_book/pdf/prepare.js，打印样式在 dsx_book/pdf/print.css，只用于 PDF。

打印多遍：第一遍得到各章各节所在的页码（从 PDF 书签读出），填进目录后再打印，直到某一遍的版面与目录所填
页码一致（通常两到四遍；见 print_pdf 里的说明）。
结果：_build/pdf/gpt-layernorm.pdf；若网页版已构建，再复制一份到 _build/html/，首页的链接指向它。
"""
import argparse
import base64
import functools
import html
import http.server
import json
import logging
import re
import shutil
import subprocess
import sys
import threading
import time
import unicodedata
from pathlib import Path
from urllib.parse import urlparse

import yaml

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent / "pdf"
BUILD = ROOT / "_build"
SINGLE = BUILD / "singlehtml"
OUT_DIR = BUILD / "pdf"
NAME = "gpt-layernorm"          # 首页 book/index.md 的下载链接用的也是这个文件名
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-extensions"]
TEXT_WIDTH_PX = 650              # A4 宽 210 mm 减去左右页边距各 18 mm ≈ 174 mm ≈ 657 CSS 像素
SCREENSHOT_SCALE = 3             # 探索器截图的像素密度：3 倍 CSS 像素 ≈ 288 dpi
MARGIN = {"top": "20mm", "bottom": "18mm", "left": "18mm", "right": "18mm"}
FONT = "font-family:'Noto Sans CJK SC',sans-serif;font-size:8px;color:#666;width:100%;margin:0 18mm;"


def pdf_path():
    return OUT_DIR / f"{NAME}.pdf"


def book_info():
    """书名、作者、版本号（dsx_util.__version__，全书唯一写版本号的地方）与网页版地址（由 _config.yml 的 repository.url 推出）。"""
    from .nbsync import package_version
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    version = package_version()
    url = config["repository"]["url"].rstrip("/")
    owner, repo = urlparse(url).path.strip("/").split("/")[:2]
    if repo.endswith(".git"):
        repo = repo[:-4]
    return {"title": config["title"], "author": config.get("author", ""), "version": version,
            "site": f"https://{owner.lower()}.github.io/{repo}/"}


def build_singlehtml():
    """jupyter-book 的 singlehtml 构建；返回日志。执行缓存与网页版共用。"""
    jb = Path(sys.executable).with_name("jupyter-book")
    done = subprocess.run([str(jb), "build", str(ROOT), "--builder", "singlehtml", "-W", "-n", "--keep-going"],
                          capture_output=True, text=True, cwd=ROOT)
    log = done.stdout + done.stderr
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    (OUT_DIR / "singlehtml.log").write_text(log, encoding="utf-8")
    if done.returncode != 0:
        raise SystemExit(f"单页 HTML 构建失败（返回码 {done.returncode}），日志见 {OUT_DIR / 'singlehtml.log'}：\n"
                         + log[-3000:])
    return log


def executed_chapters(log):
    """日志里真正执行过的章节（缓存命中的不算）：myst-nb 自己执行的，和 dsx_book/parallel.py 在读入前执行的。"""
    return re.findall(r"(\S+\.ipynb): Executing notebook", log) + re.findall(r"执行完 (\S+)：", log)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def _serve(root):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def _heading_pages(pdf_file, count):
    """chromium 为每个标题按文档顺序生成一个书签（tagged PDF）；读出它们的 (页序号, left, top)。"""
    from pypdf import PdfReader
    logging.getLogger("pypdf").setLevel(logging.ERROR)  # chromium 的交叉引用表尾数目偏小，pypdf 会提示但能正确读
    reader = PdfReader(str(pdf_file))
    found = []

    def walk(items):
        for item in items:
            if isinstance(item, list):
                walk(item)
            else:
                found.append((reader.get_destination_page_number(item), item.left, item.top))
    walk(reader.outline)
    if len(found) != count:
        raise SystemExit(f"chromium 生成的书签有 {len(found)} 个，页面上的标题有 {count} 个，对不上，无法填写目录页码。")
    return found


def _fill_toc(page, pages):
    """把每个目录条目所指标题的页码（从 1 数）填进目录；返回填了几个。"""
    return page.evaluate("""(pages) => {
        const links = [...document.querySelectorAll(".dsx-toc a[data-heading]")];
        for (const a of links) a.querySelector(".dsx-toc-page").textContent = String(pages[Number(a.dataset.heading)] + 1);
        return links.length;
    }""", [p[0] for p in pages])


_CMAP_ENTRY = re.compile(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*(<[0-9A-Fa-f]+>|\[[^\]]*\])")
_CMAP_CHAR = re.compile(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>")


def _is_radical(cp):
    return 0x2E80 <= cp <= 0x2FDF or 0xF900 <= cp <= 0xFAFF  # 部首补充、康熙部首、兼容表意文字


def _is_unified(cp):
    return 0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x3FFFF


@functools.cache
def _radical_to_hanzi():
    """{部首码位: 统一汉字}：在正文所用的 Noto CJK SC 字体里，与部首共用同一个字形的统一汉字。"""
    from fontTools.ttLib import TTFont
    table = {}
    for family in ("Noto Serif CJK SC", "Noto Sans CJK SC", "Noto Sans Mono CJK SC"):
        found = subprocess.run(["fc-match", "-f", "%{file}:%{index}", family], capture_output=True, text=True)
        path, _, index = found.stdout.rpartition(":")
        if found.returncode != 0 or not path:
            continue
        cmap = TTFont(path, fontNumber=int(index or 0), lazy=True).getBestCmap()
        by_glyph = {}
        for cp, glyph in sorted(cmap.items()):
            if _is_unified(cp):
                by_glyph.setdefault(glyph, chr(cp))
        for cp, glyph in cmap.items():
            if _is_radical(cp) and glyph in by_glyph:
                table.setdefault(cp, by_glyph[glyph])
    return table


def _unified(text):
    """部首换成与它同字形的统一汉字（字体里找不到时用 NFKC），其余字符不动。"""
    table = _radical_to_hanzi()
    return "".join(table.get(ord(ch)) or unicodedata.normalize("NFKC", ch) if _is_radical(ord(ch)) else ch
                   for ch in text)


def _fixed_to_unicode(cmap):
    """改写一个 ToUnicode CMap：Noto CJK 里「手」和部首「⼿」是同一个字形，chromium（Skia）有时把字形映射回部首，
    于是复制、搜索 PDF 里的汉字得到的是部首。这里把映射改回统一汉字；没有需要改的返回 None。"""
    body_start, body_end = cmap.find("endcodespacerange") + len("endcodespacerange"), cmap.find("endcmap")
    body = cmap[body_start:body_end]
    mapping = {}
    for block in re.findall(r"beginbfrange(.*?)endbfrange", body, re.S):
        for lo, hi, dst in _CMAP_ENTRY.findall(block):
            width = len(lo)
            codes = range(int(lo, 16), int(hi, 16) + 1)
            if dst.startswith("["):
                targets = re.findall(r"<([0-9A-Fa-f]+)>", dst)
            else:
                start = int(dst[1:-1], 16)
                targets = [f"{start + k:0{len(dst) - 2}X}" for k in range(len(codes))]
            for code, target in zip(codes, targets):
                mapping[f"{code:0{width}X}"] = bytes.fromhex(target).decode("utf-16-be")
    for block in re.findall(r"beginbfchar(.*?)endbfchar", body, re.S):
        for src, dst in _CMAP_CHAR.findall(block):
            mapping[src.upper()] = bytes.fromhex(dst).decode("utf-16-be")
    fixed = {src: _unified(dst) for src, dst in mapping.items()}
    if fixed == mapping:
        return None
    items = sorted(fixed.items())
    blocks = []
    for k in range(0, len(items), 100):  # 每个 bfchar 段最多 100 项
        chunk = items[k:k + 100]
        lines = [f"<{src}> <{dst.encode('utf-16-be').hex().upper()}>" for src, dst in chunk]
        blocks.append(f"{len(chunk)} beginbfchar\n" + "\n".join(lines) + "\nendbfchar\n")
    return cmap[:body_start] + "\n" + "".join(blocks) + cmap[body_end:]


def _fix_text_mapping(writer):
    """逐个字体改写 ToUnicode；返回改了几个字体。"""
    changed, seen = 0, set()
    for page in writer.pages:
        fonts = page.get("/Resources", {}).get("/Font", {})
        for ref in fonts.values():
            font = ref.get_object()
            stream = font.get("/ToUnicode")
            if stream is None or id(stream.get_object()) in seen:
                continue
            stream = stream.get_object()
            seen.add(id(stream))
            new = _fixed_to_unicode(stream.get_data().decode("latin-1"))
            if new is not None:
                stream.set_data(new.encode("latin-1"))
                changed += 1
    return changed


def _finish(pdf_file, headings, pages, max_level=3):
    """打印之后的修整：正文前放上封面；用页面上的标题文字重建书签（chromium 的书签标题有时重复、会丢掉标题里的公式），
    章、节、小节三级；把字体的文字映射改回统一汉字（见 _fixed_to_unicode）。"""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import Fit
    writer = PdfWriter(clone_from=str(pdf_file))
    del writer.root_object["/Outlines"]
    cover = pdf_file.with_suffix(".cover.pdf")
    writer.insert_page(PdfReader(str(cover)).pages[0], 0)
    cover.unlink()
    # 页码标签：封面叫「封面」，正文从 1 起，与页脚的页码一致
    writer.set_page_label(0, 0, prefix="封面")
    writer.set_page_label(1, len(writer.pages) - 1, style="/D", start=1)
    stack = []
    for heading, (index, left, top) in zip(headings, pages):
        level = heading["level"]
        if level > max_level:
            continue
        while stack and stack[-1][0] >= level:
            stack.pop()
        parent = stack[-1][1] if stack else None
        item = writer.add_outline_item(title=heading["title"], page_number=index + 1, parent=parent,
                                       fit=Fit.xyz(left, top))
        stack.append((level, item))
    writer.page_mode = "/UseOutlines"
    fonts = _fix_text_mapping(writer)
    writer.write(str(pdf_file))
    return fonts


def _cover_html(info):
    """封面单独打印（没有页眉页脚），之后放在正文前面。"""
    lines = [info["author"], f"版本 {info['version']}", f"网页版（含交互探索器）：{info['site']}"]
    meta = "".join(f"<div>{html.escape(line)}</div>" for line in lines)
    css = (HERE / "print.css").read_text(encoding="utf-8")
    return (f'<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8"><style>{css}</style></head><body>'
            f'<main class="dsx-print"><section class="dsx-cover"><div class="dsx-cover-title">{html.escape(info["title"])}'
            f'</div><div class="dsx-cover-subtitle">PDF 版</div><div class="dsx-cover-meta">{meta}</div></section></main>'
            f"</body></html>")


def _print(page, target, info):
    header = f'<div style="{FONT}text-align:right">{html.escape(info["title"])}</div>'
    footer = f'<div style="{FONT}text-align:center"><span class="pageNumber"></span></div>'
    page.pdf(path=str(target), format="A4", print_background=True, margin=MARGIN, outline=True, tagged=True,
             display_header_footer=True, header_template=header, footer_template=footer)


def print_pdf(html_root, target):
    """在 chromium 里打开单页 HTML，改造版面，打印到目录页码与版面一致为止（通常两到四遍）。

    返回 (站外请求, 探索器数, 目录页码数, 改写了文字映射的字体数)。"""
    from playwright.sync_api import sync_playwright
    info = book_info()
    # singlehtml 把页面写在 book/index.html，里面的 _static/、_images/ 却是相对站点根目录写的：放到根目录再打开
    entry = html_root / "dsx-print.html"
    shutil.copy2(html_root / "book" / "index.html", entry)
    server = _serve(html_root)
    missing = []
    local = f"127.0.0.1:{server.server_address[1]}"
    external = []

    def on_route(route):
        url = route.request.url
        if urlparse(url).netloc == local or url.startswith(("data:", "blob:", "about:")):
            route.continue_()
        else:
            external.append(url)
            route.abort()

    opts = {"title": info["title"], "tocTitle": "目录", "prefaceTitle": "前言",
            "solutionsTitle": "附录：练习参考答案",
            "solutionsIntro": "各章练习的参考答案集中在这里。先自己做，再用检查单元格核对，最后才来看答案。",
            "solutionRef": "参考答案见书末附录："}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            context = browser.new_context(viewport={"width": TEXT_WIDTH_PX, "height": 900},
                                          device_scale_factor=SCREENSHOT_SCALE, locale="zh-CN",
                                          color_scheme="light")
            cover = context.new_page()
            cover.route("**/*", on_route)
            cover.set_content(_cover_html(info))
            cover.pdf(path=str(target.with_suffix(".cover.pdf")), format="A4", print_background=True,
                      page_ranges="1", margin={"top": "0", "bottom": "0", "left": "0", "right": "0"})
            page = context.new_page()
            page.route("**/*", on_route)
            # singlehtml 不生成搜索索引 searchindex.js（打印用不到搜索），其余引用的文件都必须存在
            page.on("response", lambda r: missing.append(r.url)
                    if r.status >= 400 and not r.url.endswith("/searchindex.js") else None)
            page.goto(f"http://{local}/{entry.name}", wait_until="load")
            if missing:
                raise SystemExit(f"单页 HTML 引用的文件缺失（{len(missing)} 个），例如：{missing[:3]}")
            # 运行时排版的公式（MathJax）要等它排完；构建时已排好版的页面没有 MathJax，直接继续
            page.evaluate("async () => { if (window.MathJax && MathJax.startup) await MathJax.startup.promise; }")
            page.emulate_media(media="print")
            layout = page.evaluate((HERE / "prepare.js").read_text(encoding="utf-8"), opts)
            explorers, headings = layout["explorers"], layout["headings"]
            page.add_style_tag(content=(HERE / "print.css").read_text(encoding="utf-8"))
            page.evaluate("async () => { await document.fonts.ready; }")
            _replace_explorers(page, explorers, info["site"])
            page.wait_for_function("[...document.images].every((i) => i.complete)")
            fonts_used = _fonts_used(context, page)
            (OUT_DIR / "fonts.json").write_text(json.dumps(fonts_used, ensure_ascii=False, indent=1), encoding="utf-8")
            # 第一遍打印只为得到页码，填进目录后再打印，直到某一遍的标题页码正好等于它目录里印的页码。
            # 目录页码放在定宽的框里，数字本身不改变版面；目录填上页码后多占一页时，后面的页码整体后移，
            # 要再填一次。另外，chromium 对同一个页面连续打印时，个别贴近页底的标题会在两页之间来回跳
            # （DOM 与字体都不变，第 1、3、5 遍一样，第 2、4、6 遍一样）；对这种已经见过的页码组合不再
            # 改填目录，而是再打印一遍，等版面回到目录所填的那一种。
            pages, filled, seen, n_filled = None, None, [], 0
            for _ in range(PRINT_PASSES):
                _print(page, target, info)
                pages = _heading_pages(target, len(headings))
                numbers = [p[0] for p in pages]
                if numbers == filled:
                    break
                if filled is not None:
                    moved = [(i, a, b) for i, (a, b) in enumerate(zip(filled, numbers)) if a != b]
                    print(f"目录所填页码与这一遍的版面不符：{len(moved)} 个标题，例如 {moved[:3]}", file=sys.stderr)
                if numbers not in seen:
                    seen.append(numbers)
                    n_filled = _fill_toc(page, pages)
                    filled = numbers
            else:
                raise SystemExit(f"打印 {PRINT_PASSES} 遍，目录所填页码始终与版面不符。")
            browser.close()
    finally:
        server.shutdown()
    fonts = _finish(target, headings, pages)
    return external, len(explorers), n_filled, fonts


PRINT_PASSES = 6

FONT_PROBE = "p, li, h1, h2, h3, h4, pre, pre span, td, th, figcaption, summary, strong, em, a, code, span.pasted-text"


def _fonts_used(context, page):
    """chromium 实际用来排正文的字体：{字体族: 字形数}（DevTools 协议 CSS.getPlatformFontsForNode）。
    用来确认中文都由 SC（简体）字形排出，而不是回退到 JP/TC/KR 的字形。"""
    cdp = context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    used = {}
    for node in cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": FONT_PROBE})["nodeIds"]:
        for font in cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]:
            used[font["familyName"]] = used.get(font["familyName"], 0) + font["glyphCount"]
    cdp.detach()
    return used


def _replace_explorers(page, explorers, site):
    """每个探索器截成默认状态的静态图，下面一行写明网页版的地址。"""
    for x in explorers:
        shot = page.locator(f'.dsx-explorer[data-pdf-index="{x["index"]}"]').screenshot(type="png")
        url = site + (x["doc"] + ".html" if x["doc"] else "")
        page.evaluate("""([index, src, url]) => {
            const old = document.querySelector(`.dsx-explorer[data-pdf-index="${index}"]`);
            const width = old.getBoundingClientRect().width;
            const fig = document.createElement("figure");
            fig.className = "dsx-explorer-figure";
            const img = document.createElement("img");
            img.src = src; img.alt = "交互探索器的默认状态"; img.style.width = width + "px";
            const cap = document.createElement("figcaption");
            cap.append("上图是交互探索器的默认状态。拖动滑块、实时计算的版本在网页版：");
            const a = document.createElement("a");
            a.style.whiteSpace = "nowrap";  // 地址不在连字符处断行
            a.href = url; a.textContent = url;
            cap.append(a);
            fig.append(img, cap);
            old.replaceWith(fig);
        }""", [x["index"], "data:image/png;base64," + base64.b64encode(shot).decode(), url])


PDF_LINK_HIDDEN, PDF_LINK_SHOWN = '<p class="dsx-pdf-link" hidden>', '<p class="dsx-pdf-link">'


def show_pdf_link(site_dir):
    """首页的 PDF 下载链接在构建网页时是隐藏的（book/index.md 里写着 hidden，那时还没有 PDF）：
    PDF 复制进网站之后才显示它，所以首页上看得见的链接总能下载。"""
    index = Path(site_dir) / "book" / "index.html"
    text = index.read_text(encoding="utf-8")
    if PDF_LINK_HIDDEN in text:
        index.write_text(text.replace(PDF_LINK_HIDDEN, PDF_LINK_SHOWN), encoding="utf-8")
    elif PDF_LINK_SHOWN not in text:
        raise SystemExit(f"{index} 里没有 PDF 链接 {PDF_LINK_HIDDEN}：book/index.md 的写法变了吗？")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-html", action="store_true", help="不重新构建单页 HTML，直接打印已有的 _build/singlehtml")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    if not args.skip_html:
        log = build_singlehtml()
        ran = executed_chapters(log)
        print(f"单页 HTML：{time.perf_counter() - t0:.1f} s；执行了 {len(ran)} 章" +
              ("（执行缓存全部命中）" if not ran else f"：{', '.join(Path(r).stem for r in ran)}"))
    t1 = time.perf_counter()
    target = pdf_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    external, n_explorers, filled, fonts = print_pdf(SINGLE, target)
    if external:
        raise SystemExit(f"打印时页面请求了站外资源（PDF 版必须离线构建）：{external[:5]}")
    print(f"打印 PDF：{time.perf_counter() - t1:.1f} s；{n_explorers} 个探索器换成了静态图；目录填了 {filled} 个页码；"
          f"{fonts} 个字体的文字映射改回了统一汉字")
    site_dir = BUILD / "html"
    if (site_dir / "index.html").exists():
        shutil.copy2(target, site_dir / target.name)
        show_pdf_link(site_dir)
        print(f"已复制到网页版：{site_dir / target.name}，首页显示下载链接")
    print(f"PDF：{target}（{target.stat().st_size / 1e6:.2f} MB）")


if __name__ == "__main__":
    main()
