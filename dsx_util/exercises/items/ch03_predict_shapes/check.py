"""练习 ch03-predict-shapes 的检查器（题目、模板、参考答案在同一个文件夹；编目的错误写法在 mistakes.py）。"""
from ...simple_checks import (checker, SHAPE_QUESTIONS, SHAPE_X, _as_shape, _call, _msg, _reduced_shape, _torch,
                              finish)

CODES = {
    "not_dict": "应返回一个字典：键是表达式字符串，值是形状元组；实际返回的是 {kind}。",
    "missing_key": "字典里缺少表达式 {expr!r}（键要和题目里的表达式一字不差）。",
    "bad_shape_value": "{expr!r} 的值应是由整数组成的元组，例如 (2, 3)；实际是 {value!r:.40}。",
    "keepdim_dropped": "{expr!r}：keepdim=True 时被归约的维度不会消失，而是留下长度 1。",
    "keepdim_added": "{expr!r}：没有 keepdim=True 时，被归约的维度会从形状里消失。",
    "wrong_axis": "{expr!r}：你的答案像是归约了另一个维度。数一数 dim 指向哪一维（负数从最后一维往前数）。",
    "broadcast_misread": "{expr!r}：减法会把长度为 1 的维度广播回原来的长度，结果形状和 x 一样吗？",
    "wrong_prediction": "{expr!r} 的形状不对，把每一维的长度再推一遍。",
}


@checker(__name__, CODES)
def check_predict_shapes(fn):
    """检查 predict_shapes()：对形状 (2, 3, 4) 的 x，预测几个表达式结果的形状。"""
    torch = _torch()
    exercise = check_predict_shapes.exercise
    answer, failure = _call(fn)
    if failure is not None:
        return finish(exercise, [failure])
    if not isinstance(answer, dict):
        return finish(exercise, [("not_dict", _msg(CODES, "not_dict", kind=type(answer).__name__))])
    x = torch.zeros(SHAPE_X)
    findings = []
    for expr, dims, keepdim in SHAPE_QUESTIONS:
        truth = tuple(eval(expr, {"x": x}).shape)  # 由 PyTorch 真正算出的形状
        if expr not in answer:
            code, fields = "missing_key", {}
        else:
            shape = _as_shape(answer[expr])
            code, fields = None, {"value": answer[expr]}
            if shape is None:
                code = "bad_shape_value"
            elif shape != truth:
                code = "wrong_prediction"
                if dims is None:
                    if len(shape) < len(truth) or 1 in shape:
                        code = "broadcast_misread"
                elif shape == _reduced_shape(dims, not keepdim):
                    code = "keepdim_added" if not keepdim else "keepdim_dropped"
                elif any(shape in (_reduced_shape((d,), keepdim), _reduced_shape((d,), not keepdim))
                         for d in range(len(SHAPE_X)) if d not in {e % len(SHAPE_X) for e in dims}):
                    code = "wrong_axis"
        if code:   # 每道答错的小题一条：答错五道就列五条
            findings.append((code, _msg(CODES, code, expr=expr, **fields)))
    return finish(exercise, findings)
