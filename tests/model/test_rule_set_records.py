"""The engine and the CLI read rule sets as data (issue 37): no code in ``fpinspector/model``
or ``fpinspector/commands`` compares a rule-set name (nor, in ``model/engine`` and
``commands``, a format name); what a rule set does is its record
(engine/rules.py ``RuleSet``), what a format's D3D rules are is its record
(formats ``FloatFormat``).

The second half checks the records against the rule book's own statements, written here
as the names they are about (docs/rules.md "Rule sets" and the option table), for every
format, rule set and option value.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from _name_literals import comparisons_in, name_comparisons

from fpinspector.model.engine import OPTIONS, evaluate
from fpinspector.model.engine.rules import RULE_SET_RECORDS, RULE_SETS, RULES
from fpinspector.model.formats import FORMATS

ROOT = Path(__file__).resolve().parents[2] / "fpinspector"
CHECKED = (ROOT / "model", ROOT / "commands")


def rule_set_name_comparisons(source: str) -> list[str]:
    """Every comparison with a rule-set name literal."""
    return name_comparisons(source, frozenset(RULE_SETS))


def test_the_counter_finds_rule_set_name_comparisons():
    """The check below can fail: it sees each spelling of a rule-set name comparison."""
    src = ('if rules == "d3d11": pass\nif "ieee754" != r: pass\n'
           'if r in ("d3d10", "d3d11"): pass\nif (f, r) == ("f32", "d3d10"): pass\n'
           'x = {"d3d11": 1}\ny = f(rules="d3d11")\nif r == "d3d": pass\n')
    assert len(rule_set_name_comparisons(src)) == 4


def test_no_engine_or_command_module_compares_a_rule_set_name():
    """ISSUE-37: a rule set is one row (RuleSet); the code asks the row, not the name."""
    found = comparisons_in(CHECKED, ROOT, rule_set_name_comparisons)
    assert not found, f"rule-set names compared (read engine/rules.py RuleSet): {found}"


def test_no_engine_or_command_module_compares_a_format_name():
    """ISSUE-37: the engine and the CLI read a format's record (FloatFormat: flushes,
    d3d_div_route, denorm_rule, numpy_float...), never its name; the op table's format
    lists and the tolerance rows are data, not comparisons."""
    found = comparisons_in((ROOT / "model" / "engine", ROOT / "commands"), ROOT,
                           lambda src: name_comparisons(src, frozenset(FORMATS)))
    assert not found, f"format names compared (read the FloatFormat record): {found}"


_D3D = ("d3d11", "d3d10")


def test_rule_set_records_say_what_the_rule_book_says():
    """docs/rules.md "Rule sets": d3d11 and d3d10 are D3D's; ieee754's min/max give NaN for
    a signalling NaN (IEEE-MINMAX), D3D's make no difference (F32-MINMAX-NAN); the divide's
    two-step route is d3d11's (F32-DIV) and an option of d3d10 (F32-DIV-D3D10)."""
    rs = RULE_SET_RECORDS
    assert {n for n, r in rs.items() if r.d3d} == set(_D3D)
    assert {n for n, r in rs.items() if r.minmax_snan} == {"ieee754"}
    for route in (True, False):
        opts = {"d3d10_div_route": route}
        assert rs["d3d11"].takes_div_route(opts)
        assert rs["d3d10"].takes_div_route(opts) is route
        assert not rs["ieee754"].takes_div_route(opts)
    assert set(rs["d3d11"].readings) == {"lenient_d3d11", "fused_step_ulp", "rcp_tolerance"}
    assert rs["d3d10"].readings == ("d3d10_div_route",)
    assert rs["ieee754"].readings == ()


def test_record_options_and_rules_exist():
    """Every option a record names is an engine option; every rule it names is in the
    rule book (docs/rules.md, via engine/rules.py)."""
    for r in RULE_SET_RECORDS.values():
        assert set(r.readings) <= set(OPTIONS)
        if r.div_route and r.div_route != "always":
            assert r.div_route in OPTIONS
    for f in FORMATS.values():
        for rid in (f.denorm_rule, f.minmax_nan_rule):
            assert not rid or rid in RULES, (f.name, rid)
        assert not f.minmax_snan_option or f.minmax_snan_option in OPTIONS


def _book(fmt: str, rules: str, opts: dict) -> dict:
    """What docs/rules.md says, by name: F32-FTZ (f32 under D3D), F32-DIV / F32-DIV-D3D10
    (f32's route), F16-DENORM / F64-DENORM (D3D only), F64-MINMAX-NAN and its option,
    IEEE-MINMAX (ieee754)."""
    return {
        "flush": fmt == "f32" and rules in _D3D,
        "route": fmt == "f32" and (rules == "d3d11"
                                   or (rules == "d3d10" and opts["d3d10_div_route"])),
        "denorm": {"f16": "F16-DENORM", "f64": "F64-DENORM"}.get(fmt, "")
        if rules in _D3D else "",
        "minmax_nan": "F64-MINMAX-NAN" if fmt == "f64" else "F32-MINMAX-NAN",
        "snan": rules == "ieee754" or (fmt == "f64" and opts["f64_minmax_snan"]),
    }


def _records(fmt: str, rules: str, opts: dict) -> dict:
    f, r = FORMATS[fmt], RULE_SET_RECORDS[rules]
    opt = f.minmax_snan_option
    return {
        "flush": f.flushes(rules),
        "route": f.d3d_div_route and r.takes_div_route(opts),
        "denorm": f.denorm_rule if r.d3d and f.d3d_arith else "",
        "minmax_nan": f.minmax_nan_rule,
        "snan": r.minmax_snan or bool(opt and opts[opt]),
    }


@pytest.mark.parametrize("fmt", [f for f in FORMATS if FORMATS[f].d3d_arith or f in
                                 ("bf16", "e5m2", "e4m3")])
def test_records_give_the_rule_books_answer_for_every_rule_set_and_option(fmt):
    """ISSUE-37: for every (format with ops, rule set, option value), the records give what
    the rule book says of the names (F32-FTZ, F32-DIV, F32-DIV-D3D10, F16-DENORM,
    F64-DENORM, F64-MINMAX-NAN, IEEE-MINMAX)."""
    for rules, route, snan in itertools.product(RULE_SETS, (False, True), (False, True)):
        opts = {"d3d10_div_route": route, "f64_minmax_snan": snan}
        assert _records(fmt, rules, opts) == _book(fmt, rules, opts), (fmt, rules, opts)


@pytest.mark.parametrize("rules", RULE_SETS)
def test_engine_fires_the_format_rules_the_records_name(rules):
    """F16-DENORM / F64-DENORM fire on a denormal operand under d3d10/d3d11 only (the rule
    rows read the format's denorm_rule); F64-MINMAX-NAN on f64 min with one NaN."""
    for fmt, den, rid in (("f16", 0x0001, "F16-DENORM"), ("f64", 0x1, "F64-DENORM")):
        ev = evaluate("add", FORMATS[fmt].encode(1.0), den, format=fmt, rules=rules)
        assert (rid in ev.rules_at(0)) is (rules in _D3D), (fmt, rules, ev.rules_at(0))
    nan = 0x7FF8000000000000  # a quiet NaN: F64-MINMAX-NAN under every rule set
    ev = evaluate("min", nan, FORMATS["f64"].encode(2.0), format="f64", rules=rules)
    assert "F64-MINMAX-NAN" in ev.rules_at(0)
    assert "F32-MINMAX-NAN" not in ev.rules_at(0)
