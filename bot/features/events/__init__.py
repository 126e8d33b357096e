"""Duplicate events (docs/RULES.md §Events): its ``Feature`` in ``feature.py``."""
