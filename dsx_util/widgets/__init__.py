"""交互探索器：同一份规格（spec.py）同时驱动 Jupyter/Colab 里的 ipywidgets 视图和 HTML 书页里的页面内视图。

- `layer_norm_explorer()`：拖动缩放参数 γ、平移参数 β 和 ε，看层归一化的输入、x̂ 和输出怎样变化。
- `dim_keepdim_explorer()`：选形状、dim 和 keepdim，看均值的形状以及 `x - x.mean(dim)` 能否正确广播。

本模块不在导入时加载 torch、ipywidgets 或 IPython，它们在第一次创建探索器时才导入。
"""
from .explorers import DimKeepdimExplorer, LayerNormExplorer, dim_keepdim_explorer, layer_norm_explorer

__all__ = ["layer_norm_explorer", "dim_keepdim_explorer", "LayerNormExplorer", "DimKeepdimExplorer"]
