# 导入：无。
"""练习 ch01-count-norms 编目的错误写法：检查器对每一条必须恰好报出给定的代码。

每条是 (说明, 代码列表, 学习者的整段代码)；CPython 的测试（tests/test_exercise_layout.py、test_inpage_checks.py）
和浏览器测试（test_inpage_browser.py，把代码敲进网页）用同一批代码。
"""


def _src(count, params):
    return f'def count_norms(cfg):\n    blocks, dim = cfg["n_layers"], cfg["emb_dim"]\n    return {count}, {params}\n'


MISTAKES = [
    ('not_pair', ['not_pair'], 'def count_norms(cfg):\n    return 2 * cfg["n_layers"] + 1\n'),
    ('forgot_final_norm', ['forgot_final_norm'], _src("2 * blocks", "2 * blocks * 2 * dim")),
    ('one_norm_per_block', ['one_norm_per_block'], _src("blocks + 1", "(blocks + 1) * 2 * dim")),
    ('params_missing_shift', ['params_missing_shift'], _src("2 * blocks + 1", "(2 * blocks + 1) * dim")),
    ('hard_coded', ['hard_coded'], "def count_norms(cfg):\n    return 25, 38400\n"),
    ('wrong_count', ['wrong_count'], _src("3 * blocks + 1", "(3 * blocks + 1) * 2 * dim")),
    ('wrong_params', ['wrong_params'], _src("2 * blocks + 1", "(2 * blocks + 1) * 4 * dim")),
]

# 目录里没有专门对应的错误：检查器仍说出是个数还是参数不对
NOVEL = [
    ('参数按 n_heads 算', ['wrong_params'],
     'def count_norms(cfg):\n    count = 2 * cfg["n_layers"] + 1\n    return count, count * 2 * cfg["n_heads"]\n'),
    ('把输出头也算成一个层归一化', ['extra_norm'], _src("2 * blocks + 2", "(2 * blocks + 2) * 2 * dim")),
    # 评审 r39 的尝试：以前说「数一数每个块里有几个」「检查拼写」，而公式和拼写都对
    ('读了 cfg["n_heads"] 而不是 n_layers', ['wrong_key'], """def count_norms(cfg):
    count = 2 * cfg["n_heads"] + 1
    return count, count * 2 * cfg["emb_dim"]
"""),
    ('用 cfg.n_layers 取字典的值', ['raised'], """def count_norms(cfg):
    count = 2 * cfg.n_layers + 1
    return count, count * 2 * cfg.emb_dim
"""),
    # 评审 r40 的尝试（逐字）：以前两个数对调、参数漏了最后一个层归一化时叫人重数个数或每个层归一化的参数（那两步是对的），
    # 多算一个时不说多还是少；浮点数的参数总数通过了检查
    ('两个数的位置对调 (参数总数, 个数)', ['swapped_order'], '''def count_norms(cfg):
    n = 2 * cfg["n_layers"] + 1
    return n * 2 * cfg["emb_dim"], n
'''),
    ('个数对了，参数总数漏了最后一个层归一化', ['params_count_mismatch'], '''def count_norms(cfg):
    n = 2 * cfg["n_layers"] + 1
    return n, 2 * cfg["n_layers"] * 2 * cfg["emb_dim"]
'''),
    ('嵌入之后也算了一个层归一化：2L + 2', ['extra_norm'], '''def count_norms(cfg):
    n = 2 * cfg["n_layers"] + 2
    return n, n * 2 * cfg["emb_dim"]
'''),
    ('参数总数是浮点数（乘了 2.0）', ['not_int'], '''def count_norms(cfg):
    n = 2 * cfg["n_layers"] + 1
    return n, n * 2.0 * cfg["emb_dim"]
'''),
    # 评审 r42 的尝试（逐字）：列表以前通过了检查，而题目写明返回元组 (…, …)（ch03 的列表形状不通过）
    ('返回列表而不是元组', ['list_not_tuple'], '''def count_norms(cfg):
    n = 2 * cfg["n_layers"] + 1
    return [n, n * 2 * cfg["emb_dim"]]
'''),
    # 评审 r44 的尝试（逐字）：每个层归一化的 2·emb_dim 是对的，错在总数怎么合成；以前问「每个层归一化有多少个可学习参数？」
    ('评审 r44：个数与每个的参数用 + 连起来（应是 ×）', ['params_added'], """def count_norms(cfg):
    n = 2 * cfg["n_layers"] + 1
    return (n, n + 2 * cfg["emb_dim"])
"""),
    ('参数总数多加了一个 7（不是 cfg 里的数）', ['wrong_total'], _src("2 * blocks + 1", "(2 * blocks + 1) * 2 * dim + 7")),
    ('评审 r44：参数总数多加了 cfg["vocab_size"]', ['extra_term'], """def count_norms(cfg):
    n = 2 * cfg["n_layers"] + 1
    return (n, n * 2 * cfg["emb_dim"] + cfg["vocab_size"])
"""),
    # 评审 r46 的写法 2*L+1*2*E（评审报告只给了这个式子，函数的其余部分是照它补全的）：以前给出正确的式子，没说少了括号
    ('评审 r46：少了括号，2*L+1*2*E', ['params_brackets'], """def count_norms(cfg):
    L = cfg["n_layers"]
    E = cfg["emb_dim"]
    return 2*L+1, 2*L+1*2*E
"""),
    # 评审 r47 的尝试（逐字）：以前说「个数不对：数一数每个块里有几个」「每个层归一化有多少个可学习参数？」
    ('评审 r47：把 n_layers 写死成了 12', ['hard_coded'], """def count_norms(cfg):
    n = 2 * 12 + 1
    return (n, n * 2 * cfg["emb_dim"])
"""),
    ('评审 r47：把 emb_dim 写死成了 768', ['hard_coded'], """def count_norms(cfg):
    n = 2 * cfg["n_layers"] + 1
    return (n, n * 2 * 768)
"""),
]

# 评审找到的说明：上面的尝试里，说明必须说出这些词（tests/test_review_messages.py）
WORDS = {
    '读了 cfg["n_heads"] 而不是 n_layers': ['cfg["n_heads"]', 'cfg["n_layers"]'],
    '用 cfg.n_layers 取字典的值': ['cfg 是字典', 'cfg["n_layers"]', 'AttributeError'],
    '两个数的位置对调 (参数总数, 个数)': ['位置反了', '(层归一化的个数, 参数总数)', '两个数本身都对'],
    '个数对了，参数总数漏了最后一个层归一化': ['按 24 个层归一化', '个数是 25', '最后一个'],
    '嵌入之后也算了一个层归一化：2L + 2': ['多算了 1 个', '26', '25'],
    '参数总数是浮点数（乘了 2.0）': ['整数', '38400.0', '2.0'],
    '返回列表而不是元组': ['列表 [25, 38400]', '元组', 'return 个数, 参数总数', '(25, 38400) == [25, 38400] 是 False'],
    '评审 r44：个数与每个的参数用 + 连起来（应是 ×）': ['1561', '25 + 1536', '不是加'],
    '参数总数多加了一个 7（不是 cfg 里的数）': ['应是 个数 × 2 × emb_dim = 25 × 1536 = 38400', '38407', '多了 7'],
    '评审 r44：参数总数多加了 cfg["vocab_size"]': ['多了 50257', 'cfg["vocab_size"]', '38400'],
    '评审 r46：少了括号，2*L+1*2*E': ['少了括号', '* 比 + 先算', '`2*L+1*2*E`', '`(2*L+1)*2*E`'],
    '评审 r47：把 n_layers 写死成了 12': ['n_layers 写死成了 12', 'cfg["n_layers"]'],
    '评审 r47：把 emb_dim 写死成了 768': ['emb_dim 写死成了 768', 'cfg["emb_dim"]'],
}

# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
REQUIREMENTS = [
    ("不要真的构建模型", '    n_norms = 2 * cfg["n_layers"] + 1',
     '    from dsx_util.gpt import GPTModel\n    GPTModel\n    n_norms = 2 * cfg["n_layers"] + 1',
     "forbidden_call", "不要真的构建模型"),
    ("只用 cfg 里的数（不写死 GPT-2 small）", 'n_norms = 2 * cfg["n_layers"] + 1', "n_norms = 25",
     "hard_coded", "n_layers 写死成了 12"),
    ("返回 (个数, 参数总数)", "return n_norms, n_params", "return n_params, n_norms", "swapped_order", "位置反了"),
    ("两个整数", "n_norms * 2 * cfg", "n_norms * 2.0 * cfg", "not_int", "整数"),
    ("返回元组 (…, …)", "return n_norms, n_params", "return [n_norms, n_params]", "list_not_tuple", "元组"),
]

# 每条写明的要求的「邻居」：看起来也说得通的另一种写法（另一个维度、顺序、默认值、估计量……）。
# 检查用的输入要让每个邻居都得出不同的结果：把它当作答案交给检查器，必须不通过（tests/test_neighbours.py）。
# (要求, 参考答案里的原文片段, 换成的邻居写法)
NEIGHBOURS = [
    ('加上 final_norm', '2 * cfg["n_layers"] + 1', '2 * cfg["n_layers"]'),
    ('每块两个', '2 * cfg["n_layers"] + 1', 'cfg["n_layers"] + 1'),
    ('scale 和 shift 两个向量', 'n_norms * 2 * cfg["emb_dim"]', 'n_norms * cfg["emb_dim"]'),
    ('返回顺序 (个数, 参数总数)', 'return n_norms, n_params', 'return n_params, n_norms'),
]
