"""Sphinx 小扩展：Sphinx 读入各章之前，把执行缓存里没有的章节同时在两个内核里执行。

myst-nb 的 cache 模式在读入一章时才执行它，一章接一章（空缓存的构建大部分时间花在这里，见 `bench/bench_book.py --cold`）。这里在
env-before-read-docs（status.py 已清掉过时的缓存）找出这次要读、缓存里又没有的章节，用 myst-nb 自己执行时
调用的 jupyter-cache 函数 single_nb_execution、同样的参数（章节所在的文件夹、nb_execution_timeout、
nb_execution_allow_errors、笔记本的内核）执行；每个线程等一个内核进程，计算都在内核里。结果照 myst-nb 的样子存进
缓存（data 里的 execution_seconds 是执行状态页与 tests/conftest.py 读的耗时），于是 myst-nb 读入时每章都取缓存。

先执行上次最久的章节（第 9、12、11 章……），两个内核差不多同时做完；没执行过的章节不知道要多久，最先执行，
代码长的先。一章出错（nb_execution_raise_on_error）时不再开始新的章节，构建失败，报出章节与错误。

环境变量 DSX_JOBS：同时执行几章，默认 2；DSX_JOBS=1 时这一步什么都不做，仍由 myst-nb 逐章执行（以前的做法）。
不限制内核里 torch 的线程数：限制成 1 时各章 glue 的值与打印的内容不变，空缓存的构建也不更快
（对照的数与复测的命令见 CONTRIBUTING.md「测过的对照」）。
"""
import math
import os
import re
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path, PurePosixPath

from sphinx.errors import SphinxError
from sphinx.util import logging

from .executed import read_like_myst_nb

logger = logging.getLogger(__name__)
ANSI = re.compile(r"\x1b\[[0-9;]*m")   # 内核回溯里的颜色


class ChapterExecutionError(SphinxError):
    category = "章节执行失败"


def jobs():
    """DSX_JOBS 的值（默认 2）。"""
    value = os.environ.get("DSX_JOBS", "2")
    if not value.isdigit() or int(value) < 1:
        raise ChapterExecutionError(f"DSX_JOBS 应是正整数（同时执行几章），现在是 {value!r}")
    return int(value)


def longest_first(chapters, previous):
    """chapters：[(路径, 笔记本, 配置)]；previous：{路径: 上次的秒数}。没有秒数的在前（代码长的先），再按秒数从多到少。"""
    def key(chapter):
        path, nb, _ = chapter
        code = sum(len(cell.source) for cell in nb.cells if cell.cell_type == "code")
        return previous.get(path, math.inf), code
    return sorted(chapters, key=key, reverse=True)


def _execute(nb, path, config):
    from jupyter_cache.executors.utils import single_nb_execution
    return single_nb_execution(nb, cwd=str(path.parent), timeout=config.execution_timeout,
                               allow_errors=config.execution_allow_errors, meta_override=True)


def execute_missing_chapters(app, env, docnames):
    """env-before-read-docs：缓存里没有的章节分几个内核同时执行，结果存进缓存。"""
    config = getattr(env, "mystnb_config", None)
    count = jobs()
    if config is None or config.execution_mode != "cache" or config.execution_in_temp or count < 2:
        return
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn
    from jupyter_cache.cache.db import NbProjectRecord
    cache = get_cache(config.execution_cache_path or ".jupyter_cache")
    missing = []
    for docname in docnames:
        path = Path(env.doc2path(docname)).absolute()
        excluded = any(PurePosixPath(path.as_posix()).match(p) for p in config.execution_excludepatterns)
        if path.suffix != ".ipynb" or excluded:
            continue
        nb, nb_config = read_like_myst_nb(path, config)
        if nb_config.execution_mode != "cache" or nb_config.execution_in_temp:   # 笔记本自己的 mystnb 设置另有要求：留给 myst-nb
            continue
        try:
            cache.match_cache_notebook(nb)
        except KeyError:
            missing.append((path, nb, nb_config))
    if not missing:
        return
    previous = {Path(r.uri): r.data["execution_seconds"]   # 同一章有几条记录（旧版本）时取最新的
                for r in sorted(cache.list_cache_records(), key=lambda r: r.created) if "execution_seconds" in r.data}
    missing = longest_first(missing, previous)
    names = {path: env.path2doc(str(path)) for path, _, _ in missing}
    logger.info(f"同时执行 {len(missing)} 章（{count} 个内核，DSX_JOBS）：" + "、".join(names.values()))
    failures = []
    with ThreadPoolExecutor(count) as pool:
        futures = {pool.submit(_execute, nb, path, c): (path, c) for path, nb, c in missing}
        for future in as_completed(futures):
            path, nb_config = futures[future]
            if future.cancelled():
                continue
            try:
                result = future.result()
                error = result.err
            except Exception as exc:   # 内核起不来、中途退出（DeadKernelError）等
                error = exc
            if error is not None:   # 不要求报错即停时，出错的章节留给 myst-nb：读入时再执行，照常记下错误
                if nb_config.execution_raise_on_error:
                    failures.append((path, error))
                    for other in futures:   # 不再开始新的章节；正在执行的做完、照样存进缓存
                        other.cancel()
                continue
            record = cache.add_nb_to_project(str(path))
            NbProjectRecord.remove_tracebacks([record.pk], cache.db)
            cache.cache_notebook_bundle(CacheBundleIn(result.nb, record.uri, data={"execution_seconds": result.time}),
                                        check_validity=False, overwrite=True)
            logger.info(f"执行完 {names[path]}：{result.time:.1f} 秒")
    if failures:
        raise ChapterExecutionError("\n\n".join(
            f"{names[path]}（{path.name}）执行出错：{type(error).__name__}\n{ANSI.sub('', str(error)).strip()}"
            for path, error in failures))
