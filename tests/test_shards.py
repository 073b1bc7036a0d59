"""CI 的分片（tests/shards.py）：每个测试恰好落在一份里，共用准备的测试不被拆开，各份的秒数接近。"""
import ast
import json
import os
import subprocess
import sys

import pytest

import shards
from conftest import ALL_ITEMS, ROOT, visit_key

TEST_FILES = {p.name for p in (ROOT / "tests").glob("test_*.py")}


@pytest.fixture(scope="module")
def table(request):
    """整个测试集的分片表。这次会话收集了全部测试文件时直接用它，否则（只跑了几个文件）另起一次 --collect-only。"""
    by_tier = request.config.stash.get(ALL_ITEMS, {})
    seen = {item.path.name for items in by_tier.values() for item in items}
    if seen >= TEST_FILES:
        return json.loads(json.dumps(shards.plan_table(by_tier, visit_key)))
    out = ROOT / "_build" / "shard-plan.json"
    out.parent.mkdir(exist_ok=True)
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "tests"],
                          cwd=ROOT, capture_output=True, text=True, env={**os.environ, "DSX_SHARD_PLAN": str(out)})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return json.loads(out.read_text(encoding="utf-8"))


def test_every_test_lands_in_exactly_one_shard(table):
    tiers = {row["tier"] for row in table.values()}
    assert tiers == {"unit", "book", "browser", "slow"}, tiers
    assert len({p.split("::")[0].split("/")[-1] for p in table}) == len(TEST_FILES)
    for n in range(1, 5):
        for tier in tiers:
            rows = {k: r for k, r in table.items() if r["tier"] == tier}
            parts = [{k for k, r in rows.items() if r["shards"][str(n)] == i} for i in range(1, n + 1)]
            assert sum(map(len, parts)) == len(rows) and set().union(*parts) == set(rows), (tier, n)
            assert all(parts), f"{tier} 分成 {n} 份时有一份是空的"


def test_a_group_is_never_split(table):
    groups = {}
    for row in table.values():
        groups.setdefault(row["group"], []).append(row["shards"])
    for group, rows in groups.items():
        assert all(r == rows[0] for r in rows), f"组 {group} 被拆到不同的份里"
    colab = {row["group"] for k, row in table.items() if k.startswith("tests/test_colab.py::")}
    assert len(colab) == 1, "test_colab.py 改动 .venv-colab，应整体是一组"
    tree = ast.parse((ROOT / "tests" / "test_seed_robustness.py").read_text(encoding="utf-8"))
    uses_ch09 = {f.name for f in tree.body if isinstance(f, ast.FunctionDef) and "ch09" in [a.arg for a in f.args.args]}
    ch09 = {row["group"] for k, row in table.items()
            if k.startswith("tests/test_seed_robustness.py::") and k.split("::")[1].split("[")[0] in uses_ch09}
    assert len(uses_ch09) >= 3 and len(ch09) == 1, "用同一个模块级夹具（ch09）的测试应在同一组"
    assert len(groups) > 100, "几乎所有测试都并成了一组：分组规则把不相干的测试连在了一起"


def test_shards_are_balanced_by_measured_seconds(table):
    """贪心分配（最重的组先放进最轻的一份）的保证：最重的一份不超过平均值加最重的一组。"""
    durations = shards.load_durations()
    for tier in ("browser", "slow"):
        rows = {k: r for k, r in table.items() if r["tier"] == tier}
        known = [durations[k] for k in rows if k in durations]
        # 没量过的测试按中位数算（刚加的一章、一道练习的测试可以先没量过）；大多数要量过
        unmeasured = sorted(k for k in rows if k not in durations)
        assert len(known) >= 0.9 * len(rows), (f"{tier} 层太多测试没有量过秒数（分片按 tests/durations.json 的秒数分配）："
                                               f"用 DSX_RECORD_DURATIONS=1 .venv/bin/pytest <测试> 量一次：{unmeasured[:10]}")
        default = sorted(known)[len(known) // 2]
        weight = {}
        for k, r in rows.items():
            weight[r["group"]] = weight.get(r["group"], 0) + durations.get(k, default)
        for n in (2, 3):
            loads = [0.0] * n
            for k, r in rows.items():
                loads[r["shards"][str(n)] - 1] += durations.get(k, default)
            assert max(loads) <= sum(loads) / n + max(weight.values()) + 1e-6, (tier, n, loads)


def test_durations_name_only_tests_that_exist(table):
    """tests/durations.json 里没有已经删掉或改了名的测试（过时的秒数不再参与分配，只会误导下一个读它的人）。"""
    stale = sorted(set(shards.load_durations()) - set(table))
    assert not stale, f"tests/durations.json 里这些测试已经不存在，删掉它们：{stale[:10]}"


def test_the_scheduler_sends_a_group_as_one_unit(tmp_path, monkeypatch):
    """-n 2 --dist loadgroup：调度器把同组的测试当作一个工作单元（同一个进程），其余测试各自一个单元。
    （pytest-xdist 自带的 loadgroup 在 pytest 9 上不分组，所以 conftest 换上了 shards.group_scheduler。）"""
    pytest.importorskip("xdist")
    table = tmp_path / "groups.json"
    table.write_text(json.dumps({"tests/a.py::x[1]": "g-a", "tests/a.py::y": "g-a"}), encoding="utf-8")
    monkeypatch.setenv(shards.GROUPS_ENV, str(table))
    cls = shards.scheduler_class()
    scheduler = cls.__new__(cls)              # 只用它的分组规则，不连接进程
    assert scheduler._split_scope("tests/a.py::x[1]") == scheduler._split_scope("tests/a.py::y") == "g-a"
    assert scheduler._split_scope("tests/a.py::z") == "tests/a.py::z"


def test_assign_puts_each_group_on_the_lightest_shard():
    plan = shards.assign([("a", 5), ("b", 4), ("c", 3), ("d", 3), ("e", 1)], 2)
    assert plan == {"a": 1, "b": 2, "c": 2, "d": 1, "e": 2}
    assert shards.assign([("x", 1)], 3) == {"x": 1}


@pytest.mark.parametrize("text", ["0/2", "3/2", "1", "a/b", "1/0"])
def test_parse_shard_rejects_bad_input(text):
    with pytest.raises(ValueError, match="i"):
        shards.parse_shard(text)
