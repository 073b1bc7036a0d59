"""执行后的章节（带输出）从哪里来：myst-nb 的执行缓存与 _build/jupyter_execute。只依赖 nbformat 与标准库。

构建的几步（parallel、reader_edition、figure_alt）与测试（tests/conftest.py 的 run_chapter）都从这里取，
「怎样把源笔记本与缓存对上、合并」只在这里写一次。
"""
import re
from pathlib import Path

import nbformat


def read_like_myst_nb(path, config):
    """按 myst-nb 读入时的样子读出笔记本与这一章的配置（内核别名、笔记本元数据里的 mystnb 配置）。"""
    from myst_nb.core.nb_to_tokens import nb_node_to_dict
    nb = nbformat.read(path, as_version=4)
    kernel = nb.metadata.get("kernelspec", {}).get("name")
    for pattern, alias in (config.kernel_rgx_aliases or {}).items():
        if kernel is not None and re.fullmatch(pattern, kernel):
            nb.metadata["kernelspec"]["name"] = alias
            break
    if config.metadata_key in nb.metadata:
        overrides = nb_node_to_dict(nb.metadata[config.metadata_key])
        overrides.pop("output_folder", None)
        config = config.copy(**overrides)
    return nb, config


def merge_with_cache(nb, cache_path):
    """源笔记本 nb 与执行缓存 cache_path 里的记录合并：(带输出的笔记本, 执行秒数或 None)；缓存里没有它时返回 None。"""
    from jupyter_cache import get_cache
    cache = get_cache(cache_path)
    try:
        record = cache.match_cache_notebook(nb)
    except KeyError:
        return None
    _, merged = cache.merge_match_into_notebook(nb)
    return merged, record.data.get("execution_seconds")


def output_folder(app):
    """myst-nb 写执行结果（执行后的笔记本、glue 数据）的目录，即 _build/jupyter_execute。"""
    return Path(app.env.mystnb_config.output_folder)


def from_cache(app, docname):
    """构建中：这一章与执行缓存合并后的笔记本（带输出）；不是 cache 模式或缓存里没有这一章时返回 None。"""
    config = getattr(app.env, "mystnb_config", None)
    path = Path(app.env.doc2path(docname))
    if config is None or config.execution_mode != "cache" or path.suffix != ".ipynb":
        return None
    source, _ = read_like_myst_nb(path, config)   # 与 myst-nb 读入的一样（内核别名），才能与缓存对上
    merged = merge_with_cache(source, config.execution_cache_path)
    return None if merged is None else merged[0]


def executed_notebook(app, docname, source):
    """本次构建执行过的这一章（带输出）：execute_notebooks 为 cache 时从执行缓存里取（from_cache），
    否则取 myst-nb 写到 _build/jupyter_execute 的笔记本；都没有时返回 source。"""
    executed = from_cache(app, docname)
    if executed is not None:
        return executed
    path = output_folder(app) / f"{docname}.ipynb"
    return nbformat.read(str(path), as_version=4) if path.exists() else source


def write_executed_notebook(app, doctree):
    """doctree-read：把带输出的这一章写到 _build/jupyter_execute（myst-nb 在那里放执行后的笔记本）。

    myst-nb 1.4 取缓存时写出的是读入的源笔记本（不带输出；它的 sphinx_.py 写 notebook，而不是与缓存合并后的那份），
    只有它自己当场执行的章节才带输出。parallel 的执行让每一章在读入时都取缓存，所以换成与缓存合并后的那份；
    只改了正文、代码没变（取缓存）的章节也因此不再留下没有输出的笔记本。
    缓存里没有（执行出错而 raise_on_error 为假）时，myst-nb 写的就是它执行的结果，不动它。"""
    executed = from_cache(app, app.env.docname)
    if executed is None:
        return
    target = output_folder(app) / f"{app.env.docname}.ipynb"
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(executed, str(target))
