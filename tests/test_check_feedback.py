"""学习者读到的反馈全是中文：英文错误代码只在 result.codes 里；异常带着出错的行和中文引导语；
尚未作答是中性的灰色状态，不是红色的失败。"""
import html
import re

import pytest

import test_check_layer_norm as ln_tests
import test_check_steps as step_tests
from dsx_util.exercises.items.ch03_mean_var import mistakes as stats_mistakes
from dsx_util.exercises.items.ch05_layer_norm import mistakes as ln_mistakes
from dsx_util.exercises.items.ch07_batch_norm import mistakes as bn_mistakes
from dsx_util.exercises.items.ch08_rms_norm import mistakes as rms_mistakes
from dsx_util.exercises.feedback import CheckResult, finish
from dsx_util.exercises.items.ch07_batch_norm.check import CODES as BATCH_NORM_CODES, check_batch_norm
from dsx_util.exercises.items.ch05_layer_norm.check import CODES as LAYER_NORM_CODES, check_layer_norm
from dsx_util.exercises.items.ch08_rms_norm.check import CODES as RMS_NORM_CODES, check_rms_norm
from dsx_util.exercises.items.ch03_mean_var.check import CODES as MEAN_VAR_CODES, check_mean_var

ALL_CODES = {"not_done", "raised", "timeout", "wrong_output"} | set(LAYER_NORM_CODES) | set(RMS_NORM_CODES) | set(BATCH_NORM_CODES) \
    | set(MEAN_VAR_CODES) | {"check_failed"}
CJK = re.compile(r"[\u4e00-\u9fff]")
EXCEPTION_NAME = re.compile(r"\b[A-Z]\w*(Error|Exception|Interrupt)\b")
LEAD_IN = "Python 的报错是 "


def cases():
    for code, impl in ln_tests.FAULTY.items():
        yield f"ln-{code}", check_layer_norm, impl
    for kind, prefix in (("rms_norm", "rms"), ("batch_norm", "bn"), ("mean_var", "stats")):
        check = step_tests.CATALOGUED[kind][0]
        for code, impl in step_tests.faulty(kind).items():
            yield f"{prefix}-{code}", check, impl
    for table, check in ((step_tests.NOVEL_LN, check_layer_norm), (step_tests.NOVEL_RMS, check_rms_norm),
                         (step_tests.NOVEL_BN, check_batch_norm), (step_tests.NOVEL_STATS, check_mean_var)):
        for name, (impl, _, _) in table.items():
            yield f"novel-{check.__name__}-{name}", check, impl


CASES = list(cases())


def visible_text(markup):
    """HTML 里读者看得见的文字（去掉标签与属性）。"""
    return html.unescape(re.sub(r"<[^>]+>", " ", markup))


@pytest.mark.parametrize("name, check, impl", CASES, ids=[c[0] for c in CASES])
def test_every_feedback_line_is_chinese(name, check, impl):
    r = check(impl, timeout=0.5 if name.endswith("-timeout") else 1.0, show=False)   # 死循环只等 0.5 秒
    assert not r.passed
    shown = [r.text(), visible_text(r._repr_html_())] + r.messages
    for text in shown:
        words = set(re.findall(r"[a-z_]+", text))
        leaked = {c for c in ALL_CODES if "_" in c or c in ("raised", "timeout")} & words
        assert not leaked, f"反馈里出现了英文错误代码 {leaked}：{text}"
    for msg in r.messages:
        assert CJK.search(msg), msg
        assert "\n" not in msg, msg
        for m in EXCEPTION_NAME.finditer(msg):
            before = msg[:m.start()]
            if before.endswith("raise "):   # 引用模板里的代码 raise NotImplementedError，不是报错
                continue
            assert before.endswith(LEAD_IN) and CJK.search(before), f"异常名前没有中文引导语：{msg}"


def test_exception_is_shown_with_its_line_and_a_chinese_lead_in():
    class Broken(ln_mistakes.GoodLN):
        def forward(self, x):
            scaled = x * 2
            return scaled / self.missing_attribute

    r = check_layer_norm(Broken, show=False)
    (msg,) = r.messages
    assert r.codes == ["raised"]
    assert re.search(r"你的代码.*第 \d+ 行（`return scaled / self.missing_attribute`）出错[，：].*Python 的报错是 "
                     r"AttributeError：", msg), msg
    assert "没有 missing_attribute" in msg   # 中文先说出缺的是哪个属性


def test_not_done_is_neutral_grey_not_a_red_failure():
    r = finish("练习 5.1", [("not_done", "尚未作答：模板里的 raise NotImplementedError 还在。")], show=False)
    assert r.state == "not_done" and not r.passed
    markup = r._repr_html_()
    assert 'data-state="not_done"' in markup and "✗" not in markup and "发现" not in markup
    assert "text-muted" in markup and "danger" not in markup and "#b3261e" not in markup
    assert r.text().startswith("○ 练习 5.1：尚未作答")
    assert "not_done" not in visible_text(markup) and "not_done" not in r.text()
    failed = CheckResult("练习 5.1", False, ["raised"], ["出错了"])._repr_html_()
    assert failed.count("danger") >= 1 and 'data-state="failed"' in failed


@pytest.mark.parametrize("check, template", [
    (check_layer_norm, ln_mistakes.Template), (check_rms_norm, rms_mistakes.Template),
    (check_batch_norm, bn_mistakes.Template), (check_mean_var, stats_mistakes.template)])
def test_checkers_report_an_unanswered_template_as_not_done(check, template):
    r = check(template, show=False)
    assert r.codes == ["not_done"] and r.state == "not_done"
    assert r.messages[0].startswith("尚未作答：")


def test_numbers_in_sentences_use_times_ten_notation():
    from dsx_util.exercises.feedback import fmt_num
    assert fmt_num(1.2e6) == "1.2×10⁶" and fmt_num(1e-5) == "1×10⁻⁵" and fmt_num(-3.4e-2) == "-0.034"
    assert fmt_num(12345.6) == "12346" and fmt_num(0.93541) == "0.9354"
    r = check_layer_norm(ln_mistakes.SinglePass, show=False)
    assert "10⁴" in r.messages[0] and "1e4" not in r.messages[0]


def test_batch_norm_feedback_uses_book_notation():
    for impl in step_tests.faulty("batch_norm").values():
        for msg in check_batch_norm(impl, timeout=1.0, show=False).messages:
            assert "批次" not in msg and "N =" not in msg and "通道" not in msg, msg

