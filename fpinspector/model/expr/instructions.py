"""The D3D instructions a lowered program's steps use, one row each: what the expression
layer needs to know about an instruction, so that no code compares instruction names.

The engine's op table (model/engine/optable.py) says how each op is evaluated; these rows
add what only an expression step needs: whether the engine evaluates it at all (``movc``
selects one of its operands' bits and is judged from the verdicts), whether it copies its
operand (a moved NaN read through a modifier may be any NaN, EXPR-SRCMOD), which format the
engine reads its operand in, whether it has a ``_sat`` form, and how a ``mul`` feeding an
``add`` contracts into one fused instruction.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ..engine.optable import OPS
from ..formats import FORMATS

__all__ = ["Instruction", "INSTRUCTIONS", "instruction", "expression_formats"]


@dataclass(frozen=True)
class Instruction:
    """One D3D instruction as a step of an expression."""

    name: str
    #: the engine evaluates it (``movc`` is judged from its operands' verdicts instead)
    engine: bool = True
    #: the result is the bits of one operand, picked by the first (EXPR-MOVC)
    selects: bool = False
    #: the result is its operand's bits moved (EXPR-SRCMOD applies to a moved NaN)
    moves: bool = False
    #: the engine's format for its operand when it is not the program's (conversions)
    operand_format: str | None = None
    #: its operand is a uint whose low 16 bits hold a half (f16tof32)
    reads_half: bool = False
    #: it has a ``_sat`` result modifier (D3D11.3 §22: f16tof32 dest, src)
    has_sat: bool = True
    #: a product: contracts into the instruction named by :attr:`fuses_product_to`
    product: bool = False
    #: with a single-use product operand it becomes this fused instruction (add -> mad)
    fuses_product_to: str | None = None


_ROWS = [
    Instruction("add", fuses_product_to="mad"),
    Instruction("mul", product=True),
    Instruction("div"), Instruction("mad"),
    Instruction("dp2"), Instruction("dp3"), Instruction("dp4"),
    Instruction("min"), Instruction("max"),
    Instruction("sqrt"), Instruction("rsq"), Instruction("rcp"),
    Instruction("exp"), Instruction("log"), Instruction("frc"),
    Instruction("round_ne"), Instruction("round_ni"), Instruction("round_pi"),
    Instruction("round_z"),
    Instruction("eq"), Instruction("ne"), Instruction("lt"), Instruction("ge"),
    Instruction("mov", moves=True),
    Instruction("movc", engine=False, selects=True),
    Instruction("f32tof16", operand_format="f32", has_sat=False),
    Instruction("f16tof32", operand_format="f16", reads_half=True, has_sat=False),
]

#: instruction name -> its row
INSTRUCTIONS: dict[str, Instruction] = {r.name: r for r in _ROWS}


def instruction(name: str) -> Instruction:
    """The row of an instruction a step names: its row here, or for any other op of the
    engine's table (a row registered at run time, say) a plain one: evaluated by the engine,
    with a ``_sat`` form, nothing moved or fused. KeyError for a name that is neither."""
    row = INSTRUCTIONS.get(name)
    if row is not None:
        return row
    if name in OPS:  # (read at each call: the table can grow after this module is read)
        return Instruction(name)
    raise KeyError(name)


@cache
def expression_formats() -> tuple[str, ...]:
    """The formats expressions compute in: those every instruction the engine evaluates in
    the program's own format exists in (its op row's formats: f32 and f16; f64 has no rsq,
    exp, log or dp)."""
    own = [OPS[r.name] for r in _ROWS if r.engine and r.operand_format is None]
    return tuple(f for f in FORMATS if all(f in spec.formats for spec in own))
