"""Numerical building blocks shared by the engine, the conversions and the expression layer:
error-free transformations (:mod:`.eft`) and elementary functions that give the same float64
bits on every CPU (:mod:`.elementary`)."""
