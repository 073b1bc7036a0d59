"""装好的 dsx_util（来自 wheel，而不是仓库里的源码）能用：读者 pip install 之后第一章要用的东西都在。

用法：<全新环境的 python> wheel_smoke.py <版本号>。在不含仓库的目录里运行；每一项打印一行，失败时退出码非 0。
由 tests/test_release.py 在一个只装了 wheel 的全新虚拟环境里运行。
"""
import contextlib
import io
import sys
from importlib import metadata, resources
from pathlib import Path


def main(expected_version):
    import dsx_util

    where = Path(dsx_util.__file__).resolve()
    assert "site-packages" in where.parts, f"导入的 dsx_util 不是安装进环境的那一份：{where}"
    assert dsx_util.__version__ == expected_version == metadata.version("dsx_util"), \
        (dsx_util.__version__, expected_version, metadata.version("dsx_util"))
    print(f"导入：{where.parent}，版本 {dsx_util.__version__}")

    static = resources.files("dsx_util.widgets") / "static"
    for name in ("explorers.js", "explorers.css"):
        assert (static / name).is_file() and (static / name).read_text(encoding="utf-8").strip(), name
    print("探索器的静态文件：explorers.js、explorers.css 都在 wheel 里")

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        dsx_util.show_version()
    assert "dsx_util 版本" in out.getvalue() and expected_version in out.getvalue(), out.getvalue()
    print("show_version：两张表，版本号正确")

    import torch
    from torch import nn
    dsx_util.set_seed(0)
    x = torch.randn(4, 6, 768)
    ours, ref = dsx_util.LayerNorm(768), nn.LayerNorm(768)
    diff = (ours(x) - ref(x)).abs().max().item()
    assert diff < 1e-5, diff
    print(f"LayerNorm 与 nn.LayerNorm 的最大差 {diff:.1e}")

    from dsx_util.widgets import dim_keepdim_explorer, layer_norm_explorer
    page = layer_norm_explorer()._repr_html_()
    js = (static / "explorers.js").read_text(encoding="utf-8")
    assert 'data-explorer="layer_norm"' in page and js.strip() in page
    assert 'data-explorer="dim_keepdim"' in dim_keepdim_explorer()._repr_html_()
    print(f"探索器：页面内视图 {len(page)} 个字符，内联了 explorers.js")

    from dsx_util.exercises import check_layer_norm
    good = check_layer_norm(dsx_util.LayerNorm, show=False)
    bad = check_layer_norm(lambda emb_dim: nn.Identity(), show=False)
    assert good.passed and not bad.passed and bad.messages, (good.text(), bad.text())
    print(f"检查器：正确实现通过；恒等映射被指出 {len(bad.codes)} 个问题")

    from dsx_util.reference_model import evaluate, load_reference_model, validation_text
    model, tok = load_reference_model()
    assert tok.decode(tok.encode("层归一化")) == "层归一化"
    loss = evaluate(model, torch.tensor(tok.encode(validation_text()[:2000])))
    assert loss < 4.0, loss
    print(f"参考模型：检查点在 wheel 里，载入后验证集前 2000 个字符上的损失 {loss:.2f}")


if __name__ == "__main__":
    main(sys.argv[1])
