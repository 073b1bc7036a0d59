"""把一层的测试按「组」分成 N 份（CI 的分片作业，make ci-browser SHARD=i/N、make ci-slow SHARD=i/N）。

组：共用一次昂贵准备的测试（同一次页面访问 visited、同一个模块级夹具、同一个会被改动的环境）必须留在一起，
否则每一份都要把准备重做一遍。分配按 tests/durations.json 里量到的每个测试的秒数：组按总秒数从大到小，
依次放进目前最轻的一份（结果只取决于测试与秒数，所以每次、每台机器都一样）。没量过的测试按那一层量过的中位数算。
重新量：DSX_RECORD_DURATIONS=1 跑一层，结束时把这一层每个测试的秒数写回 tests/durations.json。
"""
import json
import statistics
from pathlib import Path

DURATIONS = Path(__file__).with_name("durations.json")
# 会改动共用环境的文件：整个文件是一组（test_colab.py 在 .venv-colab 里卸载、安装 dsx_util，两个进程同时做会互相踩）
WHOLE_FILE = {"test_colab.py": "colab-venv"}


def load_durations():
    return json.loads(DURATIONS.read_text(encoding="utf-8")) if DURATIONS.exists() else {}


def plain_nodeid(nodeid):
    """pytest-xdist 的 --dist loadgroup 在 nodeid 后面加「@组名」；记时间与查时间都用原来的 nodeid。"""
    return nodeid.split("@", 1)[0]


def shared_keys(item, visit_key):
    """这个测试和别的测试共用的昂贵准备：页面访问、测试文件里定义的模块级/类级/会话级夹具、整个文件。"""
    keys = []
    module = item.path.name
    if module in WHOLE_FILE:
        keys.append("file:" + WHOLE_FILE[module])
    for mark in item.iter_markers("xdist_group"):
        keys.append("mark:" + str(mark.args[0] if mark.args else mark.kwargs.get("name", "default")))
    visit = visit_key(item)
    if visit is not None:
        keys.append("visit:" + "|".join(map(str, visit)))
    info = getattr(item, "_fixtureinfo", None)
    for name, defs in (info.name2fixturedefs.items() if info else ()):
        fixdef = defs[-1]
        where = str(getattr(fixdef, "baseid", ""))
        if fixdef.scope in ("module", "class", "package", "session") and "test_" in where.split("/")[-1]:
            keys.append(f"fixture:{module}:{name}")
    return keys


def groups_of(items, visit_key):
    """把 items 分成组（并查集：共用任何一个键的测试在同一组）。返回 [[item, ...], ...]，按第一个测试的 nodeid 排序。"""
    parent = list(range(len(items)))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner = {}
    for i, item in enumerate(items):
        for key in shared_keys(item, visit_key):
            if key in owner:
                parent[find(i)] = find(owner[key])
            else:
                owner[key] = i
    groups = {}
    for i, item in enumerate(items):
        groups.setdefault(find(i), []).append(item)
    return sorted(groups.values(), key=lambda g: g[0].nodeid)


def group_name(group):
    """组名：组里第一个测试的 nodeid。"""
    return "g-" + group[0].nodeid


GROUPS_ENV = "DSX_XDIST_GROUPS"


def write_groups(path, by_tier, visit_key):
    """{nodeid: 组名}（只写多于一个测试的组）；两个进程写的内容相同，先写临时文件再换名，不会读到半个文件。"""
    import os
    table = {item.nodeid: group_name(group)
             for items in by_tier.values() for group in groups_of(items, visit_key) if len(group) > 1
             for item in group}
    tmp = f"{path}.{os.getpid()}"
    Path(tmp).write_text(json.dumps(table), encoding="utf-8")
    os.replace(tmp, path)


def scheduler_class():
    """pytest-xdist 的按范围调度，范围 = 组：同组的测试作为一个工作单元交给同一个进程，其余测试各自一个单元。
    组表由各进程在收集时写进 $DSX_XDIST_GROUPS（write_groups），主进程第一次分配时读入。"""
    import os
    from xdist.scheduler import LoadScopeScheduling

    class GroupScheduling(LoadScopeScheduling):
        table = None

        def _split_scope(self, nodeid):
            if self.table is None:
                text = Path(os.environ[GROUPS_ENV]).read_text(encoding="utf-8")
                self.table = json.loads(text) if text else {}
            return self.table.get(nodeid, nodeid)

    return GroupScheduling


def group_scheduler(config, log):
    return scheduler_class()(config, log)


def assign(weights, n):
    """weights：[(名字, 秒数)]。返回 {名字: 第几份（1..n）}：从最重的组起，每组放进目前最轻的一份（同样轻取编号小的）。"""
    loads = [0.0] * n
    plan = {}
    for name, seconds in sorted(weights, key=lambda w: (-w[1], w[0])):
        k = min(range(n), key=lambda j: (loads[j], j))
        loads[k] += seconds
        plan[name] = k + 1
    return plan


def plan_shards(items, n, visit_key, durations=None):
    """{nodeid: 第几份}：items 是同一层的测试。"""
    durations = load_durations() if durations is None else durations
    known = [durations[i.nodeid] for i in items if i.nodeid in durations]
    default = statistics.median(known) if known else 1.0
    groups = groups_of(items, visit_key)
    weights = [(g[0].nodeid, sum(durations.get(i.nodeid, default) for i in g)) for g in groups]
    by_group = assign(weights, n)
    return {item.nodeid: by_group[g[0].nodeid] for g in groups for item in g}


def parse_shard(text):
    """"2/3" -> (2, 3)；写错时抛出 ValueError，说明正确写法。"""
    try:
        i, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise ValueError(f"--shard 的写法是 i/N（如 1/2），收到的是 {text!r}") from None
    if not 1 <= i <= n:
        raise ValueError(f"--shard {text}：i 应在 1 到 N 之间")
    return i, n


class DurationRecorder:
    """DSX_RECORD_DURATIONS=1 时记下每个测试（准备 + 运行 + 收尾）的秒数，会话结束时合并进 tests/durations.json。"""
    def __init__(self):
        self.seconds = {}

    def add(self, report):
        nodeid = plain_nodeid(report.nodeid)
        self.seconds[nodeid] = self.seconds.get(nodeid, 0.0) + report.duration

    def save(self):
        if not self.seconds:
            return
        merged = load_durations()
        merged.update({k: round(v, 2) for k, v in self.seconds.items()})
        DURATIONS.write_text(json.dumps(dict(sorted(merged.items())), ensure_ascii=False, indent=0) + "\n",
                             encoding="utf-8")


def plan_table(by_tier, visit_key, durations=None, most=4):
    """{nodeid: {"tier", "group", "shards": {N: 第几份}}}，N = 1..most；tests/test_shards.py 检查它。"""
    durations = load_durations() if durations is None else durations
    table = {}
    for tier, items in by_tier.items():
        for group in groups_of(items, visit_key):
            for item in group:
                table[item.nodeid] = {"tier": tier, "group": group[0].nodeid, "shards": {}}
        for n in range(1, most + 1):
            for nodeid, k in plan_shards(items, n, visit_key, durations).items():
                table[nodeid]["shards"][n] = k
    return table


def write_plan(path, by_tier, visit_key):
    Path(path).write_text(json.dumps(plan_table(by_tier, visit_key), ensure_ascii=False), encoding="utf-8")
