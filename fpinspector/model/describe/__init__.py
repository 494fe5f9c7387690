"""What a bit pattern says, as data and text: decode panel, CLI ``decode``, rounding anatomy.

:mod:`.value` (``describe``, ``ValueInfo``, ``format_limits``), :mod:`.decimal_text` (exact,
shortest and display decimals, hex floats), :mod:`.bits` (literals, byte dumps, ULP
distances), :mod:`.many` (many patterns at once), :mod:`.anatomy` (how a value rounds into
a format: neighbours, guard/round/sticky, the rule that chose).
"""

from .anatomy import Anatomy, rounding_anatomy
from .bits import byte_dump, to_c_literal, ulp_distance, values_between
from .decimal_text import display_decimal, exact_decimal, hex_float, shortest_decimal
from .many import describe_many
from .value import ValueInfo, describe, format_limits

__all__ = [
    "ValueInfo", "describe", "describe_many", "exact_decimal", "shortest_decimal",
    "display_decimal", "hex_float", "format_limits", "to_c_literal", "byte_dump",
    "ulp_distance", "values_between", "rounding_anatomy", "Anatomy",
]
