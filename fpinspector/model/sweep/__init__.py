"""Sweeps: run an op over whole input ranges in bounded memory and summarise the errors.

No Qt, no GL: the GPU stage is plugged in from :mod:`fpinspector.gpu.sweep_capture`.
"""

from ..formats import CODE_FORMATS, CodeFormat, operand_format
from .domain import Axis, Domain, GridDomain, UnaryDomain
from .io import load_npz, save_npz, write_csv_elements, write_csv_summary
from .metrics import ordered_index, ulp_distance
from .runner import DEFAULT_CHUNK, SweepResult, run_sweep
from .specs import parse_axis, parse_domain
from .stages import COMPARES, ModelStage, op_arity, result_format_of
from .summary import ERROR_COLUMNS, HIST_EDGES, Summary, hist_labels, histogram_counts

__all__ = [
    "Axis", "Domain", "GridDomain", "UnaryDomain", "parse_axis", "parse_domain",
    "CODE_FORMATS", "CodeFormat", "operand_format",
    "load_npz", "save_npz", "write_csv_elements", "write_csv_summary",
    "ordered_index", "ulp_distance",
    "DEFAULT_CHUNK", "SweepResult", "run_sweep",
    "COMPARES", "ModelStage", "op_arity", "result_format_of",
    "ERROR_COLUMNS", "HIST_EDGES", "Summary", "hist_labels", "histogram_counts",
]
