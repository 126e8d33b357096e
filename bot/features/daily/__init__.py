"""The daily deal (docs/RULES.md §Daily deal): its ``Feature`` in ``feature.py``."""
