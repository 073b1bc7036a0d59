"""PDF 版的构建耗时与大小（make bench 运行；make pdf 的同一个构建）。

分三段计时：单页 HTML 构建（执行缓存命中时不执行任何一章）、chromium 打印（两遍，含 MathJax 排版与探索器截图）、
总计；再打印 PDF 的页数、大小、每页平均大小，以及图片的最低分辨率（dpi，按图片在页面上的实际尺寸算）。
目标：执行缓存命中时总耗时 < 180 s；PDF < 30 MB；图片 ≥ 150 dpi。
"""
import time
from pathlib import Path

from dsx_book import build_pdf

ROOT = Path(__file__).resolve().parent.parent


def image_dpi(pdf_file):
    """每张图片在页面上的有效分辨率：像素宽度 ÷ 放置宽度（英寸）。"""
    from pypdf import PdfReader
    reader = PdfReader(str(pdf_file))
    found = []
    for page in reader.pages:
        placed = []

        def visit(op, args, cm, tm, placed=placed):
            if op == b"Do":
                placed.append((args[0], abs(cm[0]) / 72))  # 变换矩阵的 a 分量 = 放置宽度（pt）
        page.extract_text(visitor_operand_before=visit)
        xobjects = page.get("/Resources", {}).get("/XObject", {})
        for name, width_in in placed:
            obj = xobjects.get(name)
            obj = obj.get_object() if obj is not None else None
            if obj is not None and obj.get("/Subtype") == "/Image" and width_in > 0.5:
                found.append(obj["/Width"] / width_in)
    return found


def main():
    t0 = time.perf_counter()
    log = build_pdf.build_singlehtml()
    t1 = time.perf_counter()
    target = build_pdf.pdf_path()
    build_pdf.print_pdf(build_pdf.SINGLE, target)
    t2 = time.perf_counter()
    from pypdf import PdfReader
    pages = len(PdfReader(str(target)).pages)
    size = target.stat().st_size / 1e6
    ran = build_pdf.executed_chapters(log)
    total = t2 - t0
    print(f"单页 HTML 构建：{t1 - t0:6.1f} s（执行了 {len(ran)} 章）")
    print(f"chromium 打印：  {t2 - t1:6.1f} s")
    print(f"PDF 总耗时：     {total:6.1f} s   目标 < 180 s  {'PASS' if total < 180 else 'FAIL'}")
    print(f"PDF 大小：       {size:6.2f} MB  {pages} 页，平均 {size * 1000 / pages:.0f} KB/页   目标 < 30 MB  "
          f"{'PASS' if size < 30 else 'FAIL'}")
    dpi = image_dpi(target)
    if dpi:
        print(f"图片分辨率：     {len(dpi)} 张，最低 {min(dpi):.0f} dpi，中位数 {sorted(dpi)[len(dpi) // 2]:.0f} dpi"
              f"   目标 ≥ 150 dpi  {'PASS' if min(dpi) >= 150 else 'FAIL'}")


if __name__ == "__main__":
    main()
