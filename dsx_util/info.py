"""show_version：打印本书信息和运行环境的版本，方便读者核对、提问时附上。"""
import platform
import sys
from importlib import metadata

from .table import print_table

BOOK_TITLE = "动手学 GPT 层归一化"
BOOK_PURPOSE = "从零理解并实现 GPT 模型中的层归一化（LayerNorm）"

# (显示名, PyPI 包名)；只读安装信息，不导入这些包，因此没有任何副作用
PACKAGES = [
    ("PyTorch", "torch"),
    ("PyTorch Lightning", "lightning"),
    ("NumPy", "numpy"),
    ("matplotlib", "matplotlib"),
    ("ipywidgets", "ipywidgets"),
    ("prettytable", "prettytable"),
    ("jupyter-book", "jupyter-book"),
]


def package_version(dist_name):
    """已安装包的版本号；没有安装时返回「未安装」。"""
    try:
        return metadata.version(dist_name)
    except metadata.PackageNotFoundError:
        if dist_name == "lightning":  # 旧版本的发行名是 pytorch-lightning
            try:
                return metadata.version("pytorch-lightning")
            except metadata.PackageNotFoundError:
                pass
        return "未安装"


def where_running():
    if "google.colab" in sys.modules:
        return "Google Colab"
    from .notebook import in_notebook
    return "Jupyter 内核" if in_notebook() else "终端 / 脚本"


def show_version():
    """显示两张表：本书的基本信息，以及 Python 和主要依赖包的版本。不会改动任何随机数状态或全局设置。"""
    from . import __version__
    print_table("本书", ["项目", "内容"], [
        ["书名", BOOK_TITLE],
        ["用途", BOOK_PURPOSE],
        ["dsx_util 版本", __version__],
    ])
    rows = [["Python", platform.python_version()]]
    rows += [[name, package_version(dist)] for name, dist in PACKAGES]
    rows += [["操作系统", f"{platform.system()} {platform.machine()}"], ["运行位置", where_running()]]
    print_table("运行环境", ["软件", "版本"], rows)
