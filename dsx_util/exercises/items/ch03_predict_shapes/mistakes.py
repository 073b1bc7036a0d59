# 导入：无。
"""练习 ch03-predict-shapes 编目的错误写法：检查器对每一条必须恰好报出给定的代码（tests/test_exercise_layout.py、
tests/test_simple_checks.py 逐条检查）。每条是 (说明, 代码列表, 学习者写的函数)。
"""


_SHAPES = {
    "x.mean(dim=-1)": (2, 3),
    "x.mean(dim=-1, keepdim=True)": (2, 3, 1),
    "x.sum(dim=0)": (3, 4),
    "x.var(dim=1, keepdim=True)": (2, 1, 4),
    "x - x.mean(dim=-1, keepdim=True)": (2, 3, 4),
}
_KEYS = {"a": "x.mean(dim=-1)", "b": "x.mean(dim=-1, keepdim=True)", "c": "x.sum(dim=0)",
         "d": "x.var(dim=1, keepdim=True)", "e": "x - x.mean(dim=-1, keepdim=True)"}


def _shapes(**changes):
    """参考答案改几处（None 表示删掉这个键）之后的整段代码。"""
    answer = dict(_SHAPES)
    for key, value in changes.items():
        if value is None:
            del answer[_KEYS[key]]
        else:
            answer[_KEYS[key]] = value
    body = "".join(f"        {k!r}: {v!r},\n" for k, v in answer.items())
    return f"def predict_shapes():\n    return {{\n{body}    }}\n"


MISTAKES = [
    ('not_dict', ['not_dict'], "def predict_shapes():\n    return [(2, 3), (2, 3, 1), (3, 4), (2, 1, 4), (2, 3, 4)]\n"),
    ('missing_key', ['missing_key'], _shapes(c=None)),
    ('bad_shape_value', ['bad_shape_value'], _shapes(a="(2, 3)")),
    ('keepdim_dropped', ['keepdim_dropped'], _shapes(b=(2, 3))),
    ('keepdim_added', ['keepdim_added'], _shapes(a=(2, 3, 1))),
    ('wrong_axis', ['wrong_axis'], _shapes(c=(2, 4))),
    ('broadcast_misread', ['broadcast_misread'], _shapes(e=(2, 3, 1))),
    ('wrong_prediction', ['wrong_prediction'], _shapes(c=(4, 3))),
]

# 目录里没有的组合：几道小题各错一种，每道各列一条
NOVEL = [
    ('keepdim 全部理解反了', ['keepdim_added', 'keepdim_dropped'], _shapes(a=(2, 3, 1), b=(2, 3))),
    ('归约错了维度、广播也读错', ['wrong_axis', 'broadcast_misread'], _shapes(c=(2, 4), e=(2, 3, 1))),
    # 评审 r39 的尝试：以前说「字典里缺少表达式」，没指出那个很像的键差在哪里
    ('键里逗号后少了空格', ['near_key'], """def predict_shapes():
    return {
        "x.mean(dim=-1)": (2, 3),
        "x.mean(dim=-1,keepdim=True)": (2, 3, 1),
        "x.sum(dim=0)": (3, 4),
        "x.var(dim=1, keepdim=True)": (2, 1, 4),
        "x - x.mean(dim=-1, keepdim=True)": (2, 3, 4),
    }
"""),
    ('键里有全角括号', ['near_key'], """def predict_shapes():
    return {
        "x.mean(dim=-1)": (2, 3),
        "x.mean(dim=-1, keepdim=True)": (2, 3, 1),
        "x.sum(dim=0)": (3, 4),
        "x.var（dim=1, keepdim=True）": (2, 1, 4),
        "x - x.mean(dim=-1, keepdim=True)": (2, 3, 4),
    }
"""),
    # 评审 r40 的尝试（逐字）：值写成列表以前通过了检查，而题目写明「值是整数元组」；评审 r42 交了同一段代码：五条几乎相同的
    # 说明都带着固定的例子 (2, 3)（读起来像答案），现在只报一次，用学习者自己的数
    ('形状写成列表', ['shape_as_list'], """def predict_shapes():
    return {
        "x.mean(dim=-1)": [2, 3],
        "x.mean(dim=-1, keepdim=True)": [2, 3, 1],
        "x.sum(dim=0)": [3, 4],
        "x.var(dim=1, keepdim=True)": [2, 1, 4],
        "x - x.mean(dim=-1, keepdim=True)": [2, 3, 4],
    }
"""),
    # 评审 r41 的尝试（逐字）：以前只说「形状不对，把每一维的长度再推一遍」
    ('x.mean(dim=-1) 预测成 (4,)', ['wrong_prediction'], """def predict_shapes():
    return {
        "x.mean(dim=-1)": (4,),
        "x.mean(dim=-1, keepdim=True)": (2, 3, 1),
        "x.sum(dim=0)": (3, 4),
        "x.var(dim=1, keepdim=True)": (2, 1, 4),
        "x - x.mean(dim=-1, keepdim=True)": (2, 3, 4),
    }
"""),
    ('keepdim 留下的维度写成 0', ['keepdim_zero'], """def predict_shapes():
    return {
        "x.mean(dim=-1)": (2, 3),
        "x.mean(dim=-1, keepdim=True)": (2, 3, 0),
        "x.sum(dim=0)": (3, 4),
        "x.var(dim=1, keepdim=True)": (2, 1, 4),
        "x - x.mean(dim=-1, keepdim=True)": (2, 3, 4),
    }
"""),
    # 评审 r44 的尝试（逐字）：以前后两个缺的键配上了同一个不对的键 'x.mean(dim=-1,keepdim=True)'，说「两者很像」
    ('评审 r44：三个键里逗号后都少了空格', ['near_key', 'near_key', 'near_key'], """def predict_shapes():
    return {
        "x.mean(dim=-1)": (2, 3),
        "x.mean(dim=-1,keepdim=True)": (2, 3, 1),
        "x.sum(dim=0)": (3, 4),
        "x.var(dim=1,keepdim=True)": (2, 1, 4),
        "x - x.mean(dim=-1,keepdim=True)": (2, 3, 4),
    }
"""),
]

# 评审找到的说明：上面的尝试里，说明必须说出这些词（tests/test_review_messages.py）
WORDS = {
    '键里逗号后少了空格': ["'x.mean(dim=-1,keepdim=True)'", '只差空格'],
    '键里有全角括号': ['全角字符', '「（」改成「(」'],
    '形状写成列表': ['整数元组', '5 个值都写成了列表', '把 [2, 3, 1] 写成 (2, 3, 1)', '圆括号', '元组和列表比较时并不相等'],
    'x.mean(dim=-1) 预测成 (4,)': ["长度为 4 的那一维", "从形状里消失", "有 1 维，应有 2 维"],
    'keepdim 留下的维度写成 0': ["keepdim=True", "长度是 1，不是 0"],
    '评审 r44：三个键里逗号后都少了空格': ["'x.var(dim=1,keepdim=True)'", "'x - x.mean(dim=-1,keepdim=True)'", '只差空格'],
}

# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
REQUIREMENTS = [
    ("键与表达式一字不差", '"x.mean(dim=-1)": (2, 3),', '"x.mean(-1)": (2, 3),', "missing_key", "一字不差"),
    ("值是整数元组", '"x.sum(dim=0)": (3, 4),', '"x.sum(dim=0)": "(3, 4)",', "bad_shape_value", "整数"),
    ("值是元组（不是列表）", '"x.sum(dim=0)": (3, 4),', '"x.sum(dim=0)": [3, 4],', "shape_as_list", "元组"),
]

# 每条写明的要求的「邻居」：看起来也说得通的另一种写法（另一个维度、顺序、默认值、估计量……）。
# 检查用的输入要让每个邻居都得出不同的结果：把它当作答案交给检查器，必须不通过（tests/test_neighbours.py）。
# (要求, 参考答案里的原文片段, 换成的邻居写法)
NEIGHBOURS = [
    ('keepdim 保留一维', '"x.mean(dim=-1, keepdim=True)": (2, 3, 1)', '"x.mean(dim=-1, keepdim=True)": (2, 3)'),
    ('sum(dim=0) 去掉第 0 维', '"x.sum(dim=0)": (3, 4)', '"x.sum(dim=0)": (2, 4)'),
    ('广播后形状不变', '"x - x.mean(dim=-1, keepdim=True)": (2, 3, 4)', '"x - x.mean(dim=-1, keepdim=True)": (2, 3, 1)'),
    ('var 沿 dim=1', '"x.var(dim=1, keepdim=True)": (2, 1, 4)', '"x.var(dim=1, keepdim=True)": (2, 3, 1)'),
]
