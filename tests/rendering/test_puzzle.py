"""The endgame puzzle image (bot/features/puzzles/rendering.py): deterministic PNG bytes, the banner's
height once over, 2 or 3 hands only."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.features.puzzles.rendering import PuzzleImage, PuzzleSeat, render_puzzle
from bot.rules import parse_cards


def view(status: str = "play", banner: tuple[str, ...] = (), seats: int = 3) -> PuzzleImage:
    hands = (PuzzleSeat("Ana", True, True, tuple(parse_cards("33TTA"))),
             PuzzleSeat("Computer 2", False, False, tuple(parse_cards("5JAD"))),
             PuzzleSeat("Computer 3", False, False, ()))[:seats]
    return PuzzleImage(title="Puzzle of the day (2026-12-02)", task="You are the landlord.",
                       seats=hands, beat_label="To beat (Computer 2):",
                       to_beat=tuple(parse_cards("5")), status=status,  # type: ignore[arg-type]
                       banner=banner, selected=frozenset(c.index for c in parse_cards("TT")))


def size(png: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(png)) as img:
        assert img.format == "PNG"
        return img.size


def test_the_same_puzzle_draws_the_same_bytes_and_the_banner_adds_height() -> None:
    playing = render_puzzle(view())
    assert playing == render_puzzle(view())
    width, height = size(playing)
    assert width == 800
    failed = render_puzzle(view("failed", ("3 loses.", "The winning move: play 10 10.",
                                           "How it loses: Computer 2: A · Ana: pass · " * 4)))
    assert size(failed)[1] > height + 3 * 34  # four lines: the long one on two
    solved = render_puzzle(view("solved", ("Solved in 2 moves!",)))
    assert height < size(solved)[1] < size(failed)[1]
    assert size(render_puzzle(view(seats=2)))[1] < height


def test_a_puzzle_has_two_or_three_hands() -> None:
    with pytest.raises(ValueError):
        render_puzzle(view(seats=1))
