"""``python -m tools.puzzle_screens OUT_DIR`` draws the puzzle screenshots of docs/RULES.md
§Puzzles from a shipped puzzle, through the real service and the view's image model.

Files: ``puzzle_en.png`` / ``puzzle_es.png`` (the puzzle as first served),
``puzzle_solved_en.png`` (solved by the winning line), ``puzzle_failed_en.png`` (a losing
pass: the move that wins and the refutation). The puzzle is ``p1fa8a1df4e`` (beat the
landlord's A with the 2); the attempts are stored in a throwaway SQLite file.
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
from pathlib import Path

from bot.features.puzzles.cog import image_model
from bot.features.puzzles.model import load_puzzles
from bot.features.puzzles.rendering import render_puzzle
from bot.features.puzzles.service import PuzzleService, PuzzleState
from bot.rules import parse_cards
from bot.service import TableService
from bot.storage import open_repository

PUZZLE = "p1fa8a1df4e"
GUILD = 1


def _save(out: Path, name: str, state: PuzzleState, member: str, lang: str) -> None:
    png = render_puzzle(image_model(state, member, lang, frozenset()), locale=lang)
    (out / name).write_bytes(png)
    print(out / name)


async def main(out: Path) -> None:
    """Serve the puzzle to three members (``OUT_DIR``'s four PNGs); raises KeyError when
    the shipped data has no puzzle ``PUZZLE``."""
    puzzle = next(p for p in load_puzzles() if p.id == PUZZLE)
    with tempfile.TemporaryDirectory() as tmp:
        store = await open_repository(Path(tmp) / "puzzles.db")
        try:
            host = TableService(store, ai_delay=0)
            service = PuzzleService(host, puzzles=[puzzle], rng=random.Random(3))
            fresh = await service.daily(GUILD, 101, "Bo")
            _save(out, "puzzle_en.png", fresh, "Bo", "en")
            _save(out, "puzzle_es.png", fresh, "Bo", "es")
            failed = await service.play(GUILD, 101, fresh.attempt.attempt_id, len(fresh.actions), None)
            _save(out, "puzzle_failed_en.png", failed, "Bo", "en")
            state = await service.daily(GUILD, 102, "Ann")
            for cards in puzzle.line[::3]:  # the member's moves; the rest are the answers
                if state.finished:
                    break
                state = await service.play(GUILD, 102, state.attempt.attempt_id, len(state.actions),
                                           parse_cards(cards) if cards else None)
            _save(out, "puzzle_solved_en.png", state, "Ann", "en")
        finally:
            await store.close()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1] if len(sys.argv) > 1 else ".")))
