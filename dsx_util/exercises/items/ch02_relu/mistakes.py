# 导入：无。
"""练习 ch02-relu 编目的错误写法：检查器对每一条必须恰好报出给定的代码（按顺序）。

每条是 (说明, 代码列表, 学习者的整段代码)；CPython 的测试（tests/test_exercise_layout.py、test_inpage_checks.py）
和浏览器测试（test_inpage_browser.py，把代码敲进网页）用同一批代码。
"""
MISTAKES = [
    ('negative_kept', ['negative_kept'], """def relu_list(values):
    return list(values)
"""),
    ('abs_used', ['abs_used'], """def relu_list(values):
    return [abs(v) for v in values]
"""),
    ('returns_int', ['returns_int'], """def relu_list(values):
    return [max(0, v) for v in values]
"""),
    ('modified_input', ['modified_input'], """def relu_list(values):
    for i, v in enumerate(values):
        if v < 0:
            values[i] = 0.0
    return values
"""),
    ('zero_wrong', ['zero_wrong'], """def relu_list(values):
    return [v if v > 0 else (0.0 if v < 0 else 1.0) for v in values]
"""),
    ('positive_changed', ['positive_changed'], """def relu_list(values):
    return [1.0 if v > 0 else 0.0 for v in values]
"""),
    ('not_list', ['not_list'], """def relu_list(values):
    return tuple(v if v > 0 else 0.0 for v in values)
"""),
    ('wrong_length', ['wrong_length'], """def relu_list(values):
    return [v if v > 0 else 0.0 for v in values] + [0.0]
"""),
    ('first_skipped', ['first_skipped'], """def relu_list(values):
    return [v if v > 0 else 0.0 for v in values[1:]]
"""),
    ('last_skipped', ['last_skipped'], """def relu_list(values):
    out = []
    for i in range(len(values) - 1):
        out.append(values[i] if values[i] > 0 else 0.0)
    return out
"""),
    ('negatives_dropped', ['negatives_dropped'], """def relu_list(values):
    return [v for v in values if v >= 0]
"""),
    ('negative_scaled', ['negative_scaled'], """def relu_list(values):
    return [v if v > 0 else 0.01 * v for v in values]
"""),
    ('order_changed', ['order_changed'], """def relu_list(values):
    return sorted(v if v > 0 else 0.0 for v in values)
"""),
]

# 目录里没有专门对应的“错误模型”：检查要靠逐步诊断（性质）或“两处典型错误的组合”认出来
NOVEL = [
    ('Leaky ReLU：负数乘 0.01', ['negative_scaled'], """def relu_list(values):
    return [v if v > 0 else 0.01 * v for v in values]
"""),
    ('排序了输出', ['order_changed'], """def relu_list(values):
    return sorted(v if v > 0 else 0.0 for v in values)
"""),
    # 评审 r41 的尝试（逐字）：以前得到 ✓（检查的输入里没有比 0.5 小的正数）
    ('评审 r41：门槛 v > 0.01 而不是 0', ['threshold_cut'], """def relu_list(values):
    return [v if v > 0.01 else 0.0 for v in values]
"""),
    # 评审 r42 的尝试（逐字）：以前只说「输出应有 5 个数，实际有 2 个」，没说出负数被删掉了（应变成 0.0）
    ('评审 r42：把负数过滤掉了（长度变短）', ['negatives_dropped'], """def relu_list(values):
    return [v for v in values if v > 0]
"""),
    # 评审 r44 的尝试（逐字）：以前只说「输出应有 5 个数，实际有 1 个」
    ('评审 r44：return 缩进到了 for 循环里', ['return_in_loop'], """def relu_list(values):
    out = []
    for v in values:
        out.append(v if v > 0 else 0.0)
        return out
"""),
    # 评审 r44 的审计：检查用的输入以前都一样大，写死了大小的代码得到 ✓
    ('个数写死成 5（[0.0] * 5）', ['length_hard_coded'], """def relu_list(values):
    out = [0.0] * 5
    for i in range(len(values)):
        out[i] = max(0.0, values[i])
    return out
"""),
    # 评审 r47：忘了 return（评审的原样尝试用 print 代替了 return，它会打印，在 tests/test_review47_b.py 里）；
    # 以前说「实际返回的是 NoneType」。写对的函数后面留下出错的测试调用（笔记本里到不了检查器）也在那里
    ('评审 r47：忘了 return', ['not_list'], """def relu_list(values):
    out = []
    for v in values:
        out.append(max(0.0, v))
"""),
    # 评审 r47 的尝试：以前只说「输出应有 5 个数，实际有 4 个」
    ('评审 r47：循环少走了一轮 range(len(values) - 1)', ['last_skipped'], """def relu_list(values):
    out = []
    for i in range(len(values) - 1):
        out.append(max(0.0, values[i]))
    return out
"""),
]

# 评审找到的说明：上面的尝试里，说明必须说出这些词（tests/test_review_messages.py）
WORDS = {
    '评审 r41：门槛 v > 0.01 而不是 0': ['分界点是 0', '0.001'],
    '评审 r42：把负数过滤掉了（长度变短）': ['只有 2 个数', '应有 5 个', '大于 0 的数', '负数和 0.0 都被删掉了', '变成 0.0'],
    '评审 r44：return 缩进到了 for 循环里': ['只有 1 个', 'return 缩进到了 for 循环里面', '写在循环之后'],
    '个数写死成 5（[0.0] * 5）': ['5 个数的输入是对的', '写死', 'len(values)'],
    '评审 r47：忘了 return': ['没有返回任何值', 'None', '`return out`'],
    '评审 r47：循环少走了一轮 range(len(values) - 1)': ['只有 4 个', '最后一个', 'range(len(values))', 'for v in values'],
}

# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
REQUIREMENTS = [
    ("返回新列表、不修改输入", "return [v if v > 0 else 0.0 for v in values]",
     "values[:] = [v if v > 0 else 0.0 for v in values]\n    return values", "modified_input", "不要修改输入"),
    ("不要用 torch", "return [v if", "import torch\n    torch.zeros(1)\n    return [v if", "forbidden_call", "torch"),
    ("输出全是浮点数", "else 0.0", "else 0", "returns_int", "浮点数"),
]

# 每条写明的要求的「邻居」：看起来也说得通的另一种写法（另一个维度、顺序、默认值、估计量……）。
# 检查用的输入要让每个邻居都得出不同的结果：把它当作答案交给检查器，必须不通过（tests/test_neighbours.py）。
# (要求, 参考答案里的原文片段, 换成的邻居写法)
NEIGHBOURS = [
    ('负数变 0 而不是取绝对值', 'v if v > 0 else 0.0', 'abs(v)'),
    ('0 而不是负数本身的一半（leaky）', 'v if v > 0 else 0.0', 'v if v > 0 else 0.01 * v'),
    ('输出浮点数', 'v if v > 0 else 0.0', 'v if v > 0 else 0'),
    ('分界点是 0 而不是一个很小的正数', 'v if v > 0 else 0.0', 'v if v > 1e-6 else 0.0'),
]
