"""各探索器的唯一规格：默认值、范围、步长、标签、预设和中文文字模板。

每个规格由 `explorer_spec` 写成（kind、标题、控件、文字模板，加上探索器自己的部分），滑块由 `slider`、`eps_slider` 写。
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



def slider(label, lo, hi, step, value):
    """一个滑块的规格：标签、范围、步长、初始值（两种视图都按它画滑块）。"""
    return {"label": label, "min": lo, "max": hi, "step": step, "value": value}


def eps_slider(lo, hi, step):
    """ε 的滑块：对数刻度（滑块的值是以 10 为底的指数），从 PyTorch 的默认 ε = 1e-5 开始。"""
    return slider("ε（对数刻度）", lo, hi, step, -5.0)


def explorer_spec(kind, title, controls, text, **parts):
    """一个探索器的规格。每个探索器都有的四样：kind（页面内视图按它找到自己的脚本函数）、标题、控件（滑块用
    slider/eps_slider 写）、文字模板（text，用 fill 填）；parts 是这个探索器自己的其他部分（预设、图的标题……）。"""
    return {"kind": kind, "title": title, "controls": controls, **parts, "text": text}


# 柱状图（bars.py 与 explorers.js 的 drawChart）的文字：层归一化探索器与激活值探索器的规格都带上它
BAR_TEXT = {
    "chart_aria": "{title}：{h} 个值的柱状图，纵轴固定为 −{range} 到 {range}，最小 {min}，最大 {max}",
    "overflow": "▲ {count} 个超出范围",
}

LAYER_NORM_SPEC = explorer_spec(
    "layer_norm", "层归一化探索器：缩放参数 γ、平移参数 β 与 ε",
    controls={
        "gamma": slider("γ（全部特征）", -3.0, 3.0, 0.01, 1.0),
        "beta": slider("β（全部特征）", -5.0, 5.0, 0.01, 0.0),
        "log_eps": eps_slider(-12.0, 0.0, 0.5),
        "per_feature": {"label": "逐特征编辑 γ、β", "value": False},
        "feature": {"label": "特征序号 j", "value": 0},
        "gamma_j": {"label": "γ[j]"},
        "beta_j": {"label": "β[j]"},
    },
    presets={
        "reset": {"label": "重置（γ = 1，β = 0）"},
        "identity": {"label": "恒等（γ = √(σ² + ε)，β = μ）"},
    },
    charts={"x": "输入 x", "xhat": "标准化后 x̂", "y": "输出 y"},
    text={
        "in_stats": "输入 x：均值 μ = {in_mean}，方差 σ² = {in_var}",
        "hat_stats": "标准化后 x̂：均值 = {hat_mean}，方差 = {hat_var}",
        "out_stats": "输出 y：均值 = {out_mean}，方差 = {out_var}",
        "expected": "理论值：输出均值 = β = {beta}，输出方差 = γ² · σ² / (σ² + ε) = {expected_var}",
        "expected_per_feature": "逐特征的 γ、β 各不相同时，输出方差不再等于 γ² · σ² / (σ² + ε)。",
        "formula": "y[{j}] = γ[{j}] · (x[{j}] − μ) / √(σ² + ε) + β[{j}]"
                   " = {g} × ({x} − {mu}) / √({var} + {eps}) + {b} = {y}",
        "note": "方差都用有偏估计（除以 H = {h}，与 LayerNorm 相同）。",
        **BAR_TEXT,
        "range_note": "三个图的纵轴相同（−{range} 到 {range}），柱子的高度可以直接比较；超出范围的值画到边上，用三角标出。",
        "nonfinite": "输入 x 里有 {count} 个 NaN 或 inf（第一个是 x[{index}] = {value}），无法画图。"
                     "请先换成有限的数，例如 torch.nan_to_num(x)，再重新运行这个单元格。",
        "reader_error": "你的 LayerNorm 出错了：{error}。下面暂时显示 torch 的结果；改好类后重新运行这个单元格。",
        "reader_bad_output": "你的 LayerNorm 返回了 {what}，应返回形状为 ({h},) 的有限值张量。下面暂时显示 torch 的结果。",
        "reader_ok": "输出 y 由你的 {name} 计算。",
    },
)

DIM_KEEPDIM_SPEC = explorer_spec(
    "dim_keepdim", "dim 与 keepdim 探索器：x.mean(dim) 之后还能正确广播吗？",
    controls={
        "shape": {"label": "形状"},
        "dim": {"label": "dim"},
        "keepdim": {"label": "keepdim=True", "value": False},
    },
    # 每个形状带上各维的名字。词元数 = 嵌入维度的“方阵”情形：[4, 4] 与 [1, 4, 4] 静默地广播错，
    # [2, 4, 4] 反而报错（批量 2 与词元 4 对不上）
    shapes=[
        {"shape": [2, 3, 4], "names": ["批量", "词元", "嵌入"]},
        {"shape": [3, 4], "names": ["词元", "嵌入"]},
        {"shape": [4, 4], "names": ["词元", "嵌入"]},
        {"shape": [2, 4, 4], "names": ["批量", "词元", "嵌入"]},
        {"shape": [1, 4, 4], "names": ["批量", "词元", "嵌入"]},
        {"shape": [6], "names": ["嵌入"]},
    ],
    defaults={"shape": 0, "dim": -1, "keepdim": False},
    text={
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
)


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


# ---------------------------------------------------------------- 几何探索器（H = 3）
# 观察方向：1 方向（x₁ = x₂ = x₃）画成竖直向上；平面 x₁+x₂+x₃ = 0 从上方斜看，成一个椭圆。
GEO_ELEVATION_DEG = 25.0
GEO_AZIMUTH_DEG = 20.0

NORM_GEOMETRY_SPEC = explorer_spec(
    "norm_geometry", "几何探索器（H = 3）：层归一化 = 投影到平面 + 缩放到圆上；RMSNorm = 只缩放到球面上",
    controls={
        "x1": slider("x₁", -3.0, 3.0, 0.05, 2.0),
        "x2": slider("x₂", -3.0, 3.0, 0.05, 1.0),
        "x3": slider("x₃", -3.0, 3.0, 0.05, 0.5),
        "alpha": slider("缩放 α", 0.1, 3.0, 0.05, 1.0),
        "shift": slider("平移 c", -3.0, 3.0, 0.05, 0.0),
        "log_eps": eps_slider(-6.0, 1.0, 0.1),
    },
    presets={
        "reset": {"label": "重置", "x": [2.0, 1.0, 0.5], "alpha": 1.0, "shift": 0.0, "log_eps": -5.0},
        # near：让图里画的 x′ = αx + c·1 接近 c·1：x 设为 一点点偏差（正好在滑块的刻度上），于是 x′ = c·1 + α·偏差（α 不变）。
        # c·1 只在 |c| ≤ max_shift 时在画面里（tests/test_norm_geometry_near.py 由画面推出）：更远时先把 c 移到 ±max_shift
        "near": {"label": "让 x′ 接近 c·1（再拖动 ε）", "offset": [0.05, 0.0, -0.05], "log_eps": -5.0, "max_shift": 2.0},
    },
    view={"width": 250, "height": 236, "scale": 33.0, "cx": 125.0, "cy": 122.0,
          "elevation": GEO_ELEVATION_DEG, "azimuth": GEO_AZIMUTH_DEG, "axis_len": 2.6, "plane_r": 3.2},
    charts={"ln": "层归一化：先投影，再缩放到圆上", "rms": "RMSNorm：直接缩放到球面上"},
    swipe="← 左右滑动图：层归一化 / RMSNorm →",   # 只在手机上显示（两张图在一个横向滑动的框里）
    labels={"x": "x′", "mu": "μ·1", "v": "x′ − μ·1", "ln": "LN(x′)", "rms": "RMSNorm(x′)", "ones": "1 方向",
            "plane": "平面 x₁+x₂+x₃ = 0", "circle": "半径 √3 的圆", "sphere": "半径 √3 的球",
            "axes": ["x₁", "x₂", "x₃"], "out": "x′ 在画面外"},
    legend={
        "x": "输入 x′ = αx + c·1",
        "v": "居中：x′ − μ·1（落在平面上）",
        "ln": "层归一化的输出（在圆上）",
        "rms": "RMSNorm 的输出（在球面上）",
        "ghost": "空心圈：α = 1、c = 0 时的输出，用来对照",
    },
    text={
        "xp": "x′ = αx + c·1 = {xp}",
        "mu": "均值 μ = {mu}；居中后 x′ − μ·1 = {v}，三个分量之和 = {vsum}",
        "ln": "σ² = {var}；LN(x′) = (x′ − μ·1) / √(σ² + ε) = {ln}，长度 {ln_len}（√3 = {sqrt3}）",
        "rms": "RMS(x′) = √(mean(x′²) + ε) = {rms}；RMSNorm(x′) = x′ / RMS(x′) = {rms_out}，长度 {rms_len}",
        "invariance": "与 α = 1、c = 0 时相比：LN 的输出最大差 {ln_diff}，RMSNorm 的输出最大差 {rms_diff}",
        "eps": "ε = {eps}：居中后的长度 |x′ − μ·1| = {vlen}，√(3ε) = {eps_len}。"
               "前者远大于后者时 LN 的输出落在圆上；接近或小于后者时，输出缩向原点（长度只剩 {ln_len}）。",
        "note": "方差用有偏估计（除以 H = 3），γ = 1、β = 0。"
                "画面是三维的正交投影：1 方向竖直向上，平面从斜上方看成椭圆，球看成圆；可以拖动画面里的 x′。",
        "aria_ln": "层归一化几何图：x′ = {xp}，LN(x′) = {ln}",
        "aria_rms": "RMSNorm 几何图：x′ = {xp}，RMSNorm(x′) = {rms_out}",
    },
)


def fmt_vec(values):
    """三维向量的显示格式：(a, b, c)，每个分量用 fmt。JS 端的 fmtVec 与此一致。"""
    return "(" + ", ".join(fmt(v) for v in values) + ")"


# ---------------------------------------------------------------- 轴探索器：[B, T, H] 上哪些数共用一组统计量
AXES_SHAPE = (2, 3, 4)
AXES_SEED = 7


def axes_input(shape=AXES_SHAPE, seed=AXES_SEED):
    """轴探索器的默认张量 [B, T, H]：各特征的偏移和尺度不同（批量归一化与层归一化的结果才会明显不同），保留 1 位小数。"""
    b_, t_, h_ = shape
    rng = random.Random(seed)
    offset = [round(rng.uniform(-2.0, 2.0), 1) for _ in range(h_)]
    scale = [round(rng.uniform(0.5, 2.0), 1) for _ in range(h_)]
    return [[[round(offset[k] + scale[k] * rng.gauss(0.0, 1.0), 1) for k in range(h_)] for _ in range(t_)]
            for _ in range(b_)]


NORM_AXES_SPEC = explorer_spec(
    "norm_axes", "轴探索器：[B, T, H] 张量里，哪些数共用一个均值和方差？",
    controls={"mode": {"label": "归一化方式"}},
    # reduce：求统计量时合并的维度；group：H 维每几个特征一组（0 表示整条 H 维）；center：是否减均值
    modes=[
        {"key": "ln", "label": "层归一化（逐词元，dim=-1）", "reduce": [2], "group": 0, "center": True,
         "code": ["mean = x.mean(dim=-1, keepdim=True)",
                  "var = x.var(dim=-1, keepdim=True, unbiased=False)",
                  "y = (x - mean) / torch.sqrt(var + eps)"]},
        {"key": "bn", "label": "批量归一化（逐特征，跨 B·T，dim=(0, 1)）", "reduce": [0, 1], "group": 0, "center": True,
         "code": ["mean = x.mean(dim=(0, 1), keepdim=True)",
                  "var = x.var(dim=(0, 1), keepdim=True, unbiased=False)",
                  "y = (x - mean) / torch.sqrt(var + eps)"]},
        {"key": "rms", "label": "RMSNorm（逐词元，不减均值，dim=-1）", "reduce": [2], "group": 0, "center": False,
         "code": ["ms = x.pow(2).mean(dim=-1, keepdim=True)",
                  "y = x / torch.sqrt(ms + eps)"]},
        {"key": "ln_th", "label": "对 (T, H) 一起归一化（dim=(1, 2)）", "reduce": [1, 2], "group": 0, "center": True,
         "code": ["mean = x.mean(dim=(1, 2), keepdim=True)",
                  "var = x.var(dim=(1, 2), keepdim=True, unbiased=False)",
                  "y = (x - mean) / torch.sqrt(var + eps)"]},
        # 分组归一化（与 nn.GroupNorm 相同：每个样本里，H 维每 2 个特征一组，连同全部 T 个位置一起求统计量）。
        # 每组有 T·2 个数，输出不全是 ±1（每组只有 2 个数时，归一化后总是 ±1，看不出什么）
        {"key": "group", "label": "分组归一化（每个样本，H 维每 2 个特征一组，跨全部 T）", "reduce": [1, 2], "group": 2,
         "center": True,
         "code": ["g = x.view(B, T, H // 2, 2)",
                  "mean = g.mean(dim=(1, 3), keepdim=True)",
                  "var = g.var(dim=(1, 3), keepdim=True, unbiased=False)",
                  "y = ((g - mean) / torch.sqrt(var + eps)).view(B, T, H)"]},
    ],
    default_mode="ln",
    eps=1e-5,
    text={
        "input": "输入 x（形状 {shape}）",
        "output": "输出 y（同一颜色的格子共用一组统计量）",
        "sample": "样本 b = {b}",
        "row": "t = {t}",
        "col": "h = {h}",
        "groups": "共 {count} 组，每组 {size} 个数；统计量 {stat} 的形状是 {stat_shape}。",
        "first": "第一组（x[0, 0, 0] 所在的组，{size} 个数）：{stats}",
        "stats_center": "均值 μ = {mu}，方差 σ² = {var}",
        "stats_rms": "均方 mean(x²) = {ms}，均方根 = {rms}",
        "check_center": "每组归一化后：均值的最大绝对值 {mean_abs}，方差{var_span}。",
        "check_rms": "每组归一化后：均方根{rms_span}（均值不为 0：RMSNorm 不减均值）。",
        "span_same": "都是 {a}",          # 两端写出来相同：说一个值
        "span_range": "在 {a} 到 {b} 之间",
        "note": "方差用有偏估计，ε = {eps}。输入保留 1 位小数，输出显示 3 位小数。",
    },
)


def fmt3(v):
    """轴探索器格子里的数：3 位小数，不显示 -0.000。JS 端的 fmt3 与此一致。"""
    s = f"{float(v):.3f}"
    return "0.000" if s == "-0.000" else s


# ---------------------------------------------------------------- 真实激活值探索器：训练好的模型里一句话的层归一化输入
# 散点图（S 曲线）的几何：JS 端（explorers.js 的 scatter*）与 activation_explorer.py 用同样的数
ACT_SCATTER = {"width": 300, "height": 230, "left": 40, "right": 8, "top": 22, "bottom": 30}
ACT_QUANT_MAX = 32767   # 激活值量化成 16 位有符号整数：每层一个比例，最大的 |x| 对应 32767

ACTIVATION_SPEC = explorer_spec(
    "activations", "真实激活值探索器：训练好的模型里，一个词元经过层归一化",
    controls={
        "layer": {"label": "层归一化"},
        "token": {"label": "词元"},
        "prev": {"label": "◀ 上一个词元"},
        "next": {"label": "下一个词元 ▶"},
    },
    scatter=ACT_SCATTER,
    charts={"x": "输入 x", "xhat": "标准化后 x̂", "y": "输出 γ⊙x̂+β",
            "scatter": "本层所有词元：输入 x → x̂", "scatter_x": "输入 x", "scatter_y": "x̂"},
    layer_labels={"norm1": "第 {block} 块 norm1（注意力之前）", "norm2": "第 {block} 块 norm2（前馈之前）",
                  "final_norm": "final_norm（输出头之前）"},
    text={
        "token_option": "{t}「{ch}」",
        "sentence": "句子（{t} 个词元，当前词元加了底色）：",
        "stats": "输入 x 的 {h} 个数：均值 μ = {mu}，方差 σ² = {var}，σ = √(σ² + ε) = {sigma}",
        "spread": "本层 {t} 个词元的 σ 从 {lo} 到 {hi}，中位数 {med}；这个词元的 σ 是中位数的 {ratio} 倍。",
        "max": "|x| 最大的特征 j = {j}：x = {x}，x̂ = (x − μ)/σ = {xhat}，γ = {g}，β = {b}，输出 = {y}",
        "out_stats": "输出 γ⊙x̂+β：均值 = {mean}，方差 = {var}",
        "curve": "散点图里的灰点是本层全部 {t} × {h} 个 (x, x̂)；这个词元的 {h} 个点（红）都落在斜率 1/σ = {slope} 的直线上："
                 "σ 越大，直线越平。不同 σ 的直线叠在一起，就成了 S 形。",
        "note": "数据：构建本页时把这句话送进训练好的模型，记下每个层归一化的输入 x（每层量化为 16 位整数，"
                "最大误差 {err}），连同 γ、β。μ、σ、x̂ 和输出都是在这里现算的。",
        **BAR_TEXT,
        "scatter_aria": "散点图：{layer} 的全部输入与 x̂，当前词元 {token} 的点落在斜率 {slope} 的直线上",
    },
)


def token_label(ch):
    """词元的显示：空格、换行等看不见的字符换成可见的符号。"""
    return {" ": "␣", "\n": "⏎", "\t": "⇥", "": "∅"}.get(ch, ch)
