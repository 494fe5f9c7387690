"""A sweep panel's backend besides ``make``: the ops it offers and their arity, no worker
processes (stage threads only) and nothing to close. Test backends subclass it and give
``ARITY`` and a numpy ``make``."""

from __future__ import annotations


class ThreadsOnlyBackend:
    ARITY: dict[str, int] = {}

    def pool_for(self, size):
        return None  # stage threads only

    def ops(self):
        return list(self.ARITY)

    def arity(self, op):
        return self.ARITY[op]

    def close(self):
        pass
