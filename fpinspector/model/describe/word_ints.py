"""Integer views of a 32-bit word, as ImHex and RenderDoc show them: int32, uint32, two
int16, RGBA8 UNORM and SNORM, RGB10A2 UNORM. Exact values as fractions (D3D's UNORM
c / (2^n - 1); SNORM c / (2^(n-1) - 1) with the most negative code also -1.0), so nothing
is rounded for display; channels are numbered from bit 0 (R in the low byte)."""

from __future__ import annotations

from fractions import Fraction

__all__ = ["integer_readings"]


def _signed(value: int, bits: int) -> int:
    return value - (1 << bits) if value >> (bits - 1) else value


def _unorm(code: int, bits: int) -> Fraction:
    return Fraction(code, (1 << bits) - 1)


def _snorm(code: int, bits: int) -> Fraction:
    return max(Fraction(_signed(code, bits), (1 << (bits - 1)) - 1), Fraction(-1))


def _num(x: Fraction) -> str:
    """A fraction as a short decimal, exact where it is one ("0.5", "1", "0.501961…")."""
    if x.denominator == 1:
        return str(x.numerator)
    text = f"{float(x):.6g}"
    return text if Fraction(text) == x else text + "…"


def _channels(word: int, widths: tuple[int, ...]) -> list[int]:
    out, shift = [], 0
    for w in widths:
        out.append((word >> shift) & ((1 << w) - 1))
        shift += w
    return out


def integer_readings(word: int) -> list[tuple[str, str, str]]:
    """(name, value, tooltip) of each integer view of ``word``."""
    word &= 0xFFFFFFFF
    hi, lo = word >> 16, word & 0xFFFF
    rows = [("int32", str(_signed(word, 32)), "two's complement"),
            ("uint32", str(word), "unsigned"),
            ("int16 high, low (bits 31-16, 15-0)", f"{_signed(hi, 16)}, {_signed(lo, 16)}",
             f"unsigned: {hi}, {lo}")]
    rgba = _channels(word, (8, 8, 8, 8))
    for kind, fn in (("UNORM", _unorm), ("SNORM", _snorm)):
        vals = [fn(c, 8) for c in rgba]
        rows.append((f"RGBA8_{kind} (R = bits 7-0)",
                     ", ".join(f"{ch}={_num(v)}" for ch, v in zip("RGBA", vals)),
                     "exactly " + ", ".join(f"{ch} = {v}" for ch, v in zip("RGBA", vals))
                     + f"; codes {', '.join(map(str, rgba))}"))
    codes = _channels(word, (10, 10, 10, 2))
    vals = [_unorm(c, w) for c, w in zip(codes, (10, 10, 10, 2))]
    rows.append(("RGB10A2_UNORM (R = bits 9-0)",
                 ", ".join(f"{ch}={_num(v)}" for ch, v in zip("RGBA", vals)),
                 "exactly " + ", ".join(f"{ch} = {v}" for ch, v in zip("RGBA", vals))
                 + f"; codes {', '.join(map(str, codes))}"))
    return rows
