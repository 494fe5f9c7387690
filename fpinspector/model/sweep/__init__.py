"""Sweeps: run an op over whole input ranges in bounded memory and summarise the errors.

:class:`SweepPlan` is one sweep read from its inputs (the CLI and the app's panel build it
the same way), :class:`SweepState` the panel's settings without Qt. No Qt, no GL: the GPU
stage is plugged in from :mod:`fpinspector.gpu.sweep_capture`.
"""

from ..formats import CODE_FORMATS, CodeFormat, operand_format
from .domain import Axis, Domain, GridDomain, UnaryDomain
from .io import load_npz, save_npz, write_csv_elements, write_csv_summary
from .metrics import ordered_index, ulp_distance
from .plan import SweepPlan, default_domain, sweepable_ops
from .runner import DEFAULT_CHUNK, SweepResult, run_sweep
from .specs import parse_axis, parse_domain
from .stages import COMPARES, ModelStage, op_arity, result_format_of
from .state import SweepSettings, SweepState
from .summary import ERROR_COLUMNS, HIST_EDGES, Summary, hist_labels, histogram_counts

__all__ = [
    "Axis", "Domain", "GridDomain", "UnaryDomain", "parse_axis", "parse_domain",
    "CODE_FORMATS", "CodeFormat", "operand_format",
    "load_npz", "save_npz", "write_csv_elements", "write_csv_summary",
    "ordered_index", "ulp_distance",
    "DEFAULT_CHUNK", "SweepResult", "run_sweep",
    "COMPARES", "ModelStage", "op_arity", "result_format_of",
    "SweepPlan", "SweepState", "SweepSettings", "default_domain", "sweepable_ops",
    "ERROR_COLUMNS", "HIST_EDGES", "Summary", "hist_labels", "histogram_counts",
]
