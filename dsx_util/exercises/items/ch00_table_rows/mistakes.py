"""练习 ch00-table-rows 编目的错误写法：检查器对每一条必须恰好报出给定的代码（tests/test_exercise_layout.py、
tests/test_simple_checks.py 逐条检查）。每条是 (说明, 代码列表, 学习者写的函数)。
"""


def _rows(order=None, count=None, mean=None, length3=True):
    def stats_rows(data):
        items = list(data.items())
        if order == "reversed":
            items = items[::-1]
        rows = []
        for name, values in items:
            c = count(values) if count else len(values)
            m = mean(values) if mean else sum(values) / len(values)
            rows.append([name, c, m] if length3 else [name, m])
        return rows
    return stats_rows


MISTAKES = [
    ('not_rows', ['not_rows'], lambda data: {k: sum(v) / len(v) for k, v in data.items()}),
    ('wrong_row_count', ['wrong_row_count'], lambda data: _rows()(data)[:1]),
    ('wrong_row_length', ['wrong_row_length'], _rows(length3=False)),
    ('wrong_name_order', ['wrong_name_order'], _rows(order="reversed")),
    ('wrong_count', ['wrong_count'], _rows(count=lambda v: sum(v))),
    ('wrong_mean', ['wrong_mean'], _rows(mean=lambda v: sum(v) / (len(v) + 1))),
]

# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
REQUIREMENTS = [
    ("只用纯 Python", "def stats_rows(data):", "import numpy as np\n\n\ndef stats_rows(data):\n    np.zeros(1)",
     "forbidden_call", "纯 Python"),
    ("每行 [名称, 个数, 均值]", "[name, len(values), sum(values) / len(values)]",
     "[name, sum(values) / len(values), len(values)]", "wrong_count", "个数"),
    ("按字典里的顺序", "for name, values in data.items():", "for name, values in reversed(data.items()):",
     "wrong_name_order", "顺序"),
]

# 每条写明的要求的「邻居」：看起来也说得通的另一种写法（另一个维度、顺序、默认值、估计量……）。
# 检查用的输入要让每个邻居都得出不同的结果：把它当作答案交给检查器，必须不通过（tests/test_neighbours.py）。
# (要求, 参考答案里的原文片段, 换成的邻居写法)
NEIGHBOURS = [
    ('个数而不是总和', 'len(values), sum(values) / len(values)', 'sum(values), sum(values) / len(values)'),
    ('均值而不是总和', 'sum(values) / len(values)]', 'sum(values)]'),
    ('列的顺序：名称、个数、均值', '[name, len(values), sum(values) / len(values)]', '[name, sum(values) / len(values), len(values)]'),
    ('按字典里的顺序而不是排序', 'for name, values in data.items():', 'for name, values in sorted(data.items()):'),
]
