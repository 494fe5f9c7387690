"""Error maps over whole input ranges: the sweep panel, its controls and exports, the map
and histogram widgets, and the one map runner (thread, job, progress, cancel) that the
Sweep and Expression panels share."""
