"""Every kind of table the installed features register opens a member's hand view, in
English and Spanish, its first line the feature's title for that kind
(``TableService.hand_title``). Issue 49: a tournament table's view answered "Sorry,
something went wrong" (``KeyError: 'tournament'``) while the hand view kept a table of
titles of its own that the tournaments never entered."""

from __future__ import annotations

from typing import Any

import pytest

from bot.features.daily.values import DailyTable
from bot.features.events.values import EventDeal
from bot.features.tournaments.values import TournamentKey
from bot.game.table import TablePayload
from bot.i18n import t
from cogs.items import ViewState
from tests.support.fake_discord import FakeDiscord, Member
from tests.support.fake_game import seated_hand

KIND_OF: dict[str, TablePayload | None] = {
    "table": None,
    "daily": DailyTable(day="2026-12-06"),
    "event": EventDeal(event_id="ab12cd", deal=2),
    "tournament": TournamentKey(tournament_id="c0ffee", round_no=1, table_no=1),
}
"""How this test makes a table of each kind (the payload its feature marks a ``Table``
with)."""
TITLES = {
    "table": lambda table, lang: t("hand.title", lang, table=table.id, hand=table.hand_no),
    "daily": lambda table, lang: t("daily.title", lang, day="2026-12-06"),
    "event": lambda table, lang: t("event.title", lang, deal=2),
    "tournament": lambda table, lang: t("tournament.hand_title", lang, round=1, table=1,
                                        hand=table.hand_no),
}


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
async def test_every_registered_kind_opens_a_members_hand_view(fake: FakeDiscord,
                                                              locale: str) -> None:
    cog: Any = fake.bot.get_cog("ddz")
    service = fake.bot.service
    assert service.kinds == sorted(KIND_OF)  # a new kind: say here how to make a table of it
    await seated_hand(fake)
    ana = Member(fake, 11, "Ana", locale, locale)
    lang = locale[:2]
    table = service.table_in_channel(fake.channel_id)
    assert table is not None
    for kind, payload in KIND_OF.items():
        made = table.model_copy() if payload is None else payload.mark(table.model_copy())
        assert made.kind == kind
        service._tables[table.id] = made  # noqa: SLF001  # a table of that kind, as dealt
        screen = await cog.hands.render(made, 0, ViewState(), lang)
        assert screen.content.splitlines()[0] == TITLES[kind](made, lang)
        assert screen.view is not None and screen.png
        if not made.private:  # a public table: the member asks for their view
            view = (await ana.slash("hand")).last
            assert view.content.splitlines()[0] == TITLES[kind](made, lang), kind
    service._tables[table.id] = table  # noqa: SLF001
