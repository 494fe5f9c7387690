"""The op families as records: what the engine asks of an op's family, as capabilities.

An op row (engine/oprow.py) names its family; the family's record says how its exact value
and its model result are formed and which allowed-set shape and rules it has. The engine,
the finisher, the explanations, the GPU judge and the CLI read these fields
(``OpSpec.traits``, ``Ctx.traits``); none of them compares a family's name. A new family is
a new record here, plus the computation and allowed-set code its new capability needs
(docs/architecture.md "Add an op"). Pure data: no engine import.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["OpFamily", "FAMILIES", "family", "ARITH", "FUSED", "UNARY", "ROUND", "FRC",
           "SELECT", "COMPARE", "MOV", "CONVERSION"]


@dataclass(frozen=True)
class OpFamily:
    """One op family: the capabilities the engine asks about.

    ``rounds``: the model result is the exact value rounded to nearest in the format, so
    the output flush (F32-FTZ), F32-NANOUT / F32-NANPROP and the accuracy rule apply, and a
    NaN result allows any NaN. ``error_free``: the engine's exact value hi + lo is known to
    ~2^-100 (error-free transforms: finish/edges.py decides window edges from it).
    ``inexact_from_result``: without a flush the model is the exact value rounded with
    nothing else in between, so its value equals the exact value exactly when that is a
    value of the format (finish/facts.py ``inexact``; the format's own denormal rule).
    ``sums_products``: a fused sum of products (mad, dpN): its exact value is the one sum
    (exact/vector.py ``fused_exact``), D3D allows its serial orders (F32-FUSED: the GPU
    judge), an INF * 0 product is invalid (F32-INFINF), an even operand count names the
    operands a0.. b0.. ``integral``: the exact value is the row's numpy function of the
    operand (round to integral). ``fractional``: x - floor(x), in [+0, 1): a rounded 1.0
    becomes the value below 1, the window and option frc_allow_one are frc's (F32-INSTR).
    ``picks_operand``: the result is one of the operands (min/max: F32-MINMAX-*).
    ``predicate``: a boolean result (comparisons: no allowed set, no ULP error).
    ``moves_bits``: every bit is kept, a NaN's payload too (raw move: F32-FTZ exempt).
    ``converts``: a conversion op, evaluated by its row's handler (engine/conversions.py).
    ``input_flush_rule``: the rule that flushes a denormal operand (explanations).
    ``model_words``: what the model's result is, in words (a verdict's reason).
    ``note``: a sentence every explanation of the family's ops adds.
    """

    name: str
    rounds: bool = False
    error_free: bool = False
    inexact_from_result: bool = False
    sums_products: bool = False
    integral: bool = False
    fractional: bool = False
    picks_operand: bool = False
    predicate: bool = False
    moves_bits: bool = False
    converts: bool = False
    input_flush_rule: str = "F32-FTZ"
    model_words: str = "correctly rounded"
    note: str = ""

    @property
    def exact_is_result(self) -> bool:
        """The exact result is the result's own value (picks, compares, moves): nothing is
        rounded, so no exact value is computed."""
        return self.picks_operand or self.predicate or self.moves_bits

    @property
    def flushes_inputs(self) -> bool:
        """F32-FTZ flushes the operands where the rule set flushes the format (not a raw
        move)."""
        return not self.moves_bits

    @property
    def any_nan_result(self) -> bool:
        """A NaN result allows any NaN (F32-NANOUT): not a raw move, which keeps the
        payload, nor a comparison, whose results are not patterns."""
        return not (self.moves_bits or self.predicate)


ARITH = OpFamily("arith", rounds=True, error_free=True, inexact_from_result=True)
FUSED = OpFamily("fused", rounds=True, error_free=True, inexact_from_result=True,
                 sums_products=True)
UNARY = OpFamily("unary", rounds=True)
ROUND = OpFamily("round", rounds=True, error_free=True, integral=True)
FRC = OpFamily("frc", rounds=True, error_free=True, fractional=True)
SELECT = OpFamily("select", picks_operand=True, input_flush_rule="F32-MINMAX-FTZ",
                  model_words="the operand min/max selects")
COMPARE = OpFamily("compare", predicate=True)
MOV = OpFamily("mov", moves_bits=True, model_words="the operand, moved unchanged",
               note="mov is a raw move: exempt from F32-FTZ, every bit (NaN payload too) "
                    "is kept")
CONVERSION = OpFamily("conversion", converts=True)

#: family name (what an op row names) -> its record
FAMILIES: dict[str, OpFamily] = {f.name: f for f in (
    ARITH, FUSED, UNARY, ROUND, FRC, SELECT, COMPARE, MOV, CONVERSION)}


def family(name: str) -> OpFamily:
    """The record of the family an op row names; ValueError for a name no record has."""
    rec = FAMILIES.get(name)
    if rec is None:
        raise ValueError(f"unknown op family {name!r}; the families are "
                         f"{', '.join(FAMILIES)} (engine/families.py)")
    return rec
