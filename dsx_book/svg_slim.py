"""把 matplotlib 画出的 SVG 插图变小（构建时对 _images/*.svg 运行，见 dsx_book/trim.py），看起来不变。

matplotlib 的 SVG 为了通用写得很松：每个坐标 6 位小数的绝对坐标、每个文字字形的轮廓用 1/64 单位、
元数据、注释、每个元素一个 id、层层空的 <g>。本书的插图把中文字形存成轮廓（读者的机器不需要中文字体，
见 dsx_util/plotting.py），字形占了文件的一半。这里：
- 路径改为相对坐标，保留 2 位小数（0.01 pt，远小于屏幕或 600 dpi 打印的一个像素）；
- 字形轮廓换算成每 em 1000 单位的整数（10 磅的字约 0.01 磅一个单位，看不出差别）；
- 去掉元数据、注释、没人引用的 id、不带属性的 <g>；被引用的 id 改成短名。
结果通常是原文件的 40%–70%；tests/test_svg_slim.py 在 Chromium 里把改动前后的图逐像素比较。
"""
import re
import xml.etree.ElementTree as ET

SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
HREF = f"{{{XLINK}}}href"
ET.register_namespace("", SVG)
ET.register_namespace("xlink", XLINK)

NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
PATH_TOKEN = re.compile(r"[MLCQZmlcqz]|-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
ARITY = {"M": 2, "L": 2, "C": 6, "Q": 4, "Z": 0}
GLYPH_SCALE = re.compile(r"scale\(([-\d.eE+]+)\)")
DIGITS = 2


def number(value, digits=DIGITS):
    """最短的写法：1.50 → 1.5，0.25 → .25，-0.0 → 0。"""
    text = f"{value:.{digits}f}".rstrip("0").rstrip(".") if digits else str(round(value))
    if text in ("-0", "", "-"):
        return "0"
    if text.startswith("0."):
        return text[1:]
    if text.startswith("-0."):
        return "-" + text[2:]
    return text


def _join(numbers):
    out = ""
    for text in numbers:
        out += text if not out or text.startswith("-") else " " + text
    return out


def slim_path(d, digits=DIGITS, scale=1.0):
    """matplotlib 的路径（只用 M L C Q Z 绝对命令）→ 相对命令，坐标先乘 scale 再保留 digits 位小数。

    相对量由取整后的绝对坐标相减得到，误差不会沿路径累积。不认识的命令时原样返回。
    """
    tokens = PATH_TOKEN.findall(d)
    if not tokens or tokens[0] not in ARITY:
        return d
    step = 10.0 ** -digits
    out, last = [], None
    x = y = start_x = start_y = 0.0
    i = 0
    while i < len(tokens):
        command = "Z" if tokens[i] == "z" else tokens[i]      # matplotlib 只写绝对命令，闭合写作 z
        if command not in ARITY:
            return d
        arity = ARITY[command]
        values = tokens[i + 1:i + 1 + arity]
        if len(values) != arity or any(v.upper() in ARITY for v in values):
            return d
        i += 1 + arity
        if command == "Z":
            out.append("z")
            x, y, last = start_x, start_y, "z"
            continue
        absolute = [round(float(v) * scale / step) * step for v in values]
        relative = [absolute[k] - (x if k % 2 == 0 else y) for k in range(arity)]
        letter = command.lower()
        if letter == "l" and abs(relative[1]) < step / 2:
            letter, relative = "h", relative[:1]
        elif letter == "l" and abs(relative[0]) < step / 2:
            letter, relative = "v", relative[1:]
        text = _join(number(v, digits) for v in relative)
        if letter == last and letter != "m":
            out.append(text if text.startswith("-") else " " + text)
        else:
            out.append(letter + text)
        last = letter
        x, y = absolute[-2], absolute[-1]
        if command == "M":
            start_x, start_y = x, y
    return "".join(out)


def _round_numbers(text, digits=DIGITS):
    return NUMBER.sub(lambda m: number(float(m.group(0)), digits), text)


def _unwrap_plain_groups(element):
    """不带任何属性的 <g> 不起作用：把它的子元素提到上一层。"""
    children = []
    for child in list(element):
        _unwrap_plain_groups(child)
        if child.tag == f"{{{SVG}}}g" and not child.attrib:
            children.extend(child)
        else:
            children.append(child)
    element[:] = children


def slim_svg(text):
    """返回变小后的 SVG 文本；不是 matplotlib 写的 SVG（没有它的元数据）时原样返回。"""
    if "Matplotlib" not in text[:2000] or "<svg" not in text:
        return text
    root = ET.fromstring(text.encode("utf-8"))
    for parent in list(root.iter()):
        for child in list(parent):
            if child.tag == f"{{{SVG}}}metadata":
                parent.remove(child)

    referenced = set(re.findall(r'(?:href="#|url\(#)([^")]+)', text))
    short = {}
    for element in root.iter():
        old = element.attrib.pop("id", None)
        if old in referenced:
            short[old] = f"d{len(short):x}"
            element.set("id", short[old])

    for element in root.iter():
        if element.get(HREF, "").startswith("#"):
            element.set(HREF, "#" + short.get(element.get(HREF)[1:], element.get(HREF)[1:]))
        for key, value in list(element.attrib.items()):    # clip-path、fill（渐变）、style 里的 hatch 图案……
            if "url(#" in value:
                element.set(key, re.sub(r"url\(#([^)]+)\)", lambda m: f"url(#{short.get(m.group(1), m.group(1))})",
                                        value))
        if element.tag == f"{{{SVG}}}path" and element.get("d"):
            glyph = GLYPH_SCALE.fullmatch(element.get("transform", ""))
            if glyph:
                # 字形：坐标换算到每 em 1000 单位（matplotlib 的字形每 em 100 单位，再乘 glyph 缩放），保留整数
                factor = float(glyph.group(1)) * 10
                d = slim_path(element.get("d"), 0, factor)
                if d != element.get("d"):
                    element.set("d", d)
                    element.set("transform", f"scale({number(float(glyph.group(1)) / factor, 6)})")
            else:
                element.set("d", slim_path(element.get("d")))
        for key in ("x", "y", "x1", "y1", "x2", "y2", "width", "height", "transform", "viewBox", "points"):
            if key in element.attrib and not (key == "transform" and GLYPH_SCALE.fullmatch(element.get(key))):
                value = element.get(key)
                element.set(key, _round_numbers(value, 4 if key == "transform" else DIGITS))
        if "style" in element.attrib:
            element.set("style", re.sub(r"\s*([:;])\s*", r"\1", element.get("style")).strip(";"))
        element.tail = None
        if element.text is not None and not element.text.strip():
            element.text = None
    _unwrap_plain_groups(root)
    return ET.tostring(root, encoding="unicode")
