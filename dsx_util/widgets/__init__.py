"""交互探索器：同一份规格（spec.py）同时驱动 Jupyter/Colab 里的 ipywidgets 视图和 HTML 书页里的页面内视图。

- `layer_norm_explorer()`：拖动缩放参数 γ、平移参数 β 和 ε，看层归一化的输入、x̂ 和输出怎样变化。
- `dim_keepdim_explorer()`：选形状、dim 和 keepdim，看均值的形状以及 `x - x.mean(dim)` 能否正确广播。
- `norm_geometry_explorer()`：H = 3 的几何图：层归一化投影到平面再缩放到圆上，RMSNorm 直接缩放到球面上。
- `norm_axes_explorer()`：[B, T, H] 小张量上，层归一化、批量归一化、RMSNorm 等各自让哪些数共用一组统计量。
- `activation_explorer(activation_data(model, ids, tokens))`：训练好的模型读一句话时，选一层、一个词元，
  看层归一化的 x、μ、σ、x̂ 与输出，以及这个词元落在本层 S 曲线的哪一段。

模块：base（共同底座：两种视图、页面内视图的组装）、bars（柱状图）、layer_norm、broadcast、geometry、axes、
activation_explorer（每个探索器一个模块）、spec（两种视图共用的规格）；页面内视图的脚本与样式在 static/。

本模块不在导入时加载 torch、ipywidgets 或 IPython，它们在第一次创建探索器时才导入。
"""
from .activation_explorer import ActivationExplorer, activation_data, activation_explorer
from .axes import NormAxesExplorer, norm_axes_explorer
from .broadcast import DimKeepdimExplorer, dim_keepdim_explorer
from .geometry import NormGeometryExplorer, norm_geometry_explorer
from .layer_norm import LayerNormExplorer, layer_norm_explorer

__all__ = ["layer_norm_explorer", "dim_keepdim_explorer", "norm_geometry_explorer", "norm_axes_explorer",
           "activation_explorer", "activation_data",
           "LayerNormExplorer", "DimKeepdimExplorer", "NormGeometryExplorer", "NormAxesExplorer", "ActivationExplorer"]
