"""docs/rules.md, the project's rule book, stays complete: every rule ID the code can report
is defined there exactly once, every section it cites is a listed D3D11.3 section, and every
op, option, variant and rule set the model offers is documented.

The IDs are collected three ways, so an ID that exists only in code cannot slip through:
the tables (engine.rules.RULES, convert_rules.RULE_TEXT, tolerance rows, options, formats),
every string and comment of the package source, and the ``fired`` keys and explanation
sentences of evaluate / convert / rounding_anatomy run over special and random inputs for
every op, format, rule set, option value and variant.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import numpy as np
import pytest

from fpinspector.model import FORMATS, OPS, RULE_SETS, VARIANTS, convert, evaluate, rounding_anatomy
from fpinspector.model.convert import OPTIONS as CONVERT_OPTIONS
from fpinspector.model.convert.rules import RULE_TEXT
from fpinspector.model.engine.rules import RULES, arithmetic_gap
from fpinspector.model.engine.tolerances import OPTIONS, TOLERANCES

ROOT = Path(__file__).resolve().parents[2]
BOOK_PATH = ROOT / "docs" / "rules.md"
BOOK = BOOK_PATH.read_text(encoding="utf-8")

#: The convention documented at the top of docs/rules.md: a rule is a level-3 heading that
#: is exactly its ID.
RULE_HEADING = re.compile(r"^### (\S.*)$", re.M)
RULE_ID = re.compile(r"[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+")
#: An ID-shaped word inside prose or code text (each dash-part starts with a letter, so
#: "IEEE 754-2008" or "0x7FC00000" never match).
ID_IN_TEXT = re.compile(r"(?<![A-Za-z0-9_.-])[A-Z][A-Z0-9]*(?:-[A-Z][A-Z0-9]*)+(?![A-Za-z0-9_-])")
#: ID-shaped strings in the package that are not rule IDs.
NOT_RULE_IDS = {
    "CET-D1": "the name of a pyqtgraph colour map (ui/error_map.py)",
    "NON-CONFORMANT": "a verdict label of the error map tooltip (ui/error_map.py)",
}
SECTION = re.compile(r"§(\d+(?:\.\d+)*)")


def _section(title: str) -> str:
    """The text of the level-2 section ``title`` of the rule book."""
    m = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", BOOK, re.M | re.S)
    assert m, f"docs/rules.md has no section '## {title}'"
    return m.group(1)


def _table_rows(text: str) -> list[list[str]]:
    """Cells of every Markdown table row in ``text`` (header and rule lines skipped)."""
    rows = []
    for line in text.splitlines():
        if not line.startswith("|") or set(line) <= set("|-: "):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        rows.append(cells)
    return rows


def _defined() -> list[str]:
    return RULE_HEADING.findall(BOOK)


DEFINED = set(_defined())
DEVIATION_ROWS = {row[0].strip("`"): row[1] for row in _table_rows(_section("Driver deviation IDs"))
                  if row[0].startswith("`")}


def _undefined(ids) -> list[str]:
    return sorted(set(ids) - DEFINED)


# --------------------------------------------------------------------------------------
# the book's own shape


def test_every_level3_heading_is_exactly_one_rule_id():
    """The machine-readable convention: '### ID' and nothing else on level 3."""
    bad = [h for h in _defined() if not RULE_ID.fullmatch(h)]
    assert not bad, f"level-3 headings that are not a bare rule ID: {bad}"
    assert len(DEFINED) > 60


def test_every_rule_id_is_defined_once():
    ids = _defined()
    dup = sorted({i for i in ids if ids.count(i) > 1})
    assert not dup, f"rule IDs defined more than once in docs/rules.md: {dup}"


def test_every_rule_has_a_statement_what_is_shown_and_a_source():
    """Each '### ID' block states the rule, says what the tool shows, and cites a source."""
    blocks = re.split(r"^### ", BOOK, flags=re.M)[1:]
    for block in blocks:
        rid, body = block.split("\n", 1)
        body = re.split(r"^## ", body, flags=re.M)[0]
        assert "**Shown**" in body, f"{rid}: no **Shown** paragraph"
        assert "**Source**" in body, f"{rid}: no **Source** paragraph"
        statement = body.split("**Shown**")[0].strip()
        assert len(statement) > 25, f"{rid}: no statement before **Shown**"


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes."""
    s = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return s.replace(" ", "-")


def test_in_page_links_resolve():
    """Every '(#anchor)' link in the rule book (the index included) names a heading."""
    anchors = {_slug(h) for h in re.findall(r"^#{2,4} (.+)$", BOOK, re.M)}
    links = set(re.findall(r"\]\(#([^)]+)\)", BOOK))
    assert links, "no in-page links found"
    assert not sorted(links - anchors), sorted(links - anchors)


def test_index_lists_every_group_and_every_rule():
    """The index at the top links every level-2 section and names every rule ID."""
    index = _section("Index")
    groups = [h for h in re.findall(r"^## (.+)$", BOOK, re.M) if h != "Index"]
    for g in groups:
        assert f"(#{_slug(g)})" in index, f"index does not link '## {g}'"
    named = set(RULE_ID.findall(index))
    assert not sorted(DEFINED - named), f"rules missing from the index: {sorted(DEFINED - named)}"


# --------------------------------------------------------------------------------------
# (1) every ID the code can report is defined


def test_tables_of_the_code_are_defined():
    """Engine rule table, conversion rule texts, tolerance rows, options and formats."""
    ids = set(RULES) | set(RULE_TEXT)
    ids |= {tol.rule for *_, tol in TOLERANCES}
    ids |= {o.rule for o in OPTIONS.values()}
    ids |= {f.rule_id for f in FORMATS.values()}
    assert not _undefined(ids), _undefined(ids)


def _source_texts():
    """(file, text) of every string constant and comment of the fpinspector package."""
    for path in sorted((ROOT / "fpinspector").rglob("*.py")):
        src = path.read_text(encoding="utf-8")
        rel = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(src)):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                yield rel, node.value
        for tok in tokenize.generate_tokens(io.StringIO(src).readline):
            if tok.type == tokenize.COMMENT:
                yield rel, tok.string


def test_ids_written_anywhere_in_the_code_are_defined():
    """Every ID-shaped word in a string or comment of the package is a rule of the book, a
    driver deviation listed in the book (and described in docs/gpu.md), or a known non-ID."""
    unknown: dict[str, str] = {}
    for rel, text in _source_texts():
        for word in ID_IN_TEXT.findall(text):
            if word not in DEFINED and word not in DEVIATION_ROWS and word not in NOT_RULE_IDS:
                unknown.setdefault(word, rel)
    assert not unknown, f"IDs used in code but not defined in docs/rules.md: {unknown}"


_RNG = np.random.default_rng(20240611)

#: Integer ranges of the code operand kinds of the conversion ops.
_CODE_RANGES = {"i32": (-(2**31), 2**31), "u32": (0, 2**32), "unorm8": (0, 256),
                "snorm8": (-128, 128), "unorm16": (0, 65536), "snorm16": (-32768, 32768),
                "srgb8": (0, 256)}


def _float_specials(name: str) -> np.ndarray:
    """Zeros, denormal and normal limits, 1 and its neighbours, INF, quiet and signalling
    NaNs, with both signs where the format has a sign: built from the format's fields."""
    f = FORMATS[name]
    F, top = f.frac_bits, (1 << f.exp_bits) - 1
    bias = top >> 1
    exps = (0, 1, 2, bias - 1, bias, bias + 1, top - 1, top)
    fracs = (0, 1, 2, 1 << (F - 1), (1 << F) - 1, (1 << (F - 1)) | 1)
    pats = {(e << F) | m for e in exps for m in fracs}
    if f.signed:
        pats |= {p | (1 << (f.bits - 1)) for p in pats}
    return np.array(sorted(pats), dtype=np.uint64).astype(f.dtype)


def _operand_pool(kind: str) -> np.ndarray:
    if kind in FORMATS:
        f = FORMATS[kind]
        rand = _RNG.integers(0, 1 << f.bits, 512, dtype=np.uint64).astype(f.dtype)
        return np.concatenate([_float_specials(kind), rand])
    lo, hi = _CODE_RANGES[kind]
    edges = np.array([lo, lo + 1, -1, 0, 1, 2, 3, hi // 2, hi - 2, hi - 1], dtype=np.int64)
    edges = edges[(edges >= lo) & (edges < hi)]
    return np.concatenate([edges, _RNG.integers(lo, hi, 512)])


def _operands(kind: str, arity: int, n: int = 1200) -> list[np.ndarray]:
    """Every pair of specials first (arity 2), then random draws from specials + random."""
    pool = _operand_pool(kind)
    cols = [pool[_RNG.integers(0, len(pool), n)] for _ in range(arity)]
    if arity == 2:
        sp = _float_specials(kind) if kind in FORMATS else pool[:10]
        a, b = np.meshgrid(sp, sp)
        cols = [np.concatenate([a.ravel(), cols[0]]), np.concatenate([b.ravel(), cols[1]])]
    return cols


def _option_sets() -> list[dict | None]:
    """No options, then each option of evaluate at each of its other values."""
    return [None] + [{k: v} for k, o in OPTIONS.items() for v in o.choices if v != o.default]


def _words(lines) -> set[str]:
    return set(ID_IN_TEXT.findall(" ".join(lines)))


def _reported_by(res, steps: bool) -> set[str]:
    """fired keys, rules_at and the ID words of explain_at (and steps_at) at the first
    element of every fired rule."""
    fired = res.fired
    ids = set(fired)
    firsts = {0} | {int(np.flatnonzero(np.asarray(m).reshape(-1))[0]) for m in fired.values()}
    for i in sorted(firsts):
        ids |= set(res.rules_at(i))
        ids |= _words(res.explain_at(i))
        if steps:
            ids |= _words(res.steps_at(i))
    return ids


def _engine_cases():
    for op, spec in OPS.items():
        floats = spec.result in ("same", "bool") or op.startswith("to_f")
        for fmt in (spec.formats if floats else ("f32",)):
            kind = fmt if floats else spec.formats[0]
            for rules in RULE_SETS:
                if spec.family != "conversion" and arithmetic_gap(fmt, rules):
                    continue  # refused with FMT-*'s sentence (test_engine_contract)
                for opts in (_option_sets() if rules == "d3d11" else [None]):
                    yield op, spec.arity, fmt, kind, rules, opts


def test_every_id_evaluate_reports_is_defined():
    """evaluate() over specials and random operands for every op, format, rule set and
    option value: fired rules, rules_at, and IDs named in explanations, readings, steps and
    tolerance texts are all in the book."""
    seen: dict[str, tuple] = {}
    for op, arity, fmt, kind, rules, opts in _engine_cases():
        ev = evaluate(op, *_operands(kind, arity), format=fmt, rules=rules, options=opts)
        ids = _reported_by(ev, steps=True) | _words(ev.readings)
        tol = getattr(ev, "tolerance", None)
        if tol is not None:
            ids |= _words([tol.describe()])
        for i in ids:
            seen.setdefault(i, (op, fmt, rules, opts))
    bad = {i: seen[i] for i in _undefined(seen)}
    assert not bad, f"IDs reported by evaluate() but not defined in docs/rules.md: {bad}"
    # the sample is broad enough to reach the engine's everyday rules
    assert {"F32-FTZ", "F32-NANOUT", "F32-MINMAX-NAN", "F32-FUSED", "IEEE-MINMAX",
            "CONV-F2F-SAT", "CONV-UNSIGNED", "ROUND-NEAREST"} <= set(seen)


def _conversion_options() -> list[dict | None]:
    return [None] + [{k: v} for k, vals in CONVERT_OPTIONS.items() for v in vals]


def test_every_id_convert_and_rounding_anatomy_report_is_defined():
    """convert() for every source/target pair, variant and option value, and
    rounding_anatomy() on values that cross every rounding decision."""
    seen: dict[str, tuple] = {}
    names = ("f64", "f32", "f16", "f11", "f10")
    for src in names:
        bits = _operand_pool(src)
        for dst in names:
            for variant in VARIANTS:
                for opts in _conversion_options():
                    try:
                        res = convert(bits, src, dst, variant, options=opts)
                    except ValueError:  # an option this variant fixes (documented)
                        continue
                    for i in _reported_by(res, steps=False):
                        seen.setdefault(i, (src, dst, variant, opts))
    values = ("1.00146484375", "65520", "1e6", "65280", "1.0234375", "1.9921875", "-1.5",
              "-inf", "inf", "nan", "3.4e38", "1e39", "1e-8", "2e-46", "1e-40", "0.1", "0")
    for variant in VARIANTS:
        for dst in names:
            for v in values:
                a = rounding_anatomy(v, dst, variant)
                for i in set(a.rules) | _words([a.reason, a.text()]):
                    seen.setdefault(i, (v, dst, variant))
    bad = {i: seen[i] for i in _undefined(seen)}
    assert not bad, f"IDs reported by convert()/rounding_anatomy() but not defined: {bad}"
    assert {"CONV-F2F-RTZ", "CONV-DENORM", "VARIANT-QUIRK", "ROUND-NEAREST",
            "CONV-WIDEN", "F11-CLAMP"} <= set(seen)


# --------------------------------------------------------------------------------------
# (2) cited sections look like D3D11.3 sections and are listed with their titles


def _listed_sections() -> dict[str, str]:
    rows = _table_rows(_section("Sources"))
    return {r[0].lstrip("§"): r[1] for r in rows if r[0].startswith("§")}


def test_sources_table_lists_d3d11_3_section_numbers():
    """A sanity check of form: chapters 1-26 of the D3D11.3 functional spec, at most four
    levels deep, each with a title."""
    listed = _listed_sections()
    assert listed
    for num, title in listed.items():
        parts = [int(p) for p in num.split(".")]
        assert 1 <= parts[0] <= 26 and len(parts) <= 4, num
        assert all(p >= 1 for p in parts), num
        assert title, f"§{num} has no title"


def test_every_cited_section_is_in_the_sources_table():
    """Each §N in the book and in the engine's Rule.source strings is a listed section."""
    listed = _listed_sections()
    body = BOOK.replace(_section("Sources"), "")
    cited = set(SECTION.findall(body))
    assert cited, "the rule book cites no section"
    for rule in RULES.values():
        cited |= set(SECTION.findall(rule.source))
    assert not sorted(cited - set(listed)), sorted(cited - set(listed))


def test_rule_sources_point_at_the_rule_book():
    """The engine table cites docs/rules.md, never a file outside the repository."""
    bad = [r.id for r in RULES.values() if not r.source.startswith("docs/rules.md")]
    assert not bad, bad


# --------------------------------------------------------------------------------------
# (3) what the model offers is documented


def test_every_option_is_documented_with_its_default():
    rows = {r[0].strip("`"): r for r in _table_rows(
        _section("Ambiguous points and the options that switch them")) if r[0].startswith("`")}
    for name, opt in OPTIONS.items():
        assert name in rows, f"option {name} is not documented"
        row = rows[name]
        assert row[1].strip("`") == str(opt.default), (name, row[1], opt.default)
        others = {c.strip().strip("`") for c in row[2].split(",")}
        assert others == {str(c) for c in opt.choices if c != opt.default}, (name, row[2])
        assert f"[{opt.rule}]" in row[3] or opt.rule in row[3], (name, row[3])
    for name, values in CONVERT_OPTIONS.items():
        assert name in rows, f"convert option {name} is not documented"
        for v in values:
            assert f"`{v}`" in " ".join(rows[name][1:3]), (name, v)


def test_every_op_variant_and_rule_set_is_documented():
    tolerances = _section("Per-instruction tolerances")
    missing_ops = [op for op in OPS if f"`{op}`" not in tolerances]
    assert not missing_ops, f"ops without a tolerance row: {missing_ops}"
    variants = {r[0].strip("`") for r in _table_rows(_section("Encoder variants"))}
    assert set(VARIANTS) <= variants, set(VARIANTS) - variants
    rule_sets = {r[0].strip("`") for r in _table_rows(_section("Rule sets"))}
    assert set(RULE_SETS) <= rule_sets, set(RULE_SETS) - rule_sets


def test_documents_for_users_never_point_outside_the_repository():
    """README and docs/ link the rule book, not the team's shared notes."""
    texts = {p.name: p.read_text(encoding="utf-8")
             for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]}
    bad = [(name, word) for name, text in texts.items()
           for word in ("RULES.md", "CONVERSIONS.md", "../shared") if word in text]
    assert not bad, bad


def test_code_and_ui_text_never_point_outside_the_repository():
    """Docstrings, messages, UI labels and shipped data name docs/rules.md, never the
    team's files outside the repository."""
    words = ("RULES" + ".md", "CONVERSIONS" + ".md", "../" + "shared")
    bad = []
    for path in sorted((ROOT / "fpinspector").rglob("*")):
        if path.suffix not in (".py", ".json", ".md", ".txt") or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        bad += [(str(path.relative_to(ROOT)), w) for w in words if w in text]
    assert not bad, bad


@pytest.mark.parametrize("deviation", sorted(DEVIATION_ROWS))
def test_deviation_ids_listed_here_are_described_in_gpu_doc(deviation):
    """The book only lists driver deviations; docs/gpu.md describes each one."""
    assert deviation in (ROOT / "docs" / "gpu.md").read_text(encoding="utf-8")
    for rid in RULE_ID.findall(DEVIATION_ROWS[deviation]):
        assert rid in DEFINED, (deviation, rid)
