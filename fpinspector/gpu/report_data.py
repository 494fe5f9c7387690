"""The GPU rules report as data: probes, ULP statistics, and the header that says which
device, driver, date and rule book produced it (the saved-report schema, version 3)."""

from __future__ import annotations

import datetime as _dt
import hashlib
from dataclasses import asdict, dataclass, field, fields
from typing import Any

__all__ = ["SCHEMA", "VERSION", "OLDEST_VERSION", "Probe", "UlpStats", "GpuReport", "report_header",
           "rules_digest", "package_version"]

#: The ``schema`` key of a saved report; ``version`` is bumped on incompatible changes.
SCHEMA = "fpinspector.gpu-report"
#: 1: the unversioned `gpu-report --json` output before reports could be saved;
#: 2: no ``f16_classes`` in the fidelity entries (read: their f16 shows as not measured).
VERSION = 3
#: The oldest version this fpinspector reads.
OLDEST_VERSION = 2


@dataclass
class Probe:
    """One probe: the question, the rule it tests, what the GPU gave, verdict per rule set.

    ``capture_note`` is set when the observed result is of a class its path does not
    carry raw (see :mod:`.fidelity`): the bits may be the path's, not the op's.
    """

    id: str
    question: str
    rule: str
    path: str
    inputs: list[str]
    observed: str
    model: str
    verdict: dict[str, bool]
    deviation: str | None = None
    capture_note: str | None = None


@dataclass
class UlpStats:
    """ULP error distribution of one op over a random sample, with per-rule-set verdicts."""

    op: str
    rule: str
    path: str
    samples: int
    max_ulp: float
    mean_ulp: float
    bins: list[float]
    counts: list[int]
    allowed_fraction: dict[str, float]
    verdict: dict[str, bool]


@dataclass
class GpuReport:
    """Everything ``gpu-report`` prints and saves: where it was measured (``header``),
    driver info, capture fidelity, probes, ULP stats, deviations, what cannot be captured."""

    info: dict[str, Any]
    probes: list[Probe] = field(default_factory=list)
    ulp: list[UlpStats] = field(default_factory=list)
    deviations: list[dict[str, Any]] = field(default_factory=list)
    half_float: str = ""
    unsupported: list[dict[str, str]] = field(default_factory=list)
    fidelity: dict[str, dict[str, Any]] = field(default_factory=dict)
    header: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        info = {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.info.items()}
        return {"schema": SCHEMA, "version": VERSION, **self.header,
                "info": info,
                "half_float": self.half_float,
                "fidelity": self.fidelity,
                "probes": [asdict(p) for p in self.probes],
                "ulp": [asdict(u) for u in self.ulp],
                "deviations": self.deviations,
                "unsupported": self.unsupported}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GpuReport:
        """Rebuild from :meth:`to_dict` output (validated by :mod:`.report_io` first)."""
        header = {k: d[k] for k in HEADER_KEYS if k in d}
        return cls(info=dict(d["info"]),
                   probes=[Probe(**_known(Probe, p)) for p in d["probes"]],
                   ulp=[UlpStats(**_known(UlpStats, u)) for u in d["ulp"]],
                   deviations=list(d.get("deviations", [])),
                   half_float=str(d.get("half_float", "")),
                   unsupported=list(d.get("unsupported", [])),
                   fidelity=dict(d.get("fidelity", {})), header=header)

    @property
    def label(self) -> str:
        """One line naming the device: renderer, device index, backend."""
        i = self.info
        dev = i.get("device")
        where = "default device" if dev is None else f"device {dev}"
        return f"{i.get('renderer', '?')} ({where}, {i.get('backend', '?')})"


HEADER_KEYS = ("created", "fpinspector", "rules", "settings")


def _known(kind: type, d: dict[str, Any]) -> dict[str, Any]:
    names = {f.name for f in fields(kind)}
    return {k: v for k, v in d.items() if k in names}


def package_version() -> str:
    """fpinspector's installed version ("unknown" when run from a bare source tree)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("fpinspector")
    except PackageNotFoundError:
        return "unknown"


def rules_digest() -> str:
    """A short fingerprint of the rule book the verdicts came from (rule IDs, texts and
    rule sets): two reports with the same digest were judged by the same rules."""
    from fpinspector.model.engine import RULE_SETS, RULES

    rows = RULES.values() if isinstance(RULES, dict) else RULES
    text = "\n".join(sorted(f"{getattr(r, 'id', r)}\t{getattr(r, 'text', '')}" for r in rows))
    text += "\n" + ",".join(RULE_SETS)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def report_header(samples: int, seed: int, paths: list[str]) -> dict[str, Any]:
    """When, by which fpinspector and rule book, and with which settings a report was made."""
    from fpinspector.model.engine import RULE_SETS

    return {
        "created": _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat(),
        "fpinspector": package_version(),
        "rules": {"digest": rules_digest(), "rule_sets": list(RULE_SETS)},
        "settings": {"samples": samples, "seed": seed, "paths": list(paths)},
    }
