"""The game on the fake Discord (``tests/support/fake_discord.py``): its server and
channel, the deal of the ``fake`` fixture (``tests/support/fixtures.py``), members and
the usual openings."""

from __future__ import annotations

from bot.rules import RANKS, parse_ranks
from tests.support.fake_discord import FakeDiscord, Member, Message

GUILD_ID = 700_000_000_000_000_001
CHANNEL_ID = 700_000_000_000_000_002

# docs/RULES.md notation; seat 0 bids first. 17 + 17 + 17 + kitty 3 = the 54 cards.
HANDS = ["3334445566778899T", "3456789TJJQQKKAA2", "56789TTJJQQKKAA22"]
KITTY = "2XD"


def deal_for(first: str, kitty: str = KITTY) -> list[str]:
    """Hands where seat 0 holds ``first``; the other cards alternate between seats 1 and 2."""
    counts = [4] * 13 + [1, 1]
    for rank in parse_ranks(first + kitty):
        counts[rank.index] -= 1
    rest = [RANKS[i].symbol for i, n in enumerate(counts) for _ in range(n)]
    return [first, "".join(rest[0::2]), "".join(rest[1::2])]


def members(fake: FakeDiscord, locale: str = "en-US") -> tuple[Member, Member, Member]:
    """Ana, Bo and Cy (Cy never sits down)."""
    return (Member(fake, 11, "Ana", locale, locale), Member(fake, 22, "Bo", locale, locale),
            Member(fake, 33, "Cy", locale, locale))


async def autoplayed_solo_hand(fake: FakeDiscord) -> Member:
    """Ana bids 3 on a winning deal against two computers and lets auto-play finish the
    hand; returns Ana once the result is on the table message."""
    fake.deal = {"hands": deal_for("XD2222AAAAKKKKQQQ", "QJJ"), "kitty": "QJJ", "first_bidder": 0}
    ana, _, _ = members(fake)
    await ana.slash("start", computers=2)
    await ana.click(fake.table_message(), "Start")
    await ana.click(fake.table_message(), "Bid 3")
    await ana.slash("autoplay", mode="on")
    await fake.idle()
    return ana


async def seated_hand(fake: FakeDiscord) -> tuple[Member, Member, Member]:
    """Ana (seat 0, bids first, starter), Bo (seat 1), a computer (seat 2); Cy watches."""
    ana, bo, cy = members(fake)
    await ana.slash("start")
    await bo.click(fake.table_message(), "Join")
    await ana.click(fake.table_message(), "Add computer")
    await bo.click(fake.table_message(), "Start")
    return ana, bo, cy


def comp(message: Message, verb: str) -> str:
    """The custom_id of a hand-view component by verb (``hr0``, ``hplay``, …)."""
    for custom_id in message.custom_ids():
        if custom_id.split(":")[3].split(".")[0] == verb:
            return custom_id
    raise AssertionError(f"{verb} not in {message.custom_ids()}")
