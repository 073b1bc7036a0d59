# 导入：feedback、list_checks。
"""练习 ch02-relu 的检查器（题目、模板、参考答案在同一个文件夹；编目的错误写法在 mistakes.py）。"""
from ...feedback import checker, fmt_num, fmt_pair, message
from ...list_checks import call_or_stop

CODES = {
    "negative_kept": "输入 {value} 是负数，输出却原样保留了它：ReLU 会把负数变成 0。",
    "abs_used": "输入 {value} 变成了 {actual}：ReLU 不是取绝对值，负数应变成 0。",
    "zero_wrong": "输入 0.0 的输出应是 0.0，实际是 {actual!r}。",
    "positive_changed": "输入 {value} 是正数，输出却是 {actual!r}：ReLU 让正数原样通过。",
    "returns_int": "数值对了，但输入 {value} 的输出是整数 {actual!r}：输入是浮点数，输出也应全是浮点数（0.0 而不是 0）。",
    "negative_scaled": "负数没有变成 0，而是乘了一个系数（输入 {value} 变成了 {actual}，约 {ratio} 倍）：这是 Leaky ReLU；"
                       "ReLU 把负数一律变成 0。",
    "threshold_cut": "输入 {value} 是很小的正数，输出却是 0.0（更大的正数 {kept} 原样通过了）：像是用了一个正的门槛（如 v > 0.01）。"
                     "ReLU 的分界点是 0：再小的正数也原样通过，v > 0 时输出 v。",
    "negatives_dropped": "输出只有 {actual} 个数，应有 {expected} 个：你的输出正好是输入里{kept}，{dropped}被删掉了。"
                         "ReLU 不删数：负数变成 0.0、留在原来的位置，输出和输入一样长。",
    "return_in_loop": "输出应有 {expected} 个数，你的只有 1 个，正是第 1 个输入 {value} 的结果：像是 return 缩进到了 for 循环里面，"
                      "循环第一轮就返回了。return 要与 for 对齐，写在循环之后。",
    "length_hard_coded": "{before} 个数的输入是对的，换成 {expected} 个数的输入，你的输出却有 {actual} 个：像是把个数 {before} 写死了"
                         "（例如 range({before}) 或 [0.0] * {before}）。有几个数用 len(values) 得到，或者直接 for v in values。",
    # 评审 r47：按值认出循环少走了一轮（输出正是少了最后一个 / 第 1 个输入的正确结果）
    "last_skipped": "输出应有 {expected} 个数，你的只有 {actual} 个，正是除了最后一个输入（{value}）之外的结果：循环少走了一轮，"
                    "像是写了 range(len(values) - 1)。写 range(len(values))，或者直接 for v in values。",
    "first_skipped": "输出应有 {expected} 个数，你的只有 {actual} 个，正是除了第 1 个输入（{value}）之外的结果：像是从下标 1 开始了"
                     "（range(1, len(values)) 或 values[1:]）。下标从 0 开始：写 range(len(values))，或者直接 for v in values。",
    "order_changed": "输出里的数都对，顺序却变了（第 {index} 个应为 {want}，你的是 {got}）：第 i 个输出对应第 i 个输入，"
                     "不要排序或重排。",
}


@checker(__name__, CODES)
def check_relu(fn):
    """检查 relu_list(values)：纯 Python 实现的 ReLU，输入浮点数列表，返回新列表。"""
    # 第三组有很小的正数：v > 0.01、v > 1e-6 这类正的门槛在这里会把它变成 0
    sizes = []   # 已经检查通过的输入的个数：输出的个数正好是其中之一时，像是写死了
    for data in ([-2.5, -1.0, 0.0, 0.5, 3.0], [1.25, -0.25, 7.0], [0.001, -0.001, 1e-12, 2.0]):
        given = list(data)
        out = call_or_stop(fn, given)
        if not isinstance(out, list):
            return [("not_list", message(None, "not_list", kind=type(out).__name__))]
        if len(out) != len(data):
            # 输出正好是按原顺序留下的正数（或非负数）：负数被过滤掉了，而不是变成 0.0
            for kept, dropped, filtered in (("大于 0 的数", "负数和 0.0 都", [v for v in data if v > 0]),
                                            ("不小于 0 的数", "负数", [v for v in data if v >= 0])):
                if out == filtered:
                    return [("negatives_dropped", message(CODES, "negatives_dropped", actual=len(out), expected=len(data),
                                                          kept=kept, dropped=dropped))]
            want = [v if v > 0 else 0.0 for v in data]
            numbers = all(isinstance(y, (int, float)) and not isinstance(y, bool) for y in out)
            if numbers and len(out) == len(data) - 1 >= 2:
                if out == want[:-1]:
                    return [("last_skipped", message(CODES, "last_skipped", expected=len(data), actual=len(out),
                                                     value=data[-1]))]
                if out == want[1:]:
                    return [("first_skipped", message(CODES, "first_skipped", expected=len(data), actual=len(out),
                                                      value=data[0]))]
            first = data[0] if data[0] > 0 else 0.0
            if len(out) == 1 < len(data) and isinstance(out[0], (int, float)) and out[0] == first:
                return [("return_in_loop", message(CODES, "return_in_loop", expected=len(data), value=data[0]))]
            if len(out) in sizes:
                return [("length_hard_coded", message(CODES, "length_hard_coded", before=len(out), expected=len(data),
                                                      actual=len(out)))]
            return [("wrong_length", message(None, "wrong_length", what="输出", expected=len(data), actual=len(out)))]
        want = [v if v > 0 else 0.0 for v in data]
        vals = []
        for y in out:
            try:
                vals.append(float(y))
            except (TypeError, ValueError):
                return [("not_number", message(None, "not_number", what="输出里的每个值", value=y))]
        if vals != want and sorted(vals) == sorted(want):
            i = next(k for k, (a, b) in enumerate(zip(vals, want)) if a != b)
            w, g = fmt_pair(want[i], vals[i])
            return [("order_changed", message(CODES, "order_changed", index=i + 1, want=w, got=g))]
        # 原样通过了的正数里最小的一个：它通过了、比它小得多的正数（< 0.1）却变成 0，说明用了正的门槛；
        # 0.5 变成 0 而 3.0 不变也可能是截成整数（int(v)），那仍说「正数应原样通过」
        kept = min((v for v, y_val in zip(data, vals) if v > 0 and y_val == v), default=None)
        findings = []
        for v, y, y_val in zip(data, out, vals):
            target = v if v > 0 else 0.0
            if y_val == target:
                continue
            if v < 0 and y_val == v:
                code = "negative_kept"
            elif v < 0 and y_val == -v:
                code = "abs_used"
            elif v < 0 and y_val < 0:
                code = "negative_scaled"
            elif v == 0:
                code = "zero_wrong"
            elif 0 < v < 0.1 and y_val == 0 and kept is not None and kept > v:   # 只有很小的正数变成 0：门槛
                if any(c == "threshold_cut" for c, _ in findings):
                    continue   # 门槛只说一次（说最先遇到的那个小正数）
                code = "threshold_cut"
            elif v > 0:
                code = "positive_changed"
            else:
                w, g = fmt_pair(target, y_val)
                code, text = "wrong_output", message(None, "wrong_output", what=f"输入 {v} 的输出", want=w, got=g)
                findings.append((code, text))
                continue
            findings.append((code, message(CODES, code, value=v, actual=y, ratio=fmt_num(y_val / v, 3) if v else "",
                                           kept=kept)))
        if findings:
            return findings
        for v, y in zip(data, out):
            if isinstance(y, bool) or not isinstance(y, float):
                return [("returns_int", message(CODES, "returns_int", value=v, actual=y))]
        if given != data:
            return [("modified_input", message(None, "modified_input", what="列表", new="一个列表"))]
        sizes.append(len(data))
    return []
