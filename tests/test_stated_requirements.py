"""每道练习的 task.md 写明的每条要求，都有一个只违反这一条的尝试，检查器不让它通过，说明里点出这条要求。

尝试由参考答案改一处得来（edit 在 solution.py 上做一次字符串替换），这样“只错这一条”是看得见的。
REQUIREMENTS 按练习列出：(要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)。
"""
import importlib

import pytest

from dsx_util.exercises.catalog import EXERCISES, get_exercise
from mutation import run_checker

SIG = "参数"   # 签名不符的说明里都有“参数”

REQUIREMENTS = {
    "ch00-seeded-noise": [
        ("先用 dsx_util.set_seed 设定种子", "set_seed(seed)              # 先设定种子", "torch.manual_seed(seed)",
         "missing_call", "set_seed"),
        ("种子来自参数 seed", "set_seed(seed)  ", "set_seed(0)  ", "seed_ignored", "参数 seed"),
        ("形状 (3, 4)", "torch.randn(3, 4)", "torch.randn(4, 3)", "wrong_shape", "(3, 4)"),
        ("签名 make_noise(seed)", "def make_noise(seed):", "def make_noise():", "wrong_signature", SIG),
    ],
    "ch00-table-rows": [
        ("只用纯 Python", "def stats_rows(data):", "import numpy as np\n\n\ndef stats_rows(data):\n    np.zeros(1)",
         "forbidden_call", "纯 Python"),
        ("每行 [名称, 个数, 均值]", "[name, len(values), sum(values) / len(values)]",
         "[name, sum(values) / len(values), len(values)]", "wrong_count", "个数"),
        ("按字典里的顺序", "for name, values in data.items():", "for name, values in reversed(data.items()):",
         "wrong_name_order", "顺序"),
    ],
    "ch01-count-norms": [
        ("不要真的构建模型", '    n_norms = 2 * cfg["n_layers"] + 1',
         '    from dsx_util.gpt import GPTModel\n    GPTModel\n    n_norms = 2 * cfg["n_layers"] + 1',
         "forbidden_call", "不要真的构建模型"),
        ("只用 cfg 里的数（不写死 GPT-2 small）", 'n_norms = 2 * cfg["n_layers"] + 1', "n_norms = 25",
         "wrong_count", "n_layers=3"),
        ("返回 (个数, 参数总数)", "return n_norms, n_params", "return n_params, n_norms", "wrong_count", "个数"),
    ],
    "ch01-pre-ln-block": [
        ("norm1 给注意力、norm2 给前馈", "att(norm1(x))", "att(norm2(x))", "norm_reused", "都是 norm2"),
        ("两个子层各带残差连接", "x = x + att(norm1(x))", "x = att(norm1(x))", "missing_residual", "注意力子层"),
        ("前置归一化：先归一化再进子层", "x = x + att(norm1(x))", "x = norm1(x + att(x))", "post_ln_order", "前置"),
    ],
    "ch02-relu": [
        ("返回新列表、不修改输入", "return [v if v > 0 else 0.0 for v in values]",
         "values[:] = [v if v > 0 else 0.0 for v in values]\n    return values", "modified_input", "不要修改输入"),
        ("不要用 torch", "return [v if", "import torch\n    torch.zeros(1)\n    return [v if", "forbidden_call", "torch"),
        ("输出全是浮点数", "else 0.0", "else 0", "returns_int", "浮点数"),
    ],
    "ch02-standardize-rows": [
        ("有偏估计（除以 H）", "unbiased=False", "unbiased=True", "unbiased_var", "H−1"),
        ("每一行各自标准化", "x.mean(dim=-1, keepdim=True)", "x.mean(dim=0, keepdim=True)", "wrong_output", "最大相差"),
    ],
    "ch03-mean-var": [
        ("保留被归约的维度", "mean = x.mean(dim=-1, keepdim=True)", "mean = x.mean(dim=-1)", "missing_keepdim", "少了"),
        ("沿最后一维", "var = x.var(dim=-1,", "var = x.var(dim=0,", "wrong_dim", "最后一维"),
        ("有偏估计", "unbiased=False", "unbiased=True", "unbiased_variance", "有偏"),
    ],
    "ch03-predict-shapes": [
        ("键与表达式一字不差", '"x.mean(dim=-1)": (2, 3),', '"x.mean(-1)": (2, 3),', "missing_key", "一字不差"),
        ("值是整数元组", '"x.sum(dim=0)": (3, 4),', '"x.sum(dim=0)": "(3, 4)",', "bad_shape_value", "整数"),
    ],
    "ch04-normalize-eps": [
        ("用参数 eps", "torch.sqrt(var + eps)", "torch.sqrt(var + 1e-5)", "eps_ignored", "eps"),
        ("常数行得到 0 而不是 NaN", "torch.sqrt(var + eps)", "torch.sqrt(var)", "nan_on_constant", "NaN"),
        ("默认 eps=1e-5", "def normalize(x, eps=1e-5):", "def normalize(x, eps=1e-6):", "wrong_signature", "默认值"),
    ],
    "ch04-identity-params": [
        ("用参数 eps", "torch.sqrt(var + eps)", "torch.sqrt(var + 1e-5)", "eps_ignored", "eps"),
        ("gamma、beta 形状都是 (H,)", "beta = mean * torch.ones_like(x)", "beta = mean", "wrong_shape", "形状"),
    ],
    "ch04-layer-norm-rows": [
        ("只用纯 Python（不用 torch）", "std = math.sqrt(var + eps)", "import torch\n        std = float(torch.tensor(var + eps).sqrt())",
         "forbidden_call", "不用 torch"),
        ("用参数 eps", "math.sqrt(var + eps)", "math.sqrt(var + 1e-5)", "eps_ignored", "eps"),
        ("有偏方差（除以 H）", "/ h           # 式 (4.2)", "/ (h - 1)     # 式 (4.2)", "unbiased_var", "H−1"),
        ("默认 eps=1e-5", "eps=1e-5):", "eps):", "wrong_signature", "默认值"),
        ("返回新列表、不修改输入", "    return out", "    rows[:] = out\n    return out", "modified_input", "不要修改输入"),
    ],
    "ch05-copy-weights": [
        ("ε 也复制", "    my_ln.eps = torch_ln.eps", "", "eps_not_copied", "eps"),
        ("scale、shift 仍是自己的参数（不共用内存）", "my_ln.scale.copy_(torch_ln.weight)",
         "my_ln.scale = torch_ln.weight", "shares_memory", "内存"),
        ("weight -> scale、bias -> shift", "my_ln.scale.copy_(torch_ln.weight)", "my_ln.scale.copy_(torch_ln.bias)",
         "wrong_output", "最大相差"),
        ("就地复制参数（原地操作在 no_grad 里）", "    with torch.no_grad():\n        my_ln.scale.copy_(torch_ln.weight)"
         "   # weight -> 缩放参数 γ\n        my_ln.shift.copy_(torch_ln.bias) ",
         "    if True:\n        my_ln.scale.copy_(torch_ln.weight)\n        my_ln.shift.copy_(torch_ln.bias) ", "raised",
         "torch.no_grad()"),
    ],
    "ch05-layer-norm": [
        ("不要调用 PyTorch 现成的层归一化", "        mean = x.mean(dim=-1, keepdim=True)\n",
         "        return nn.functional.layer_norm(x, self.scale.shape, self.scale, self.shift, self.eps)\n", "forbidden_call",
         "现成的层归一化"),
        ("用构造函数的 eps", "torch.sqrt(var + self.eps)", "torch.sqrt(var + 1e-5)", "eps_ignored", "eps"),
        ("签名 MyLayerNorm(emb_dim, eps=1e-5)", "def __init__(self, emb_dim, eps=1e-5):", "def __init__(self, emb_dim, eps):",
         "wrong_signature", "默认值"),
        ("scale 初始全 1", "nn.Parameter(torch.ones(emb_dim))", "nn.Parameter(torch.zeros(emb_dim))", "wrong_init", "1"),
        ("scale、shift 是可学习参数", "self.shift = nn.Parameter(torch.zeros(emb_dim))", "self.shift = torch.zeros(emb_dim)",
         "not_parameters", "parameters()"),
        ("沿最后一维", "var = x.var(dim=-1,", "var = x.var(dim=0,", "rows_mixed", "最后一维"),
        ("不修改输入", "        norm_x = (x - mean)", "        x -= 0\n        x.mul_(1.0).add_(0.5)\n        norm_x = (x - 0.5 - mean)",
         "inplace_input", "不应修改"),
    ],
    "ch06-to-biased": [
        ("用到 h", "var_unbiased * (h - 1) / h", "var_unbiased * (768 - 1) / 768", "wrong_output", "最大相差"),
        ("方向：有偏更小", "var_unbiased * (h - 1) / h", "var_unbiased * h / (h - 1)", "inverted", "反了"),
    ],
    "ch06-std-ratio": [
        ("返回一个数", "return math.sqrt((h - 1) / h)", "return str(math.sqrt((h - 1) / h))", "not_number", "一个数"),
        ("有偏 ÷ 无偏", "return math.sqrt((h - 1) / h)", "return math.sqrt(h / (h - 1))", "inverted", "倒过来"),
    ],
    "ch06-mean-var-list": [
        ("默认 unbiased=False", "unbiased=False):", "unbiased=True):", "wrong_signature", "默认值"),
        ("返回 (均值, 方差)", "return mean, squares / (h - 1 if unbiased else h)",
         "return squares / (h - 1 if unbiased else h), mean", "swapped_order", "位置反了"),
        ("按参数 unbiased 选择", "(h - 1 if unbiased else h)", "h", "unbiased_ignored", "unbiased"),
        ("只用纯 Python", "    h = len(values)", "    import numpy as np\n    np.zeros(1)\n    h = len(values)",
         "forbidden_call", "纯 Python"),
    ],
    "ch07-batchnorm-axis": [
        ("用参数 eps", "torch.sqrt(var + eps)", "torch.sqrt(var + 1e-5)", "eps_ignored", "eps"),
        ("有偏方差", "unbiased=False", "unbiased=True", "unbiased_var", "B−1"),
        ("每个特征（dim=0）", "x.mean(dim=0, keepdim=True)", "x.mean(dim=-1, keepdim=True)", "wrong_output", "最大相差"),
    ],
    "ch07-batch-norm": [
        ("参数名 weight、bias", ("self.weight = nn.Parameter", "self.bias = nn.Parameter", "self.weight * norm_x + self.bias"),
         ("self.scale = nn.Parameter", "self.shift = nn.Parameter", "self.scale * norm_x + self.shift"),
         "wrong_param_names", "weight、bias"),
        ("不调用现成的批量归一化", "        if self.training:\n",
         "        return nn.functional.batch_norm(x, self.running_mean, self.running_var, self.weight, self.bias,"
         " self.training, self.momentum, self.eps)\n        if self.training:\n", "forbidden_call", "现成的批量归一化"),
        ("用构造函数的 eps", "torch.sqrt(var + self.eps)", "torch.sqrt(var + 1e-5)", "eps_ignored", "eps"),
        ("用构造函数的 momentum", "m = self.momentum", "m = 0.1", "momentum_ignored", "momentum"),
        ("running_var 用无偏方差更新", "x.var(dim=0, unbiased=True)", "x.var(dim=0, unbiased=False)", "running_var_biased",
         "无偏"),
        ("滑动统计量的更新不进入计算图", "            with torch.no_grad():                           # 滑动统计量用无偏方差\n"
         "                m = self.momentum\n                self.running_mean",
         "            if True:\n                m = self.momentum\n                self.running_mean", "running_stats_in_graph",
         "torch.no_grad()"),
        ("评估模式用滑动统计量", "        else:\n            mean, var = self.running_mean, self.running_var\n",
         "        mean, var = x.mean(dim=0), x.var(dim=0, unbiased=False)\n", "eval_uses_batch_stats", "running"),
        ("缓冲区用 register_buffer 注册", 'self.register_buffer("running_mean", torch.zeros(num_features))',
         "self.running_mean = torch.zeros(num_features)", "buffers_not_registered", "register_buffer"),
        ("签名 (num_features, eps=1e-5, momentum=0.1)", "momentum=0.1):", "momentum=0.9):", "wrong_signature", "默认值"),
    ],
    "ch07-batch-norm-lists": [
        ("用参数 eps", "math.sqrt(var + eps)", "math.sqrt(var + 1e-5)", "eps_ignored", "eps"),
        ("对每一列（每个特征）", "for col in zip(*x):", "for col in x:", "wrong_length", "4 行"),
        ("有偏方差（除以 B）", "/ len(col)   # 有偏方差", "/ (len(col) - 1)   # 有偏方差", "unbiased_var", "B−1"),
        ("只用纯 Python", "math.sqrt(var + eps)", "float(__import__('torch').tensor(var + eps).sqrt())", "forbidden_call",
         "纯 Python"),
    ],
    "ch08-rms": [
        ("保留被归约的维度", "mean(dim=-1, keepdim=True)", "mean(dim=-1)", "no_keepdim", "保留"),
        ("不减均值", "x.pow(2)", "(x - x.mean(dim=-1, keepdim=True)).pow(2)", "subtracted_mean", "均值"),
    ],
    "ch08-rms-norm": [
        ("只有一个参数 scale，没有 β", "        self.scale = nn.Parameter(torch.ones(emb_dim))   # 缩放参数 γ",
         "        self.scale = nn.Parameter(torch.ones(emb_dim))   # 缩放参数 γ\n"
         "        self.shift = nn.Parameter(torch.zeros(emb_dim))", "extra_parameters", "平移参数 β"),
        ("不调用现成的均方根归一化", "        mean_sq = x.pow(2)",
         "        return nn.functional.rms_norm(x, self.scale.shape, self.scale, self.eps)\n        mean_sq = x.pow(2)",
         "forbidden_call", "均方根归一化"),
        ("用构造函数的 eps", "mean_sq + self.eps", "mean_sq + 1e-6", "eps_ignored", "eps"),
        ("ε 在根号里", "torch.sqrt(mean_sq + self.eps)", "(torch.sqrt(mean_sq) + self.eps)", "eps_outside_sqrt", "ε"),
    ],
    "ch08-rms-norm-list": [
        ("用参数 eps", "math.sqrt(mean_square + eps)", "math.sqrt(mean_square + 1e-6)", "eps_ignored", "eps"),
        ("不减均值", "v * v for v in values", "(v - sum(values) / len(values)) ** 2 for v in values", "row_rms_not_one",
         "均方"),
        ("乘 γ", "g * v / rms", "v / rms", "no_gamma", "γ"),
        ("默认 eps=1e-6", "eps=1e-6):", "eps=1e-5):", "wrong_signature", "默认值"),
    ],
    "ch09-post-ln-block": [
        ("先加残差再归一化", "x = norm1(x + att(x))", "x = x + att(norm1(x))", "pre_ln_order", "注意力子层"),
        ("norm1 在注意力之后、norm2 在前馈之后", "x = norm1(x + att(x))", "x = norm2(x + att(x))", "norm_reused", "norm1"),
    ],
    "ch09-gpt-trunk": [
        ("Pre-LN 最后还要 final_norm", '    if norm_position == "pre":', '    if norm_position == "never":',
         "missing_final_norm", "ln_f"),
        ("Post-LN 不再 final_norm", '    if norm_position == "pre":', '    if True:', "extra_final_norm", "Post-LN"),
        ("依次经过 blocks", "for block in blocks:", "for block in blocks[::-1]:", "reversed_blocks", "顺序"),
    ],
    "ch10-centering-backward": [
        ("不要用 autograd", "    return grad_out - grad_out.mean(dim=-1, keepdim=True)",
         "    import torch\n    x = torch.zeros_like(grad_out, requires_grad=True)\n"
         "    (g,) = torch.autograd.grad((x - x.mean(dim=-1, keepdim=True)), x, grad_out)\n    return g",
         "forbidden_call", "autograd"),
        ("均值沿最后一维", "grad_out.mean(dim=-1, keepdim=True)", "grad_out.mean(dim=0, keepdim=True)", "wrong_dim", "最后一维"),
    ],
    "ch10-layer-norm-backward": [
        ("不要用 autograd", "    mean = x.mean(dim=-1, keepdim=True)\n",
         "    x = x.detach().requires_grad_()\n    mean = x.mean(dim=-1, keepdim=True)\n", "forbidden_call", "autograd"),
        ("用参数 eps", "torch.sqrt(var + eps)", "torch.sqrt(var + 1e-5)", "eps_ignored", "eps"),
        ("经过 μ 的一项", "(g - g_mean - x_hat * g_proj)", "(g - x_hat * g_proj)", "missing_mean_term", "μ"),
        ("经过 σ² 的一项", "(g - g_mean - x_hat * g_proj)", "(g - g_mean)", "missing_projection_term", "σ²"),
        ("有偏方差", "unbiased=False", "unbiased=True", "unbiased_var", "有偏"),
    ],
    "ch11-var-from-sums": [
        ("有偏方差（除以 H）", "return s2 / h - mean ** 2", "return (s2 / h - mean ** 2) * h / (h - 1)", "unbiased_var", "H−1"),
        ("减去均值的平方", "return s2 / h - mean ** 2", "return s2 / h", "missing_mean_square", "平方"),
    ],
    "ch11-stable-layer-norm": [
        ("不调用 torch.var 之类的现成函数", "var = (diff * diff).mean(dim=-1, keepdim=True)",
         "var = x.var(dim=-1, keepdim=True, unbiased=False)", "forbidden_call", "torch.var"),
        ("不转换成 float64", "    mean = x.mean(dim=-1, keepdim=True)                # 第一遍",
         "    x = x.double()\n    mean = x.mean(dim=-1, keepdim=True)                # 第一遍", "forbidden_call", "float64"),
        ("均值约 10⁴ 的行也算对", "diff = x - mean", "diff = x - mean\n    var = (x * x).mean(dim=-1, keepdim=True) - mean ** 2"
         "\n    return diff / torch.sqrt(var + eps)", "single_pass_variance", "10⁴"),
        ("用参数 eps", "torch.sqrt(var + eps)", "torch.sqrt(var + 1e-5)", "eps_ignored", "eps"),
    ],
    "ch11-stable-var-list": [
        ("不要用 statistics 模块", '    mean = sum(values)',
         '    import statistics\n    return statistics.pvariance(values)\n    mean = sum(values)', "forbidden_call",
         "statistics"),
        ("均值约 10⁹ 也算对（不用单遍公式）", "    mean = sum(values) / len(values)",
         "    return sum(v * v for v in values) / len(values) - (sum(values) / len(values)) ** 2\n"
         "    mean = sum(values) / len(values)", "single_pass", "10⁹"),
        ("有偏方差", "/ len(values)      # 第二遍", "/ (len(values) - 1)      # 第二遍", "unbiased_var", "H−1"),
    ],
}
# 按 issue 21 布局写的练习：写明的要求在练习文件夹的 mistakes.py 里（REQUIREMENTS）
for _ex_id in ("ch12-dyt-list", "ch12-zero-centered-rms-norm", "ch12-qk-norm-scores"):
    REQUIREMENTS[_ex_id] = importlib.import_module(
        f"dsx_util.exercises.items.{_ex_id.replace('-', '_')}.mistakes").REQUIREMENTS

CASES = [(ex_id, *case) for ex_id, cases in REQUIREMENTS.items() for case in cases]


def test_every_exercise_lists_its_stated_requirements():
    assert set(REQUIREMENTS) == {ex.id for ex in EXERCISES}
    assert all(len(cases) >= 2 for cases in REQUIREMENTS.values())


@pytest.mark.parametrize("ex_id, requirement, old, new, code, word", CASES,
                         ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_breaking_a_stated_requirement_does_not_pass(ex_id, requirement, old, new, code, word):
    ex = get_exercise(ex_id)
    source = ex.solution
    for a, b in zip(*((old, new) if isinstance(old, tuple) else ((old,), (new,)))):
        assert a in source, f"参考答案里没有要替换的片段：{a!r}"
        source = source.replace(a, b, 1)
    result = run_checker(ex, source)
    assert not result.passed, f"违反了「{requirement}」却通过了检查"
    assert code in result.codes, (requirement, result.text())
    if True:
        message = result.messages[result.codes.index(code)]
        assert word in message, (requirement, message)
        assert code not in result.text()   # 说明里没有英文错误代码
