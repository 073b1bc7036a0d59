"""全书练习的目录：每章 2 道，由易到难；并能生成放进章节笔记本的单元格、显示参考答案。

每道练习有：题目（task）、学习者要改写的模板（template，未作答时运行不报错，检查会说“还没有完成”）、
检查单元格（check）、提示（hint）和参考答案（solution，与模板用同样的名字）。

    from dsx_util.exercises import chapter_cells, show_solution
    cells = chapter_cells("ch05_implement_layernorm")   # 放在该章 “## 练习” 单元格之后
    show_solution("ch05-layer-norm")                     # 显示参考答案
"""
from dataclasses import dataclass

TODO = 'raise NotImplementedError("请在这里写你的代码")'


@dataclass(frozen=True)
class Exercise:
    """一道练习。id 是稳定的短名（如 "ch05-layer-norm"），chapter 是章节文件名（不含 .ipynb）。"""

    id: str
    chapter: str
    title: str
    task: str
    template: str
    check: str
    hint: str
    solution: str

    @property
    def checker(self):
        """检查函数的名字，例如 "check_layer_norm"（取自 check 代码的最后一行）。"""
        call = self.check.strip().splitlines()[-1]
        return call.split("(", 1)[0].strip()


def _ex(id, chapter, title, task, template, check, hint, solution):
    return Exercise(id, chapter, title, task.strip(), template.strip(), check.strip(), hint.strip(),
                    solution.strip())


EXERCISES = [
    # ------------------------------------------------------------------ 第 0 章
    _ex(
        "ch00-seeded-noise", "ch00_environment", "可复现的随机数",
        """
写函数 `make_noise(seed)`：先用 `dsx_util.set_seed` 设定种子，再生成一个形状为 (3, 4) 的标准正态随机张量并返回。

检查会用同一个种子调用两次（结果必须完全相同），再换一个种子调用（结果必须不同），
并和“设定种子后直接生成”的结果比较。
""",
        f"""
import torch
from dsx_util import set_seed


def make_noise(seed):
    \"\"\"设定种子后，返回形状为 (3, 4) 的标准正态随机张量。\"\"\"
    {TODO}
""",
        """
from dsx_util.exercises import check_seeded_noise
check_seeded_noise(make_noise)
""",
        """
种子要在生成随机数**之前**设定，而且要用参数 `seed`，不要写死某个数。标准正态分布的随机数由 `torch.randn` 生成。
""",
        """
import torch
from dsx_util import set_seed


def make_noise(seed):
    \"\"\"设定种子后，返回形状为 (3, 4) 的标准正态随机张量。\"\"\"
    set_seed(seed)              # 先设定种子
    return torch.randn(3, 4)    # 再生成随机数
""",
    ),
    _ex(
        "ch00-table-rows", "ch00_environment", "为 print_table 准备表格行",
        """
`print_table(title, field_names, rows)` 的 `rows` 是由行组成的列表。写函数 `stats_rows(data)`：
`data` 是字典 `{名称: 浮点数列表}`，为每个名称生成一行 `[名称, 个数, 均值]`，按字典里的顺序返回所有行。只用纯 Python。

检查会核对行数、每行的长度、名称的顺序、个数和均值。通过后可以试试
`print_table("统计", ["名称", "个数", "均值"], stats_rows({"a": [1.0, 2.0]}))`。
""",
        f"""
def stats_rows(data):
    \"\"\"把 {{名称: 浮点数列表}} 变成 [[名称, 个数, 均值], ...]，顺序与字典相同。\"\"\"
    {TODO}
""",
        """
from dsx_util.exercises import check_table_rows
check_table_rows(stats_rows)
""",
        """
`data.items()` 按插入顺序依次给出 `(名称, 列表)`。个数用 `len`，均值等于总和除以个数。
""",
        """
def stats_rows(data):
    \"\"\"把 {名称: 浮点数列表} 变成 [[名称, 个数, 均值], ...]，顺序与字典相同。\"\"\"
    rows = []
    for name, values in data.items():
        rows.append([name, len(values), sum(values) / len(values)])
    return rows
""",
    ),
    # ------------------------------------------------------------------ 第 1 章
    _ex(
        "ch01-count-norms", "ch01_gpt_architecture", "数一数层归一化",
        """
写函数 `count_norms(cfg)`：对于用配置 `cfg` 构建的前置归一化 `GPTModel`，返回 `(层归一化的个数, 它们的参数总数)`。
不要真的构建模型，只用 `cfg["n_layers"]` 和 `cfg["emb_dim"]` 算。

检查会用 GPT-2 small 的配置 `GPT_CONFIG_124M` 和另外两个配置核对你的公式。
""",
        f"""
def count_norms(cfg):
    \"\"\"返回 (层归一化的个数, 参数总数)。\"\"\"
    {TODO}
""",
        """
from dsx_util.exercises import check_count_norms
check_count_norms(count_norms)
""",
        """
回到本章的结构图：每个 Transformer 块里有几个层归一化？所有块之后还有没有？
每个层归一化有缩放参数 γ 和平移参数 β 两个向量，长度都是 `emb_dim`。
想验证时，可以在一个小配置上用 `dsx_util.gpt.count_layer_norms(GPTModel(cfg))` 数一数。
""",
        """
def count_norms(cfg):
    \"\"\"返回 (层归一化的个数, 参数总数)。\"\"\"
    n_norms = 2 * cfg["n_layers"] + 1          # 每个块 2 个（norm1、norm2），再加最后的 final_norm
    n_params = n_norms * 2 * cfg["emb_dim"]    # 每个都有 scale 和 shift 两个向量
    return n_norms, n_params
""",
    ),
    _ex(
        "ch01-pre-ln-block", "ch01_gpt_architecture", "前置归一化块的前向传播",
        """
写函数 `pre_ln_block(x, att, ff, norm1, norm2)`，实现 GPT-2 所用的前置归一化（Pre-LN）Transformer 块的前向传播（不含 dropout）。
`att`（注意力子层）、`ff`（前馈神经网络）、`norm1`、`norm2`（两个层归一化）都可以像函数一样调用，输入输出形状都和 `x` 相同。

检查会用随机参数的小零件运行你的函数，与正确结果比较，并识别几种常见的接错方式。
""",
        f"""
def pre_ln_block(x, att, ff, norm1, norm2):
    \"\"\"前置归一化 Transformer 块：注意力子层、前馈子层，各带一个残差连接。\"\"\"
    {TODO}
""",
        """
from dsx_util.exercises import check_pre_ln_block
check_pre_ln_block(pre_ln_block)
""",
        """
前置归一化把层归一化放在子层的**入口**；残差连接绕过层归一化和子层，把子层的输入直接加到它的输出上。
两个子层都是同样的模式，`norm1` 配 `att`，`norm2` 配 `ff`。
""",
        """
def pre_ln_block(x, att, ff, norm1, norm2):
    \"\"\"前置归一化 Transformer 块：注意力子层、前馈子层，各带一个残差连接。\"\"\"
    x = x + att(norm1(x))   # 先归一化，再进注意力，最后加回残差
    x = x + ff(norm2(x))    # 前馈子层同样如此
    return x
""",
    ),
    # ------------------------------------------------------------------ 第 2 章
    _ex(
        "ch02-relu", "ch02_why_normalize", "用纯 Python 写 ReLU",
        """
写函数 `relu(values)`：输入一个浮点数列表，返回一个**新**列表，负数变成 `0.0`，其余的数原样保留。
不要用 torch，也不要修改传入的列表。

检查会核对每个位置的值、输出的类型（全是浮点数），以及输入列表有没有被改动。
""",
        f"""
def relu(values):
    \"\"\"对列表里的每个数做 ReLU，返回新列表。\"\"\"
    {TODO}
""",
        """
from dsx_util.exercises import check_relu
check_relu(relu)
""",
        """
对每个数分两种情况处理，列表推导式一行就能写完。小心：`max(0, v)` 在 `v` 为负数时返回的是整数 `0`。
""",
        """
def relu(values):
    \"\"\"对列表里的每个数做 ReLU，返回新列表。\"\"\"
    return [v if v > 0 else 0.0 for v in values]
""",
    ),
    _ex(
        "ch02-standardize-rows", "ch02_why_normalize", "按行标准化",
        """
写函数 `standardize_rows(x)`：`x` 是形状为 [N, D] 的张量，每一行是一个样本的 D 个激活值。
返回形状相同的张量，其中每一行都减去这一行的均值、再除以这一行的标准差（有偏估计，除以 D），使每一行均值为 0、方差为 1。
这道题的数据里没有常数行，不需要 ε。

检查会在两个形状不同的输入上比较结果，并识别几种常见错误（例如归一化的方向不对）。
""",
        f"""
import torch


def standardize_rows(x):
    \"\"\"让 x 的每一行均值为 0、方差为 1。\"\"\"
    {TODO}
""",
        """
from dsx_util.exercises import check_standardize_rows
check_standardize_rows(standardize_rows)
""",
        """
“每一行”的统计量要沿最后一维算；算完后还要能和 `x` 逐元素相减，所以保留被归约的那一维。
`x.var` 的参数 `unbiased=False` 给出有偏方差。
""",
        """
import torch


def standardize_rows(x):
    \"\"\"让 x 的每一行均值为 0、方差为 1。\"\"\"
    mean = x.mean(dim=-1, keepdim=True)
    var = x.var(dim=-1, keepdim=True, unbiased=False)
    return (x - mean) / torch.sqrt(var)
""",
    ),
    # ------------------------------------------------------------------ 第 3 章
    _ex(
        "ch03-predict-shapes", "ch03_dim_keepdim", "预测结果的形状",
        """
设 `x` 的形状是 (2, 3, 4)。先不运行代码，推出下面每个表达式结果的形状，写成函数 `predict_shapes()` 返回的字典：
键是表达式字符串（与下面一字不差），值是整数元组。

- `x.mean(dim=-1)`
- `x.mean(dim=-1, keepdim=True)`
- `x.sum(dim=0)`
- `x.var(dim=1, keepdim=True)`
- `x - x.mean(dim=-1, keepdim=True)`

检查会让 PyTorch 真正算一遍，逐个比较，并指出是哪一种误解（keepdim、维度、广播）。
""",
        f"""
def predict_shapes():
    \"\"\"x 的形状是 (2, 3, 4)。返回字典：表达式 -> 结果形状（整数元组）。\"\"\"
    # 格式示例：{{"x.sum()": ()}}
    {TODO}
""",
        """
from dsx_util.exercises import check_predict_shapes
check_predict_shapes(predict_shapes)
""",
        """
`dim=-1` 指最后一维。沿某一维归约后，这一维消失；加上 `keepdim=True` 时，它留下来，长度变成 1。
长度为 1 的维度在逐元素运算时会被广播。
""",
        """
def predict_shapes():
    \"\"\"x 的形状是 (2, 3, 4)。返回字典：表达式 -> 结果形状（整数元组）。\"\"\"
    return {
        "x.mean(dim=-1)": (2, 3),
        "x.mean(dim=-1, keepdim=True)": (2, 3, 1),
        "x.sum(dim=0)": (3, 4),
        "x.var(dim=1, keepdim=True)": (2, 1, 4),
        "x - x.mean(dim=-1, keepdim=True)": (2, 3, 4),
    }
""",
    ),
    _ex(
        "ch03-mean-var", "ch03_dim_keepdim", "沿最后一维求均值和方差",
        """
写函数 `mean_var(x)`：对任意形状的张量 `x`，沿最后一维求均值 μ 和方差 σ²（有偏估计），返回 `(mean, var)`。
两者都要保留被归约的维度，使 `x - mean` 能直接按行相减。

检查会用几种形状的输入（包括方阵，那里维度写错也不会报错），核对数值和形状。
""",
        f"""
import torch


def mean_var(x):
    \"\"\"沿最后一维的均值和有偏方差，保留维度。\"\"\"
    {TODO}
""",
        """
from dsx_util.exercises import check_mean_var
check_mean_var(mean_var)
""",
        """
要用的是 `dim`、`keepdim` 两个参数；方差还有一个决定“除以 n 还是 n−1”的参数。
""",
        """
import torch


def mean_var(x):
    \"\"\"沿最后一维的均值和有偏方差，保留维度。\"\"\"
    mean = x.mean(dim=-1, keepdim=True)
    var = x.var(dim=-1, keepdim=True, unbiased=False)
    return mean, var
""",
    ),
    # ------------------------------------------------------------------ 第 4 章
    _ex(
        "ch04-normalize-eps", "ch04_formulas", "给分母加上 ε",
        """
写函数 `normalize(x, eps=1e-5)`：按公式 (1)–(3) 沿最后一维标准化 `x`（不含缩放参数 γ 和平移参数 β）。
所有值都相同的一行（方差为 0）也要得到全 0，而不是 NaN。

检查会用普通输入、方差很小的行、常数行，以及 `eps=0.5` 分别调用你的函数。
""",
        f"""
import torch


def normalize(x, eps=1e-5):
    \"\"\"公式 (1)–(3)：沿最后一维减均值、除以 sqrt(方差 + eps)。\"\"\"
    {TODO}
""",
        """
from dsx_util.exercises import check_normalize_eps
check_normalize_eps(normalize)
""",
        """
ε 的位置要和公式 (3) 完全一致：先加到方差上，再开平方。别忘了用参数 `eps`，而不是写死的数。
""",
        """
import torch


def normalize(x, eps=1e-5):
    \"\"\"公式 (1)–(3)：沿最后一维减均值、除以 sqrt(方差 + eps)。\"\"\"
    mean = x.mean(dim=-1, keepdim=True)                 # 公式 (1)
    var = x.var(dim=-1, keepdim=True, unbiased=False)   # 公式 (2)
    return (x - mean) / torch.sqrt(var + eps)           # 公式 (3)
""",
    ),
    _ex(
        "ch04-identity-params", "ch04_formulas", "让层归一化原样输出",
        """
给定一行数据 `x`（形状为 (D,) 的一维张量），写函数 `identity_params(x, eps=1e-5)`，返回 `(gamma, beta)`，
两者形状都是 (D,)，使得以它们为缩放参数 γ、平移参数 β 的层归一化，把 `x` 原样输出。

检查会把你的 γ、β 装进 `dsx_util.LayerNorm`，看输出是否等于输入；其中一行的方差与 ε 同量级。
""",
        f"""
import torch


def identity_params(x, eps=1e-5):
    \"\"\"返回 (gamma, beta)，使层归一化对这一行 x 的输出恰好是 x。\"\"\"
    {TODO}
""",
        """
from dsx_util.exercises import check_identity_params
check_identity_params(identity_params)
""",
        """
公式 (4) 是公式 (3) 的“反操作”的机会：标准化时减掉了什么、除掉了什么？让 γ、β 把它们还回去。
每个特征的 γ、β 可以取同一个值。
""",
        """
import torch


def identity_params(x, eps=1e-5):
    \"\"\"返回 (gamma, beta)，使层归一化对这一行 x 的输出恰好是 x。\"\"\"
    mean = x.mean()
    var = x.var(unbiased=False)
    gamma = torch.sqrt(var + eps) * torch.ones_like(x)   # 乘回标准差（含 ε）
    beta = mean * torch.ones_like(x)                     # 加回均值
    return gamma, beta
""",
    ),
    # ------------------------------------------------------------------ 第 5 章
    _ex(
        "ch05-copy-weights", "ch05_implement_layernorm", "把 nn.LayerNorm 的参数搬过来",
        """
写函数 `copy_weights(my_ln, torch_ln)`：`my_ln` 是本书的 `dsx_util.LayerNorm`，`torch_ln` 是 PyTorch 的 `nn.LayerNorm`。
把 `torch_ln` 的参数和 ε 复制到 `my_ln` 里（就地修改，不需要返回值），使两者对同一输入给出相同的输出。
`my_ln` 的 `scale`、`shift` 要仍是它自己的可学习参数。

检查会核对参数值、ε、两个模型的输出，以及复制后两者是否还共用内存。
""",
        f"""
import torch


def copy_weights(my_ln, torch_ln):
    \"\"\"把 nn.LayerNorm 的参数和 eps 复制进本书的 LayerNorm。\"\"\"
    {TODO}
""",
        """
from dsx_util.exercises import check_copy_weights
check_copy_weights(copy_weights)
""",
        """
`nn.LayerNorm` 的 `weight` 对应缩放参数 γ，`bias` 对应平移参数 β。
要改写一个需要梯度的参数的数值，先进入 `torch.no_grad()`，再用张量的 `copy_` 方法。
""",
        """
import torch


def copy_weights(my_ln, torch_ln):
    \"\"\"把 nn.LayerNorm 的参数和 eps 复制进本书的 LayerNorm。\"\"\"
    with torch.no_grad():
        my_ln.scale.copy_(torch_ln.weight)   # weight -> 缩放参数 γ
        my_ln.shift.copy_(torch_ln.bias)     # bias -> 平移参数 β
    my_ln.eps = torch_ln.eps
""",
    ),
    _ex(
        "ch05-layer-norm", "ch05_implement_layernorm", "从零实现 LayerNorm",
        """
写一个类 `MyLayerNorm(emb_dim, eps=1e-5)`：继承 `nn.Module`，有可学习参数 `scale`（初始全 1）和 `shift`（初始全 0），
`forward(x)` 沿最后一维做层归一化，再用 `scale`、`shift` 缩放和平移。不要调用 PyTorch 现成的层归一化。

检查会用多种专门挑选的输入（尺度悬殊的行、方阵、常数行、均值很大的行）比较输出，
并检查参数、梯度和输入是否被修改。
""",
        f"""
import torch
import torch.nn as nn


class MyLayerNorm(nn.Module):
    def __init__(self, emb_dim, eps=1e-5):
        super().__init__()
        {TODO}

    def forward(self, x):
        {TODO}
""",
        """
from dsx_util.exercises import check_layer_norm
check_layer_norm(MyLayerNorm)
""",
        """
按公式 (1)–(4) 一步一步写，每一步一行。`nn.Parameter` 把张量注册成可学习参数。
均值和方差都沿最后一维、保留维度；方差用有偏估计；ε 加在方差上。
""",
        """
import torch
import torch.nn as nn


class MyLayerNorm(nn.Module):
    def __init__(self, emb_dim, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.scale = nn.Parameter(torch.ones(emb_dim))   # 缩放参数 γ
        self.shift = nn.Parameter(torch.zeros(emb_dim))  # 平移参数 β

    def forward(self, x):
        mean = x.mean(dim=-1, keepdim=True)
        var = x.var(dim=-1, keepdim=True, unbiased=False)
        norm_x = (x - mean) / torch.sqrt(var + self.eps)
        return self.scale * norm_x + self.shift
""",
    ),
    # ------------------------------------------------------------------ 第 6 章
    _ex(
        "ch06-to-biased", "ch06_biased_unbiased", "把无偏方差换算成有偏方差",
        """
写函数 `to_biased(var_unbiased, n)`：`var_unbiased` 是用贝塞尔校正（除以 n−1）算出的方差张量，每个值来自 `n` 个数。
返回对应的有偏方差（除以 n），形状不变。

检查会用 n = 4 和 n = 768 的输入比较结果。
""",
        f"""
def to_biased(var_unbiased, n):
    \"\"\"无偏方差（除以 n-1）换算成有偏方差（除以 n）。\"\"\"
    {TODO}
""",
        """
from dsx_util.exercises import check_to_biased
check_to_biased(to_biased)
""",
        """
两种方差的分子相同，都是偏差平方和；先用无偏方差求出这个和，再除以 n。
""",
        """
def to_biased(var_unbiased, n):
    \"\"\"无偏方差（除以 n-1）换算成有偏方差（除以 n）。\"\"\"
    return var_unbiased * (n - 1) / n
""",
    ),
    _ex(
        "ch06-std-ratio", "ch06_biased_unbiased", "两种标准差之比",
        """
对同一组 H 个数，写函数 `std_ratio(h)`，返回 有偏标准差 ÷ 无偏标准差（一个 Python 浮点数）。
它与这组数的具体取值无关。

检查会用 H = 2、4、768 核对结果。
""",
        f"""
import math


def std_ratio(h):
    \"\"\"同一组 h 个数：有偏标准差 / 无偏标准差。\"\"\"
    {TODO}
""",
        """
from dsx_util.exercises import check_std_ratio
check_std_ratio(std_ratio)
""",
        """
先写出两种方差之比（分子相同，只有分母不同），再想想标准差和方差的关系。
""",
        """
import math


def std_ratio(h):
    \"\"\"同一组 h 个数：有偏标准差 / 无偏标准差。\"\"\"
    return math.sqrt((h - 1) / h)
""",
    ),
    # ------------------------------------------------------------------ 第 7 章
    _ex(
        "ch07-batchnorm-axis", "ch07_layernorm_vs_batchnorm", "批量归一化沿哪一维",
        """
写函数 `batch_normalize(x, eps=1e-5)`：`x` 的形状是 [N, D]（N 个样本，每个 D 个特征）。
按批量归一化（Batch Normalization）训练时的做法标准化（不含 γ、β），方差用有偏估计，ε 加在方差上。

检查会用各列尺度不同的两个输入比较结果，并指出是否把方向弄成了层归一化。
""",
        f"""
import torch


def batch_normalize(x, eps=1e-5):
    \"\"\"对形状 [N, D] 的 x 做批量归一化的标准化步骤。\"\"\"
    {TODO}
""",
        """
from dsx_util.exercises import check_batchnorm_axis
check_batchnorm_axis(batch_normalize)
""",
        """
批量归一化为每个**特征**算一个均值和方差，统计量来自批量里的所有样本。这对应张量的哪一维？
""",
        """
import torch


def batch_normalize(x, eps=1e-5):
    \"\"\"对形状 [N, D] 的 x 做批量归一化的标准化步骤。\"\"\"
    mean = x.mean(dim=0, keepdim=True)                  # 每个特征跨样本求均值
    var = x.var(dim=0, keepdim=True, unbiased=False)
    return (x - mean) / torch.sqrt(var + eps)
""",
    ),
    _ex(
        "ch07-batch-norm", "ch07_layernorm_vs_batchnorm", "批量归一化的训练步与滑动统计量",
        """
写一个类 `MyBatchNorm1d(num_features, eps=1e-5, momentum=0.1)`，行为与 `nn.BatchNorm1d` 相同（输入形状 [N, D]）：

- 有可学习参数 `weight`（初始全 1）、`bias`（初始全 0），以及缓冲区 `running_mean`（初始全 0）、`running_var`（初始全 1）；
- 训练模式下用当前批量的统计量归一化，并更新滑动统计量；
- 评估模式（`model.eval()` 之后）下用滑动统计量归一化，不再更新它们。

检查会与 `nn.BatchNorm1d` 逐步比较输出和滑动统计量。
""",
        f"""
import torch
import torch.nn as nn


class MyBatchNorm1d(nn.Module):
    def __init__(self, num_features, eps=1e-5, momentum=0.1):
        super().__init__()
        {TODO}

    def forward(self, x):
        {TODO}
""",
        """
from dsx_util.exercises import check_batch_norm
check_batch_norm(MyBatchNorm1d)
""",
        """
`self.training` 告诉你当前是哪种模式；`register_buffer` 注册不参与训练的张量。
归一化用有偏方差，而 `nn.BatchNorm1d` 记进 `running_var` 的是无偏方差；
更新规则是“旧值 ×(1 − momentum) + 新值 × momentum”，更新时不要让它进入计算图。
""",
        """
import torch
import torch.nn as nn


class MyBatchNorm1d(nn.Module):
    def __init__(self, num_features, eps=1e-5, momentum=0.1):
        super().__init__()
        self.eps = eps
        self.momentum = momentum
        self.weight = nn.Parameter(torch.ones(num_features))
        self.bias = nn.Parameter(torch.zeros(num_features))
        self.register_buffer("running_mean", torch.zeros(num_features))
        self.register_buffer("running_var", torch.ones(num_features))

    def forward(self, x):
        if self.training:
            mean = x.mean(dim=0)
            var = x.var(dim=0, unbiased=False)              # 归一化用有偏方差
            with torch.no_grad():                           # 滑动统计量用无偏方差
                m = self.momentum
                self.running_mean.mul_(1 - m).add_(m * mean)
                self.running_var.mul_(1 - m).add_(m * x.var(dim=0, unbiased=True))
        else:
            mean, var = self.running_mean, self.running_var
        norm_x = (x - mean) / torch.sqrt(var + self.eps)
        return self.weight * norm_x + self.bias
""",
    ),
    # ------------------------------------------------------------------ 第 8 章
    _ex(
        "ch08-rms", "ch08_rmsnorm", "沿最后一维的均方根",
        """
写函数 `rms(x)`：沿最后一维计算均方根 $\\sqrt{\\tfrac{1}{D}\\sum_i x_i^2}$，保留被归约的维度（结果最后一维长度为 1）。
这里不需要 ε。

检查会用两种形状的输入比较结果，并识别几种常见的混淆（例如和标准差弄混）。
""",
        f"""
import torch


def rms(x):
    \"\"\"沿最后一维的均方根，保留维度。\"\"\"
    {TODO}
""",
        """
from dsx_util.exercises import check_rms
check_rms(rms)
""",
        """
名字就是做法，从里往外读：先平方（square），再平均（mean），最后开方（root）。和标准差不同，这里不减均值。
""",
        """
import torch


def rms(x):
    \"\"\"沿最后一维的均方根，保留维度。\"\"\"
    return torch.sqrt(x.pow(2).mean(dim=-1, keepdim=True))
""",
    ),
    _ex(
        "ch08-rms-norm", "ch08_rmsnorm", "从零实现 RMSNorm",
        """
写一个类 `MyRMSNorm(emb_dim, eps=1e-6)`：继承 `nn.Module`，只有一个可学习参数 `scale`（初始全 1），没有平移参数 β。
`forward(x)` 沿最后一维把 `x` 除以 $\\sqrt{\\text{mean}(x^2) + \\varepsilon}$，再乘以 `scale`。

检查会与正确结果比较，并检查参数、ε 的位置和是否误减了均值。
""",
        f"""
import torch
import torch.nn as nn


class MyRMSNorm(nn.Module):
    def __init__(self, emb_dim, eps=1e-6):
        super().__init__()
        {TODO}

    def forward(self, x):
        {TODO}
""",
        """
from dsx_util.exercises import check_rms_norm
check_rms_norm(MyRMSNorm)
""",
        """
和 LayerNorm 比，RMSNorm 少了两样东西：减均值和平移参数 β。ε 加在均方上，再开平方。
""",
        """
import torch
import torch.nn as nn


class MyRMSNorm(nn.Module):
    def __init__(self, emb_dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.scale = nn.Parameter(torch.ones(emb_dim))   # 缩放参数 γ

    def forward(self, x):
        mean_sq = x.pow(2).mean(dim=-1, keepdim=True)
        return self.scale * x / torch.sqrt(mean_sq + self.eps)
""",
    ),
    # ------------------------------------------------------------------ 第 9 章
    _ex(
        "ch09-post-ln-block", "ch09_pre_post_ln", "后置归一化块的前向传播",
        """
写函数 `post_ln_block(x, att, ff, norm1, norm2)`，实现 2017 年原始 Transformer 所用的后置归一化（Post-LN）块的前向传播（不含 dropout）。
参数的含义与第 1 章练习中的 `pre_ln_block` 相同。

检查会与正确结果比较，并识别几种常见的接错方式（包括写成了前置归一化）。
""",
        f"""
def post_ln_block(x, att, ff, norm1, norm2):
    \"\"\"后置归一化 Transformer 块：子层输出加回残差之后再归一化。\"\"\"
    {TODO}
""",
        """
from dsx_util.exercises import check_post_ln_block
check_post_ln_block(post_ln_block)
""",
        """
后置归一化里，层归一化位于残差连接的**主干**上：先把子层输出与子层输入相加，再对这个和做层归一化。
""",
        """
def post_ln_block(x, att, ff, norm1, norm2):
    \"\"\"后置归一化 Transformer 块：子层输出加回残差之后再归一化。\"\"\"
    x = norm1(x + att(x))   # 先加残差，再归一化
    x = norm2(x + ff(x))
    return x
""",
    ),
    _ex(
        "ch09-gpt-trunk", "ch09_pre_post_ln", "所有块之后还要归一化吗",
        """
写函数 `gpt_trunk(x, blocks, final_norm, norm_position)`：让 `x` 依次经过列表 `blocks` 里的每个 Transformer 块，
再决定是否经过最后的层归一化 `final_norm`。`norm_position` 是 `"pre"`（前置归一化）或 `"post"`（后置归一化），
做法要与 `dsx_util.gpt.GPTModel` 一致。

检查会用两种 `norm_position` 分别调用你的函数。
""",
        f"""
def gpt_trunk(x, blocks, final_norm, norm_position):
    \"\"\"依次经过所有块；按 norm_position 决定是否最后再做一次层归一化。\"\"\"
    {TODO}
""",
        """
from dsx_util.exercises import check_gpt_trunk
check_gpt_trunk(gpt_trunk)
""",
        """
想一想每种块的输出是否已经归一化过：后置归一化的块以层归一化结尾，前置归一化的块以残差相加结尾。
""",
        """
def gpt_trunk(x, blocks, final_norm, norm_position):
    \"\"\"依次经过所有块；按 norm_position 决定是否最后再做一次层归一化。\"\"\"
    for block in blocks:
        x = block(x)
    if norm_position == "pre":   # 前置归一化的残差主干没有归一化过，输出头之前补一次
        x = final_norm(x)
    return x
""",
    ),
    # ------------------------------------------------------------------ 第 10 章
    _ex(
        "ch10-centering-backward", "ch10_backward", "减均值这一步的梯度",
        """
设 $y = x - \\text{mean}(x)$，均值沿最后一维计算。写函数 `centering_backward(grad_out)`：
已知损失对 $y$ 的梯度 `grad_out`（形状与 $x$ 相同），手算并返回损失对 $x$ 的梯度。不要用 autograd。

检查会与 autograd 的结果比较。
""",
        f"""
def centering_backward(grad_out):
    \"\"\"y = x - x.mean(dim=-1, keepdim=True) 时，由 dL/dy 求 dL/dx。\"\"\"
    {TODO}
""",
        """
from dsx_util.exercises import check_centering_backward
check_centering_backward(centering_backward)
""",
        """
$x_j$ 影响输出有两条路：直接影响 $y_j$，以及通过均值影响同一行的每一个 $y_i$（每个 $\\partial \\text{mean}/\\partial x_j = 1/D$）。
""",
        """
def centering_backward(grad_out):
    \"\"\"y = x - x.mean(dim=-1, keepdim=True) 时，由 dL/dy 求 dL/dx。\"\"\"
    return grad_out - grad_out.mean(dim=-1, keepdim=True)
""",
    ),
    _ex(
        "ch10-layer-norm-backward", "ch10_backward", "手推层归一化的反向传播",
        """
设 $y = \\gamma \\cdot \\hat{x} + \\beta$，其中 $\\hat{x} = (x - \\mu) / \\sqrt{\\sigma^2 + \\varepsilon}$，μ 和有偏方差 σ² 沿最后一维计算。
写函数 `layer_norm_backward(x, gamma, grad_out, eps=1e-5)`，返回损失对 `x` 的梯度。不要用 autograd。

检查会在两种形状的 float64 输入上与 autograd 的结果比较，并指出缺了哪一项。
""",
        f"""
import torch


def layer_norm_backward(x, gamma, grad_out, eps=1e-5):
    \"\"\"层归一化对 x 的梯度（不用 autograd）。\"\"\"
    {TODO}
""",
        """
from dsx_util.exercises import check_layer_norm_backward
check_layer_norm_backward(layer_norm_backward)
""",
        """
先求传到 $\\hat{x}$ 的梯度 $g = \\gamma \\cdot$ `grad_out`。$x_j$ 影响 $\\hat{x}$ 有三条路：直接、经过 μ、经过 σ²；
最后的结果由三项组成，整体带一个 $1/\\sqrt{\\sigma^2 + \\varepsilon}$。
""",
        """
import torch


def layer_norm_backward(x, gamma, grad_out, eps=1e-5):
    \"\"\"层归一化对 x 的梯度（不用 autograd）。\"\"\"
    mean = x.mean(dim=-1, keepdim=True)
    var = x.var(dim=-1, keepdim=True, unbiased=False)
    std = torch.sqrt(var + eps)
    x_hat = (x - mean) / std
    g = grad_out * gamma                                 # 传到 x_hat 的梯度
    g_mean = g.mean(dim=-1, keepdim=True)                # 经过 μ 的一项
    g_proj = (g * x_hat).mean(dim=-1, keepdim=True)      # 经过 σ² 的一项
    return (g - g_mean - x_hat * g_proj) / std
""",
    ),
    # ------------------------------------------------------------------ 第 11 章
    _ex(
        "ch11-var-from-sums", "ch11_speed", "由两个累加和算方差",
        """
单遍扫描时，只累加每一行的 $s_1 = \\sum_i x_i$ 和 $s_2 = \\sum_i x_i^2$。写函数 `var_from_sums(s1, s2, n)`：
由这两个和（张量，逐元素）以及每行的个数 `n`，算出有偏方差。

检查会与 PyTorch 直接算出的方差比较。
""",
        f"""
def var_from_sums(s1, s2, n):
    \"\"\"由 Σx 与 Σx² 算出有偏方差（逐元素）。\"\"\"
    {TODO}
""",
        """
from dsx_util.exercises import check_var_from_sums
check_var_from_sums(var_from_sums)
""",
        """
方差 = $x^2$ 的平均 − 平均值的平方。两个平均都能由 `s1`、`s2` 和 `n` 得到。
""",
        """
def var_from_sums(s1, s2, n):
    \"\"\"由 Σx 与 Σx² 算出有偏方差（逐元素）。\"\"\"
    mean = s1 / n
    return s2 / n - mean ** 2
""",
    ),
    _ex(
        "ch11-stable-layer-norm", "ch11_speed", "均值为 1e4 的行也要算对",
        """
写函数 `stable_normalize(x, eps=1e-5)`：在 float32 下沿最后一维标准化 `x`（不含 γ、β），方差用有偏估计。
要求：即使一行的均值约为 1e4（例如 `torch.randn(768) + 1e4`），结果也要正确。
自己算方差（不要调用 `torch.var` 之类的现成函数），也不要转换成 float64。

检查会用普通输入和均值约 1e4 的输入，与 float64 下的正确结果比较。
""",
        f"""
import torch


def stable_normalize(x, eps=1e-5):
    \"\"\"float32 下数值稳定的标准化：均值很大的行也要算对。\"\"\"
    {TODO}
""",
        """
from dsx_util.exercises import check_stable_layer_norm
check_stable_layer_norm(stable_normalize)
""",
        """
上一题的单遍公式在均值很大时会让两个约 1e8 的数相减，float32 只有 7 位左右有效数字。
换一种算法：先求出均值，再对“与均值的偏差”求平方的平均（两遍扫描），或者用 Welford 算法。
""",
        """
import torch


def stable_normalize(x, eps=1e-5):
    \"\"\"float32 下数值稳定的标准化：均值很大的行也要算对。\"\"\"
    mean = x.mean(dim=-1, keepdim=True)                # 第一遍：均值
    diff = x - mean                                    # 偏差的大小与数据的尺度无关
    var = (diff * diff).mean(dim=-1, keepdim=True)     # 第二遍：偏差平方的平均
    return diff / torch.sqrt(var + eps)
""",
    ),
]

_BY_ID = {ex.id: ex for ex in EXERCISES}


def exercises_for(chapter_stem):
    """某一章的练习（按题目顺序）；chapter_stem 如 "ch05_implement_layernorm"，也接受 "ch05" 或带 .ipynb 的文件名。"""
    stem = str(chapter_stem).rsplit("/", 1)[-1].removesuffix(".ipynb")
    return [ex for ex in EXERCISES if ex.chapter == stem or ex.chapter.split("_", 1)[0] == stem]


def get_exercise(exercise_id):
    """按 id 取出练习；id 不存在时抛出 KeyError，信息里列出所有可用的 id。"""
    try:
        return _BY_ID[exercise_id]
    except (KeyError, TypeError):
        raise KeyError(f"没有 id 为 {exercise_id!r} 的练习。可用的 id：{', '.join(_BY_ID)}") from None


def show_solution(exercise_id):
    """显示一道练习的参考答案：笔记本里是带语法高亮的代码，终端里是纯文本。

    笔记本里输出一段 Markdown（标题 + python 代码块）：Jupyter、Colab 和 HTML 书都会给代码块做语法高亮，
    而且书里用的是本书自己的配色，不会像 IPython.display.Code 那样往页面里插入全局样式。
    """
    try:
        ex = get_exercise(exercise_id)
    except KeyError as err:
        raise ValueError(err.args[0]) from None
    heading = f"参考答案：{ex.title}（{ex.id}）"
    from ..notebook import in_notebook
    if in_notebook():
        from IPython.display import display
        display({"text/markdown": f"**{heading}**\n\n```python\n{ex.solution}\n```",
                 "text/plain": f"{heading}\n\n{ex.solution}"}, raw=True)
    else:
        print(heading)
        print(ex.solution)


def _cell_source(ex, n):
    return {
        "task": f"### 练习 {n}：{ex.title}\n\n{ex.task}",
        "hint": f"<details><summary>提示</summary>\n\n{ex.hint}\n\n</details>",
        "solution": f'from dsx_util.exercises import show_solution\nshow_solution("{ex.id}")',
    }


def chapter_cells(chapter_stem):
    """生成放在该章 “## 练习” 单元格之后的全部单元格（nbformat v4 单元格列表）。

    每道练习依次是：题目（markdown）、模板（代码，标签 exercise-template）、检查（代码，标签 exercise-check）、
    折叠的提示（markdown）、参考答案（代码，标签 hide-output 与 exercise-solution：书中输出折叠，
    笔记本里运行后才显示）。
    """
    import nbformat
    exercises = exercises_for(chapter_stem)
    if not exercises:
        chapters = sorted({ex.chapter for ex in EXERCISES})
        raise ValueError(f"章节 {chapter_stem!r} 没有练习。有练习的章节：{', '.join(chapters)}")
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    cells = []
    for n, ex in enumerate(exercises, start=1):
        src = _cell_source(ex, n)
        cells += [
            md(src["task"], metadata={"exercise_id": ex.id}),
            code(ex.template, metadata={"tags": ["exercise-template"], "exercise_id": ex.id}),
            code(ex.check, metadata={"tags": ["exercise-check"], "exercise_id": ex.id}),
            md(src["hint"], metadata={"exercise_id": ex.id}),
            code(src["solution"], metadata={"tags": ["hide-output", "exercise-solution"], "exercise_id": ex.id}),
        ]
    kinds = ("task", "template", "check", "hint", "solution")
    for i, cell in enumerate(cells):   # 固定的单元格 id：重复生成的结果完全相同
        cell.id = f"{cell.metadata['exercise_id']}-{kinds[i % len(kinds)]}"
    return cells


EXERCISES_MARKER_TAG = "exercises"


def fill_exercises(nb, chapter_stem):
    """把 chapter_cells(chapter_stem) 放到笔记本 nb 里 “## 练习” 标记单元格（标签 exercises）之后。

    标记单元格之后原有的单元格全部被替换；标记单元格本身不动。就地修改 nb，返回是否有改动
    （重复运行结果不变，所以可以放进 tools/nbsync.py 里每次都跑）。
    """
    markers = [i for i, c in enumerate(nb.cells) if EXERCISES_MARKER_TAG in c.get("metadata", {}).get("tags", [])]
    if len(markers) != 1:
        raise ValueError(f"笔记本里应恰好有 1 个带 {EXERCISES_MARKER_TAG!r} 标签的“## 练习”单元格，实际有 {len(markers)} 个。")
    new = chapter_cells(chapter_stem)
    if nb.get("nbformat", 4) == 4 and nb.get("nbformat_minor", 5) < 5:   # 旧格式不允许单元格 id
        for cell in new:
            cell.pop("id", None)
    old = nb.cells[markers[0] + 1:]

    def key(cell):
        return (cell.get("cell_type"), cell.get("source"), cell.get("metadata"), cell.get("id"))
    if [key(c) for c in old] == [key(c) for c in new]:
        return False
    nb.cells[markers[0] + 1:] = new
    return True
