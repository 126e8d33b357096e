"""A new feature plugs in through the contract alone (issue 49): the demonstration wing of
tests/support/ping_wing — one table kind (``ping``), one stored row, one command — is
installed beside the bot's ``FEATURES`` without a line of the core changed, and played end
to end on the fake Discord on both backends, in English and Spanish: ``/ddz ping`` deals
the table (its row and its own migration written), its public message is drawn, the member
opens their hand view (titled by the feature), bids from it, plays a card and passes when
she can, then lets auto-play finish; the hand's points land in the feature's row, and the
wing's own button (Points under ``/ddz ping``'s answer, its template declared in its
``Wing.routes``, none in cogs/items.py) shows them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.client import DdzBot
from bot.features.installed import FEATURES
from bot.i18n import t
from bot.rules import Card
from bot.settings import Settings
from cogs.items import KINDS, click_kind
from tests.support.databases import Database
from tests.support.fake_discord import FakeDiscord, Member, boot
from tests.support.fake_game import CHANNEL_ID, GUILD_ID
from tests.support.ping_wing.cog import ROUTES, points_id
from tests.support.ping_wing.feature import FEATURE as PING
from tests.support.ping_wing.service import PingService


@pytest.fixture
async def pinged(database: Database, tmp_path: Path,
                 monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    """The bot with every feature of ``FEATURES`` and the ping wing, on ``database``."""
    where: dict[str, Any] = ({"database_path": Path(database.location)}
                             if database.backend == "sqlite"
                             else {"database_url": database.location})
    settings = Settings(discord_token="test-token", computer_delay=(0.0, 0.0),
                        render_workers=0, hint_prefetch=False, autoplay_pace_scale=0.0,
                        **where)
    bot = DdzBot(settings, features=[*FEATURES, PING])
    fake = FakeDiscord(bot, GUILD_ID, CHANNEL_ID)
    fake.install(monkeypatch)
    await boot(bot)
    bot.get_cog("ddz").board.interval = 0.0
    yield fake
    await fake.idle()
    await bot.close()


def _component(view: Any, verb: str) -> str | None:
    """The custom_id of the hand view's component of ``verb`` (``hb3``, ``hplay``, …)."""
    return next((c for c in view.custom_ids() if f":{verb}." in c), None)


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
async def test_the_ping_wing_is_played_end_to_end_through_the_contract(
        pinged: FakeDiscord, locale: str) -> None:
    fake, lang = pinged, locale[:2]
    service = fake.bot.service
    assert "ping" in service.kinds  # registered by its install, not by the core
    ana = Member(fake, 11, "Ana", locale, locale)
    pong = (await ana.slash("ping")).last
    answer = pong.content
    assert answer.startswith("pong ")
    table_id = answer.split()[-1]
    assert pong.buttons()["Points"]["custom_id"] == points_id(table_id)
    assert click_kind(points_id(table_id)) == "other" and "pingpoints" not in KINDS
    assert click_kind(points_id(table_id), ROUTES) == "pingpoints"  # the wing's kind
    shown = (await ana.click(pong, "Points")).last
    assert shown.ephemeral and shown.content == f"points {table_id}: -"
    table = service.get(table_id)
    assert table is not None and table.kind == "ping" and not table.private
    assert fake.table_message().content  # its public message, drawn by the core's board
    pings = fake.bot.features.get(PingService)
    assert await pings.store.rows(GUILD_ID) == [(table_id, 11, None)]

    view = (await ana.slash("hand")).last
    title = t("hand.title", lang, table=f"ping {table_id}", hand=1)
    assert view.ephemeral and view.content.splitlines()[0] == title, view.content
    played = passed = False
    for _ in range(60):  # bid 3, then her lowest card each lead, and one pass when she may
        table = service.get(table_id)
        assert table is not None and table.hand is not None
        if table.phase != "playing" or (played and passed):
            break
        if table.hand.turn != 0:
            await fake.idle()
            view = (await ana.slash("hand")).last
            continue
        bid, cards = _component(view, "hb3"), _component(view, "hcards")
        if bid is not None and table.hand.phase == "bidding":
            view = (await ana.click(view, bid)).last
        elif table.hand.last_play is not None and table.hand.last_play.seat != 0 and not passed:
            view = (await ana.click(view, _component(view, "hpass") or "")).last
            passed = True
        elif cards is not None:  # her lead: the others may all pass on her first card
            low = min(Card.from_index(int(c)) for c in
                      (o["value"] for row in view.components for o in
                       next((c for c in row["components"] if c.get("custom_id") == cards),
                            {}).get("options", [])))
            view = (await ana.click(view, cards, [str(low.index)])).last
            view = (await ana.click(view, _component(view, "hplay") or "")).last
            played = True
        else:
            break
        assert view.content.splitlines()[0] == title, view.content
    assert played and passed
    await ana.slash("autoplay", mode="on")
    await fake.idle()
    table = service.get(table_id)
    assert table is not None and table.phase != "playing"
    [(kept_id, member, points)] = await pings.store.rows(GUILD_ID)
    assert (kept_id, member) == (table_id, 11) and points not in (None, 0)
    shown = (await ana.click(pong, "Points")).last  # the wing's button, after the hand
    assert shown.ephemeral and shown.content == f"points {table_id}: {points}"
