"""SQL steps for skill ratings and per-hand history, shared by both backends (``Sql``).

Each runs inside the caller's lock / transaction. Spec: docs/RATINGS.md.
"""

from __future__ import annotations

from bot.game.outcome import HandOutcome
from bot.game.rating import SkillRating, member_key, rate_hand
from bot.storage.outcome import rated_seats
from bot.storage.sql import Sql
from bot.values import HandPoint, RatingRow


async def apply_ratings(
    db: Sql, guild_id: int, outcome: HandOutcome, now: float
) -> dict[str, SkillRating]:
    """Rate the finished hand and upsert every seat's rating (caller commits).

    Returns the ratings after the hand by key ({} when a seat has no rating key).
    """
    seats = rated_seats(outcome)
    if seats is None:
        return {}
    keys = sorted({s.key for s in seats})
    marks = ", ".join("?" for _ in keys)
    rows = await db.fetch(
        f"SELECT player, mu, sigma, hands FROM ratings WHERE guild_id = ? AND player IN ({marks})",
        (guild_id, *keys),
    )
    current = {key: SkillRating(mu=mu, sigma=sigma, hands=hands) for key, mu, sigma, hands in rows}
    after = rate_hand(seats, outcome.winner == "landlord", current)
    user_of = {member_key(s.user_id): s.user_id for s in outcome.seats if s.user_id is not None}
    await db.executemany(
        "INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, player) DO UPDATE"
        " SET mu = excluded.mu, sigma = excluded.sigma, hands = excluded.hands,"
        " updated_at = excluded.updated_at",
        [
            (guild_id, key, user_of.get(key), r.mu, r.sigma, r.hands, now)
            for key, r in sorted(after.items())
        ],
    )
    return after


async def rating_rows(db: Sql, guild_id: int) -> list[RatingRow]:
    """Every rating of the guild (members and computer levels), best ordinal first."""
    rows = await db.fetch(
        "SELECT r.player, r.user_id, n.name, r.mu, r.sigma, r.hands FROM ratings r"
        " LEFT JOIN display_names n ON n.guild_id = r.guild_id AND n.user_id = r.user_id"
        " WHERE r.guild_id = ? ORDER BY r.mu - 3 * r.sigma DESC, r.hands DESC, r.player",
        (guild_id,),
    )
    return [
        RatingRow(
            user_id=user_id,
            computer=None if user_id is not None else player.partition(":")[2],
            name=name,
            rating=SkillRating(mu=mu, sigma=sigma, hands=hands),
        )
        for player, user_id, name, mu, sigma, hands in rows
    ]


async def member_rating(
    db: Sql, guild_id: int, user_id: int
) -> SkillRating | None:
    """The member's rating in the guild, None before their first rated hand."""
    rows = await db.fetch(
        "SELECT mu, sigma, hands FROM ratings WHERE guild_id = ? AND player = ?",
        (guild_id, member_key(user_id)),
    )
    if not rows:
        return None
    mu, sigma, hands = rows[0]
    return SkillRating(mu=mu, sigma=sigma, hands=hands)


async def hand_points(
    db: Sql, guild_id: int, user_id: int, limit: int
) -> list[HandPoint]:
    """The member's last ``limit`` settled hands in the guild, oldest first: in the order
    they were settled (the guild's hand numbers), whatever the clocks of the processes."""
    rows = await db.fetch(
        "SELECT f.hand_id, f.finished_at, f.match_no, h.role, h.points, h.total, h.mu, h.sigma"
        " FROM hand_players h JOIN finished_hands f ON f.hand_id = h.hand_id"
        " WHERE f.guild_id = ? AND h.user_id = ?"
        " ORDER BY f.hand_no DESC, f.finished_at DESC LIMIT ?",
        (guild_id, user_id, limit),
    )
    fields = ("hand_id", "finished_at", "match_no", "role", "points", "total", "mu", "sigma")
    points = [HandPoint(**dict(zip(fields, row, strict=True))) for row in rows]
    return points[::-1]

