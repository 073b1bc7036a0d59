"""探索器的共同底座：每个探索器对象在笔记本里同时给出两种输出。

- `application/vnd.jupyter.widget-view+json`：ipywidgets 视图（Jupyter、JupyterLab、Colab），数字由内核里的 torch
  （或读者自己的 LayerNorm 类）计算；只用 ipywidgets 7.7 与 8 都有的控件和参数。
- `text/html`：自包含的页面内视图（内联 JS 与 CSS，不加载任何外部资源），HTML 书页里没有内核也能实时计算。

两种视图读同一份规格（spec.py）；页面内视图拿到的是它的 JSON。页面内视图的脚本 = 共用的 static/base.js
（window.DSXExplorerBase：fill、fmt 等与 spec.py 一致的小工具）+ 探索器自己的脚本（类属性 SCRIPT）。
一个探索器 = Explorer 的子类：写 spec、_plain()、_repr_html_()（用 self.page）、_build_widget()（用 self.kernel_view）。
torch、ipywidgets 在创建探索器时才导入。
"""
import html
import json
import re
import uuid
from functools import cache
from pathlib import Path

STATIC = Path(__file__).resolve().parent / "static"
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
NORM_STYLES = ("explorers.css", "norm_explorers.css")   # 几何与轴探索器另加自己的样式表（含 12 种组色）


@cache
def static(name):
    """static/ 里一个文件的文字（样式表或脚本），读一次。"""
    return (STATIC / name).read_text(encoding="utf-8")


def esc(text):
    """HTML 转义（含引号）。"""
    return html.escape(str(text), quote=True)


def json_script(role, obj):
    """把对象放进 <script type="application/json">；转义 "<"，避免提前结束 script 标签。"""
    text = json.dumps(obj, ensure_ascii=False, allow_nan=False).replace("<", "\\u003c")
    return f'<script type="application/json" data-role="{role}">{text}</script>'


def new_id(prefix):
    """每次生成页面内视图都用新的 id：同一个探索器显示两次、或一页上有多个探索器时互不干扰。"""
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


_ROLE_TEXT = re.compile(r'data-role="([\w-]+)"[^>]*>([^<]*)<')


def shown_text(view_html):
    """从视图的 HTML 里读出 data-role -> 文字（测试和基准用）。"""
    return {m.group(1): html.unescape(m.group(2)) for m in _ROLE_TEXT.finditer(view_html)}


class Explorer:
    """所有探索器共用的显示方式：在内核里是 ipywidgets 控件，在 HTML 书页里是页面内计算的视图。

    子类用类属性说明页面内视图用哪些样式表（STYLES）、哪个脚本（SCRIPT）、脚本定义的全局对象（NAMESPACE）。"""

    STYLES = ("explorers.css",)
    SCRIPT = "explorers.js"
    NAMESPACE = "DSXExplorers"
    _w = None

    def __repr__(self):
        return self._plain()

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = {"text/plain": self._plain(), "text/html": self._repr_html_()}
        try:
            widget = self.widget
        except ImportError:  # 没装 ipywidgets：只给页面内视图
            return bundle
        bundle[WIDGET_MIME] = {"version_major": 2, "version_minor": 0, "model_id": widget.model_id}
        return bundle

    @property
    def widget(self):
        """ipywidgets 控件（第一次访问时才创建）。"""
        if self._w is None:
            self._build_widget()
        return self._w["box"]

    def styles(self):
        return "".join(static(name) for name in self.STYLES)

    def page(self, root_id, kind, body, spec, data):
        """组装页面内视图：样式 + 结构 + 规格 JSON + 数据 JSON + 内联脚本（共用的 base.js 与自己的脚本，各只定义一次）。"""
        return (
            f'<div class="dsx-explorer tex2jax_ignore mathjax_ignore" id="{root_id}" data-explorer="{kind}">'
            f"<style>{self.styles()}</style>{body}"
            f"{json_script('spec', spec)}{json_script('data', data)}"
            f"<script>{static('base.js')}\n{static(self.SCRIPT)}\n"
            f'window.{self.NAMESPACE}.{kind}(document.getElementById("{root_id}"));</script></div>'
        )

    def kernel_view(self, body):
        """ipywidgets 视图里随控件一起刷新的那部分：同一份样式表 + 与页面内视图相同的结构。"""
        return f'<div class="dsx-explorer dsx-kernel-view"><style>{self.styles()}</style>{body}</div>'
