"""A sample replay page for the rendering tests: three seats (a long name with an emoji and
a computer among them) and a trick with a bomb and an auto-played pass."""

from __future__ import annotations

from bot.rules import parse_cards
from rendering.replay_models import ReplayLine, ReplayPage, ReplaySeat

SEATS = (ReplaySeat("Ana", is_landlord=True, cards=tuple(parse_cards("3456789"))),
         ReplaySeat("Bot 2", is_computer=True, cards=tuple(parse_cards("TTJJ"))),
         ReplaySeat("张伟😀 Ñandú the Magnificent!!", cards=()))
TRICK = (ReplayLine(0, "lead", cards=tuple(parse_cards("3333"))[:3]),
         ReplayLine(1, "follow", cards=tuple(parse_cards("4444")), doubling="bomb"),
         ReplayLine(2, "pass", auto=True))


def sample_page(lines: tuple[ReplayLine, ...] = TRICK) -> ReplayPage:
    """Page 3 of 9 of hand #7: trick 1 of 6 with ``lines``, bid 2, doubled once."""
    return ReplayPage("trick", SEATS, lines, hand_number=7, page=3, pages=9, trick=1, tricks=6,
                      bid=2, multiplier=2)
