"""Sphinx 小扩展：中文排版。

1. 源文件里的换行落在两个汉字（或中文标点）之间时，浏览器会把它画成一个空格；汉字之间、全角标点前后
   都不该有空格。这里在文档树里删掉这些空白（只改正文，不碰代码、公式和代码输出）。汉字与英文、数字之间的换行照常是一个空格。
2. 行内公式后面紧跟的中文标点（如「$x$，」）不能被挤到下一行行首：把公式和这个标点包进一个不折行的 span。
"""
import re

from docutils import nodes
from sphinx.transforms import SphinxTransform
from sphinx.transforms.post_transforms import SphinxPostTransform

HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
OPENING = "（「『《〈【“‘"
CLOSING = "，。、；：！？）」』》〉】”’"
PUNCT = OPENING + CLOSING + "…—"
CJK = f"[{HAN}{PUNCT}]"

SPACE_BETWEEN_CJK = re.compile(rf"(?<={CJK})\s+(?={CJK})")
SPACE_AFTER_PUNCT = re.compile(rf"(?<=[{OPENING}{CLOSING}])\s+")
SPACE_BEFORE_PUNCT = re.compile(rf"\s+(?=[{CLOSING}])")
LEADING_CLOSING = re.compile(rf"^[{CLOSING}]+")

# 这些节点里的文字原样保留
VERBATIM = (nodes.FixedTextElement, nodes.literal, nodes.math, nodes.raw, nodes.comment)


def clean_spaces(text, before="", after=""):
    """删掉 text 里不该有的空白；before/after 是 text 前后最近的非空白字符（用来判断边界上的空白）。"""
    joined = before + text + after
    for pattern in (SPACE_BETWEEN_CJK, SPACE_AFTER_PUNCT, SPACE_BEFORE_PUNCT):
        # 只删空白、不删字，所以前后文的字符不受影响
        joined = pattern.sub("", joined)
    return joined[len(before):len(joined) - len(after)]


def _is_verbatim(node):
    while node is not None:
        if isinstance(node, VERBATIM):
            return True
        node = node.parent
    return False


def _text_blocks(document):
    """最外层的文字块（段落、标题、图注……），每块只处理一次。"""
    for block in document.findall(nodes.TextElement):
        if not isinstance(block.parent, nodes.TextElement) and not _is_verbatim(block):
            yield block


def _fix_spaces(block):
    texts = list(block.findall(nodes.Text))
    for i, text in enumerate(texts):
        if _is_verbatim(text.parent):
            continue
        # 前后文取最近的非空白字符（只由空白组成的相邻节点，如软换行，跳过去看）
        before = "".join(map(str, texts[:i])).rstrip()[-1:]
        after = "".join(map(str, texts[i + 1:])).lstrip()[:1]
        new = clean_spaces(str(text), before, after)
        if new != str(text):
            text.parent.replace(text, nodes.Text(new))


def _keep_punctuation_with_math(block):
    for math in list(block.findall(nodes.math)):
        if "dsx-nobr" in math.parent.get("classes", []):
            continue  # 读入时已经处理过
        following = math.next_node(descend=False, siblings=True)
        if not isinstance(following, nodes.Text):
            continue
        match = LEADING_CLOSING.match(str(following))
        if not match:
            continue
        parent = math.parent
        keep = nodes.inline(classes=["dsx-nobr"])
        parent.replace(math, keep)
        keep += math
        keep += nodes.Text(match.group())
        rest = str(following)[match.end():]
        if rest:
            parent.replace(following, nodes.Text(rest))
        else:
            parent.remove(following)


def apply_typography(document):
    for block in list(_text_blocks(document)):
        _fix_spaces(block)
        _keep_punctuation_with_math(block)


class ChineseTypography(SphinxTransform):
    """读入时运行：目录和侧栏里用到的标题也是干净的。"""
    default_priority = 700

    def apply(self, **kwargs):
        apply_typography(self.document)


class ChineseTypographyAfterReferences(SphinxPostTransform):
    """写出前再运行一次：交叉引用（如 {doc} 链接）的文字到这时才换成章节标题，glue 的值也是这时才填进去。"""
    default_priority = 900

    def run(self, **kwargs):
        apply_typography(self.document)
