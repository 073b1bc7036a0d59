"""检查器的变异测试用的小改写器：把参考答案 solution.py 按学习者常犯的小错改一处，得到一个“变异体”。

每种改写（算子）都是学习者真会写出的错：维度 −1↔0、keepdim / unbiased 取反、ε 去掉或挪到根号外、少开平方、
mean↔sum、+↔−、×↔÷、减法和除法的两边对调、比较符号松紧、忽略一个参数（换成它的默认值）、
返回值顺序对调、漏掉一条语句（例如忘了复制 eps、忘了更新滑动统计量）。

    python tests/mutation.py            # 列出所有变异体和检查结果（没被发现的标出来）
"""
import ast
import copy
from dataclasses import dataclass


@dataclass(frozen=True)
class Mutant:
    exercise: str
    operator: str
    line: int
    before: str      # 被改的那段代码
    after: str       # 改成了什么
    source: str      # 整个变异后的源码
    changed: str = ""   # 变异后与原来不同的那几行（整理过的源码，去掉缩进）：变异体本身，不含行号

    @property
    def key(self):
        """变异体本身：(练习 id, 算子, 变异后不同的那几行)。参考答案别处改动、行号移动时它不变；
        被改的那一行本身变了，它就对不上任何变异体（EQUIVALENT 里的条目随之过时，测试会指出）。"""
        return (self.exercise, self.operator, self.changed)


def _is_eps(node):
    return (isinstance(node, ast.Name) and node.id == "eps") or (isinstance(node, ast.Attribute) and node.attr == "eps")


def _is_sqrt_call(node):
    return isinstance(node, ast.Call) and ((isinstance(node.func, ast.Attribute) and node.func.attr == "sqrt") or
                                           (isinstance(node.func, ast.Name) and node.func.id == "sqrt"))


_REDUCTIONS = {"mean", "var", "sum", "std"}


def _operators(node, defaults):
    """这个节点上能做的所有改写：[(算子名, 新节点或 None 表示删除)]。defaults：参数名 -> 默认值（用于“忽略参数”）。"""
    out = []
    if isinstance(node, ast.BinOp):
        swaps = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult}
        if type(node.op) in swaps:
            name = {ast.Add: "+→−", ast.Sub: "−→+", ast.Mult: "×→÷", ast.Div: "÷→×"}[type(node.op)]
            out.append((name, ast.BinOp(node.left, swaps[type(node.op)](), node.right)))
        if isinstance(node.op, (ast.Sub, ast.Div)):
            out.append(("两边对调", ast.BinOp(node.right, node.op, node.left)))
        if isinstance(node.op, ast.Add) and (_is_eps(node.right) or _is_eps(node.left)):
            out.append(("去掉 ε", node.left if _is_eps(node.right) else node.right))
        if isinstance(node.op, ast.Sub) and isinstance(node.right, ast.Constant) and node.right.value == 1:
            out.append(("去掉 −1", node.left))
        if isinstance(node.op, ast.Pow) and isinstance(node.right, ast.Constant):
            if node.right.value == 0.5:
                out.append(("少开平方", node.left))
            if node.right.value == 2:
                out.append(("少了平方", node.left))
        if isinstance(node.op, ast.Div) and isinstance(node.left, ast.Call) and \
                isinstance(node.left.func, ast.Name) and node.left.func.id == "sum":
            out.append(("mean→sum", node.left))
    if _is_sqrt_call(node) and node.args:
        arg = node.args[0]
        out.append(("少开平方", arg))
        if isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Add) and _is_eps(arg.right):
            inner = copy.deepcopy(node)
            inner.args = [arg.left]
            out.append(("ε 挪到根号外", ast.BinOp(inner, ast.Add(), arg.right)))
    if isinstance(node, ast.Attribute) and node.attr in ("mean", "sum"):
        out.append(("mean↔sum", ast.Attribute(node.value, "sum" if node.attr == "mean" else "mean", node.ctx)))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _REDUCTIONS:
        for i, kw in enumerate(node.keywords):
            v = kw.value
            if kw.arg == "dim" and isinstance(v, (ast.Constant, ast.UnaryOp)):
                value = ast.literal_eval(v)
                new = copy.deepcopy(node)
                new.keywords[i] = ast.keyword("dim", ast.Constant(0 if value == -1 else -1))
                out.append(("维度 −1↔0", new))
            if kw.arg in ("keepdim", "unbiased") and isinstance(v, ast.Constant) and isinstance(v.value, bool):
                new = copy.deepcopy(node)
                new.keywords[i] = ast.keyword(kw.arg, ast.Constant(not v.value))
                out.append((f"{kw.arg} 取反", new))
        if node.args and isinstance(node.args[0], (ast.Constant, ast.UnaryOp)) and \
                isinstance(ast.literal_eval(node.args[0]), int):
            value = ast.literal_eval(node.args[0])
            new = copy.deepcopy(node)
            new.args[0] = ast.Constant(0 if value == -1 else -1)
            out.append(("维度 −1↔0", new))
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        loose = {ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Lt: ast.LtE, ast.LtE: ast.Lt}
        if type(node.ops[0]) in loose:
            out.append(("比较松紧", ast.Compare(node.left, [loose[type(node.ops[0])]()], node.comparators)))
        if isinstance(node.ops[0], ast.Eq):
            out.append(("== → !=", ast.Compare(node.left, [ast.NotEq()], node.comparators)))
    if isinstance(node, ast.IfExp) or isinstance(node, ast.If):
        out.append(("条件取反", _negated(node)))
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in defaults:
        out.append((f"忽略参数 {node.id}", ast.Constant(defaults[node.id])))
    if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.Name) and \
            node.value.id == "self" and node.attr in defaults:
        out.append((f"忽略参数 {node.attr}", ast.Constant(defaults[node.attr])))
    if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple) and len(node.value.elts) == 2:
        out.append(("返回值对调", ast.Return(ast.Tuple(node.value.elts[::-1], ast.Load()))))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "zip" and len(node.args) >= 2:
        for i in range(1, len(node.args)):
            new = copy.deepcopy(node)
            new.args[0], new.args[i] = new.args[i], new.args[0]
            out.append(("zip 的参数对调", new))
    if isinstance(node, ast.Call) and len(node.args) >= 2 and not (isinstance(node.func, ast.Name) and node.func.id == "zip"):
        new = copy.deepcopy(node)
        new.args[0], new.args[1] = new.args[1], new.args[0]
        out.append(("位置参数对调", new))
    if isinstance(node, ast.Tuple) and len(node.elts) >= 2 and all(isinstance(e, ast.Constant) for e in node.elts):
        for i in range(len(node.elts)):   # 形状里漏掉一维（例如 keepdim 留下的 1）
            out.append(("形状少一维", ast.Tuple(node.elts[:i] + node.elts[i + 1:], node.ctx)))
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in ("norm1", "norm2", "att", "ff"):
        other = {"norm1": "norm2", "norm2": "norm1", "att": "ff", "ff": "att"}[node.id]
        out.append((f"{node.id}→{other}", ast.Name(other, ast.Load())))
    return out


def _negated(node):
    new = copy.deepcopy(node)
    new.test = ast.UnaryOp(ast.Not(), new.test)
    return new


class _Apply(ast.NodeTransformer):
    """按遍历顺序数到第 target 个改写位置时，把那个节点换掉。"""

    def __init__(self, target, defaults):
        self.target, self.defaults, self.count, self.done = target, defaults, 0, None

    def visit(self, node):
        if self.done is None:
            ops = _operators(node, self.defaults)
            if self.count <= self.target < self.count + len(ops):
                name, new = ops[self.target - self.count]
                self.done = (name, getattr(node, "lineno", 0), _short(node), _short(new))
                self.count += len(ops)
                return ast.copy_location(new, node) if isinstance(new, ast.AST) else new
            self.count += len(ops)
        return self.generic_visit(node)

    def generic_visit(self, node):
        # 语句级改写：删掉一条赋值给属性的语句或一条表达式语句（例如 copy_、add_ 调用）
        for field, value in ast.iter_fields(node):
            if isinstance(value, list):
                new_list = []
                for item in value:
                    if isinstance(item, ast.AST):
                        deletable = isinstance(item, ast.stmt) and _deletable(item) and len(value) > 1
                        if self.done is None and deletable:
                            if self.count == self.target:
                                self.done = ("漏掉一条语句", getattr(item, "lineno", 0), _short(item), "（删除）")
                                self.count += 1
                                continue
                            self.count += 1
                        item = self.visit(item)
                        if item is None:
                            continue
                    new_list.append(item)
                value[:] = new_list
            elif isinstance(value, ast.AST):
                new = self.visit(value)
                if new is None:
                    delattr(node, field)
                else:
                    setattr(node, field, new)
        return node


def _deletable(stmt):
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        return True
    if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Attribute) for t in stmt.targets):
        return not any(isinstance(t, ast.Attribute) and t.attr in ("scale", "shift", "weight", "bias")
                       for t in stmt.targets)
    if isinstance(stmt, ast.With):
        return False
    return False


def _short(node):
    if node is None:
        return ""
    text = ast.unparse(node) if isinstance(node, ast.AST) else str(node)
    return text if len(text) <= 90 else text[:87] + "..."


def _defaults(tree):
    """参数名 -> 默认值：函数的带默认值参数，或类 __init__ 的（用于“忽略参数”的改写）。"""
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            args = node.args.args
            for a, d in zip(args[len(args) - len(node.args.defaults):], node.args.defaults):
                try:
                    out[a.arg] = ast.literal_eval(d)
                except ValueError:
                    pass
    return out


def _changed_lines(original, text):
    """text 里与 original 不同的行（去掉缩进，用“ / ”连起来）；只删掉了语句时是“删去：”加上删掉的行。"""
    import difflib
    diff = list(difflib.ndiff(original.splitlines(), text.splitlines()))
    added = [line[2:].strip() for line in diff if line.startswith("+ ")]
    if added:
        return " / ".join(added)
    return "删去：" + " / ".join(line[2:].strip() for line in diff if line.startswith("- "))


def mutants(exercise_id, source):
    """参考答案 source 的所有变异体（源码与原来不同、能编译的）。"""
    tree = ast.parse(source)
    defaults = _defaults(tree)
    original = ast.unparse(tree)
    out, seen, k = [], set(), 0
    while True:
        t = copy.deepcopy(tree)
        apply = _Apply(k, defaults)
        t = apply.visit(t)
        if apply.done is None:
            break
        k += 1
        ast.fix_missing_locations(t)
        try:
            text = ast.unparse(t)
            compile(text, "<变异体>", "exec")
        except (SyntaxError, ValueError, TypeError):
            continue
        if text == original or text in seen:
            continue
        seen.add(text)
        name, line, before, after = apply.done
        out.append(Mutant(exercise_id, name, line, before, after, text, _changed_lines(original, text)))
    return out


def run_checker(ex, source):
    """运行 source，再用这道练习的检查器检查其中的入口；返回 CheckResult（不显示）。"""
    import contextlib
    import io

    from dsx_util import exercises
    namespace = {"__name__": "__main__"}
    exec(compile(source, "<变异体>", "exec"), namespace)
    entry = namespace[ex.entry]
    checker = getattr(exercises, ex.checker)
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            return checker(entry, show=False)
        except TypeError:
            return checker(entry)


if __name__ == "__main__":
    from dsx_util.exercises.catalog import EXERCISES
    total = survived = 0
    for ex in EXERCISES:
        for m in mutants(ex.id, ex.solution):
            total += 1
            r = run_checker(ex, m.source)
            if r.passed:
                survived += 1
                print(f"存活  {ex.id:28s} {m.operator:12s} 第 {m.line} 行  {m.before!r} → {m.after!r}")
    print(f"共 {total} 个变异体，{survived} 个通过了检查")
