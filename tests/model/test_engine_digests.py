"""Results are bit-identical to the stored reference: every op x format x rule set (and every
non-default option on the f32 ops) evaluated on a fixed sample gives the digest stored in
engine_digests.json (bits, exact value, fired rules, hull, allowed and ulp_error of several
observations; see _engine_digests.py). Guards every later optimisation of the engine, the
conversions and the format encoders: a speed-up may not change one result bit."""

from __future__ import annotations

import json
from collections import defaultdict

import pytest
from _engine_digests import DIGEST_FILE, case_key, cases, digest

STORED: dict[str, str] = json.loads(DIGEST_FILE.read_text())
BY_OP: dict[str, list] = defaultdict(list)
for _case in cases():
    BY_OP[_case[0]].append(_case)


def test_every_case_has_a_stored_digest():
    """A new op, format, rule set or option needs its digest written (and reviewed)."""
    keys = {case_key(c) for c in cases()}
    assert keys == set(STORED), (sorted(keys - set(STORED))[:5], sorted(set(STORED) - keys)[:5])


@pytest.mark.parametrize("op", sorted(BY_OP))
def test_results_equal_the_stored_digests(op):
    changed = [case_key(c) for c in BY_OP[op] if digest(c) != STORED.get(case_key(c))]
    assert not changed, f"results changed for: {', '.join(changed)}"
