"""Endgame puzzles (docs/RULES.md §Puzzles): its ``Feature`` in ``feature.py``."""
