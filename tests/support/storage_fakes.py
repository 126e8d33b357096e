"""Finished-table fixtures for the storage tests (shape of bot.game.table.Table)."""

from __future__ import annotations

from pydantic import BaseModel

from bot.game.models import Action, HandResult
from bot.rules import DEFAULT_RULES, classify, parse_cards


class FakeSeat(BaseModel):
    user_id: int | None
    name: str
    computer: str | None = None


class FakeHand(BaseModel):
    landlord: int | None = None
    result: HandResult | None = None
    history: list[Action] = []


class FakeTable(BaseModel):
    id: str
    guild_id: int
    channel_id: int
    seats: list[FakeSeat]
    hand: FakeHand | None = None
    seq: int = 0
    feature_deals: bool = False


def play(seat: int, cards: str) -> Action:
    """A play action of ``cards`` (docs/RULES.md notation), first reading."""
    return Action(kind="play", seat=seat, combo=classify(parse_cards(cards), DEFAULT_RULES)[0])


def finished_table(
    *,
    table_id: str = "t1",
    guild_id: int = 1,
    users: tuple[int | None, int | None, int | None] = (101, 102, 103),
    landlord: int = 0,
    winner: str = "landlord",
    base: int = 1,
    bombs_by: tuple[int, ...] = (),
    spring: bool = False,
    seq: int = 7,
) -> FakeTable:
    """A table whose hand just finished; P = base × 2^(bombs + spring)."""
    doublings = len(bombs_by) + int(spring)
    p = base * 2**doublings
    sign = 1 if winner == "landlord" else -1
    points = tuple(2 * p * sign if s == landlord else -p * sign for s in range(3))
    history = [Action(kind="bid", seat=landlord, amount=base)]
    history += [play(seat, "4444") for seat in bombs_by]
    history.append(play(landlord, "3"))
    result = HandResult(
        winner=winner,
        landlord=landlord,
        out_seat=landlord,
        base=base,
        doublings=doublings,
        bombs=len(bombs_by),
        rockets=0,
        spring=spring and winner == "landlord",
        anti_spring=spring and winner != "landlord",
        points=points,
    )
    seats = [
        FakeSeat(user_id=u, name=f"user{u}" if u else f"Bot {i}", computer=None if u else "normal")
        for i, u in enumerate(users)
    ]
    return FakeTable(
        id=table_id,
        guild_id=guild_id,
        channel_id=guild_id * 10,
        seats=seats,
        hand=FakeHand(landlord=landlord, result=result, history=history),
        seq=seq,
    )
