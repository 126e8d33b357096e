"""A server that already holds many active threads (docs/DISCORD.md rows 23 and 26), for
the thread-limit tests (tests/e2e/test_discord_threads.py, tests/e2e/test_tournament.py)."""

from __future__ import annotations

from sandbox.loopback.model import SimChannel, snowflake


def busy_threads(parent: SimChannel, count: int) -> list[SimChannel]:
    """``count`` active public threads under ``parent``, started by someone else before the
    bot came (no THREAD_CREATE: the bot has no part in them). Returns them."""
    made = [SimChannel(snowflake(), f"busy {n}", parent.guild, parent=parent)
            for n in range(count)]
    parent.guild.channels.extend(made)
    return made
