"""gdb command ``fpi EXPR``: send a value's exact bytes to fpinspector (or print the message).

Set up once (``fpinspector debugger-script gdb`` prints this file's path)::

    echo "source $(fpinspector debugger-script gdb)" >> ~/.gdbinit

Then ``fpi f``, ``fpi arr``, ``fpi *ptr@4``, ``fpi s.x``, ``fpi $xmm0`` (f32 lanes),
``fpi/d $xmm1`` (f64 lanes), ``fpi/h $ymm2`` (f16 lanes), ``fpi --to B x``, and
``fpi --json EXPR`` to print the message instead. The bytes are read with gdb's Python API
(the value cast to bytes: registers have no address), the format from the type: float,
double, _Float16/__fp16, arrays and vectors of them, structs whose fields are all one
float type; an integer is its code type (i32, u32, ...) or, with /f /d /h, its bits as
that float. Every failure is a gdb error message, never a traceback.
"""

from __future__ import annotations

import importlib.util
import os

import gdb  # type: ignore[import-not-found]

# fpi_common.py beside this file, by its path (the debugger's Python has no fpinspector)
_spec = importlib.util.spec_from_file_location(
    "_fpinspector_fpi_common", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                            "fpi_common.py"))
assert _spec is not None and _spec.loader is not None
common = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(common)
_INTS = common.INTS


def _scalar_format(t, asked: str | None) -> tuple[str, int]:  # type: ignore[no-untyped-def]
    """(format, size) of one element type, or gdb.GdbError naming the type."""
    t = t.strip_typedefs()
    name = str(t)
    if t.code == gdb.TYPE_CODE_FLT:
        fmt = common.float_format(name, t.sizeof)
        if fmt is None:
            raise gdb.GdbError(f"fpi: {name} is {t.sizeof * 8} bits wide: fpinspector takes "
                               "16, 32 and 64-bit floats")
        if asked and asked != fmt:
            raise gdb.GdbError(f"fpi: {name} is {fmt}; /f /d /h read the bits "
                               "of registers and integers")
        return fmt, t.sizeof
    if t.code in (gdb.TYPE_CODE_INT, gdb.TYPE_CODE_CHAR, gdb.TYPE_CODE_BOOL, gdb.TYPE_CODE_ENUM):
        if asked:
            return asked, t.sizeof
        fmt = _INTS.get((t.sizeof, _signed(t)))
        if fmt is None:
            raise gdb.GdbError(f"fpi: {name} has no float in it (an integer of "
                               f"{t.sizeof * 8} bits; /f /d /h read its bits as a float)")
        return fmt, t.sizeof
    raise gdb.GdbError(f"fpi: {name} has no float in it")


def _signed(t) -> bool:  # type: ignore[no-untyped-def]
    try:
        return bool(t.is_signed)
    except (AttributeError, ValueError):  # gdb before 12
        return not str(t).startswith("unsigned")


def _format_of(v, asked: str | None) -> str:  # type: ignore[no-untyped-def]
    """The lanes' format of a value: its element type's, or ``asked`` for registers."""
    t = v.type.strip_typedefs()
    if t.code == gdb.TYPE_CODE_ARRAY:
        return _scalar_format(t.target(), asked)[0]
    if t.code in (gdb.TYPE_CODE_UNION, gdb.TYPE_CODE_STRUCT):
        if t.code == gdb.TYPE_CODE_UNION or str(t).startswith(("vec", "i387_ext")):
            return asked or "f32"  # a register's union: its bytes, as f32 by default
        fields = [f for f in t.fields() if not f.is_base_class]
        fmts = {_scalar_format(f.type, asked) for f in fields} if fields else set()
        if len(fmts) != 1 or sum(s for _, s in fmts) * len(fields) != t.sizeof:
            raise gdb.GdbError(f"fpi: {t} is a struct whose fields are not all one float "
                               "type; send a field (fpi s.x)")
        return next(iter(fmts))[0]
    if t.code == gdb.TYPE_CODE_PTR:
        raise gdb.GdbError(f"fpi: {t} is a pointer; send what it points to (fpi *p, fpi *p@4)")
    return _scalar_format(t, asked)[0]


def _bytes(v) -> bytes:  # type: ignore[no-untyped-def]
    size = v.type.sizeof
    if hasattr(v, "bytes"):  # gdb 14
        return bytes(v.bytes)
    if v.address is not None:
        return bytes(gdb.selected_inferior().read_memory(v.address, size))
    raw = v.cast(gdb.lookup_type("unsigned char").array(size - 1))  # a register
    return bytes(int(raw[i]) for i in range(size))


class Fpi(gdb.Command):  # type: ignore[misc]
    """Send a value's exact bits to fpinspector: fpi[/f|/d|/h] [--json] [--to A|B|C|inspector] EXPR

fpi f          a float, double or _Float16 variable (or a struct field: fpi s.x)
fpi arr        an array or vector of them (fpi *ptr@4: four from a pointer)
fpi $xmm0      a vector register as f32 lanes; fpi/d $xmm0: f64, fpi/h $xmm0: f16
fpi --json f   print the message (one JSON line) instead of sending it
fpi --to B f   put it in operand B (A, B, C, or the inspector only)"""

    def __init__(self) -> None:
        super().__init__("fpi", gdb.COMMAND_DATA, gdb.COMPLETE_EXPRESSION)

    def invoke(self, arg: str, from_tty: bool) -> None:
        try:
            self._invoke(arg)
        except gdb.GdbError:
            raise
        except gdb.error as exc:  # no such symbol, cannot access memory...
            raise gdb.GdbError(f"fpi: {exc}") from None
        except Exception as exc:  # noqa: BLE001 - a gdb error, never a traceback
            raise gdb.GdbError(f"fpi: {exc}") from None

    def _invoke(self, arg: str) -> None:
        try:
            asked, as_json, to, expr = common.parse_args(arg)
        except ValueError as exc:
            raise gdb.GdbError(f"fpi: {exc}") from None
        v = gdb.parse_and_eval(expr)
        if v.type.strip_typedefs().code == gdb.TYPE_CODE_VOID:
            raise gdb.GdbError(f"fpi: {expr} is void (no such register on this machine, or "
                               "no value)")
        fmt = _format_of(v, asked)
        msg = common.build(_bytes(v), fmt, expr, "gdb", to)
        line = common.message.message_to_json(msg)
        if as_json:
            gdb.write(line + "\n")
            return
        gdb.write(common.send(line) + "\n")


Fpi()
