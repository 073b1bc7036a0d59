"""检查器的变异测试：把每道练习的参考答案按学习者常犯的小错改一处（见 tests/mutation.py），检查器必须不让它通过。

改了之后行为不变的（“等价变异体”）列在 EQUIVALENT 里，每个一句理由；这个清单本身也被测试：
里面的每一条都必须真的存在、真的通过检查（不然就是过时的豁免）。
"""
import pytest

from dsx_util.exercises.catalog import EXERCISES
from mutation import mutants, run_checker

# 等价变异体，按变异体本身记（Mutant.key：练习 id、算子、变异后与原来不同的那几行），不记行号：
# 参考答案别处改动时条目照样对得上；被改的那一行本身变了，条目就对不上任何变异体，test_the_equivalent_list_is_honest 指出它。
EQUIVALENT = {
    ("ch02-relu", "比较松紧", "return [v if v >= 0 else 0.0 for v in values]"):
        "v 为 0 时返回的是 v 本身（0.0），与 0.0 相同",
    ("ch04-identity-params", "×→÷", "gamma = torch.sqrt(var + eps) / torch.ones_like(x)"): "乘以 1 与除以 1 相同",
    ("ch04-identity-params", "×→÷", "beta = mean / torch.ones_like(x)"): "乘以 1 与除以 1 相同",
    ("ch04-layer-norm-rows", "两边对调", "var = sum(((mu - v) ** 2 for v in row)) / h"): "在平方里：(μ − v)² = (v − μ)²",
    ("ch06-mean-var-list", "两边对调", "squares = sum(((mean - v) ** 2 for v in values))"): "在平方里：(μ − v)² = (v − μ)²",
    ("ch07-batch-norm-lists", "两边对调", "var = sum(((mu - v) ** 2 for v in col)) / len(col)"):
        "在平方里：(μ − v)² = (v − μ)²",
    ("ch11-stable-var-list", "两边对调", "return sum(((mean - v) ** 2 for v in values)) / len(values)"):
        "在平方里：(μ − v)² = (v − μ)²",
    ("ch07-batchnorm-axis", "keepdim 取反", "mean = x.mean(dim=0, keepdim=False)"):
        "沿第 0 维归约：形状 (H,) 与 (1, H) 对 [B, H] 的广播结果相同",
    ("ch07-batchnorm-axis", "keepdim 取反", "var = x.var(dim=0, keepdim=False, unbiased=False)"):
        "沿第 0 维归约：形状 (H,) 与 (1, H) 对 [B, H] 的广播结果相同",
    ("ch08-rms-norm-list", "zip 的参数对调", "return [g * v / rms for v, g in zip(gamma, values)]"):
        "两个名字只在乘积 g * v 里一起出现，乘法可交换",
    ("ch10-layer-norm-backward", "两边对调", "x_hat = (mean - x) / std"):
        "x̂ 变号，投影项 x̂·mean(g·x̂) 里两次变号抵消，梯度不变",
    ("ch12-qk-norm-scores", "位置参数对调", "return q_hat @ k_hat.transpose(-1, -2) / d ** 0.5"):
        "交换同样两个维度，transpose(-2, -1) 与 transpose(-1, -2) 是同一个转置",
}

@pytest.fixture(scope="module")
def everything():
    """[(练习, 变异体)]：每道练习的参考答案的全部变异体（在用到的进程里生成一次，不在收集时生成）。"""
    return [(ex, m) for ex in EXERCISES for m in mutants(ex.id, ex.solution)]


@pytest.fixture(scope="module")
def verdicts(everything):
    """变异体（Mutant.key） -> 检查结果。"""
    return {_key(m): run_checker(ex, m.source) for ex, m in everything}


def _key(m):
    return m.key


def stale_entries(equivalent, verdicts):
    """豁免清单里对不上任何变异体、或变异体其实被检查器发现了的条目（过时的豁免）。"""
    return sorted(key for key in equivalent if key not in verdicts or not verdicts[key].passed)


def test_every_solution_has_mutants_of_the_slips_learners_make(everything):
    per_exercise = {ex.id: sum(1 for e, _ in everything if e is ex) for ex in EXERCISES}
    assert min(per_exercise.values()) >= 2, per_exercise
    operators = {m.operator for _, m in everything}
    for op in ("维度 −1↔0", "keepdim 取反", "unbiased 取反", "去掉 ε", "ε 挪到根号外", "少开平方", "mean↔sum",
               "+→−", "−→+", "×→÷", "÷→×", "两边对调", "忽略参数 eps", "漏掉一条语句", "norm1→norm2"):
        assert op in operators, op
    assert len(everything) >= 250


@pytest.mark.parametrize("ex", EXERCISES, ids=lambda ex: ex.id)
def test_behaviour_changing_mutants_fail_the_checker(ex, everything, verdicts):
    survivors = [m for e, m in everything if e is ex and verdicts[_key(m)].passed and _key(m) not in EQUIVALENT]
    assert not survivors, "\n".join(f"{m.operator}（第 {m.line} 行）：{m.before} → {m.after}" for m in survivors)


def test_the_equivalent_list_is_honest(everything, verdicts):
    """豁免清单里的每一条都真的存在、真的通过（行为确实不变）；没有过时的条目。每个变异体的记法是唯一的。"""
    assert len(verdicts) == len(everything)   # Mutant.key 不会把两个变异体记成一个
    assert stale_entries(EQUIVALENT, verdicts) == []
    assert all(reason.strip() for reason in EQUIVALENT.values())


def test_a_stale_entry_is_caught(verdicts):
    """参考答案里被改的那一行变了（这里：条目写的是旧的写法），条目就对不上任何变异体，上面的测试会失败；
    把一个被检查器发现的变异体写进清单，同样会被指出。"""
    relu = ("ch02-relu", "比较松紧", "return [v if v >= 0 else 0.0 for v in old_values]")
    killed = next(key for key, r in verdicts.items() if not r.passed)
    planted = {**EQUIVALENT, relu: "旧写法", killed: "其实不等价"}
    assert stale_entries(planted, verdicts) == sorted([relu, killed])


def test_killed_mutants_get_a_chinese_message_without_code_tags(verdicts):
    for key, r in verdicts.items():
        if r.passed:
            continue
        assert r.messages and all(any("\u4e00" <= ch <= "\u9fff" for ch in m) for m in r.messages), (key, r.text())
        assert not any(code in m for code in r.codes for m in r.messages if code != "raised"), (key, r.text())
        assert r.text().startswith(("✗", "○")), r.text()


def test_summary(verdicts, capsys):
    """在测试输出里留下一行数字：变异体总数、被检查器发现的、判为等价的。"""
    killed = sum(1 for r in verdicts.values() if not r.passed)
    with capsys.disabled():
        print(f"\n变异测试：{len(verdicts)} 个变异体，{killed} 个被检查器发现")
    with capsys.disabled():
        print(f"（判为等价的 {len(EQUIVALENT)} 个，理由见 EQUIVALENT）")
    assert killed + len(EQUIVALENT) == len(verdicts)
