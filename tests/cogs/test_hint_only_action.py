"""A Hint with one action only (nothing beats the play: pass) is final at once: no
search is started for it and its line is not the quick look's (docs/PERFORMANCE.md
§One action, no search).

Ana leads the rocket from her card menu; Bo opens his hand, presses Hint and reads
"Nothing in the hand beats it: pass." with no edit to follow, then presses Pass; Cy does
the same. Before, each Hint read as the quick look and started a search that could only
agree with it. In English and Spanish."""

from __future__ import annotations

import pytest

import bot.service.hints as hints
from bot.i18n import t
from tests.support.fake_discord import FakeDiscord
from tests.support.fake_game import comp, deal_for, three_members_ana_leads
from tests.support.gated_search import GatedSearch
from tests.support.menu_play import first_hint, hint_line, play_from_menu

LANGS = {"en-US": "en", "es-ES": "es"}


@pytest.mark.parametrize("locale", sorted(LANGS))
async def test_a_hint_with_only_a_pass_is_final_at_once_and_searches_nothing(
        fake: FakeDiscord, locale: str, monkeypatch: pytest.MonkeyPatch) -> None:
    lang = LANGS[locale]
    search = GatedSearch()  # closed: a search started would leave the quick look shown
    monkeypatch.setattr(hints, "compute", search)
    fake.deal = {"hands": deal_for("XD2222AAAAKKKKQQQ", "QJJ"), "kitty": "QJJ",
                 "first_bidder": 0}
    ana, bo, cy = await three_members_ana_leads(fake, locale)
    view = (await ana.slash("hand")).last
    reply = await play_from_menu(ana, view, "XD")
    assert reply.endswith({"en": "You played the rocket.",
                           "es": "Has jugado el cohete."}[lang]), reply

    final = "💡 " + t("reason.pass_cannot_beat", lang)
    for member, seat in ((bo, 1), (cy, 2)):
        view = (await member.slash("hand")).last
        line = await first_hint(fake, member, view)
        assert line == final, line  # not "Quick look (the full search may change it): …"
        edits = fake.messages[view.id].edits
        search.gate.set()  # a search, had one started, would now answer
        await fake.idle()
        search.gate.clear()
        assert fake.messages[view.id].edits == edits  # no later edit with a search's pick
        assert hint_line(fake.messages[view.id]) == final
        table = fake.bot.service.table_in_channel(fake.channel_id)
        assert table.hand.turn == seat
        reply = await member.click(fake.messages[view.id], comp(view, "hpass"))
        assert t("hand.passed", lang) in reply.text, reply.text
    assert search.calls == []  # no search started for either pass
    table = fake.bot.service.table_in_channel(fake.channel_id)
    assert table.hand.turn == 0 and table.hand.to_beat_for(0) is None  # Ana leads again
