"""A lowered expression: scalar input slots, constants and a list of D3D instructions ("steps").

Vectors are scalarised: ``n * rsqrt(dot(n, n))`` over a float3 ``n`` becomes one ``dp3``,
one ``rsq`` and three ``mul`` steps. Every step reads :class:`Ref` operands (an input slot,
a constant or an earlier step) through the D3D source modifiers (``-x``, ``|x|``), and may
carry the ``_sat`` result modifier.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["ExprType", "Ref", "Input", "Const", "Step", "Program", "KINDS", "ref_text"]

#: Value kinds of one scalar slot: the float format's values, a uint holding an f16 pattern
#: (what f32tof16 returns), a raw 32-bit uint, a comparison result.
KINDS = ("float", "half", "uint", "bool")


@dataclass(frozen=True)
class ExprType:
    """A language type: ``kind`` "float", "uint" or "bool", ``n`` components (1-4)."""

    kind: str
    n: int = 1

    def __str__(self) -> str:
        return self.kind if self.n == 1 else f"{self.kind}{self.n}"


@dataclass(frozen=True)
class Ref:
    """An operand: ``src`` "input", "const" or "step" with its ``index``.

    ``kind`` is the slot's value kind as read (see :data:`KINDS`); ``neg``/``abs`` are the
    source modifiers (applied abs first, then negate: D3D11.3 22.18.1); ``cast`` marks a
    reinterpretation (asfloat/asuint) between the source and this read.
    """

    src: str
    index: int
    kind: str = "float"
    neg: bool = False
    abs: bool = False
    cast: bool = False

    @property
    def plain(self) -> bool:
        """No source modifier: the bits are read unchanged."""
        return not (self.neg or self.abs)


@dataclass(frozen=True)
class Input:
    """One scalar input slot: component ``comp`` of variable ``name``."""

    name: str
    comp: int
    kind: str  # "float" or "uint"
    n: int = 1  # components of the variable

    @property
    def label(self) -> str:
        return self.name if self.n == 1 else f"{self.name}.{'xyzw'[self.comp]}"


@dataclass(frozen=True)
class Const:
    """A literal, already encoded: ``bits`` in the slot ``kind`` ("float" or "uint")."""

    bits: int
    kind: str
    text: str


@dataclass(frozen=True)
class Step:
    """One instruction: engine ``op`` (or ``movc``) on ``args``, optional ``_sat``.

    ``kind`` is the result's value kind; ``label`` the source text it comes from and
    ``span`` its position; ``note`` says how an intrinsic was lowered (e.g. "lerp: b - a").
    """

    op: str
    args: tuple[Ref, ...]
    kind: str
    sat: bool = False
    label: str = ""
    span: tuple[int, int] = (0, 0)
    note: str = ""

    @property
    def instruction(self) -> str:
        """The D3D mnemonic with its modifier: ``mad_sat``, ``dp3``, ``movc``."""
        return self.op + ("_sat" if self.sat else "")


@dataclass
class Program:
    """The step list of one expression.

    Attributes
    ----------
    text : str
        The source expression.
    format : str
        The float format of ``float`` values ("f32", or "f16" for half arithmetic).
    inputs, consts, steps : list
        Scalar input slots, literals and instructions, in evaluation order.
    outputs : list of (int, str)
        The result's components: (step index, value kind as read).
    type : ExprType
        The result's language type.
    variables : dict of str to ExprType
        The variables the expression reads.
    """

    text: str
    format: str
    inputs: list[Input] = field(default_factory=list)
    consts: list[Const] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    outputs: list[tuple[int, str]] = field(default_factory=list)
    type: ExprType = ExprType("float")
    variables: dict[str, ExprType] = field(default_factory=dict)

    def signature(self) -> tuple:
        """Hashable identity of the computation (what a compiled shader depends on)."""
        return (self.format, tuple(self.inputs), tuple(self.consts), tuple(self.steps),
                tuple(self.outputs))

    @property
    def result_kinds(self) -> list[str]:
        return [k for _, k in self.outputs]

    def listing(self) -> list[str]:
        """One assembly-like line per step: ``r3 = mad_sat r1, -b, l(0.5)``."""
        return [f"r{i} = {s.instruction} " + ", ".join(ref_text(self, a) for a in s.args)
                for i, s in enumerate(self.steps)]


def ref_text(program: Program, ref: Ref) -> str:
    """How an operand reads in a listing: ``-|n.x|``, ``r2``, ``l(0.5)``, ``asuint(r1)``."""
    if ref.src == "input":
        core = program.inputs[ref.index].label
    elif ref.src == "const":
        core = f"l({program.consts[ref.index].text})"
    else:
        core = f"r{ref.index}"
    if ref.cast:
        core = f"as{'float' if ref.kind == 'float' else 'uint'}({core})"
    if ref.abs:
        core = f"|{core}|"
    return f"-{core}" if ref.neg else core
