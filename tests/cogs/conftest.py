"""Fixtures: the real bot (storage, service, cog, command tree) on a fake Discord."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.client import DdzBot
from bot.rules import RANKS, parse_ranks
from bot.settings import Settings
from tests.support.fake_discord import FakeDiscord, Member, boot

GUILD_ID = 700_000_000_000_000_001
CHANNEL_ID = 700_000_000_000_000_002

# docs/RULES.md notation; seat 0 bids first. 17 + 17 + 17 + kitty 3 = the 54 cards.
HANDS = ["3334445566778899T", "3456789TJJQQKKAA2", "56789TTJJQQKKAA22"]
KITTY = "2XD"


@pytest.fixture
async def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    settings = Settings(discord_token="test-token", database_path=tmp_path / "ddz.sqlite3",
                        computer_delay=(0.0, 0.0), render_workers=0,  # images in threads
                        hint_prefetch=False,  # a Hint's search starts at the click
                        autoplay_pace_scale=0.0,  # auto-play without its pace
                        deal_seed=20261130)  # Play again deals the same hands every run
    bot = DdzBot(settings)
    fake = FakeDiscord(bot, GUILD_ID, CHANNEL_ID)
    fake.install(monkeypatch)
    await boot(bot)
    cog = bot.get_cog("ddz")
    cog.board.interval = 0.0
    service = bot.service
    original_start = service.start

    fake.deal = {"hands": HANDS, "kitty": KITTY, "first_bidder": 0}

    async def start(table_id: str, user_id: int, seq: int | None = None, **deal: Any) -> Any:
        return await original_start(table_id, user_id, seq, **{**fake.deal, **deal})

    service.start = start
    yield fake
    await fake.idle()
    await bot.close()


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
