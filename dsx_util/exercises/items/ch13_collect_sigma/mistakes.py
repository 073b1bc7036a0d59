# 导入：无。
"""练习 ch13-collect-sigma 编目的错误写法：检查器对每一条必须恰好报出给定的代码（按顺序）。

每条是 (说明, 代码列表, 学习者写的函数)；函数由一段学习者会写的代码执行得到（_fn）。
"""
_HEAD = '''import torch
import torch.nn as nn

from dsx_util.layernorm import LayerNorm


'''
_GOOD = _HEAD + '''def collect_sigma(model, idx):
    sigmas = {{}}
    handles = []
    for name, module in model.named_modules():
        if {test}:
            def hook(mod, inputs, output, name=name):
                x = {x}
                sigmas[{key}] = {sigma}
            handles.append(module.register_forward_hook(hook))
    try:
        with torch.no_grad():
            model(idx)
    finally:
        {cleanup}
    return sigmas
'''


def _src(test="isinstance(module, (LayerNorm, nn.LayerNorm))", x="inputs[0]", key="name",
         sigma="torch.sqrt(x.var(dim=-1, unbiased=False) + mod.eps)", cleanup="for h in handles:\n            h.remove()"):
    return _GOOD.format(test=test, x=x, key=key, sigma=sigma, cleanup=cleanup)


def _fn(source):
    """执行一段学习者的代码，取出它定义的函数。"""
    namespace = {}
    exec(compile(source, "<学习者的代码>", "exec"), namespace)
    return namespace["collect_sigma"]


_NO_FINALLY = _HEAD + '''def collect_sigma(model, idx):
    sigmas, handles = {}, []
    for name, module in model.named_modules():
        if isinstance(module, (LayerNorm, nn.LayerNorm)):
            def hook(mod, inputs, output, name=name):
                sigmas[name] = torch.sqrt(inputs[0].var(dim=-1, unbiased=False) + mod.eps)
            handles.append(module.register_forward_hook(hook))
    with torch.no_grad():
        model(idx)
    for h in handles:
        h.remove()
    return sigmas
'''

_LATE_NAME = _HEAD + '''def collect_sigma(model, idx):
    sigmas, handles = {}, []
    for name, module in model.named_modules():
        if isinstance(module, (LayerNorm, nn.LayerNorm)):
            def hook(mod, inputs, output):
                sigmas[name] = torch.sqrt(inputs[0].var(dim=-1, unbiased=False) + mod.eps)
            handles.append(module.register_forward_hook(hook))
    try:
        with torch.no_grad():
            model(idx)
    finally:
        for h in handles:
            h.remove()
    return sigmas
'''

_LATE_EPS = _HEAD + '''def collect_sigma(model, idx):
    norms = [(name, m) for name, m in model.named_modules() if isinstance(m, (LayerNorm, nn.LayerNorm))]
    sigmas, handles = {}, []
    for name, module in norms:
        def hook(mod, inputs, output, name=name):
            sigmas[name] = torch.sqrt(inputs[0].var(dim=-1, unbiased=False) + module.eps)
        handles.append(module.register_forward_hook(hook))
    try:
        with torch.no_grad():
            model(idx)
    finally:
        for h in handles:
            h.remove()
    return sigmas
'''

_GRAD = _src().replace("        with torch.no_grad():\n            model(idx)", "        model(idx)")

MISTAKES = [
    ("记成了输出", ["used_output"], _src(x="output")),
    ("无偏估计", ["unbiased_variance"], _src(sigma="torch.sqrt(x.var(dim=-1) + mod.eps)")),
    ("没有 ε", ["no_eps"], _src(sigma="x.std(dim=-1, unbiased=False)")),
    ("ε 在根号外", ["eps_outside_sqrt"], _src(sigma="x.std(dim=-1, unbiased=False) + mod.eps")),
    ("少开平方", ["missing_sqrt"], _src(sigma="x.var(dim=-1, unbiased=False) + mod.eps")),
    ("ε 写死成 1e-5", ["eps_hardcoded"], _src(sigma="torch.sqrt(x.var(dim=-1, unbiased=False) + 1e-5)")),
    ("闭包里用了循环变量 module 的 eps", ["late_binding_eps"], _LATE_EPS),
    ("闭包里用了循环变量 name", ["late_binding_name"], _LATE_NAME),
    ("沿第 0 维求方差", ["wrong_axis"], _src(sigma="torch.sqrt(x.var(dim=0, unbiased=False) + mod.eps)")),
    ("keepdim=True 留下了最后一维", ["kept_dim"],
     _src(sigma="torch.sqrt(x.var(dim=-1, keepdim=True, unbiased=False) + mod.eps)")),
    ("只找本书的 LayerNorm", ["missed_nn_layer_norm"], _src(test="isinstance(module, LayerNorm)")),
    ("只找名字里有 norm1 的模块", ["missing_layers"], _src(test="name.endswith('norm1')")),
    ("在所有叶子模块上注册钩子", ["extra_modules"],
     _src(test="len(list(module.children())) == 0 and isinstance(getattr(module, 'eps', None), float)"
               " or isinstance(module, nn.Dropout)",
          sigma="torch.sqrt(x.float().var(dim=-1, unbiased=False) + getattr(mod, 'eps', 0.0))")),
    ("键用了序号", ["wrong_keys"], _src(key="len(sigmas)")),
    ("返回列表", ["not_dict"], _src(cleanup="for h in handles:\n            h.remove()\n    sigmas = list(sigmas.values())")),
    ("没有移除钩子", ["hooks_left"], _src(cleanup="pass")),
    ("没有 try/finally：出错时钩子留在模型上", ["hooks_left_on_error"], _NO_FINALLY),
    ("没在 no_grad 里运行", ["kept_graph"], _GRAD),
    ("σ 里多乘了 γ", ["sigma_mismatch"], _src(sigma="torch.sqrt(x.var(dim=-1, unbiased=False) + mod.eps) * "
                                                   "(mod.scale if hasattr(mod, 'scale') else mod.weight).mean()")),
    ("值用了 Python 列表", ["not_tensor"], _src(sigma="torch.sqrt(x.var(dim=-1, unbiased=False) + mod.eps).tolist()")),
]

NOVEL = [
    ("σ 用了第一个词元的均值（各词元共用一个 μ）", ["sigma_mismatch"],
     _src(sigma="torch.sqrt(((x - x[..., :1, :].mean(dim=-1, keepdim=True)) ** 2).mean(dim=-1) + mod.eps)")),
    ("两处典型错误：记成输出 + 无偏估计", ["used_output", "unbiased_variance"],
     _src(x="output", sigma="torch.sqrt(x.var(dim=-1) + mod.eps)")),
    ("两处典型错误：没有 ε + 无偏估计（torch.std 的默认）", ["unbiased_variance", "no_eps"], _src(sigma="x.std(dim=-1)")),
    # 审稿人的尝试：闭包用 name=name 绑定得对，但只找 nn.LayerNorm，结果恰好只剩 final_norm 一项，
    # 看上去与闭包晚绑定一样；检查器不能把错推到正确的闭包上
    ("只找 nn.LayerNorm（name=name 绑定正确），只剩 final_norm 一项", ["missing_layers"],
     _src(test="isinstance(module, nn.LayerNorm)")),
    ("只在名为 final_norm 的模块上注册钩子", ["missing_layers"], _src(test="name == 'final_norm'")),
    ("先挑出层归一化再循环，闭包里用了循环变量 name（只剩 final_norm 一项）", ["late_binding_name"],
     _LATE_EPS.replace("def hook(mod, inputs, output, name=name):", "def hook(mod, inputs, output):")
     .replace("+ module.eps)", "+ mod.eps)")),
    ("没移除钩子，也没在 no_grad 里运行", ["hooks_left", "kept_graph"], _GRAD.replace(
        "for h in handles:\n            h.remove()", "pass")),
]

# 上面写成代码，是为了看得出每条错在哪里；检查器拿到的是学习者的函数
MISTAKES = [(what, codes, _fn(source)) for what, codes, source in MISTAKES]
NOVEL = [(what, codes, _fn(source)) for what, codes, source in NOVEL]

# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
REQUIREMENTS = [
    ("用 register_forward_hook", "module.register_forward_hook(hook)",
     "module.register_forward_pre_hook(lambda mod, inputs, hook=hook: hook(mod, inputs, None))", "missing_call",
     "register_forward_hook"),
    ("每个层归一化一项（两种都找）", "isinstance(module, (LayerNorm, nn.LayerNorm))", "isinstance(module, LayerNorm)",
     "missed_nn_layer_norm", "nn.LayerNorm"),
    ("记下输入", "x = inputs[0]", "x = output", "used_output", "输入"),
    ("沿最后一维", "x.var(dim=-1, unbiased=False)", "x.var(dim=0, unbiased=False)", "wrong_axis", "最后一维"),
    ("有偏方差", "x.var(dim=-1, unbiased=False)", "x.var(dim=-1, unbiased=True)", "unbiased_variance", "有偏"),
    ("ε 用这个模块自己的 eps", "torch.sqrt(var + mod.eps)", "torch.sqrt(var + 1e-5)", "eps_hardcoded", "eps"),
    ("调用结束后移除钩子", "            handle.remove()", "            pass", "hooks_left", "remove()"),
    ("出错时也移除钩子", ("    try:\n        with torch.no_grad():\n            model(idx)\n    finally:"
                         "                                                     # 出错也要移除钩子\n"),
     ("    with torch.no_grad():\n        model(idx)\n    if True:\n"), "hooks_left_on_error", "finally"),
    ("返回的张量不带梯度", "        with torch.no_grad():\n            model(idx)", "        model(idx)", "kept_graph",
     "no_grad"),
]

# 写明的要求的近邻写法（tests/test_neighbours.py）：检查用的输入必须让每一个都得出不同的结果
NEIGHBOURS = [
    ('有偏方差', 'unbiased=False', 'unbiased=True'),
    ('沿最后一维（每个词元一个 σ）', 'x.var(dim=-1,', 'x.var(dim=1,'),
    ('用这个模块自己的 ε', 'torch.sqrt(var + mod.eps)', 'torch.sqrt(var + 1e-5)'),
    ('ε 在根号里', 'torch.sqrt(var + mod.eps)', 'torch.sqrt(var) + mod.eps'),
    ('钩子看输入，不看输出', 'x = inputs[0]', 'x = output'),
    ('记下此刻的名字', 'def hook(mod, inputs, output, name=name):', 'def hook(mod, inputs, output):'),
    ('两种层归一化都要', 'isinstance(module, (LayerNorm, nn.LayerNorm))', 'isinstance(module, LayerNorm)'),
    ('出错也要移除钩子', '    finally:                                                     # 出错也要移除钩子\n        for handle in handles:\n            handle.remove()',
     '    except Exception:\n        raise\n    for handle in handles:\n        handle.remove()'),
]
