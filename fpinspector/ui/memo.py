"""A bounded least-recently-used map that its owner can also fill from outside.

Why not ``functools.lru_cache``: it can only be filled by calling the function, one
argument tuple at a time, while the bridge's prefetch (:func:`.bridge.prefetch_conversions`)
computes many answers in one model call and puts each where the per-value call looks first.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

__all__ = ["Memo"]


class Memo:
    """``get`` / ``put`` with at most ``maxsize`` entries: a ``put`` over the limit drops
    the entry used least recently (a ``get`` that finds its key counts as a use)."""

    def __init__(self, maxsize: int) -> None:
        if maxsize < 1:
            raise ValueError("maxsize must be positive")
        self.maxsize = maxsize
        self._d: OrderedDict[Hashable, Any] = OrderedDict()

    def get(self, key: Hashable) -> Any:
        """The kept value, or None when ``key`` is not kept (None is never stored)."""
        value = self._d.get(key)
        if value is not None:
            self._d.move_to_end(key)
        return value

    def get_or(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """The kept value of ``key``, else ``make()``'s, kept (the one way the bridge's
        per-value answers are looked up then computed)."""
        value = self.get(key)
        if value is None:
            value = make()
            self.put(key, value)
        return value

    def put(self, key: Hashable, value: Any) -> None:
        if value is None:
            raise ValueError("a Memo does not keep None (get answers None for a miss)")
        self._d[key] = value
        self._d.move_to_end(key)
        if len(self._d) > self.maxsize:
            self._d.popitem(last=False)

    def __contains__(self, key: Hashable) -> bool:
        """Kept or not, without counting as a use."""
        return key in self._d

    def __len__(self) -> int:
        return len(self._d)

    def clear(self) -> None:
        self._d.clear()
