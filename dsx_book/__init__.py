"""本书的构建包（只在构建本书时用，不进学习者安装的 dsx_util wheel）：一个 Sphinx 扩展和几个命令行脚本。

_config.yml 里只写 `sphinx: extra_extensions: [dsx_book]`；下面的 setup() 按构建的先后列出本书加在
Jupyter Book 上的每一步（哪个事件、哪个函数、在哪个模块）。同一事件上的函数按优先级（数小的先）、
再按这里登记的先后运行。命令行脚本用 `python -m dsx_book.<模块>` 运行，见 Makefile。

模块：
- status          改了 dsx_util 就重新执行各章；执行状态页的表格用中文
- parallel        缓存里没有的章节在读入之前同时执行（DSX_JOBS 个内核，默认 2）
- executed        执行后的章节（与执行缓存合并）：构建的几步与 tests/conftest.py 都从这里取
- figure_alt      插图的文字描述（alt）里的 {glue:名字} 换成代码算出的文字
- typography      中文排版：删掉源文件换行带来的多余空格，行内公式不和后面的标点分开
- inpage          网页里运行并检查纯 Python 练习（Pyodide + CodeMirror，来自 npm）
- formulas        构建时排版全部公式（node 里的 MathJax），网页不加载 MathJax
- icons           不加载图标脚本，图标字体只保留用到的字形（font_subset）
- trim            每页只加载用得到的脚本和样式；插图变小（svg_slim）、延迟加载
- offline         去掉 sphinx-thebe 指向 CDN 的脚本
- from_disk       从本地磁盘（file://）打开时搜索页不报错
- reader_edition  读者版笔记本（myst_markdown 把 MyST 写成普通 Markdown）：Colab 与下载按钮指向它
- 命令行：nbsync（make sync）、build_pdf（make pdf）、web_archive（make book 的最后一步）、new_chapter、
  release_check、run_notebook；common 是测试与 bench/ 共用的小工具（章节列表、本地服务器、chromium 参数）
"""


def setup(app):
    # 在这里才导入各步的模块：测试与脚本 import dsx_book.common 等小模块时不必加载 Sphinx
    from . import (executed, figure_alt, formulas, from_disk, icons, inpage, offline, parallel, reader_edition, status,
                   trim, typography)

    # 配置项（_config.yml 的 sphinx.config 里可改）
    app.add_config_value("dsx_execution_inputs", ["dsx_util"], "env")   # 这些目录的内容变了，各章重新执行
    app.add_config_value("dsx_web_url", "", "env")                      # 读者版笔记本里指向网页版的地址

    # 1. 开始构建：换掉模板渲染里的图标脚本与搜索脚本（两个对模板渲染器的包装，先图标后搜索）
    app.connect("builder-inited", icons.drop_icon_script)
    app.connect("builder-inited", trim.drop_search_scripts)

    # 2. 决定重读哪些文档：dsx_util 变了就清空执行缓存、重读全部笔记本；记下这次读了哪些文档；
    #    要读的章节里缓存没有的，分几个内核同时执行、存进缓存（myst-nb 读入时便都取缓存）
    app.connect("env-get-outdated", status.expire_cache_when_inputs_change)
    app.connect("env-before-read-docs", reader_edition.remember_read_docs)
    app.connect("env-before-read-docs", parallel.execute_missing_chapters)

    # 3. 读入每个文档（myst-nb 执行或取缓存之后）：中文排版；带输出的章节写到 _build/jupyter_execute
    app.add_transform(typography.ChineseTypography)
    app.connect("doctree-read", executed.write_executed_notebook)
    app.connect("doctree-read", figure_alt.fill_figure_alt)

    # 4. 全部读完：在一个 node 进程里排版全书公式（结果按公式缓存）
    app.connect("env-updated", formulas.typeset_all)

    # 5. 写每一页之前的文档树：网页练习的工具栏；交叉引用填好后再做一次中文排版；执行状态表译成中文
    app.connect("doctree-resolved", inpage.add_toolbars)
    app.add_post_transform(typography.ChineseTypographyAfterReferences)
    app.add_post_transform(status.ChineseExecutionTable)
    app.add_html_math_renderer("dsx_math", (formulas.visit_math, None), (formulas.visit_displaymath, None))

    # 6. 每页的模板上下文（html-page-context）：500 公式的样式与字体、图标字体预加载、去掉用不到的样式与脚本；
    #    600 Colab 与下载按钮指向读者版；900 去掉 Thebe 的 CDN 脚本、去掉页面里的控件状态
    app.connect("html-page-context", formulas.add_page_assets)
    app.connect("html-page-context", icons.preload_subsets)
    app.connect("html-page-context", trim.drop_unused_design_assets)
    app.connect("html-page-context", reader_edition.point_buttons_at_reader_edition, priority=600)
    app.connect("html-page-context", offline.remove_thebe_scripts, priority=900)
    app.connect("html-page-context", trim.drop_widget_state, priority=900)
    # 每页都加的内联脚本：1 在主题脚本之前决定亮/暗色；210 紧跟 documentation_options.js（200）之后
    app.add_js_file(None, body=trim.THEME_BEFORE_PAINT, priority=1)
    app.add_js_file(None, body=from_disk.SCRIPT, priority=210)

    # 7. 构建结束：读者版笔记本、网页练习的运行时、公式与图标字体的子集、插图变小，最后改写每页 HTML
    app.connect("build-finished", reader_edition.write_reader_edition)
    app.connect("build-finished", inpage.copy_runtime)
    app.connect("build-finished", formulas.write_assets)
    app.connect("build-finished", icons.write_subsets)
    app.connect("build-finished", trim.slim_figures)
    app.connect("build-finished", trim.slim_pages, priority=900)   # 在 slim_figures 与主题写 pygments.css 之后
    return {"parallel_read_safe": True, "parallel_write_safe": False}   # 公式排版汇总全书，写出不能并行
