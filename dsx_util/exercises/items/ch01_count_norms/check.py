# 导入：标准库、feedback、list_checks。
"""练习 ch01-count-norms 的检查器（只用标准库，网页里也能运行；题目、模板、参考答案在同一个文件夹；编目的错误写法在 mistakes.py）。"""
import ast

from ...feedback import checker, message, returned_none
from ...list_checks import call_or_stop, function_source, list_not_tuple

CODES = {
    "not_pair": "应返回两个整数 (层归一化的个数, 参数总数)，例如 return 个数, 参数总数；实际返回的是 {value!r:.60}。",
    "not_int": "{what}应是整数 {want}，你的是浮点数 {got!r}：个数和参数总数都是整数，式子里的 2.0 或 / 除法会让结果变成浮点数"
               "（乘 2 而不是 2.0）。",
    "swapped_order": "两个数的位置反了：应返回 (层归一化的个数, 参数总数)，你返回的是 (参数总数, 个数)。两个数本身都对。",
    "extra_norm": "层归一化多算了 1 个（配置 n_layers={n_layers}：应为 {want}，你的是 {got}）：每个 Transformer 块里两个"
                  "（注意力前、前馈神经网络前），所有块之后、输出头之前还有一个；嵌入之后和输出头里都没有。",
    "params_count_mismatch": "参数总数像是按 {used} 个层归一化算的，而你返回的个数是 {count}（配置 n_layers={n_layers}）："
                             "参数总数 = 个数 × 2 × emb_dim，{missing}。",
    "forgot_final_norm": "层归一化少算了 1 个：最后一个 Transformer 块之后、输出头之前还有一个。",
    "one_norm_per_block": "每个 Transformer 块里有两个层归一化（注意力前一个、前馈神经网络前一个），不是一个。",
    "params_missing_shift": "个数对了，参数总数只有应有的一半：每个层归一化除了缩放参数 γ，还有平移参数 β。",
    # 评审 r47：按值说出写死的是哪一个（结果正是默认配置的 n_layers=12 或 emb_dim=768 代进公式）
    "hard_coded": "GPT-2 small 的配置算对了，换一个配置（n_layers={n_layers}，emb_dim={emb_dim}）就错了：你的 {got} 正是"
                  " {which} 时的结果，像是把 {said}：要用 {fix}。",
    "wrong_key": "GPT-2 small 的配置算对了，换一个配置（n_layers={n_layers}）就错了：你的个数像是按 cfg[\"{key}\"]（= {value}）"
                 "算的，层数要读 cfg[\"n_layers\"]。",
    "wrong_count": "层归一化的个数不对（配置 n_layers={n_layers}：你的是 {got}）：数一数每个块里有几个，块外还有几个。",
    # 总数正好是「个数 × 另一个数」时，错的才是每个层归一化的参数个数
    "wrong_params": "参数总数不对（配置 emb_dim={emb_dim}）：你的 {got_params} 相当于 {count} 个层归一化、每个 {per} 个参数。"
                    "每个层归一化有多少个可学习参数？",
    # 评审 r44：每个的 2·emb_dim 对了，错在总数怎么合成：说出总数错在哪里，不问每个有多少参数
    "params_added": "参数总数不对（配置 emb_dim={emb_dim}）：你的是 {got_params} = {count} + {per}，即 个数 + 2 × emb_dim。"
                    "每个层归一化有 2 × emb_dim = {per} 个参数（这一步对了），{count} 个层归一化一共是 个数 × 2 × emb_dim"
                    " = {want_params}：要相乘，不是加。",
    # 评审 r46：2*L+1*2*E 少了括号（* 比 + 先算），引用学习者写的那一段
    "params_brackets": "参数总数不对（配置 n_layers={n_layers}，emb_dim={emb_dim}）：你的是 {got_params} = "
                       "2 × n_layers + 2 × emb_dim。少了括号：* 比 + 先算，{said}算的是 2 × n_layers + (1 × 2 × emb_dim)。"
                       "先把个数 2 × n_layers + 1 括起来，再乘 2 × emb_dim{fix}。",
    "extra_term": "参数总数比 个数 × 2 × emb_dim = {want_params} {more}（你的是 {got_params}），正好是 cfg[\"{key}\"]："
                  "层归一化的参数只有每个的 γ 与 β，总数里不该有这一项。",
    "wrong_total": "参数总数不对（配置 n_layers={n_layers}，emb_dim={emb_dim}）：应是 个数 × 2 × emb_dim = {count} × {per}"
                   " = {want_params}，你的是 {got_params}，{more}。",
}

# GPT-2 small 的配置，与 dsx_util.gpt.GPT_CONFIG_124M 相同（网页里没有 torch，不能导入那个模块；
# tests/test_inpage_checks.py 核对两者一致）
GPT_CONFIG_124M = {"vocab_size": 50257, "context_length": 1024, "emb_dim": 768, "n_heads": 12, "n_layers": 12,
                   "drop_rate": 0.1, "qkv_bias": False}


def _key_used(cfg, count):
    """个数正好是 2·cfg[键] + 1、而这个键不是 n_layers（例如 n_heads）：返回那个键，否则 None。"""
    return next((key for key, v in cfg.items() if key != "n_layers" and isinstance(v, int) and not isinstance(v, bool)
                 and v != cfg["n_layers"] and count == 2 * v + 1), None)


def _bracket_quote(fn):
    """学习者写的 `2*L+1*2*E`（+ 后面是以 1 开头的乘积）：{"said": …, "fix": 加了括号的写法}；找不到或看不到源码时
    只给参考答案的写法。只用来引用：是不是这种错误，由检查器按值判断（总数 = 2·n_layers + 2·emb_dim）。"""
    default = {"said": "你的代码", "fix": '，写成 `(2 * cfg["n_layers"] + 1) * 2 * cfg["emb_dim"]`'}
    found = function_source(fn) if fn is not None else None
    if found is None:
        return default
    source, node = found
    lines = source.splitlines()
    for n in ast.walk(node):
        if not (isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add) and isinstance(n.right, ast.BinOp)
                and isinstance(n.right.op, ast.Mult) and n.lineno == n.end_lineno):
            continue
        one = n.right
        while isinstance(one, ast.BinOp) and isinstance(one.op, ast.Mult):
            one = one.left
        if isinstance(one, ast.Constant) and one.value == 1 and one.end_lineno == n.lineno:
            line = lines[n.lineno - 1].encode()   # 列号按 UTF-8 字节数
            text = line[n.col_offset:n.end_col_offset].decode()
            fix = "(" + line[n.col_offset:one.end_col_offset].decode() + ")" + \
                line[one.end_col_offset:n.end_col_offset].decode()
            return {"said": f"你写的 `{text}` ", "fix": f"，写成 `{fix}`"}
    return default


def _total_code(cfg, count, params):
    """个数对了、参数总数错了（每个的参数也不是只有 γ）：错在哪里。(代码, cfg 里的键或 None)。

    总数是「个数 + 2·emb_dim」：用了加法；比应有的多（少）了 cfg 里的某个值：多加（减）了这一项；
    是个数的整数倍：每个层归一化的参数个数不对（只有这时才问每个有多少参数）；其他：只说总数差了多少。
    """
    e = cfg["emb_dim"]
    want = count * 2 * e
    if params == count + 2 * e:
        return "params_added", None
    if params == 2 * cfg["n_layers"] + 2 * e:   # (2·n_layers + 1)·2·emb_dim 少了括号：2·n_layers + 1·2·emb_dim
        return "params_brackets", None
    key = next((k for k, v in cfg.items() if isinstance(v, int) and not isinstance(v, bool) and v == abs(params - want)),
               None)
    if key:
        return "extra_term", key
    if params > 0 and params % count == 0:
        return "wrong_params", None
    return "wrong_total", None


def _hard_coded(cfg, count, params):
    """结果正是把默认配置的 n_layers、emb_dim（其中一个或两个）代进正确公式算的：说明的字段；否则 None。"""
    n, e = cfg["n_layers"], cfg["emb_dim"]
    n0, e0 = GPT_CONFIG_124M["n_layers"], GPT_CONFIG_124M["emb_dim"]
    for keys in (("n_layers", "emb_dim"), ("n_layers",), ("emb_dim",)):
        nn, ee = (n0 if "n_layers" in keys else n), (e0 if "emb_dim" in keys else e)
        if any(cfg[k] == GPT_CONFIG_124M[k] for k in keys) or (count, params) != (2 * nn + 1, (2 * nn + 1) * 2 * ee):
            continue
        return {"which": "、".join(f"{k} 取 {GPT_CONFIG_124M[k]}" for k in keys),
                "said": "、".join(f"{k} 写死成了 {GPT_CONFIG_124M[k]}" for k in keys),
                "fix": " 和 ".join(f'cfg["{k}"]' for k in keys)}
    return None


@checker(__name__, CODES)
def check_count_norms(fn):
    """检查 count_norms(cfg)：前置归一化 GPT 模型里层归一化的个数与参数总数（不构建模型，用公式算）。"""
    configs = [dict(GPT_CONFIG_124M),
               dict(GPT_CONFIG_124M, n_layers=3, emb_dim=64, n_heads=4),
               dict(GPT_CONFIG_124M, n_layers=24, emb_dim=1024, n_heads=16)]
    listed = None   # 第一个写成列表的返回值：数都对之后再说要写成元组（先说数哪里不对）
    for k, cfg in enumerate(configs):
        value = call_or_stop(fn, dict(cfg))
        if listed is None and isinstance(value, list):
            listed = value
        # 先拆成两个数核对（题目写明返回元组，列表最后由 list_not_tuple 说明）；两个数都是整数（个数）
        try:
            count, params = value
            count, params = int(count), int(params)
            if count != value[0] or params != value[1]:
                raise ValueError
        except (TypeError, ValueError):
            if value is None:   # 什么也没有返回：与各练习同一句（feedback.returned_none）
                return [("not_pair", returned_none(fn))]
            return [("not_pair", message(CODES, "not_pair", value=value))]
        n, e = cfg["n_layers"], cfg["emb_dim"]
        want_count, want_params = 2 * n + 1, (2 * n + 1) * 2 * e
        if (count, params) == (want_params, want_count):
            return [("swapped_order", CODES["swapped_order"])]
        if (count, params) == (want_count, want_params):
            floats = [(what, v) for what, v in (("层归一化的个数", value[0]), ("参数总数", value[1]))
                      if not isinstance(v, int) or isinstance(v, bool)]
            if floats:
                what, v = floats[0]
                return [("not_int", message(CODES, "not_int", what=what, want=int(v), got=v))]
            continue
        fields = {"n_layers": n, "emb_dim": e, "want": want_count, "got": count}
        used = params / (2 * e)
        fixed = _hard_coded(cfg, count, params) if k > 0 else None
        if fixed:
            code = "hard_coded"
            fields.update(fixed, got=(count, params))
        elif count == want_count and used == int(used) and params % (count * e):
            # 参数总数是 2·emb_dim 的整数倍、却不是「个数 × 每个的参数」：两处用的层归一化个数不同（每个的参数对了）
            code = "params_count_mismatch"
            fields.update(used=int(used), count=count,
                          missing="少算了最后一个（所有块之后、输出头之前）的 γ 与 β" if int(used) == count - 1 else
                          "两处要用同一个个数")
        elif count == 2 * n + 2:
            code = "extra_norm"
        elif count == 2 * n:
            code = "forgot_final_norm"
        elif count in (n, n + 1):
            code = "one_norm_per_block"
        elif k > 0 and _key_used(cfg, count):
            code = "wrong_key"
            fields["key"] = _key_used(cfg, count)
            fields["value"] = cfg[fields["key"]]
        elif count != want_count:
            code = "wrong_count"
        elif params == want_count * e:
            code = "params_missing_shift"
        else:
            code, key = _total_code(cfg, count, params)
            diff = params - want_params
            fields.update(got_params=params, count=count, per=2 * e, want_params=want_params, key=key, diff=abs(diff),
                          more=f"多了 {diff}" if diff > 0 else f"少了 {-diff}")
            if code == "wrong_params":
                fields["per"] = params // count
            if code == "params_brackets":
                fields.update(_bracket_quote(fn))
        return [(code, message(CODES, code, **fields))]
    if listed is not None:
        return [list_not_tuple(listed, "(层归一化的个数, 参数总数)", "个数, 参数总数")]
    return []
