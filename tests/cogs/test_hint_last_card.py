"""When an opponent has one card left, the Hint calls only the highest single "your
highest single" (docs/RULES.md §Controls; reason codes in docs/AI.md).

Play-test: cycling the Hint read "An opponent has one card left: lead the highest single
3" for a 3: the normal level gave that reason to every single it scored. Now the highest
single reads "lead your highest single, …" and a lower one says what it risks
(``lead_low_single_risky``). Bo goes down to one card by hand (a 2 over Ana's 3, a
straight from 3 to A, the trio 888), Ana takes that trick with QQQ and, to lead, presses
Hint again and again; she plays the highest single, in English, Spanish and zh-CN."""

from __future__ import annotations

import pytest

import bot.service.hints as hints
from tests.support.fake_discord import FakeDiscord
from tests.support.fake_game import comp, three_members_ana_leads
from tests.support.gated_search import GatedSearch
from tests.support.menu_play import hint_line, play_from_menu, selected

ANA = "3466779TJQQQKA2X7"
BO = "3456789TJQKA88825"
CY = "34569TTJJKKAA22D9"
KITTY = "345"
"""Ana (landlord) leads the 3 and later beats Bo's 888 with QQQ; Bo keeps one 5."""

READ = {
    "en-US": {"X": "💡 An opponent has one card left: lead your highest single, the small joker.",
              "3": "💡 An opponent has one card left: 3 is lower than your highest single and"
                   " may let them go out.",
              "played": "You played the small joker.", "passed": "You passed."},
    "es-ES": {"X": "💡 A un rival le queda una carta: abre con tu carta más alta, el comodín"
                   " pequeño.",
              "3": "💡 A un rival le queda una carta: 3 no es tu carta más alta y puede"
                   " dejarle salir.",
              "played": "Has jugado el comodín pequeño.", "passed": "Has pasado."},
    "zh-CN": {"X": "💡 对手只剩一张牌：先出最大的单张 小王。",
              "3": "💡 对手只剩一张牌：3 比你最大的单张小，可能让对手出完。",
              "played": "你出了 小王。", "passed": "你选择了不出。"},
}


@pytest.mark.parametrize("locale", sorted(READ))
async def test_with_one_card_left_against_her_the_hint_names_only_the_highest_single_so(
        fake: FakeDiscord, locale: str, monkeypatch: pytest.MonkeyPatch) -> None:
    read = READ[locale]
    lang = {"en-US": "en", "es-ES": "es"}.get(locale, locale)
    search = GatedSearch()
    search.gate.set()  # the search's list at once: the Hint cycles the normal ranking
    monkeypatch.setattr(hints, "compute", search)
    fake.deal = {"hands": [ANA, BO, CY], "kitty": KITTY, "first_bidder": 0}
    ana, bo, cy = await three_members_ana_leads(fake, locale)

    async def passes(*members: object) -> None:
        for member in members:
            mine = (await member.slash("hand")).last  # type: ignore[attr-defined]
            text = (await member.click(mine, comp(mine, "hpass"))).text  # type: ignore[attr-defined]
            assert read["passed"] in text, text

    await play_from_menu(ana, (await ana.slash("hand")).last, "3")
    await play_from_menu(bo, (await bo.slash("hand")).last, "2")
    await passes(cy, ana)
    await play_from_menu(bo, (await bo.slash("hand")).last, "3456789TJQKA")
    await passes(cy, ana)
    await play_from_menu(bo, (await bo.slash("hand")).last, "888")
    await passes(cy)
    await play_from_menu(ana, (await ana.slash("hand")).last, "QQQ")
    await passes(bo, cy)
    hand = fake.bot.service.table_in_channel(fake.channel_id).hand
    assert hand.turn == 0 and hand.cards_left(1) == 1 and hand.to_beat_for(0) is None

    view = (await ana.slash("hand")).last
    seen: dict[str, str] = {}
    for _ in range(60):
        view = (await ana.click(view, comp(view, "hhint"))).last
        seen.setdefault(selected(view, lang), hint_line(view))
        if {"X", "3"} <= set(seen):
            break
    assert {key: seen.get(key) for key in ("X", "3")} == {"X": read["X"], "3": read["3"]}, seen
    highest = [line for line in seen.values() if line == read["X"]]
    assert len(highest) == 1, seen  # no other single is called the highest
    while selected(view, lang) != "X":  # round again to the small joker
        view = (await ana.click(view, comp(view, "hhint"))).last
    assert read["played"] in (await ana.click(view, comp(view, "hplay"))).text
