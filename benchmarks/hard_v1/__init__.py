"""Frozen copy of the hard level as it was at the start of issue 40 (arena only).

``search.py``, ``endgame.py`` and ``policy.py`` are the files of ``bot/ai`` at commit
ded620e, unchanged but for their imports, so ``python -m benchmarks.arena`` can play the
new hard level against the old one (agents ``hard_v1`` and ``hardfixed_v1``,
docs/AI.md §Issue 40). Not offered to users; nothing in ``bot/`` imports it.
"""

from benchmarks.hard_v1.search import hard_play

__all__ = ["hard_play"]
