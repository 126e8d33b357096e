"""Re-rate every server from its stored hands (``python -m bot.storage rerate DB``).

Spec: docs/RATINGS.md §Re-rating. For each server, its settled hands are rated again in
order (hand #1, #2, …) with today's model (``bot.game.rating.rate_hand``), from
newcomer ratings; the ``ratings`` rows of the server are replaced and each seat's
rating after each hand (``hand_players.mu``/``sigma``, the ``/ddz stats`` chart) is
rewritten. The result depends only on the stored hands, so a second run changes
nothing (idempotent). One transaction per server; stop the bot first.

* A seat's player: the member (``user_id``), else the computer level recorded since
  schema 6 (``hand_players.computer``). For a computer seat of an older hand the level
  is read back from its recorded rating: the level whose rating under the old model
  (``edge="fixed"``) gives the recorded μ/σ after that hand (the nearest one), or
  ``normal`` when that hand was never rated; the level found is stored, so the next
  run needs no guess.
* A hand with a member who used ``/ddz forget`` is not rated (nothing of that member
  is kept); its other seats keep the rating they had.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

from bot.game.rating import RatedSeat, SkillRating, computer_key, member_key, rate_hand
from bot.storage.base import SqlRepository
from bot.storage.sql import Sql

LEVELS = ("easy", "normal", "hard")


@dataclass
class _Seat:
    seat: int
    user_id: int | None
    landlord: bool
    points: int
    mu: float | None
    sigma: float | None
    computer: str | None

    @property
    def key(self) -> str | None:
        if self.user_id is not None:
            return member_key(self.user_id)
        return computer_key(self.computer) if self.computer is not None else None

    @property
    def forgotten(self) -> bool:
        """A member's seat whose member used ``/ddz forget`` (no id, no rating kept)."""
        return self.user_id is None and self.computer is None and self.mu is None


async def guild_ids(store: SqlRepository) -> list[tuple[int, int]]:
    """(guild id, settled hands) of every server with a settled hand, by guild id."""
    async with store._read() as db:
        rows = await db.fetch(
            "SELECT guild_id, count(*) FROM finished_hands GROUP BY guild_id ORDER BY guild_id"
        )
    return [(int(g), int(n)) for g, n in rows]


async def rerate_guild(
    db: Sql, guild_id: int, advance: Callable[[int], None] = lambda hands: None
) -> dict[str, SkillRating]:
    """Re-rate one server inside the caller's transaction; its ratings by key after.
    ``advance(1)`` is called after each hand."""
    hands = await db.fetch(
        "SELECT hand_id, finished_at FROM finished_hands WHERE guild_id = ?"
        " ORDER BY hand_no, finished_at, hand_id",
        (guild_id,),
    )
    rows = await db.fetch(
        "SELECT h.hand_id, h.seat, h.user_id, h.role, h.points, h.mu, h.sigma, h.computer"
        " FROM hand_players h JOIN finished_hands f ON f.hand_id = h.hand_id"
        " WHERE f.guild_id = ? ORDER BY h.hand_id, h.seat",
        (guild_id,),
    )
    seats: dict[str, list[_Seat]] = {}
    for hand_id, seat, user_id, role, points, mu, sigma, computer in rows:
        seats.setdefault(hand_id, []).append(
            _Seat(seat, user_id, role == "landlord", points, mu, sigma, computer)
        )
    stored = {
        str(k): SkillRating(mu=mu, sigma=sigma, hands=n)
        for k, mu, sigma, n in await db.fetch(
            "SELECT player, mu, sigma, hands FROM ratings WHERE guild_id = ?", (guild_id,))
    }
    levels = _Levels()
    old: dict[str, SkillRating] = {}  # the model before issue 26, to read old levels back
    new: dict[str, SkillRating] = {}
    last_at: dict[str, float] = {}
    updates: list[tuple[float | None, float | None, str | None, str, int]] = []
    for hand_id, finished_at in hands:
        hand = seats.get(hand_id, [])
        advance(1)
        if len(hand) != 3 or sum(s.landlord for s in hand) != 1 or any(s.forgotten for s in hand):
            for s in hand:
                kept = new.get(s.key or "")
                updates.append((kept.mu if kept else None, kept.sigma if kept else None,
                                s.computer, hand_id, s.seat))
            continue
        landlord_won = next(s.points for s in hand if s.landlord) > 0
        levels.fill(hand, landlord_won, old)
        rated = [RatedSeat(str(s.key), s.landlord) for s in hand]
        old.update(rate_hand(rated, landlord_won, old, edge="fixed"))
        after = rate_hand(rated, landlord_won, new)
        new.update(after)
        for s in hand:
            r = after[str(s.key)]
            last_at[str(s.key)] = float(finished_at)
            updates.append((r.mu, r.sigma, s.computer, hand_id, s.seat))
    named = levels.names(old, stored)
    if named:
        new, last_at, updates = _renamed(named, new, last_at, updates)
    await db.execute("DELETE FROM ratings WHERE guild_id = ?", (guild_id,))
    await db.executemany(
        "INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            (guild_id, key, int(key.partition(":")[2]) if key.startswith("member:") else None,
             r.mu, r.sigma, r.hands, last_at[key])
            for key, r in sorted(new.items())
        ],
    )
    await db.executemany(
        "UPDATE hand_players SET mu = ?, sigma = ?, computer = ? WHERE hand_id = ? AND seat = ?",
        updates,
    )
    return new


def _renamed(
    named: dict[str, str], new: dict[str, SkillRating], last_at: dict[str, float],
    updates: list[tuple[float | None, float | None, str | None, str, int]],
) -> tuple[dict[str, SkillRating], dict[str, float],
           list[tuple[float | None, float | None, str | None, str, int]]]:
    """Placeholder levels replaced by the levels they were found to be."""

    def key(k: str) -> str:
        level = k.partition(":")[2]
        return f"computer:{named[level]}" if k.startswith("computer:") and level in named else k

    return ({key(k): r for k, r in new.items()}, {key(k): t for k, t in last_at.items()},
            [(mu, sigma, named.get(c or "", c), h, seat) for mu, sigma, c, h, seat in updates])


class _Levels:
    """Reads back the computer levels of seats recorded without one (module doc).

    A level seen for the first time has a newcomer's rating, like any other unseen
    level, so it gets a placeholder key (``computer:?0``, …) that later hands follow;
    at the end each placeholder is named after the stored rating row (the old model's
    final ratings) it matches."""

    def __init__(self) -> None:
        self.placeholders: list[str] = []

    def fill(self, hand: list[_Seat], landlord_won: bool, old: dict[str, SkillRating]) -> None:
        unknown = [s for s in hand if s.user_id is None and s.computer is None]
        if not unknown:
            return
        if any(s.mu is None for s in unknown):  # never rated: nothing to read it from
            for s in unknown:
                s.computer = "normal"
            return
        seen = sorted(k.partition(":")[2] for k in old if k.startswith("computer:"))
        fresh = [f"?{len(self.placeholders) + i}" for i in range(len(unknown))]
        best: tuple[float, int, tuple[str, ...]] | None = None
        for levels in itertools.product([*seen, *fresh], repeat=len(unknown)):
            for s, level in zip(unknown, levels, strict=True):
                s.computer = level
            after = rate_hand([RatedSeat(str(s.key), s.landlord) for s in hand], landlord_won,
                              old, edge="fixed")
            miss = sum(abs(after[str(s.key)].mu - float(s.mu or 0.0))
                       + abs(after[str(s.key)].sigma - float(s.sigma or 0.0)) for s in unknown)
            new = len(set(levels) & set(fresh))
            if best is None or (round(miss, 6), new) < (round(best[0], 6), best[1]):
                best = (miss, new, levels)
        assert best is not None
        for s, level in zip(unknown, best[2], strict=True):
            s.computer = level
            if level in fresh and f"computer:{level}" not in self.placeholders:
                self.placeholders.append(f"computer:{level}")

    def names(self, old: dict[str, SkillRating], stored: dict[str, SkillRating]
              ) -> dict[str, str]:
        """Placeholder level → level: the stored level row nearest its final rating."""
        known = {k for k in old if k.startswith("computer:") and "?" not in k}
        free = {k: r for k, r in stored.items() if k.startswith("computer:") and k not in known}
        out = {}
        for key in self.placeholders:
            rating = old[key]
            near = min(free, default=None, key=lambda k: (
                abs(free[k].mu - rating.mu) + abs(free[k].sigma - rating.sigma)
                + abs(free[k].hands - rating.hands)))
            level = near.partition(":")[2] if near is not None else "normal"
            free.pop(near or "", None)
            out[key.partition(":")[2]] = level
        return out


@dataclass(frozen=True)
class Rerated:
    """What ``rerate_database`` did: servers and hands re-rated, ratings written."""

    guilds: int
    hands: int
    ratings: int


async def rerate_database(
    store: SqlRepository, advance: Callable[[int], None] = lambda hands: None
) -> Rerated:
    """Re-rate every server of ``store`` (one transaction each); ``advance(n)`` after
    each hand. Storage errors propagate (the server being re-rated is left as it was)."""
    guilds = await guild_ids(store)
    ratings = 0
    for guild_id, _ in guilds:

        async def step(db: Sql, guild_id: int = guild_id) -> dict[str, SkillRating]:
            return await rerate_guild(db, guild_id, advance)

        ratings += len(await store._transaction(step))
    return Rerated(len(guilds), sum(n for _, n in guilds), ratings)
