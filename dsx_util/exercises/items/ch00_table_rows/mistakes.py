# 导入：无。
"""练习 ch00-table-rows 编目的错误写法：检查器对每一条必须恰好报出给定的代码。

每条是 (说明, 代码列表, 学习者的整段代码)；CPython 的测试（tests/test_exercise_layout.py、test_inpage_checks.py）
和浏览器测试（test_inpage_browser.py，把代码敲进网页）用同一批代码。
"""


def _rows(items="data.items()", row="[name, len(values), sum(values) / len(values)]"):
    return (f"def stats_rows(data):\n    rows = []\n    for name, values in {items}:\n"
            f"        rows.append({row})\n    return rows\n")


MISTAKES = [
    ('not_rows', ['not_rows'], "def stats_rows(data):\n    return {k: sum(v) / len(v) for k, v in data.items()}\n"),
    ('wrong_row_count', ['wrong_row_count'], _rows(items="list(data.items())[:1]")),
    ('wrong_row_length', ['wrong_row_length'], _rows(row="[name, sum(values) / len(values)]")),
    ('wrong_name_order', ['wrong_name_order'], _rows(items="reversed(list(data.items()))")),
    ('wrong_count', ['wrong_count'], _rows(row="[name, sum(values), sum(values) / len(values)]")),
    ('wrong_mean', ['wrong_mean'], _rows(row="[name, len(values), sum(values) / (len(values) + 1)]")),
]

# 目录里没有专门对应的错误：检查器仍说出是哪一列不对
NOVEL = [
    ('个数写成字符串', ['wrong_count'], _rows(row="[name, str(len(values)), sum(values) / len(values)]")),
    ('均值用了最大值', ['wrong_mean'], _rows(row="[name, len(values), max(values)]")),
    # 评审 r39 的尝试：以前都说「均值不对：均值 = 所有值之和 ÷ 值的个数」，没说出 round 与 //
    ('均值四舍五入到两位小数', ['rounded_mean'], _rows(row="[name, len(values), round(sum(values) / len(values), 2)]")),
    ('均值用了整数除法 //', ['integer_division_mean'], _rows(row="[name, len(values), sum(values) // len(values)]")),
    # 评审 r40 的尝试（逐字）：两列对调以前只说「个数应是 4，实际是 3.0」；元组的行、浮点数的个数以前都通过了检查
    ('个数与均值两列对调', ['columns_swapped'], """def stats_rows(data):
    return [[k, sum(v) / len(v), len(v)] for k, v in data.items()]
"""),
    ('每一行写成元组 (名称, 个数, 均值)', ['rows_not_lists'], """def stats_rows(data):
    return [(k, len(v), sum(v) / len(v)) for k, v in data.items()]
"""),
    ('个数写成浮点数', ['count_not_int'], _rows(row="[name, float(len(values)), sum(values) / len(values)]")),
    # 评审 r42 的尝试（逐字）：以前只说「应有 3 行，实际 1 行」，没说出 return 缩进到了循环里（ch04 说出了）
    ('return 写在循环里，只返回第一行', ['wrong_row_count'], """def stats_rows(data):
    rows = []
    for name, values in data.items():
        rows.append([name, len(values), sum(values) / len(values)])
        return rows
"""),
    # 评审 r47 的尝试：忘了 return rows；以前说「实际返回的是 NoneType」
    ('评审 r47：忘了 return rows', ['not_rows'], """def stats_rows(data):
    rows = []
    for name, values in data.items():
        rows.append([name, len(values), sum(values) / len(values)])
"""),
]

# 评审找到的说明：上面的尝试里，说明必须说出这些词（tests/test_review_messages.py）
WORDS = {
    '均值四舍五入到两位小数': ["1.33", "四舍五入到 2 位小数", "不要 round"],
    '均值用了整数除法 //': ["整数除法 //", "用 / 除"],
    '均值用了最大值': ["均值不对", "所有值之和 ÷ 值的个数"],
    '个数与均值两列对调': ["位置反了", "[名称, 个数, 均值]", "[名称, 均值, 个数]"],
    '每一行写成元组 (名称, 个数, 均值)': ["第 1 行是 tuple", "方括号 [...]"],
    '个数写成浮点数': ["个数应是整数", "4.0", "len"],
    'return 写在循环里，只返回第一行': ["应有 3 行", "实际有 1 行", "只处理了第一行", "return 缩进到了 for 循环里面"],
    '评审 r47：忘了 return rows': ["没有返回任何值", "`return rows`"],
}

# 题目（task.md）写明的每条要求：一个只违反这一条的尝试（在 solution.py 上做一次字符串替换），
# 检查器不让它通过、说明里点出这条要求（tests/test_stated_requirements.py）。
# (要求, 原文片段, 替换成, 应得的错误代码, 说明里应出现的词)
REQUIREMENTS = [
    ("只用纯 Python", "def stats_rows(data):", "import numpy as np\n\n\ndef stats_rows(data):\n    np.zeros(1)",
     "forbidden_call", "纯 Python"),
    ("每行 [名称, 个数, 均值]", "[name, len(values), sum(values) / len(values)]",
     "[name, sum(values) / len(values), len(values)]", "columns_swapped", "[名称, 个数, 均值]"),
    ("每一行是一个列表", "[name, len(values), sum(values) / len(values)]",
     "(name, len(values), sum(values) / len(values))", "rows_not_lists", "列表"),
    ("个数是整数", "[name, len(values), sum(values) / len(values)]",
     "[name, float(len(values)), sum(values) / len(values)]", "count_not_int", "整数"),
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
