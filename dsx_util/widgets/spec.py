"""两个探索器的唯一规格：默认值、范围、步长、标签、预设和中文文字模板。

Jupyter 里的 ipywidgets 视图直接读这里的字典；HTML 书页里的视图拿到的是同一个字典的 JSON。
本文件只用标准库，不导入 torch。文字模板里的 `{名字}` 由两边用同一规则替换（见 `fill`）。
"""
import math
import random
import re

DEFAULT_H = 16
DEFAULT_SEED = 2024


def default_input(h=DEFAULT_H, seed=DEFAULT_SEED):
    """默认输入：一行带偏移的“激活值”，用固定种子生成，保留 4 位小数，两种视图用完全相同的数。"""
    rng = random.Random(seed)
    return [round(0.8 + 1.5 * rng.gauss(0.0, 1.0), 4) for _ in range(h)]


LAYER_NORM_SPEC = {
    "kind": "layer_norm",
    "title": "层归一化探索器：缩放参数 γ、平移参数 β 与 ε",
    "controls": {
        "gamma": {"label": "γ（全部特征）", "min": -3.0, "max": 3.0, "step": 0.01, "value": 1.0},
        "beta": {"label": "β（全部特征）", "min": -5.0, "max": 5.0, "step": 0.01, "value": 0.0},
        # ε 用对数刻度：滑块的值是以 10 为底的指数
        "log_eps": {"label": "ε（对数刻度）", "min": -12.0, "max": 0.0, "step": 0.5, "value": -5.0},
        "per_feature": {"label": "逐特征编辑 γ、β", "value": False},
        "feature": {"label": "特征序号 j", "value": 0},
        "gamma_j": {"label": "γ[j]"},
        "beta_j": {"label": "β[j]"},
    },
    "presets": {
        "reset": {"label": "重置（γ = 1，β = 0）"},
        "identity": {"label": "恒等（γ = √(σ² + ε)，β = μ）"},
    },
    "charts": {"x": "输入 x", "xhat": "标准化后 x̂", "y": "输出 y"},
    "text": {
        "in_stats": "输入 x：均值 μ = {in_mean}，方差 σ² = {in_var}",
        "hat_stats": "标准化后 x̂：均值 = {hat_mean}，方差 = {hat_var}",
        "out_stats": "输出 y：均值 = {out_mean}，方差 = {out_var}",
        "expected": "理论值：输出均值 = β = {beta}，输出方差 = γ² · σ² / (σ² + ε) = {expected_var}",
        "expected_per_feature": "逐特征的 γ、β 各不相同时，输出方差不再等于 γ² · σ² / (σ² + ε)。",
        "formula": "y[{j}] = γ[{j}] · (x[{j}] − μ) / √(σ² + ε) + β[{j}]"
                   " = {g} × ({x} − {mu}) / √({var} + {eps}) + {b} = {y}",
        "note": "方差都用有偏估计（除以 H = {h}，与 LayerNorm 相同）。",
        "chart_aria": "{title}：{h} 个值的柱状图，纵轴固定为 −{range} 到 {range}，最小 {min}，最大 {max}",
        "overflow": "▲ {count} 个超出范围",
        "range_note": "三个图的纵轴相同（−{range} 到 {range}），柱子的高度可以直接比较；超出范围的值画到边上，用三角标出。",
        "nonfinite": "输入 x 里有 {count} 个 NaN 或 inf（第一个是 x[{index}] = {value}），无法画图。"
                     "请先换成有限的数，例如 torch.nan_to_num(x)，再重新运行这个单元格。",
        "reader_error": "你的 LayerNorm 出错了：{error}。下面暂时显示 torch 的结果；改好类后重新运行这个单元格。",
        "reader_bad_output": "你的 LayerNorm 返回了 {what}，应返回形状为 ({h},) 的有限值张量。下面暂时显示 torch 的结果。",
        "reader_ok": "输出 y 由你的 {name} 计算。",
    },
}

DIM_KEEPDIM_SPEC = {
    "kind": "dim_keepdim",
    "title": "dim 与 keepdim 探索器：x.mean(dim) 之后还能正确广播吗？",
    "controls": {
        "shape": {"label": "形状"},
        "dim": {"label": "dim"},
        "keepdim": {"label": "keepdim=True", "value": False},
    },
    # 每个形状带上各维的名字。词元数 = 嵌入维度的“方阵”情形：[4, 4] 与 [1, 4, 4] 静默地广播错，
    # [2, 4, 4] 反而报错（批量 2 与词元 4 对不上）
    "shapes": [
        {"shape": [2, 3, 4], "names": ["批量", "词元", "嵌入"]},
        {"shape": [3, 4], "names": ["词元", "嵌入"]},
        {"shape": [4, 4], "names": ["词元", "嵌入"]},
        {"shape": [2, 4, 4], "names": ["批量", "词元", "嵌入"]},
        {"shape": [1, 4, 4], "names": ["批量", "词元", "嵌入"]},
        {"shape": [6], "names": ["嵌入"]},
    ],
    "defaults": {"shape": 0, "dim": -1, "keepdim": False},
    "text": {
        "shape_option": "{shape}（{names}）",
        "dim_option": "dim={dim}（{name}）",
        "code": "m = x.mean(dim={dim}, keepdim={keepdim})",
        "x_shape": "x 的形状",
        "result_shape": "m 的形状",
        "aligned": "右对齐后逐维比较（广播从最后一维开始对齐）：",
        "ok": "x - m 可以广播，结果正确：每个元素减去的是它自己那一组（沿“{name}”维）的均值。",
        "ok_keepdim": "keepdim=True 把被压缩的“{name}”维保留为长度 1，右对齐时各维仍在原位，x - m 正确广播。",
        "error": "x - m 会报错（RuntimeError）：右对齐后，在 x 的 dim={axis}（{name}维度）上是 {a} 对 {b}，"
                 "既不相等也不是 1。加上 keepdim=True 即可。",
        "silent": "x - m 不报错，但结果是错的：m 右对齐后，本该对应“{wrong_from}”维的那一维落在了“{wrong_to}”维上，"
                  "减去的是别的组的均值。加上 keepdim=True 才对。",
        "silent_shape": "x - m 不报错，但结果的形状变成了 {out_shape}，与 x 的形状 {x_shape} 不同：广播沿错误的维度展开了。"
                        "加上 keepdim=True 才对。",
    },
}


def fill(template, values):
    """把模板里的 {名字} 换成 values[名字]；JS 端用同样的正则规则，两边结果一致。"""
    return re.sub(r"\{(\w+)\}", lambda m: str(values.get(m.group(1), m.group(0))), template)


def fmt(v):
    """显示用的数字格式：4 位小数；绝对值 ≥ 1e5 用科学计数法；不显示 -0.0000。JS 端的 fmt 与此一致。"""
    v = float(v)
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if abs(v) >= 1e5:
        return f"{v:.3e}"
    s = f"{v:.4f}"
    return "0.0000" if s == "-0.0000" else s


def fmt_eps(v):
    """ε 的显示格式，例如 1.0e-05。"""
    return f"{float(v):.1e}"


def fmt_tick(v):
    """纵轴刻度：整齐的数不带多余的小数，例如 5、-2.5、0.5、1000。刻度固定不变，只在 Python 端生成。"""
    return f"{float(v):g}"


def fmt_shape(shape):
    return "[" + ", ".join(str(int(s)) for s in shape) + "]"
