"""issue 23 第 2、5 项：PyTorch 小知识框在每个写法第一次出现处；新术语第一次出现就有注释；每章（第 1–11 章）
「小结」之前有 3–5 条「面试速答」，每条链接到讲它的那一节；术语表页与 GLOSSARY.md 的术语一致、每章都能到达；
衔接页（bridge.md）的代码能运行，框里对 PyTorch 的说法由这里的小例子逐条核对。

单元层读源文件；读 _build/html 的几项属于书层（文件在 conftest.BOOK_MODULES 里登记）。
"""
import re
from functools import cache

import nbformat
import pytest
import torch
import torch.nn as nn

from conftest import ROOT, chapter_paths, html_dir

CHAPTERS = chapter_paths()
TAKEAWAY_CHAPTERS = [p for p in CHAPTERS if re.match(r"ch(0[1-9]|1\d)_", p.stem)]   # ch00 是准备章，没有
# 标题里有 `代码` 时不能用 ``` 围栏（CommonMark 不允许信息串里有反引号），所以说明框一律用 ::: 围栏
BOX = re.compile(r"^:::\{admonition\} (?P<title>[^\n]*)\n:class: (?P<cls>[^\n]*)\n(?P<body>.*?)\n:::$", re.S | re.M)


def cells(path):
    return nbformat.read(path, as_version=4).cells


def boxes(cell, cls):
    """一个 Markdown 单元格里 class 含 cls 的 admonition：[(标题, 正文)]。"""
    if cell.cell_type != "markdown":
        return []
    return [(m["title"], m["body"]) for m in BOX.finditer(cell.source) if cls in m["cls"].split()]


# ---------------------------------------------------------------- 面试速答

ITEM = re.compile(r"^- \*\*(?P<q>[^*]+？)\*\* (?P<a>.+)见「\{ref\}`(?P<ref>[\w-]+)`」。$")


def takeaway_items(path):
    nb = cells(path)
    found = [(i, body) for i, c in enumerate(nb) for title, body in boxes(c, "dsx-takeaways")]
    assert len(found) == 1, f"{path.stem}：应有一个「面试速答」框，找到 {len(found)} 个"
    i, body = found[0]
    summary = next(k for k, c in enumerate(nb) if c.cell_type == "markdown" and c.source.startswith("## 小结"))
    assert i < summary, f"{path.stem}：「面试速答」应在「## 小结」之前"
    lines = [line for line in body.strip().split("\n") if line.strip()]
    items = [ITEM.match(line) for line in lines]
    assert all(items), f"{path.stem}：每条写成「- **问题？** 一句话回答。见「{{ref}}`标签`」。」：{lines}"
    return items


@pytest.mark.parametrize("path", TAKEAWAY_CHAPTERS, ids=[p.stem for p in TAKEAWAY_CHAPTERS])
def test_takeaways_box_before_summary_with_3_to_5_items(path):
    items = takeaway_items(path)
    assert 3 <= len(items) <= 5, f"{path.stem}：「面试速答」有 {len(items)} 条，应为 3–5 条"
    labels = {m["ref"] for m in items}
    defined = set(re.findall(r"^\(([\w-]+)\)=$", "\n".join(c.source for c in cells(path)), re.M))
    assert labels <= defined, f"{path.stem}：这些标签不在本章：{sorted(labels - defined)}"


def hand_typed_numbers(answer):
    """回答里手写的数：去掉行内代码、公式、glue、float32 之类的名字和「图 3」后剩下的数字（0、1 是常数，允许）。"""
    text = re.sub(r"`[^`]*`|\$[^$]*\$|\{glue:\w+\}`[^`]*`|\{\w+\}`[^`]*`", "", answer)
    text = re.sub(r"b?float(16|32|64)|GPT-\d|图 \d+", "", text)
    return [n for n in re.findall(r"\d+(?:\.\d+)?", text) if n not in ("0", "1")]


def test_hand_typed_number_checker_catches_seeded_errors():
    assert hand_typed_numbers("最大差 0.0042，约 25 倍") == ["0.0042", "25"]
    assert hand_typed_numbers("{glue:text}`ch01_n_ln` 个，$2N+1$，均值为 0，`dim=-1`，float32，图 3") == []


@pytest.mark.parametrize("path", TAKEAWAY_CHAPTERS, ids=[p.stem for p in TAKEAWAY_CHAPTERS])
def test_takeaway_answers_state_no_hand_typed_numbers(path):
    bad = {m["q"]: hand_typed_numbers(m["a"]) for m in takeaway_items(path) if hand_typed_numbers(m["a"])}
    assert bad == {}, f"{path.stem}：回答里的数要用 glue 或是常数：{bad}"


# ---------------------------------------------------------------- PyTorch 小知识：第一次用到之前就有说明

# 写法 -> (在代码里认出它的正则, 说明框的标题里要有的文字)
IDIOMS = {
    "eval": (r"\.eval\(\)", "`.eval()`"),
    "no_grad": (r"torch\.no_grad\(\)", "`torch.no_grad()`"),
    "in-place": (r"\.(?!__)[a-z]\w*[a-z]_\(", "原地操作"),
    "detach": (r"\.detach\(\)", "`.detach()`"),
    "hook": (r"register_forward_hook", "`register_forward_hook`"),
    "norm": (r"\.norm\(", "`.norm()`"),
    "functional_call": (r"functional_call", "`torch.func.functional_call`"),
    "backward": (r"\.backward\(", "`backward()`"),
    "grad": (r"\.grad\b", "`.grad`"),
    "zero_grad": (r"zero_grad\(", "`zero_grad()`"),
    "training": (r"self\.training\b", "`self.training`"),
}
IN_PLACE_METHODS = ["uniform_", "normal_", "copy_", "mul_", "add_", "exponential_"]
NEAR = 3   # 说明框离第一次使用最多隔几个单元格


def first_code_use(pattern):
    """(章, 单元格序号)：按阅读顺序第一个用到这个写法的代码单元格。"""
    for path in CHAPTERS:
        for i, c in enumerate(cells(path)):
            if c.cell_type == "code" and re.search(pattern, c.source):
                return path, i
    return None, None


def primer_boxes():
    """[(章, 单元格序号, 标题, 正文)]：全书的 PyTorch 小知识框。"""
    return [(p, i, t, b) for p in CHAPTERS for i, c in enumerate(cells(p)) for t, b in boxes(c, "dsx-primer")]


@pytest.mark.parametrize("idiom", IDIOMS)
def test_primer_box_just_before_first_use(idiom):
    pattern, title_part = IDIOMS[idiom]
    path, use = first_code_use(pattern)
    assert path is not None, f"书里找不到 {idiom} 的用法（{pattern}）：写法改了就更新 IDIOMS"
    near = [(i, t) for p, i, t, _ in primer_boxes() if p == path and title_part in t and use - NEAR <= i < use]
    assert near, (f"{idiom} 第一次出现在 {path.stem} 单元格 {use}，它前面 {NEAR} 个单元格以内"
                  f"没有标题含「{title_part}」的 PyTorch 小知识框")


def test_in_place_box_names_every_method_before_its_first_use():
    box = [(p, i, b) for p, i, t, b in primer_boxes() if "原地操作" in t]
    assert len(box) == 1
    box_path, box_cell, body = box[0]
    order = {p: k for k, p in enumerate(CHAPTERS)}
    for method in IN_PLACE_METHODS:
        assert f"`{method}`" in body or f"{method}(" in body, f"原地操作的说明框没有提到 {method}"
        path, use = first_code_use(rf"\.{method}\(")
        assert path is not None, f"书里不再用 {method}：从 IN_PLACE_METHODS 里删掉"
        assert (order[path], use) > (order[box_path], box_cell), f"{method} 在说明框之前就用到了（{path.stem}）"


# 术语 -> (认出它的正则, 第一次出现的单元格里必须有的注释)
GLOSSED = {
    "GELU": (r"GELU", "Gaussian Error Linear Unit"),
    "键、值": (r"键[、和与]值|、键、值", "key"),
    "KV 缓存": (r"KV 缓存", "KV cache"),
    "评估模式": (r"评估模式", "evaluation mode"),
    "通道": (r"通道", "channel"),
    "算术强度": (r"算术强度", "arithmetic intensity"),
    "计算图": (r"计算图", "computation graph"),
    "原地操作": (r"原地操作", "in-place operation"),
}


@pytest.mark.parametrize("term", GLOSSED)
def test_term_is_glossed_where_it_first_appears(term):
    pattern, gloss = GLOSSED[term]
    for path in CHAPTERS:
        for i, c in enumerate(cells(path)):
            if c.cell_type == "markdown" and re.search(pattern, c.source):
                assert gloss in c.source, f"「{term}」第一次出现在 {path.stem} 单元格 {i}，那里没有注释（{gloss}）"
                return
    pytest.fail(f"书里没有「{term}」")


# 说明框里的每句 PyTorch 说法，用最小的例子核对一遍
def test_primer_claims_hold():
    model = nn.Sequential(nn.Linear(3, 3), nn.Dropout(0.5))
    assert model.eval() is model and not model[1].training          # .eval() 返回模型本身，切到评估模式
    assert model.train().training
    with torch.no_grad():
        assert model(torch.ones(1, 3)).grad_fn is None             # no_grad 里不记录计算图

    x = torch.zeros(3)
    y = x.add(1)
    assert torch.equal(x, torch.zeros(3)) and torch.equal(y, torch.ones(3))
    assert x.add_(1) is x and torch.equal(x, torch.ones(3))         # 带下划线的方法改写张量本身
    param = nn.Parameter(torch.zeros(3))
    with pytest.raises(RuntimeError):
        param.uniform_(0.5, 1.5)                                    # 不在 no_grad 里改参数：报错
    with torch.no_grad():
        param.uniform_(0.5, 1.5)

    layer, seen = nn.Linear(3, 2), {}
    handle = layer.register_forward_hook(lambda m, inp, out: seen.update(inp=inp, out=out))
    data = torch.randn(4, 3)
    out = layer(data)
    assert isinstance(seen["inp"], tuple) and len(seen["inp"]) == 1 and seen["inp"][0] is data
    assert seen["out"] is out
    handle.remove()
    seen.clear()
    layer(data)
    assert seen == {}                                               # remove() 之后不再调用

    assert out.grad_fn is not None and out.detach().grad_fn is None
    assert torch.equal(out.detach(), out)

    t = torch.tensor([[3.0, 0.0], [0.0, 4.0]])
    assert t.norm().item() == 5.0 and torch.equal(t, torch.tensor([[3.0, 0.0], [0.0, 4.0]]))

    net = nn.Sequential(nn.Linear(3, 2))                           # backward() 把梯度累加进 .grad，zero_grad() 清掉
    net(torch.ones(1, 3)).sum().backward()
    first = net[0].weight.grad.clone()
    assert first.shape == net[0].weight.shape
    net(torch.ones(1, 3)).sum().backward()
    assert torch.allclose(net[0].weight.grad, 2 * first)
    net.zero_grad()
    assert net[0].weight.grad is None or not net[0].weight.grad.any()
    assert net.training and not net.eval().training and not net[0].training   # .eval() 也改子模块的 training
    assert net.train().training and net[0].training

    ln = nn.LayerNorm(4)
    before = {k: v.clone() for k, v in ln.state_dict().items()}
    scale = torch.full((4,), 2.0)
    result = torch.func.functional_call(ln, {"weight": scale, "bias": torch.zeros(4)}, (torch.arange(4.0),))
    assert torch.allclose(result, 2 * ln(torch.arange(4.0)))
    assert all(torch.equal(before[k], v) for k, v in ln.state_dict().items())   # 模块本身的参数不变


def test_takeaway_claims_hold():
    """第 7 章：训练时批量大小为 1，nn.BatchNorm1d 报错，层归一化照常工作。"""
    with pytest.raises(ValueError):
        nn.BatchNorm1d(4).train()(torch.randn(1, 4))
    assert nn.LayerNorm(4)(torch.randn(1, 4)).shape == (1, 4)


# ---------------------------------------------------------------- 术语表与衔接页（源文件）

GLOSSARY_PAGE = ROOT / "book" / "glossary.md"
BRIDGE_PAGE = ROOT / "book" / "bridge.md"
# ../shared/GLOSSARY.md 的中文术语（每个概念一个）。术语表页写到的概念必须用这里的写法；
# 第 12 章（现代变体）的几个术语由那一章的术语表条目补上。
CANON = ["词元", "词元 ID", "嵌入", "嵌入维度", "Transformer 块", "多头（自）注意力", "前馈神经网络", "残差连接",
         "激活值", "激活函数", "均值", "方差", "标准差", "有偏估计", "无偏估计", "贝塞尔校正", "ε（小常数）",
         "层归一化", "批量归一化", "均方根归一化", "缩放参数 γ、平移参数 β", "可学习参数", "张量", "形状", "维度",
         "广播", "梯度消失", "梯度爆炸", "梯度检验", "前向传播", "反向传播", "内存带宽", "前置归一化", "后置归一化",
         "评估模式", "训练模式", "计算图", "原地操作", "钩子", "GELU 激活函数", "KV 缓存", "键、值", "通道",
         "融合内核", "缺页"]
LATER = {"QK 归一化", "动态 tanh（DyT）", "零中心缩放参数", "混合精度"}   # 第 12 章的术语
EXTRA = {"分数", "范数", "预热", "权重衰减", "算术强度", "bfloat16",   # 书里用到、GLOSSARY.md 没列的术语
         "AdamW", "softmax", "交叉熵", "二阶马尔可夫链", "狄利克雷分布", "熵率"}   # 第 12 章小实验用到的（issue 34）


def glossary_terms():
    """术语表页每条开头加粗的术语（一条可以有几个，用 / 分开）。"""
    terms = []
    for line in GLOSSARY_PAGE.read_text(encoding="utf-8").splitlines():
        if line.startswith("- "):
            head = line.split("：", 1)[0]
            terms += [t for bold in re.findall(r"\*\*([^*]+)\*\*", head) for t in bold.split(" / ")]
    return terms


def test_glossary_page_uses_the_glossary_terms():
    terms = [t.replace("均值 μ", "均值") for t in glossary_terms()]
    terms = [re.sub(r" [μσ²]+$", "", t) for t in terms]
    missing = [t for t in CANON + sorted(LATER) if t not in terms]
    unknown = [t for t in terms if t not in CANON and t not in EXTRA and t not in LATER]
    assert missing == [] and unknown == [], f"术语表页缺：{missing}；不在 GLOSSARY.md 里的写法：{unknown}"


def test_every_glossary_entry_links_to_a_section():
    entries = [line for line in GLOSSARY_PAGE.read_text(encoding="utf-8").splitlines() if line.startswith("- ")]
    assert len(entries) >= 30
    bad = [e for e in entries if not re.search(r"见「\{ref\}`[^`]+`」。$", e)]
    assert bad == [], "每条术语以「见「{ref}`标签`」。」结尾：\n" + "\n".join(bad)


def test_bridge_page_code_runs(capsys):
    code = re.findall(r"```python\n(.*?)```", BRIDGE_PAGE.read_text(encoding="utf-8"), re.S)
    assert len(code) >= 4
    namespace = {}
    for block in code:                      # 像读者那样依次运行，后一段可以用前一段的变量
        exec(compile(block, str(BRIDGE_PAGE), "exec"), namespace)
    printed = capsys.readouterr().out
    assert "层归一化示例" in printed and "['scale', 'shift']" in printed


# ---------------------------------------------------------------- 构建出来的网页（书层）

@cache
def soup(rel):
    from bs4 import BeautifulSoup
    path = html_dir() / rel
    if not path.exists():
        pytest.fail(f"没有 {rel}：先运行 make book")
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def resolves(page_rel, href):
    """页面 page_rel 上的站内链接 href 指向的文件存在，#锚点也在那个文件里。"""
    target, _, anchor = href.partition("#")
    target_rel = (html_dir() / page_rel).parent / target if target else html_dir() / page_rel
    if not target_rel.exists():
        return False
    return not anchor or soup(str(target_rel.resolve().relative_to(html_dir().resolve()))).find(id=anchor) is not None


@pytest.mark.book
@pytest.mark.parametrize("path", TAKEAWAY_CHAPTERS, ids=[p.stem for p in TAKEAWAY_CHAPTERS])
def test_takeaway_links_resolve_in_the_built_page(path):
    rel = f"book/{path.stem}.html"
    page = soup(rel)
    box = page.select("div.admonition.dsx-takeaways")
    assert len(box) == 1, f"{rel} 上没有（或不止一个）「面试速答」框"
    assert box[0].select_one(".admonition-title").get_text(strip=True) == "面试速答"
    items = box[0].select("li")
    assert 3 <= len(items) <= 5
    for li in items:
        links = li.select("a.reference.internal")
        assert links, f"{rel}：这一条没有链接：{li.get_text()[:40]}"
        assert all(resolves(rel, a["href"]) for a in links), f"{rel}：链接指不到目标：{[a['href'] for a in links]}"


@pytest.mark.book
@pytest.mark.parametrize("cls", ["dsx-primer", "dsx-takeaways"])
def test_every_box_is_rendered_as_a_box(cls):
    """源文件里的每个框在网页上都是一个带标题的 admonition（写错围栏时它会变成原样显示的文字）。"""
    for path in CHAPTERS:
        n = sum(len(boxes(c, cls)) for c in cells(path))
        page = soup(f"book/{path.stem}.html")
        shown = page.select(f"div.admonition.{cls}")
        assert len(shown) == n, f"{path.stem}：源文件里有 {n} 个 {cls} 框，网页上只有 {len(shown)} 个"
        assert all(box.select_one(".admonition-title") for box in shown)
        raw = [p.get_text()[:40] for p in page.select("article p") if "{admonition}" in p.get_text()]
        assert raw == [], f"{path.stem}：网页上有原样显示的框：{raw}"


@pytest.mark.book
def test_glossary_reachable_from_every_chapter_and_its_links_resolve():
    for path in CHAPTERS:
        rel = f"book/{path.stem}.html"
        hrefs = [a["href"] for a in soup(rel).select("nav a.reference.internal, .bd-sidebar a")]
        assert any(h.split("#")[0].endswith("glossary.html") for h in hrefs), f"{rel} 的目录里没有术语表"
    page = soup("book/glossary.html")
    entries = page.select("article li, main li")
    links = [a["href"] for li in entries for a in li.select("a.reference.internal")]
    assert len(links) >= 30
    bad = [h for h in links if not resolves("book/glossary.html", h)]
    assert bad == [], f"术语表里指不到目标的链接：{bad}"


# 第 0–11 章的「学习目标」单元格里有一句指向术语表的话：手机上目录藏在 ☰ 后面，正文里要有一个链接
GOAL_CHAPTERS = [p for p in CHAPTERS if re.match(r"ch\d\d_", p.stem)]


def goals_cell(path):
    return next(c for c in cells(path)[:4] if c.cell_type == "markdown" and "学习目标" in c.source)


@pytest.mark.parametrize("path", GOAL_CHAPTERS, ids=[p.stem for p in GOAL_CHAPTERS])
def test_learning_goals_link_the_glossary(path):
    assert re.search(r"\{doc\}`[^`]*glossary>?`", goals_cell(path).source), f"{path.stem}：学习目标里没有指向术语表的链接"


@pytest.mark.book
@pytest.mark.parametrize("path", GOAL_CHAPTERS, ids=[p.stem for p in GOAL_CHAPTERS])
def test_glossary_link_in_the_page_text_before_the_first_section(path):
    """构建出来的页面里，第一个 ## 小节之前的正文（不是侧栏、目录）就有指向术语表的链接。"""
    article = soup(f"book/{path.stem}.html").select_one("article")
    first = article.select_one("section section")          # 第一个 ## 小节
    assert first is not None, f"{path.stem}：页面里没有小节"
    before = [el for el in first.find_previous_siblings() if el.name]   # 同一章节里、第一个小节之前的元素
    links = [a["href"] for el in before for a in el.select("a.reference.internal")]
    assert any(h.split("#")[0].endswith("glossary.html") for h in links), \
        f"{path.stem}：第一个小节之前的正文里没有指向术语表的链接：{links}"


@pytest.mark.book
def test_bridge_page_is_built_and_linked():
    page = soup("book/bridge.html")
    assert page.find("h1") and "Raschka" in page.find("h1").get_text()
    assert soup("book/index.html").select_one('a[href*="bridge.html"]') is not None
