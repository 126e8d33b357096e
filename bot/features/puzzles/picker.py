"""Choosing a practice puzzle near a member's puzzle rating (docs/RULES.md §Puzzles)."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence

from bot.features.puzzles.model import Puzzle


def pick_near(
    puzzles: Sequence[Puzzle],
    rating: float,
    exclude: Collection[str] = (),
    rng: random.Random | None = None,
    ratings: Mapping[str, float] | None = None,
    window: float = 100.0,
) -> Puzzle | None:
    """A puzzle whose rating is near ``rating``, or None when every one is excluded.

    A puzzle's rating is ``ratings[id]`` when given (the stored, updated one), else its
    initial ``Puzzle.rating``. Puzzles whose id is in ``exclude`` (already solved) are
    skipped. The pick is random (``rng``; default: the first by id) among those within
    ``window`` of the nearest distance, so a member does not always get the same one.
    """
    skip = set(exclude)
    scored: list[tuple[float, Puzzle]] = []
    for puzzle in puzzles:
        if puzzle.id in skip:
            continue
        own = puzzle.rating if ratings is None else ratings.get(puzzle.id, puzzle.rating)
        scored.append((abs(own - rating), puzzle))
    if not scored:
        return None
    nearest = min(distance for distance, _ in scored)
    near = sorted((p for distance, p in scored if distance <= nearest + window),
                  key=lambda p: p.id)
    return near[0] if rng is None else rng.choice(near)
