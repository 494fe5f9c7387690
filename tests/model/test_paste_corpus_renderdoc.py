"""RenderDoc's clipboard and CSV text (rebuilt from RenderDoc's own formatting code by
``scripts/renderdoc_paste_corpus.py``) reads as a user expects: the same patterns, widths
and count, or, only where the text holds no float, a refusal that names what it did not
understand. Index columns (Element, VTX, IDX), byte offsets, types and names never become
values; decimals RenderDoc rounded to 5 places read as the nearest pattern in the format
and say they are not bit-exact. Behaviour: issue 33 class 4 (RenderDoc)."""

from __future__ import annotations

import json
import re
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from fpinspector.model.parse import ParseError, parse
from fpinspector.model.parse.renderdoc_text import renderdoc_integers

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "data" / "paste_corpus" / "renderdoc"
CASES = sorted(CORPUS.glob("*.json"))


def _load(path: Path) -> dict:
    return json.loads(path.read_text())


def test_corpus_is_large_and_well_formed() -> None:
    assert len(CASES) >= 60
    for path in CASES:
        case = _load(path)
        assert case["tool"] == "renderdoc" and case["tool_version"] and case["command"]
        assert case["text"].strip()
        exp = case["expect"]
        assert exp.get("refused") is True and exp["why"] or (
            exp.get("codes") is True and exp["format"] in ("i32", "u32") and exp["bits"]) or (
            len(exp["bits"]) == len(exp["formats"]) > 0), path.name


def test_corpus_matches_its_generator() -> None:
    """The committed files are what the generator writes (no hand edits, no drift)."""
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "renderdoc_paste_corpus.py"),
                          "--check"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_renderdoc_text_reads_as_expected(path: Path) -> None:
    case = _load(path)
    exp = case["expect"]
    text = case["text"]
    if exp.get("offered_only"):  # a row of uint cells: no RenderDoc mark, codes offered
        from fpinspector.model.state.paste import readings
        want = tuple(zip(exp["formats"], exp["bits"]))
        found = readings(text)
        assert "RenderDoc" in found[0].label and want in [r.items for r in found]
        return
    if exp.get("codes"):  # int/uint cells only: no float, the integer codes offered
        with pytest.raises(ParseError):
            parse(text, format=case.get("format_arg"))
        assert renderdoc_integers(text) == list(zip(exp["formats"], exp["bits"]))
        return
    if exp.get("refused"):
        with pytest.raises(ParseError) as info:
            parse(text, format=case.get("format_arg"))
        reason = info.value.reason
        quoted = re.findall(r"'([^']+)'", reason)
        assert quoted and all(q in text for q in quoted), reason  # names what it saw
        return
    got = parse(text, format=case.get("format_arg"))
    assert [(v.format, v.bits) for v in got] == list(zip(exp["formats"], exp["bits"]))
    # int/uint cells are never floats: they are the integer codes, signed as RenderDoc
    # prints them (an int with a space where its sign would be)
    assert renderdoc_integers(text) == [tuple(c) for c in exp.get("integer_codes", [])]
    lossy = [v for v in got if v.kind == "decimal" or "nan" in v.text.lower()]
    assert all("not bit-exact" in v.note for v in lossy)  # RenderDoc rounded or lost it
    assert all(not v.note for v in got if v.kind == "hex" or "inf" in v.text.lower())
    if not exp["exact"]:
        assert lossy


def test_index_columns_are_labels() -> None:
    """A Ctrl+C row: Element / VTX / IDX are labels of the values, never values."""
    got = parse("12 7  1.00 -2.50")
    assert [v.bits for v in got] == [0x3F800000, 0xC0200000]
    assert got[0].label.startswith("VTX 12 IDX 7")


def test_paste_message_says_renderdoc_decimals_are_not_bit_exact() -> None:
    """The paste names the loss: RenderDoc printed 5 decimals, so 0.33333 is the nearest
    f32 to that text, not the pattern the buffer held (issue 33)."""
    from fpinspector.model.state.paste import readings

    label = readings("3  0.33333  1.00")[0].label
    assert "not bit-exact" in label and "5 decimals" in label
    assert "not bit-exact" not in readings("3 3F800000 40000000")[0].label  # hex is exact


def test_header_less_row_needs_renderdoc_shape() -> None:
    """Hand-typed lists are not RenderDoc rows: '2 3.5' keeps both values (no sign space,
    one decimal), and so does '0 1.00' typed with one space."""
    assert [v.value for v in parse("2 3.5")] == [2.0, 3.5]
    assert [v.value for v in parse("0 1.00")] == [0.0, 1.0]


def test_mutated_renderdoc_text_never_crashes() -> None:
    """Cut, doubled or altered RenderDoc text gives values or a ParseError, never another
    exception, and every span stays inside the text (hostile-input rule)."""
    import random

    rng = random.Random(33)
    alphabet = "0123456789ABCDEF .,-\n\"{}[]E+xNaIFR"
    for path in CASES:
        base = _load(path)["text"]
        for _ in range(15):
            s = base
            for _ in range(rng.randint(1, 3)):
                i = rng.randrange(len(s) + 1)
                r = rng.random()
                s = (s[:i] + rng.choice(alphabet) + s[i:] if r < 0.4 else
                     s[:i] + s[i + 1:] if r < 0.7 else s[:i] + s[i:i + 20] + s[i:])
            for fmt in (None, "f16", "f11"):
                try:
                    vals = parse(s, format=fmt)
                except ParseError as exc:
                    assert 0 <= exc.index <= len(s)
                    continue
                assert all(0 <= v.start <= v.end <= len(s) for v in vals)


def test_integer_columns_are_left_out_and_types_set_widths() -> None:
    """int/uint cells are not floats (RenderDoc prints every float with a '.', an 'E' or as
    NaN/INF), so they are left out; a constant buffer's Type column sets the width."""
    row = parse("4  1.00 7 -3  2.00")  # Element 4, float, uint 7, int -3, float
    assert [(v.format, v.bits) for v in row] == [("f32", 0x3F800000), ("f32", 0x40000000)]
    cb = parse('Name,Value,Byte Offset,Type\nd,"0.33333",0,double\nn,"5, 6",8,uint2\n'
               'h,"0.33325",16,half\n')
    f64_bits = struct.unpack("<Q", struct.pack("<d", 0.33333))[0]  # Python: correctly rounded
    f16_bits = struct.unpack("<H", struct.pack("<e", 0.33325))[0]
    assert [(v.format, v.bits) for v in cb] == [("f64", f64_bits), ("f16", f16_bits)]
    assert "0.33333" == cb[0].text and cb[0].label == "d"


def _real_views() -> dict:
    sys.path.insert(0, str(ROOT / "scripts"))
    import renderdoc_capture_real as real
    import renderdoc_paste_corpus as gen

    col = gen.Column
    views = {
        "mesh_vsin": [col("pos", "f32", 4), col("uv", "f32", 2)],
        "buffer_xint_float_half2": [col("bits", "xint"), col("f", "f32"), col("h", "f16", 2)],
        "buffer_float4": [col("v", "f32", 4)],
        "buffer_xint4": [col("v", "xint", 4)],
        "buffer_half4": [col("h", "f16", 4)],
        "buffer_double2": [col("d", "f64", 2)],
        "buffer_float2x2": [col("m", "f32", 2, 2)],
        "buffer_int2_uint": [col("i", "int", 2), col("u", "uint")],
        "buffer_uint2": [col("u", "uint", 2)],
    }
    fields = {name: f for name, _, _, f, *_ in real.VIEWS}
    return {"gen": gen, "real": real, "views": views, "fields": fields}


REAL = sorted(CORPUS.glob("real_*.json"))


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.stem)
def test_generator_reproduces_real_qrenderdoc_text(path: Path) -> None:
    """The rebuilt corpus is trustworthy: for the same bytes, the generator's model of
    RenderDoc's Formatter / BufferViewer / RDTableView gives exactly the text qrenderdoc 1.24
    really put on the clipboard or in the CSV file (captured by
    scripts/renderdoc_capture_real.py)."""
    env = _real_views()
    gen, real = env["gen"], env["real"]
    stem = path.stem[len("real_"):]
    if stem.startswith("cbuffer"):
        _check_real_cbuffer(gen, real, stem, _load(path)["text"])
        return
    if stem.startswith(("mesh_indexed_restart", "buffer_page2")):
        _check_real_restart_and_pages(gen, real, stem, _load(path)["text"])
        return
    shifted = re.search(r"_shift_down(\d+)_ctrl_c$", stem)  # (one row: SingleSelection)
    name = (stem[:shifted.start()] if shifted else stem.rsplit("_row", 1)[0] if "_row" in stem
            else stem[:-len("_csv")])
    cols, fields = env["views"][name], env["fields"][name]
    data = real.raw_bytes()
    stride = sum({"f32": 4, "xint": 4, "f16": 2, "f64": 8, "i32": 4, "u32": 4}[k] * n
                 for k, n in fields)
    per_row = []
    for r in range(len(data) // stride):
        vals = [b for _, b in real.element_values(fields, data, r)]
        if name == "buffer_float2x2":  # column-major in memory; GetVariants lists row by row
            vals = [vals[0], vals[2], vals[1], vals[3]]
        row, k = [], 0
        for c in cols:
            row.append(vals[k:k + c.comps * c.rows])
            k += c.comps * c.rows
        per_row.append(row)
    mesh = name.startswith("mesh")
    rows = gen.model_rows(cols, per_row, mesh=mesh)
    text = _load(path)["text"]
    if stem.endswith("_csv"):
        assert gen.csv_export(cols, rows, mesh) == text
    else:
        r = int(shifted.group(1)) if shifted else int(stem.rsplit("_row", 1)[1].split("_")[0])
        assert gen.table_copy(rows, gen.row_selection(rows, r)) == text


def _check_real_cbuffer(gen, real, stem: str, text: str) -> None:
    """The fixed-variable tree of ``real.CB_FORMAT`` rebuilt with the generator."""
    data = real.raw_bytes()

    def words(off: int, n: int, w: int) -> list[int]:
        return [int.from_bytes(data[off + i * w:off + (i + 1) * w], "little") for i in range(n)]

    var = gen.Var
    cb = [var("tint", "f32", words(0, 4, 4), 4), var("exposure", "f32", words(16, 1, 4), offset=16),
          var("c0", "f32", words(32, 3, 4), 3, offset=32),
          var("weights", "f32", words(44, 4, 4), elements=4, offset=44, array_stride=4),
          var("mask", "xint", words(64, 2, 4), 2, offset=64),
          var("hv", "f16", words(72, 4, 2), 4, offset=72), var("dv", "f64", words(80, 1, 8), offset=80),
          var("counts", "uint", words(88, 2, 4), 2, offset=88)]
    items = [it for v in cb for it in gen.tree_items(v, 0, 0, False)]
    index = {cells[0]: i for i, (_, cells) in enumerate(items)}
    if stem == "cbuffer_csv":
        assert gen.cbuffer_csv(items) == text
        return
    if stem == "cbuffer_tree_four_entries_ctrl_c":
        sel = [index[n] for n in ("tint", "exposure", "c0", "weights")]
    else:
        name = stem[len("cbuffer_tree_"):-len("_ctrl_c")]
        name = f"weights[{name[-1]}]" if name[:-1] == "weights" and name[-1].isdigit() else name
        sel = [index[name]]
    assert gen.cbuffer_copy(items, sel) == text


def _check_real_restart_and_pages(gen, real, stem: str, text: str) -> None:
    """Restart rows ("--", " Restart") of an indexed draw, and rows 9999+ of a big buffer."""
    if stem.startswith("mesh"):
        data = real.raw_bytes()
        cols = [gen.Column("pos", "f32", 4), gen.Column("uv", "f32", 2)]
        verts = []
        for v in range(len(data) // 24):
            vals = [b for _, b in real.element_values([("f32", 4), ("f32", 2)], data, v)]
            verts.append([vals[:4], vals[4:]])
        rows = gen.model_rows(cols, verts, mesh=True, indices=real.INDICES, restart=0xFFFF)
        if stem.endswith("_csv"):
            assert gen.csv_export(cols, rows, True) == text
        else:
            r = int(stem.rsplit("_row", 1)[1].split("_")[0])
            assert gen.table_copy(rows, gen.row_selection(rows, r)) == text
        return
    element = int(stem.split("_")[2])
    pats = real.PATTERNS
    vals = [pats[(element * 4 + k) % len(pats)] for k in range(4)]
    col = gen.Column("v", "f32", 4)
    rows = gen.model_rows([col], [[vals]])
    rows[0][0] = str(element)  # the Element cell: row + pagingOffset
    assert gen.table_copy(rows, gen.row_selection(rows, 0)) == text


def test_int_cells_are_offered_as_codes_and_fill_an_integer_code_op() -> None:
    """Issue 33: RenderDoc's int/uint cells were left out unsaid; they are a reading of
    integer codes (the value RenderDoc printed, as i32/u32), pasted into itof's operands,
    refused with a message (the state untouched) while the op takes floats."""
    from fpinspector.model.state import InspectorState
    from fpinspector.model.state.paste import paste_text, readings
    text = "Element, f, i.x, i.y\n0,  1.50,  5, -3\n"
    found = readings(text, "f32")
    assert "2 integer cells (int/uint) left out" in found[0].label
    codes = next(r for r in found if r.key == "integer codes")
    assert codes.items == (("i32", 5), ("i32", (-3) % (1 << 32)))
    state = InspectorState()
    before = state.snapshot
    with pytest.raises(ValueError, match="integer-code op"):
        paste_text(state, text, "integer codes")
    assert state.snapshot == before
    state.update(op="itof", op_format="i32")
    msg = paste_text(state, text, "integer codes").message
    assert state.snapshot.operands[:2] == (5, (-3) % (1 << 32)) and "A = 5" in msg, msg


def test_a_uint_beyond_i32_reads_as_u32_code() -> None:
    assert renderdoc_integers("Element, u\n0, 3000000000\n") == [("u32", 3000000000)]
    assert renderdoc_integers("1.5 2.5") == []  # not RenderDoc's: no codes


#: scripts/renderdoc_capture_real.py's first 18 patterns: buffer_int2_uint's rows 0-5 as
#: (int i.x, int i.y, uint u), read straight from the buffer's little-endian words
_INT2_UINT = [0x3F800000, 0xC0200000, 0x3DCCCCCD, 0x40490FDB, 0x358637BD, 0x7F7FFFFF,
              0x000116C2, 0x00000001, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000,
              0x7F800001, 0x4B3C614E, 0x3727C5AC, 0x477FE000, 0x3EAAAAAB, 0xBF000000]


@pytest.mark.parametrize("row", range(6))
def test_header_less_int_only_row_reads_as_integer_codes(row: int) -> None:
    """A real qrenderdoc 1.24 Ctrl+C of an ``int2 i; uint u;`` row (``0  1065353216
    -1071644672 1036831949``) holds no float: its cells are integer codes (an int with the
    sign's space, a uint without), the Element index a label. Before, the row read as 4 f32
    bit patterns, the index 0 among them. Oracle: the buffer's words (struct)."""
    from fpinspector.model.state.paste import readings

    text = _load(CORPUS / f"real_buffer_int2_uint_row{row}_ctrl_c.json")["text"]
    assert text.split()[0] == str(row)
    words = struct.unpack("<3I", struct.pack("<3I", *_INT2_UINT[3 * row:3 * row + 3]))
    signed = struct.unpack("<2i", struct.pack("<2I", *words[:2]))
    assert text.split()[1:] == [str(signed[0]), str(signed[1]), str(words[2])]
    found = readings(text, "f32")
    assert found[0].items == (("i32", words[0]), ("i32", words[1]), ("u32", words[2]))
    # every number, the index too, stays one click away (the row may have been typed)
    assert found[1].key == "every number" and len(found[1].items) == 4


def test_an_int_cell_of_8_digits_is_no_hex_cell() -> None:
    """In the real CSV of ``int2 i; uint u;`` row 20 holds ``,  16777216`` (an int: the
    sign's space): not an xint's 8 hex digits (before: the f32 pattern 0x16777216)."""
    text = _load(CORPUS / "real_buffer_int2_uint_csv.json")["text"]
    assert "20,  2130706432,  16777216, 1039980265" in text
    with pytest.raises(ParseError, match="no float"):
        parse(text)
    assert ("i32", 16777216) in renderdoc_integers(text)


def test_typed_integers_with_double_spaces_stay_numbers() -> None:
    """The int-row shape needs the index and two or more cells joined by one or two
    spaces: ``1  2`` or ``1  2   3`` typed are numbers, as before."""
    for text in ("1  2", "1  2   3", "1\t 2  3"):
        assert all(v.kind == "decimal" for v in parse(text)), text


def test_typed_numbers_with_double_spaces_paste_as_numbers_while_the_op_takes_floats() -> None:
    """``1  2 3`` typed has RenderDoc's int-row spacing: its first reading is integer
    codes, but while the op takes floats the paste takes the numbers (no error), and the
    codes stay offered; with an integer-code op every number is a code, as before."""
    from fpinspector.model.state import InspectorState
    from fpinspector.model.state.paste import paste_text, readings

    text = "1  2 3"
    assert readings(text, "f32")[0].key == "integer codes"
    state = InspectorState()
    result = paste_text(state, text)
    assert state.snapshot.operands[:2] == (0x3F800000, 0x40000000), result.message
    assert "integer codes" in {r.key for r in result.others}
    state.update(op="itof", op_format="i32")
    paste_text(state, text)
    assert state.snapshot.operands[:3] == (1, 2, 3)


def test_a_typed_line_read_as_an_int_row_says_why_and_what_to_do() -> None:
    """Where no context tells (`fpinspector decode "1  2 3"`), the refusal names the
    RenderDoc reading, the two-space cue, and how to type numbers so they read as such."""
    with pytest.raises(ParseError) as info:
        parse("1  2 3")
    assert "integer cells" in info.value.reason and "one space or a comma" in info.value.reason
    assert [v.bits for v in parse("1 2 3")] == [0x3F800000, 0x40000000, 0x40400000]


def test_an_8_digit_uint_cell_of_a_decimal_column_is_an_integer() -> None:
    """Issue 33: in RenderDoc's CSV of ``uint2 u;`` (captured from qrenderdoc 1.24:
    real_buffer_uint2_csv) the cell ``16777216`` sits in a column of 10-digit cells; a hex
    column (xint) pads every cell to 8 digits, so this one is the uint 2^24, not the f32
    pattern 0x16777216. Oracle: the numbers as written, as u32."""
    text = ("Element, u.x, u.y\n0, 1065353216, 3223322624\n20, 16777216, 1039980265\n")
    assert renderdoc_integers(text) == [("u32", 1065353216), ("u32", 3223322624),
                                        ("u32", 16777216), ("u32", 1039980265)]
    hexes = "Element, v.x\n0, 3F800000\n1, 16777216\n"  # (an xint column stays hex)
    assert [v.bits for v in parse(hexes)] == [0x3F800000, 0x16777216]


def test_a_row_of_uint_cells_offers_its_codes() -> None:
    """Issue 33: RenderDoc's Ctrl+C of a ``uint2`` row (``0 1065353216 3223322624``, real
    qrenderdoc 1.24) has no mark of RenderDoc's; the numbers stay the first reading and
    the cells after the row index are offered as u32 codes, the label saying why. Two
    numbers are no such row."""
    from fpinspector.model.state.paste import readings
    found = readings("0 1065353216 3223322624")
    assert "RenderDoc" in found[0].label
    assert (("u32", 1065353216), ("u32", 3223322624)) in [r.items for r in found]
    assert all(r.key != "integer codes" for r in readings("0 1065353216"))
