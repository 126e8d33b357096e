"""What a modified Discord client can send: any custom_id, any select values, on
any message, from any guild or channel. Plus snapshots of everything an
attack must leave unchanged (memory, database, points).

``forge_click`` dispatches without the fake client's "custom_id is on the
message" check; ``answers`` returns every message the bot produced for it.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from tests.support.fake_discord import FakeDiscord, Member, Message, Reply
from tests.support.fake_game import seated_hand

OTHER_GUILD = 700_000_000_000_000_901
OTHER_CHANNEL = 700_000_000_000_000_902
FORBIDDEN = re.compile(r"Traceback|Exception|Error\b|\berror\.[a-z_]+|[{}]|\bNone\b")
"""Text that must never reach a member (tracebacks, raw keys, unfilled placeholders)."""
APOLOGY = "something went wrong"


def forge_payload(member: Member, message: Message, custom_id: str,
                  values: list[str] | None = None, *, component_type: int | None = None,
                  guild_id: int | None = None, channel_id: int | None = None) -> dict[str, Any]:
    """A component interaction as a modified client could send it."""
    data = member._base(3)
    data["data"] = {"custom_id": custom_id,
                    "component_type": component_type or (3 if values is not None else 2)}
    if values is not None:
        data["data"]["values"] = values
    data["message"] = _carrying(message, custom_id, data["data"]["component_type"])
    if guild_id is not None:
        data["guild_id"] = str(guild_id)
        data["channel"]["guild_id"] = str(guild_id)
    if channel_id is not None:
        data["channel_id"] = data["channel"]["id"] = str(channel_id)
    return data


def _carrying(message: Message, custom_id: str, component_type: int) -> dict[str, Any]:
    """The message payload as if it held the forged component (discord.py only routes a
    custom_id found on the interaction's message; the worst case is that Discord does
    not check it, so the forged component is put there)."""
    payload = message.payload()
    if custom_id in message.custom_ids():
        return payload
    if component_type == 3:
        comp: dict[str, Any] = {"type": 3, "custom_id": custom_id, "min_values": 1,
                                "max_values": 1, "options": [{"label": "x", "value": "0"}]}
    else:
        comp = {"type": 2, "style": 2, "label": "forged", "custom_id": custom_id}
    payload["components"] = [*payload["components"][:4], {"type": 1, "components": [comp]}]
    return payload


def dispatch(member: Member, message: Message, custom_id: str,
             values: list[str] | None = None, **where: Any) -> str:
    """Send a forged click without waiting; returns its token."""
    return member.fake.dispatch(forge_payload(member, message, custom_id, values, **where))


async def forge_click(member: Member, message: Message, custom_id: str,
                      values: list[str] | None = None, **where: Any) -> Reply:
    """Send a forged click, wait until the bot is idle, return what it answered."""
    token = dispatch(member, message, custom_id, values, **where)
    await member.fake.idle()
    return member._reply(token)


async def slash_from(member: Member, sub: str, *, guild_id: int | None = None,
                     channel_id: int | None = None, **options: Any) -> Reply:
    """A slash command, optionally from another guild / channel."""
    data = member.slash_payload(sub, **options)
    if guild_id is not None:
        data["guild_id"] = data["channel"]["guild_id"] = str(guild_id)
    if channel_id is not None:
        data["channel_id"] = data["channel"]["id"] = str(channel_id)
    token = member.fake.dispatch(data)
    await member.fake.idle()
    return member._reply(token)


def assert_polite(reply: Reply, *expected: str) -> None:
    """Exactly one ephemeral answer, no traceback or raw text, containing ``expected``
    (any of them when several are given), at most Discord's 2000 characters."""
    assert reply.messages, "no answer at all"
    for message in reply.messages:
        assert message.ephemeral, message
        assert len(message.content) <= 2000, len(message.content)
        assert not FORBIDDEN.search(message.content), message.content
    assert APOLOGY not in reply.text, reply.text
    if expected:
        assert any(e in reply.text for e in expected), reply.text


def table_of(fake: FakeDiscord) -> Any:
    table = fake.bot.service.table_in_channel(fake.channel_id)
    assert table is not None
    return table


async def snapshot(fake: FakeDiscord) -> dict[str, Any]:
    """Every open table (memory and database), standings and leaderboards."""
    service, storage = fake.bot.service, fake.bot.storage
    memory = {t.id: t.model_dump_json() for t in service.tables()}
    stored = {t.id: t.model_dump_json() for t in await storage.load_open_tables()}
    guilds = {fake.guild_id, OTHER_GUILD}
    points = {g: (repr(await storage.match_standings(g)), repr(await storage.leaderboard(g)))
              for g in guilds}
    return {"memory": memory, "stored": stored, "points": points}


def hand_ids(message: Message) -> list[str]:
    return [c for c in message.custom_ids() if re.match(r"ddz:\w+:\d+:h", c)]


def with_verb(custom_id: str, verb: str) -> str:
    """The same hand-view custom_id with another verb (``hr0`` → ``hplay`` …)."""
    head, state = custom_id.split(".", 1)
    prefix = head.rsplit(":", 1)[0]
    return f"{prefix}:h{verb}.{state}"


def with_seq(custom_id: str, seq: int | str) -> str:
    parts = custom_id.split(":")
    parts[2] = str(seq)
    return ":".join(parts)


def with_state(custom_id: str, state: str) -> str:
    """Replace the ``<mask>.<sort><hint>`` tail of a hand-view custom_id."""
    head = custom_id.split(".", 1)[0]
    return f"{head}.{state}"


async def playing_hand(fake: FakeDiscord) -> tuple[Member, Member, Member]:
    """As ``seated_hand``, then Ana bids 3: Ana is landlord and leads."""
    ana, bo, cy = await seated_hand(fake)
    await ana.click(fake.table_message(), "Bid 3")
    return ana, bo, cy


def visible_text(message: Message) -> str:
    """Everything a member can read in a message: content, embeds, alt texts, labels."""
    labels = [f"{c.get('label', '')} {c.get('placeholder', '')} "
              + " ".join(o.get("label", "") for o in c.get("options", []))
              for row in message.components for c in row.get("components", [])]
    return "\n".join([message.content, repr(message.embeds), *message.alt_texts, *labels])


async def answered(fake: FakeDiscord, tokens: list[str], seconds: float = 5.0) -> None:
    """Wait until each interaction got an answer (when ``fake.idle`` cannot be used:
    a computer seat is deliberately left thinking)."""
    for _ in range(int(seconds / 0.02)):
        await asyncio.sleep(0.02)
        if all(any(not fake.messages[i].loading for i in fake.replies.get(tok, []))
               for tok in tokens):
            return
    raise AssertionError("not answered")
