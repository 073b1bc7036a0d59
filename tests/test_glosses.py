"""第 12 章 §12.6（小实验）用到的、前面各章没有讲过的术语：在这一节第一次出现时就有一句解释，并且都在术语表里，
条目链接到这一节（或先讲它的那一节）。"""
import json
import re

import pytest

from conftest import ROOT

TERMS = {   # 术语 -> 解释里应当出现的词（说明它是什么，而不只是换个说法）
    "二阶马尔可夫链": "前面的两个词元",
    "狄利克雷分布": "和为 1",
    "熵率": "不确定性",
    "交叉熵": "负对数",
    "softmax": "和为 1",
    "AdamW": "权重衰减",
}


def experiment_section():
    nb = json.loads((ROOT / "book" / "ch12_modern_variants.ipynb").read_text(encoding="utf-8"))
    cells = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]
    start = next(i for i, s in enumerate(cells) if s.startswith("(ch12-experiment)="))
    end = next(i for i in range(start + 1, len(cells)) if re.match(r"(\(.+\)=\n)?## ", cells[i]))
    return "\n".join(cells[start:end])


@pytest.mark.parametrize("term", TERMS)
def test_term_is_glossed_where_it_first_appears_in_the_experiment(term):
    text = experiment_section()
    assert term in text
    first = text.index(term)
    assert TERMS[term] in text[first:first + 160], f"§12.6 第一次出现「{term}」时没有解释（附近没有「{TERMS[term]}」）"


@pytest.mark.parametrize("term", TERMS)
def test_term_is_in_the_glossary(term):
    glossary = (ROOT / "book" / "glossary.md").read_text(encoding="utf-8")
    entry = next((line for line in glossary.splitlines() if line.startswith(f"- **{term}**")), None)
    assert entry, f"术语表里没有「{term}」"
    assert TERMS[term] in entry and re.search(r"见「\{ref\}`ch\d\d-[\w-]+`」。$", entry), entry
