"""Tables of the game-layer tests: a lobby of Alice, Bob and Carol, the same table with a
fixed hand dealt, and the check that a refused action changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.game import GameError, Table
from tests.support.deals import make_deal

ALICE, BOB, CAROL, DAVE = 1, 2, 3, 4
DEAL = make_deal("3", "2 56789TJQKA 666777")
HANDS = [DEAL.dealt[0], DEAL.dealt[1], DEAL.dealt[2]]


def lobby() -> Table:
    """Alice's lobby in guild 10, channel 20, with Bob and Carol (Spanish) seated."""
    table = Table.open(10, 20, ALICE, "Alice", "en-US")
    table.join(BOB, "Bob")
    table.join(CAROL, "Carol", "es-ES")
    return table


def started(now: float = 100.0) -> Table:
    """``lobby()`` with ``DEAL`` dealt at clock time ``now``, Alice bidding first."""
    table = lobby()
    table.start(ALICE, now, hands=HANDS, kitty=DEAL.kitty, first_bidder=0)
    return table


def refused(table: Table, call: Callable[[Table], Any], code: str) -> None:
    """``call(table)`` raises GameError ``code`` and leaves the table as it was."""
    before = table.model_dump_json()
    with pytest.raises(GameError) as error:
        call(table)
    assert error.value.code == code
    assert table.model_dump_json() == before


def points_by_player(table: Table) -> dict[int, int]:
    """The finished hand's point changes per member (computer seats left out). Raises
    ValueError when there is no result."""
    if table.hand is None or table.hand.result is None:
        raise ValueError("no finished hand")
    points = table.hand.result.points
    return {s.user_id: points[i] for i, s in enumerate(table.seats) if s.user_id is not None}
