"""Tournaments (docs/RULES.md §Tournaments): its ``Feature`` in ``feature.py``."""
