"""第 3 章《dim 与 keepdim》：形状由代码算出；忘写 keepdim 时 (2, 6) 报错，(6, 6) 不报错但算错。"""
import pytest

from conftest import glued_value

CHAPTER = "ch03_dim_keepdim"


@pytest.fixture(scope="module")
def chapter(run_chapter):
    return run_chapter(CHAPTER)


def shape(chapter, name):
    value = glued_value(chapter[1], name)
    assert isinstance(value, tuple), (name, value)
    return value


def test_reduction_shapes(chapter):
    x = shape(chapter, "ch03_shape_x")
    assert shape(chapter, "ch03_shape_dim0") == x[1:]
    assert shape(chapter, "ch03_shape_dim1") == x[:1]
    assert glued_value(chapter[1], "ch03_dim1_equals_last") == "相同"
    h = shape(chapter, "ch03_shape_h")
    assert len(h) == 3
    assert shape(chapter, "ch03_shape_per_token") == h[:2] + (1,)
    assert shape(chapter, "ch03_shape_dim1_3d") == (h[0], h[2])
    assert glued_value(chapter[1], "ch03_loop_match") == "一致"


def test_row_means(chapter):
    _, glued, _ = chapter
    row0 = float(glued_value(glued, "ch03_mean_row0"))
    row1 = float(glued_value(glued, "ch03_mean_row1"))
    # 第二行是第一行的 10 倍，均值也应是 10 倍
    assert row1 == pytest.approx(10 * row0)


def test_keepdim_table_is_printed(chapter):
    nb, _, _ = chapter
    tables = [out["data"]["text/plain"] for cell in nb.cells for out in cell.get("outputs", [])
              if "求均值后的形状" in out.get("data", {}).get("text/plain", "")]
    assert tables, "没有找到 keepdim 形状表"
    assert "(2, 3, 1)" in tables[0] and "(1, 6)" in tables[0]


def test_broadcasting_trap(chapter):
    nb, glued, _ = chapter
    assert glued_value(glued, "ch03_rect_raised") == "确实报错了"  # (2, 6) 不加 keepdim：RuntimeError
    printed = "".join(out.get("text", "") for cell in nb.cells for out in cell.get("outputs", []))
    assert "RuntimeError: The size of tensor a (6) must match the size of tensor b (2)" in printed
    # (6, 6) 不加 keepdim：不报错，但结果明显错误
    assert float(glued_value(glued, "ch03_square_max_error")) > 0.1
    assert float(glued_value(glued, "ch03_square_wrong_row_mean")) > 0.05
