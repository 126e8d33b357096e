"""The Hint's search of a member's turn starts ahead only once that member has asked
for a Hint at the table (docs/PERFORMANCE.md §Searched ahead only for who asks).

Ana, Bo and Cy play from their hand views with the search ahead on (the bot's default;
the fake Discord's tests turn it off). Ana's first lead is not searched ahead: her Hint
is the quick look. She plays its pick; Bo, who never asked, passes without a search
started for him, and so does Cy; her next lead is searched as it begins, and her Hint
there is the search's pick at once. In English and Spanish."""

from __future__ import annotations

import pytest

import bot.service.hints as hints
from bot.i18n import t
from tests.support.fake_discord import FakeDiscord
from tests.support.fake_game import comp, three_members_ana_leads
from tests.support.gated_search import GatedSearch
from tests.support.menu_play import first_hint, hint_line

LANGS = {"en-US": "en", "es-ES": "es"}


@pytest.mark.parametrize("locale", sorted(LANGS))
async def test_a_turn_is_searched_ahead_only_for_a_member_who_asked_for_a_hint(
        fake: FakeDiscord, locale: str, monkeypatch: pytest.MonkeyPatch) -> None:
    lang = LANGS[locale]
    quick = "💡 " + t("hand.hint_quick", lang, reason="")
    search = GatedSearch()  # closed until Ana's first Hint has its quick answer
    monkeypatch.setattr(hints, "compute", search)
    fake.bot.service.reads.prefetch_hints = True
    ana, bo, cy = await three_members_ana_leads(fake, locale)
    table = fake.bot.service.table_in_channel(fake.channel_id)
    assert search.calls == []  # Ana never asked: her lead is not searched ahead

    view = (await ana.slash("hand")).last
    assert (await first_hint(fake, ana, view)).startswith(quick)
    search.gate.set()  # from now on each search answers at once; ``calls`` says which ran
    await fake.idle()
    assert search.calls == [(table.id, table.seq, 0)]  # the search her Hint started
    view = fake.messages[view.id]
    assert not hint_line(view).startswith(quick)  # the search's pick, edited in
    reply = await ana.click(view, comp(view, "hplay"))
    assert t("hand.played", lang, cards="3344556677") in reply.text, reply.text
    assert len(search.calls) == 1  # Bo never asked: his turn is not searched ahead

    for member in (bo, cy):
        mine = (await member.slash("hand")).last
        assert t("hand.passed", lang) in (await member.click(mine, comp(mine, "hpass"))).text
    table = fake.bot.service.table_in_channel(fake.channel_id)
    assert table.hand.turn == 0 and table.hand.to_beat_for(0) is None
    assert search.calls[1:] == [(table.id, table.seq, 0)]  # her lead, searched ahead

    view = (await ana.slash("hand")).last
    line = await first_hint(fake, ana, view)
    assert line.startswith("💡 ") and not line.startswith(quick), line  # ready at once
    assert len(search.calls) == 2
    reply = await ana.click(fake.messages[view.id], comp(view, "hplay"))
    assert fake.bot.service.table_in_channel(fake.channel_id).hand.turn == 1
