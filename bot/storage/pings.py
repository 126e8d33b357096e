"""Shared SQL of turn pings: each member's ``/ddz notify`` choice and the pings sent and
not yet deleted (docs/RULES.md §Turn pings).

Every backend runs these through its ``Sql`` adapter inside its own transaction
(``SqlRepository``).
"""

from __future__ import annotations

from bot.storage.sql import Sql
from bot.values import SentPing, ShardSet


async def notify(db: Sql, guild_id: int, user_id: int) -> bool:
    """The member's ``/ddz notify`` choice in this guild (True when never set)."""
    rows = await db.fetch(
        "SELECT notify FROM member_pings WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id),
    )
    return bool(rows[0][0]) if rows else True


async def save_notify(db: Sql, guild_id: int, user_id: int, on: bool) -> None:
    """Upsert the member's ``/ddz notify`` choice in this guild."""
    await db.execute(
        "INSERT INTO member_pings (guild_id, user_id, notify) VALUES (?, ?, ?)"
        " ON CONFLICT (guild_id, user_id) DO UPDATE SET notify = excluded.notify",
        (guild_id, user_id, int(on)),
    )


async def save_sent(db: Sql, ping: SentPing) -> None:
    """Remember a ping posted (one per table: a newer one replaces the row)."""
    await db.execute(
        "INSERT INTO turn_pings (table_id, guild_id, channel_id, user_id, move_seq, message_id)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id) DO UPDATE"
        " SET guild_id = excluded.guild_id, channel_id = excluded.channel_id,"
        " user_id = excluded.user_id, move_seq = excluded.move_seq,"
        " message_id = excluded.message_id",
        (ping.table_id, ping.guild_id, ping.channel_id, ping.user_id, ping.move_seq,
         ping.message_id),
    )


async def delete_sent(db: Sql, table_id: str, message_id: int) -> None:
    """Forget the ping ``message_id`` of ``table_id`` (deleted from Discord, or gone)."""
    await db.execute("DELETE FROM turn_pings WHERE table_id = ? AND message_id = ?",
                     (table_id, message_id))


async def sent(db: Sql, shards: ShardSet | None = None) -> list[SentPing]:
    """Every ping still to delete (of guilds on ``shards`` only, if given)."""
    rows = await db.fetch(
        "SELECT table_id, guild_id, channel_id, user_id, move_seq, message_id FROM turn_pings"
        " ORDER BY table_id", ())
    pings = [SentPing(table_id=t, guild_id=g, channel_id=c, user_id=u, move_seq=s,
                      message_id=m) for t, g, c, u, s, m in rows]
    return [p for p in pings if shards is None or shards.owns(p.guild_id)]
