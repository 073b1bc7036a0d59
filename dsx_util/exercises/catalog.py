# 导入：标准库、items、feedback；可选：nbformat、IPython、dsx_util.notebook。
"""全书的练习目录：从 items/ 里每道练习的文件夹读出练习，生成放进章节笔记本的单元格、显示参考答案。

每道练习一个文件夹（见 items/__init__.py）：题目 task.md、学习者要改写的模板 template.py（未作答时运行不报错，
检查会说“还没有完成”）、提示 hint.md、参考答案 solution.py（与模板定义同样的名字），以及 __init__.py 里的
标题 TITLE、章节 CHAPTER 和检查函数名 CHECKER。检查单元格由 CHECKER 和模板定义的名字拼出。

    from dsx_util.exercises import chapter_cells, show_solution
    cells = chapter_cells("ch05_implement_layernorm")   # 放在该章 “## 练习” 单元格之后
    show_solution("ch05-layer-norm")                     # 显示参考答案
"""
import ast
import importlib
from dataclasses import dataclass
from pathlib import Path

from . import feedback
from .items import ORDER

TODO = 'raise NotImplementedError("请在这里写你的代码")'
ITEMS = Path(__file__).resolve().parent / "items"


@dataclass(frozen=True)
class Exercise:
    """一道练习。id 是稳定的短名（如 "ch05-layer-norm"），chapter 是章节文件名（不含 .ipynb）。"""

    id: str
    chapter: str
    title: str
    task: str
    template: str
    checker: str
    hint: str
    solution: str
    in_page: bool = False   # True：纯 Python 练习，网页里也能运行并检查（检查器在它文件夹的 check.py，只用标准库）
    forbidden: tuple = ()   # 题目不许用的名字：((名字, 题目里的要求), ...)，见各文件夹 __init__.py 的 FORBIDDEN
    required: tuple = ()    # 题目要求必须用到的名字（如 set_seed），见 REQUIRED_NAMES

    @property
    def entry(self):
        """学习者要写的函数或类的名字（模板里唯一的顶层定义）。"""
        (name,) = [n.name for n in ast.parse(self.template).body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
        return name

    def _entry_node(self):
        (node,) = [n for n in ast.parse(self.template).body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
        return node

    @property
    def params(self):
        """模板里入口的参数：[(名字, 默认值或 feedback.REQUIRED), ...]；类取 __init__ 的参数（去掉 self）。"""
        node = self._entry_node()
        is_class = isinstance(node, ast.ClassDef)
        if is_class:
            node = next(n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
        args = [a.arg for a in node.args.args][1 if is_class else 0:]
        defaults = [ast.literal_eval(d) for d in node.args.defaults]
        return list(zip(args, [feedback.REQUIRED] * (len(args) - len(defaults)) + defaults))

    @property
    def spec(self):
        """题目写明、检查器要查的要求（可以写成 JSON 放进网页）：入口名、参数与默认值、不许用的名字。"""
        kind = "class" if isinstance(self._entry_node(), ast.ClassDef) else "function"
        return {"id": self.id, "title": self.title, "entry": self.entry, "kind": kind, "params": [list(p) for p in self.params],
                "forbidden": dict(self.forbidden),
                "required": dict(self.required)}

    @property
    def check(self):
        """检查单元格的代码：导入检查函数，用学习者定义的名字调用它。"""
        return f"from dsx_util.exercises import {self.checker}\n{self.checker}({self.entry})"


def _load(exercise_id):
    folder = ITEMS / exercise_id.replace("-", "_")
    meta = importlib.import_module(f"{__package__}.items.{folder.name}")

    def read(name):
        return (folder / name).read_text(encoding="utf-8").strip()
    return Exercise(exercise_id, meta.CHAPTER, meta.TITLE, read("task.md"), read("template.py"), meta.CHECKER,
                    read("hint.md"), read("solution.py"), getattr(meta, "IN_PAGE", False),
                    tuple(getattr(meta, "FORBIDDEN", {}).items()), tuple(getattr(meta, "REQUIRED_NAMES", {}).items()))


EXERCISES = [_load(exercise_id) for exercise_id in ORDER]

_BY_ID = {ex.id: ex for ex in EXERCISES}


def exercises_for(chapter_stem):
    """某一章的练习（按题目顺序）；chapter_stem 如 "ch05_implement_layernorm"，也接受 "ch05" 或带 .ipynb 的文件名。"""
    stem = str(chapter_stem).rsplit("/", 1)[-1].removesuffix(".ipynb")
    return [ex for ex in EXERCISES if ex.chapter == stem or ex.chapter.split("_", 1)[0] == stem]


def get_exercise(exercise_id):
    """按 id 取出练习；id 不存在时抛出 KeyError，信息里列出所有可用的 id。"""
    try:
        return _BY_ID[exercise_id]
    except (KeyError, TypeError):
        raise KeyError(f"没有 id 为 {exercise_id!r} 的练习。可用的 id：{', '.join(_BY_ID)}") from None


def show_solution(exercise_id):
    """显示一道练习的参考答案：笔记本里是折叠的（点开才看得到），终端里是纯文本。

    笔记本里输出一段 HTML：<details> 默认收起，所以「运行全部」不会把答案摊在读者眼前；Jupyter、Colab
    和网页版都认得它，打印版（PDF）的样式会把它展开。没有 HTML 的前端退回纯文本（标题、说明和代码）。
    """
    import html
    try:
        ex = get_exercise(exercise_id)
    except KeyError as err:
        raise ValueError(err.args[0]) from None
    heading = f"参考答案：{ex.title}（{ex.id}）"
    from ..notebook import in_notebook
    if in_notebook():
        from IPython.display import display
        code = html.escape(ex.solution)
        display({"text/html": f'<details class="dsx-solution"><summary><strong>{html.escape(heading)}</strong>'
                              f'<span style="opacity:.75">（先自己做一遍再看）</span></summary>\n<pre><code class="language-python">{code}</code></pre>'
                              "\n</details>",
                 "text/plain": f"{heading}（这里的显示不支持折叠，答案在下面）\n\n{ex.solution}"}, raw=True)
    else:
        print(heading)
        print(ex.solution)


def _cell_source(ex, n):
    return {
        "task": f"### 练习 {n}：{ex.title}\n\n{ex.task}",
        "hint": f"<details><summary>提示</summary>\n\n{ex.hint}\n\n</details>",
        "solution": f'from dsx_util.exercises import show_solution\nshow_solution("{ex.id}")',
    }


def chapter_cells(chapter_stem):
    """生成放在该章 “## 练习” 单元格之后的全部单元格（nbformat v4 单元格列表）。

    每道练习依次是：题目（markdown）、模板（代码，标签 exercise-template；纯 Python 练习另加 inpage-exercise，
    网页上就地变成编辑器，见 dsx_book/inpage.py）、检查（代码，标签 exercise-check；网页练习的检查单元格
    另加 remove-output：网页上由「运行并检查」给出反馈，不显示构建时“还没有完成”的输出）、
    折叠的提示（markdown）、参考答案（代码，标签 exercise-solution；它的输出本身是收起的 <details>，
    网页、Jupyter、Colab 里都要点开才看得到）。
    """
    import nbformat
    exercises = exercises_for(chapter_stem)
    if not exercises:
        chapters = sorted({ex.chapter for ex in EXERCISES})
        raise ValueError(f"章节 {chapter_stem!r} 没有练习。有练习的章节：{', '.join(chapters)}")
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    cells = []
    for n, ex in enumerate(exercises, start=1):
        src = _cell_source(ex, n)
        cells += [
            md(src["task"], metadata={"exercise_id": ex.id}),
            code(ex.template, metadata={"tags": ["exercise-template"] + (["inpage-exercise"] if ex.in_page else []),
                                        "exercise_id": ex.id}),
            code(ex.check, metadata={"tags": ["exercise-check"] + (["remove-output"] if ex.in_page else []),
                                     "exercise_id": ex.id}),
            md(src["hint"], metadata={"exercise_id": ex.id}),
            code(src["solution"], metadata={"tags": ["exercise-solution"], "exercise_id": ex.id}),
        ]
    kinds = ("task", "template", "check", "hint", "solution")
    for i, cell in enumerate(cells):   # 固定的单元格 id：重复生成的结果完全相同
        cell.id = f"{cell.metadata['exercise_id']}-{kinds[i % len(kinds)]}"
    return cells


EXERCISES_MARKER_TAG = "exercises"


def fill_exercises(nb, chapter_stem):
    """把 chapter_cells(chapter_stem) 放到笔记本 nb 里 “## 练习” 标记单元格（标签 exercises）之后。

    标记单元格之后原有的单元格全部被替换；标记单元格本身不动。就地修改 nb，返回是否有改动
    （重复运行结果不变，所以可以放进 dsx_book/nbsync.py 里每次都跑）。
    """
    markers = [i for i, c in enumerate(nb.cells) if EXERCISES_MARKER_TAG in c.get("metadata", {}).get("tags", [])]
    if len(markers) != 1:
        raise ValueError(f"笔记本里应恰好有 1 个带 {EXERCISES_MARKER_TAG!r} 标签的“## 练习”单元格，实际有 {len(markers)} 个。")
    new = chapter_cells(chapter_stem)
    if nb.get("nbformat", 4) == 4 and nb.get("nbformat_minor", 5) < 5:   # 旧格式不允许单元格 id
        for cell in new:
            cell.pop("id", None)
    old = nb.cells[markers[0] + 1:]

    def key(cell):
        return (cell.get("cell_type"), cell.get("source"), cell.get("metadata"), cell.get("id"))
    if [key(c) for c in old] == [key(c) for c in new]:
        return False
    nb.cells[markers[0] + 1:] = new
    return True


# 检查器从这里读练习写明的要求（feedback 不导入本模块）
feedback.SPEC_SOURCE = lambda exercise_id: get_exercise(exercise_id).spec
