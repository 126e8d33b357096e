"""The game on the fake Discord (``tests/support/fake_discord.py``): its server and
channel, the deal of the ``fake`` fixture (``tests/support/fixtures.py``), members and
the usual openings."""

from __future__ import annotations

import asyncio

from bot.game.hand import Hand
from bot.game.table import Table
from bot.rules import DEFAULT_RULES, RANKS, parse_ranks
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


def bidding_table() -> Table:
    """Ana (seat 0, to bid first) and two computers; the conftest deal."""
    table = Table.open(1, 2, 11, "Ana", computers=2)
    table.start(11, 0.0, hands=HANDS, kitty=KITTY, first_bidder=0)
    return table


async def answered(fake: FakeDiscord, view: Message, edits: int) -> None:
    """Wait until the view was edited past ``edits`` (the click's own answer)."""
    for _ in range(500):
        if fake.messages[view.id].edits > edits:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("no answer")


async def three_members_ana_leads(fake: FakeDiscord, locale: str = "en-US"
                                  ) -> tuple[Member, Member, Member]:
    """Ana (seat 0), Bo (seat 1) and Cy (seat 2); Ana bids 3 and is to lead."""
    ana, bo, cy = members(fake, locale)
    await ana.slash("start")
    await bo.click(fake.table_message(), fake.table_message().custom_ids()[0])  # Join
    await cy.click(fake.table_message(), fake.table_message().custom_ids()[0])
    await ana.click(fake.table_message(), fake.table_message().custom_ids()[3])  # Start
    bid3 = next(c for c in fake.table_message().custom_ids() if c.endswith(":bid3"))
    await ana.click(fake.table_message(), bid3)
    table = fake.bot.service.table_in_channel(fake.channel_id)
    assert table is not None and table.hand is not None
    assert [s.user_id for s in table.seats] == [11, 22, 33] and table.hand.turn == 0
    return ana, bo, cy


def pick_id(view: Message) -> str:
    """The custom_id of the hand view's card pick (``hcards``)."""
    return comp(view, "hcards")


def leading_table(table_id: str = "t1", seq: int = 5) -> Table:
    """Seat 0 won the bid and leads the first trick."""
    hand = Hand.deal(DEFAULT_RULES, hands=HANDS, kitty=KITTY, first_bidder=0)
    hand.bid(0, 3)
    return Table(id=table_id, guild_id=1, channel_id=2, starter_id=3, phase="playing", hand=hand,
                 hand_no=1, seq=seq)
