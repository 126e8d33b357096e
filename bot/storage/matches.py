"""Shared SQL of ``/ddz newmatch``, the previous match and members' auto-play pace.

Every backend runs these through its ``Sql`` adapter inside its own transaction
(``SqlRepository``). Spec: docs/RULES.md §Match ("starting a new match puts the three
at zero"), §Controls (auto-play pace).
"""

from __future__ import annotations

from bot.storage.ops import current_match, read_settings
from bot.storage.sql import Sql
from bot.values import MatchStandings, NewMatch, Standing


async def new_match(db: Sql, guild_id: int, expected: int | None, now: float) -> NewMatch:
    """End the guild's current match without a winner and start the next at zero.

    The finished match keeps its ledger rows and gets a ``match_results`` row with
    ``ended_by = 'newmatch'``. Nothing changes (``started`` False) when the current
    match is not ``expected`` (a second click of one confirm button) or has no settled
    hand yet. Hands still being played settle into the new match (``settle`` reads the
    current match when it commits).
    """
    match_no, hands = await current_match(db, guild_id, now)
    if (expected is not None and expected != match_no) or hands == 0:
        return NewMatch(old=match_no, new=match_no, hands=hands, started=False)
    rules = (await read_settings(db, guild_id)).rules
    await db.execute(
        "INSERT INTO match_results (guild_id, match_no, target, hands, ended_at, ended_by,"
        " match_hands) VALUES (?, ?, ?, ?, ?, 'newmatch', ?)",
        (guild_id, match_no, rules.target_points, hands, now, rules.match_hands),
    )
    await db.execute(
        "UPDATE guild_match SET match_no = ?, hands = 0, started_at = ? WHERE guild_id = ?",
        (match_no + 1, now, guild_id),
    )
    return NewMatch(old=match_no, new=match_no + 1, hands=hands, started=True)


async def previous_match(db: Sql, guild_id: int) -> MatchStandings | None:
    """The guild's last finished match (won, or ended by ``new_match``): final totals,
    how it ended and its winners; None before any match ended."""
    rows = await db.fetch(
        "SELECT match_no, target, hands, ended_by, match_hands FROM match_results"
        " WHERE guild_id = ? ORDER BY match_no DESC LIMIT 1",
        (guild_id,),
    )
    if not rows:
        return None
    match_no, target, hands, ended_by, match_hands = rows[0]
    winners = await db.fetch(
        "SELECT user_id FROM match_winners WHERE guild_id = ? AND match_no = ?"
        " ORDER BY total DESC, user_id",
        (guild_id, match_no),
    )
    ledger = await db.fetch(
        "SELECT l.user_id, n.name, l.total, l.hands FROM ledger l"
        " LEFT JOIN display_names n ON n.guild_id = l.guild_id AND n.user_id = l.user_id"
        " WHERE l.guild_id = ? AND l.match_no = ? ORDER BY l.total DESC, l.hands, l.user_id",
        (guild_id, match_no),
    )
    return MatchStandings(
        guild_id=guild_id, match_no=match_no, target=target, match_hands=match_hands,
        hands_played=hands, ended_by=ended_by, winners=[w for (w,) in winners],
        standings=[Standing(user_id=u, name=n, total=t, hands=h) for u, n, t, h in ledger],
    )


async def autoplay_pace(db: Sql, guild_id: int, user_id: int) -> float | None:
    """The member's last chosen auto-play pace in this guild (seconds), or None."""
    rows = await db.fetch(
        "SELECT autoplay_pace FROM member_prefs WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id),
    )
    return float(rows[0][0]) if rows else None


async def save_autoplay_pace(db: Sql, guild_id: int, user_id: int, pace: float) -> None:
    """Upsert the member's auto-play pace (seconds) in this guild."""
    await db.execute(
        "INSERT INTO member_prefs (guild_id, user_id, autoplay_pace) VALUES (?, ?, ?)"
        " ON CONFLICT (guild_id, user_id) DO UPDATE SET autoplay_pace = excluded.autoplay_pace",
        (guild_id, user_id, float(pace)),
    )
