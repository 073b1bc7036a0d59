"""Sphinx 小扩展：让网页版在本地直接打开（file://，例如解压的网页版压缩包）时也没有控制台错误。

Sphinx 的搜索页会用 fetch() 读取每个结果页来显示摘要；浏览器禁止 file:// 页面里的 fetch()，于是控制台报错。
从本地打开时关掉摘要（结果列表照常显示）；通过网站访问时不受影响。
"""
SCRIPT = 'if (location.protocol === "file:") { DOCUMENTATION_OPTIONS.SHOW_SEARCH_SUMMARY = false; }'
