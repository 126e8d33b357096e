"""Endgame puzzles (残局, docs/RULES.md §Puzzles): positions with every hand face up, solved
exactly. Its ``Feature`` in ``feature.py``; its pure floor (no discord, asyncio or storage):
``position`` (a position and its moves), ``solver`` (docs/AI.md §Puzzles says how it proves
each puzzle), ``model`` (the shipped ``data/puzzles.json``), ``generate`` (``python -m
bot.features.puzzles build``), ``picker``, ``glicko2`` (the members' puzzle ratings)."""
