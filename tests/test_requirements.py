"""依赖范围必须容纳 Colab 预装的版本：否则在 Colab 里 pip 会升级或降级 torch / ipywidgets。"""
import re
import tomllib

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

from conftest import ROOT

# Google Colab 预装版本（2025–2026 年间见到的；Colab 的 ipywidgets 一直是 7.7.1，见 colabtools #4525）
COLAB = {
    "torch": ["2.4.1", "2.6.0", "2.8.0", "2.9.0", "2.10.0", "2.13.0"],
    "ipywidgets": ["7.7.1"],
    "numpy": ["1.26.4", "2.0.2"],
    "matplotlib": ["3.8.0", "3.10.0"],
    "prettytable": ["3.16.0"],
}


def requirements():
    reqs = []
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line and not line.startswith("-"):
            reqs.append(Requirement(line))
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    reqs += [Requirement(r) for r in meta["project"]["dependencies"]]
    return reqs


@pytest.mark.parametrize("req", requirements(), ids=str)
def test_range_admits_colab_versions(req):
    for version in COLAB.get(req.name, []):
        assert req.specifier.contains(Version(version)), f"{req} 会排除 Colab 的 {req.name} {version}"


def test_ranges_are_checked_for_the_key_packages():
    names = {r.name for r in requirements()}
    assert {"torch", "ipywidgets", "numpy", "matplotlib"} <= names


def test_ipywidgets_8_only_excluded_nowhere_and_9_excluded():
    for req in requirements():
        if req.name == "ipywidgets":
            assert req.specifier.contains("8.1.5") and req.specifier.contains("7.7.1")
            assert not req.specifier.contains("9.0.0")


def test_exact_pins_only_in_constraints():
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        assert not re.match(r"^[A-Za-z0-9_.-]+==", line.strip()), f"requirements.txt 里不要写死版本：{line}"


def test_requires_python_is_what_is_tested():
    """requires-python 的下限就是测试过的最老版本（classifiers，tests/test_python_versions.py 在每一个上安装并检查）；
    CI 的容器版本、Colab 的 3.12 都在测试过的版本里；比下限更老的版本不被接受。"""
    from packaging.specifiers import SpecifierSet
    from dsx_book import install
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    spec = SpecifierSet(meta["project"]["requires-python"])
    tested = install.tested_pythons()
    ci = (ROOT / ".github" / "workflows" / "ci.yml").read_text(encoding="utf-8")
    container = re.search(r"container:\s*python:(\d+\.\d+)", ci).group(1)
    lower = next(s.version for s in spec if s.operator == ">=")
    assert lower == tested[0] == install.min_python(), f"requires-python 从 {lower} 起，但测试过的最老版本是 {tested[0]}"
    assert container in tested and "3.12" in tested, (container, tested)
    assert all(v in spec for v in tested)
    minors = [int(v.split(".")[1]) for v in tested]
    assert minors == list(range(minors[0], minors[-1] + 1)), f"测试过的版本之间不能有空缺：{tested}"
    assert f"3.{minors[0] - 1}" not in spec


# 各章或 dsx_util 用到的较新的 PyTorch API → 最早提供它的版本（见 PyTorch 各版本的发布说明）
TORCH_API_SINCE = {"nn.RMSNorm": "2.4"}


def test_torch_floor_is_what_the_chapters_use():
    """torch 的下限正好是各章与 dsx_util 用到的最新 API 需要的版本（不低也不高），理由写在下限的同一行。"""
    import nbformat
    from conftest import chapter_paths
    code = "\n".join(c.source for p in chapter_paths() for c in nbformat.read(p, as_version=4).cells
                     if c.cell_type == "code")
    code += "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "dsx_util").rglob("*.py")))
    used = {api: since for api, since in TORCH_API_SINCE.items() if re.search(rf"\b{re.escape(api)}\b", code)}
    assert used, "各章不再用 TORCH_API_SINCE 里的 API：请重新确定 torch 的下限并更新这张表"
    floor = max(Version(v) for v in used.values())
    for name in ("pyproject.toml", "requirements.txt", "requirements-colab.txt"):
        lines = [line for line in (ROOT / name).read_text(encoding="utf-8").splitlines()
                 if re.match(r'^\s*"?torch\s*>=', line)]
        assert len(lines) == 1, f"{name} 里应当恰有一行 torch>=…：{lines}"
        low = Version(re.search(r"torch\s*>=\s*([0-9.]+)", lines[0]).group(1))
        assert low == floor, f"{name} 的 torch 下限是 {low}，而各章用到的 {sorted(used)} 需要 {floor}"
        assert all(api.split(".")[-1] in lines[0] for api in used), f"{name} 的 torch 下限旁边要写明理由：{lines[0]}"
