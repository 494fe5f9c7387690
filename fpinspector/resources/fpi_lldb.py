"""lldb command ``fpi EXPR``: send a value's exact bytes to fpinspector (or print the message).

Set up once (``fpinspector debugger-script lldb`` prints this file's path)::

    echo "command script import $(fpinspector debugger-script lldb)" >> ~/.lldbinit

Then ``fpi f``, ``fpi arr``, ``fpi *ptr@4``, ``fpi s.x``, ``fpi $xmm0`` (f32 lanes),
``fpi -d $xmm1`` (f64 lanes; lldb takes ``fpi/d`` as its own gdb-format option),
``fpi -h $ymm2`` (f16), ``fpi --to B x``,
``fpi --json EXPR`` to print the message instead. The bytes come from
``SBValue.GetData()``, the format from ``GetType()`` (float, double, _Float16/__fp16,
arrays and vectors of them, structs whose fields are all one float type); a register is
read as f32 lanes unless asked; an integer is its code type (i32, u32, ...). Failures are
lldb errors (the command's result), never a traceback.
"""

from __future__ import annotations

import importlib.util
import os
import re

import lldb  # type: ignore[import-not-found]

# fpi_common.py beside this file, by its path (the debugger's Python has no fpinspector)
_spec = importlib.util.spec_from_file_location(
    "_fpinspector_fpi_common", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                            "fpi_common.py"))
assert _spec is not None and _spec.loader is not None
common = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(common)
_INTS = common.INTS
_SLICE = re.compile(r"^\*(?P<ptr>.+)@(?P<n>\d+)$")  # gdb's *ptr@N, which lldb lacks


_FLOAT_BASIC = {lldb.eBasicTypeHalf, lldb.eBasicTypeFloat, lldb.eBasicTypeDouble,
                lldb.eBasicTypeLongDouble}


def _is_float(t) -> bool:  # type: ignore[no-untyped-def]
    t = t.GetCanonicalType()
    return bool(t.GetTypeFlags() & lldb.eTypeIsFloat) or t.GetBasicType() in _FLOAT_BASIC


class FpiError(Exception):
    """A failure the user reads as the command's error."""


def _scalar(t, asked):  # type: ignore[no-untyped-def]
    """(format, size) of one element type."""
    t = t.GetCanonicalType()
    size = t.GetByteSize()
    flags = t.GetTypeFlags()
    name = t.GetName()
    if flags & lldb.eTypeIsFloat or t.GetBasicType() in _FLOAT_BASIC:
        fmt = common.float_format(name, size)
        if fmt is None:
            raise FpiError(f"{name} is {size * 8} bits wide: fpinspector takes 16, 32 and "
                           "64-bit floats")
        if asked and asked != fmt:
            raise FpiError(f"{name} is {fmt}; -f -d -h read the bits of registers "
                           "and integers")
        return fmt, size
    if flags & lldb.eTypeIsInteger or flags & lldb.eTypeIsEnumeration:
        if asked:
            return asked, size
        fmt = _INTS.get((size, bool(flags & lldb.eTypeIsSigned)))
        if fmt is None:
            raise FpiError(f"{name} has no float in it (an integer of {size * 8} bits; -f -d "
                           "-h read its bits as a float)")
        return fmt, size
    raise FpiError(f"{name} has no float in it")


def _format_of(t, asked, register: bool):  # type: ignore[no-untyped-def]
    t = t.GetCanonicalType()
    if t.IsVectorType() or t.IsArrayType():
        elem = t.GetVectorElementType() if t.IsVectorType() else t.GetArrayElementType()
        if register and not _is_float(elem):
            return asked or "f32"  # a register's bytes, as f32 lanes by default
        return _scalar(elem, asked)[0]
    if t.IsPointerType():
        raise FpiError(f"{t.GetName()} is a pointer; send what it points to (fpi *p, "
                       "fpi *p@4)")
    if t.GetTypeClass() in (lldb.eTypeClassStruct, lldb.eTypeClassClass, lldb.eTypeClassUnion):
        n = t.GetNumberOfFields()
        fmts = {_scalar(t.GetFieldAtIndex(i).GetType(), asked) for i in range(n)}
        if n == 0 or len(fmts) != 1 or next(iter(fmts))[1] * n != t.GetByteSize():
            raise FpiError(f"{t.GetName()} is a struct whose fields are not all one float "
                           "type; send a field (fpi s.x)")
        return next(iter(fmts))[0]
    return _scalar(t, asked)[0]


def _evaluate(frame, expr: str):  # type: ignore[no-untyped-def]
    v = frame.EvaluateExpression(expr)
    err = v.GetError()
    if not v.IsValid() or (err is not None and err.Fail()):
        text = (err.GetCString() if err is not None else "") or f"cannot evaluate {expr!r}"
        raise FpiError(" ".join(text.replace("error:", "").split())[:300])
    return v


def _read(debugger, expr: str, asked):  # type: ignore[no-untyped-def]
    """(bytes, format) of ``expr`` in the selected frame."""
    target = debugger.GetSelectedTarget()
    process = target.GetProcess() if target else None
    frame = process.GetSelectedThread().GetSelectedFrame() if process else None
    if frame is None or not frame.IsValid():
        raise FpiError("no frame: run the program to a stop first")
    m = _SLICE.match(expr.strip())
    if m:
        ptr = _evaluate(frame, m.group("ptr"))
        pt = ptr.GetType().GetCanonicalType()
        if not pt.IsPointerType():
            raise FpiError(f"{m.group('ptr')} is not a pointer")
        elem = pt.GetPointeeType()
        fmt, size = _scalar(elem, asked)
        n = int(m.group("n"))
        if not 1 <= n <= common.message.MAX_LANES:
            raise FpiError(f"{n} lanes: a message holds 1 to {common.message.MAX_LANES}")
        err = lldb.SBError()
        data = process.ReadMemory(ptr.GetValueAsUnsigned(), size * n, err)
        if err.Fail() or data is None:
            raise FpiError(f"cannot read memory at {m.group('ptr')}: {err.GetCString()}")
        return bytes(data), fmt
    v = _evaluate(frame, expr)
    fmt = _format_of(v.GetType(), asked, register=expr.strip().startswith("$"))
    err = lldb.SBError()
    size = v.GetByteSize()
    data = v.GetData().ReadRawData(err, 0, size)
    if err.Fail() or data is None:
        raise FpiError(f"cannot read the bytes of {expr}: {err.GetCString()}")
    return bytes(data), fmt


def fpi(debugger, command, exe_ctx, result, internal_dict):  # type: ignore[no-untyped-def]
    """Send a value's exact bits to fpinspector:
    fpi [-f|-d|-h] [--json] [--to A|B|C|inspector] EXPR"""
    try:
        asked, as_json, to, expr = common.parse_args(command)
        data, fmt = _read(debugger, expr, asked)
        msg = common.build(data, fmt, expr, "lldb", to)
        line = common.message.message_to_json(msg)
        result.AppendMessage(line if as_json else common.send(line))
        result.SetStatus(lldb.eReturnStatusSuccessFinishResult)
    except Exception as exc:  # noqa: BLE001 - an lldb error, never a traceback
        result.SetError(f"fpi: {exc}")
        result.SetStatus(lldb.eReturnStatusFailed)


def __lldb_init_module(debugger, internal_dict):  # type: ignore[no-untyped-def]  # noqa: N807
    debugger.HandleCommand(f"command script add -f {__name__}.fpi fpi")
