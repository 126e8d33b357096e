"""Play is off in the hand view until cards are selected (docs/RULES.md §Controls).

Play-test: a new player pressed Play in a view with nothing selected and was told "Select
some cards first.". Play now turns on with the first card picked (the card menu, a rank
button, the Hint) and off again when the selection is cleared; an old or forged Play
pressed with nothing selected still answers politely and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import t
from bot.rules import show_cards
from tests.support.fake_discord import FakeDiscord, Message
from tests.support.fake_game import comp, three_members_ana_leads
from tests.support.forge import table_of

LOCALES = ["en-US", "es-ES", "zh-CN"]


def lang_of(locale: str) -> str:
    return "zh_CN" if locale == "zh-CN" else locale[:2]


def disabled(view: Message, verb: str) -> bool:
    wanted = comp(view, verb)
    return bool(next(c for row in view.components for c in row.get("components", [])
                     if c.get("custom_id") == wanted).get("disabled"))


def options(view: Message) -> list[dict[str, Any]]:
    return list(next(c for row in view.components for c in row.get("components", [])
                     if c.get("type") == 3)["options"])


@pytest.mark.parametrize("locale", LOCALES)
async def test_play_is_off_until_cards_are_picked_and_an_old_play_is_refused(
        fake: FakeDiscord, locale: str) -> None:
    lang = lang_of(locale)
    ana, bo, cy = await three_members_ana_leads(fake, locale)
    view = (await ana.slash("hand")).last
    assert disabled(view, "hplay") and disabled(view, "hpass")  # her lead, nothing picked
    empty = view

    # a card ticked in the menu: Play on; the menu emptied again: Play off
    low = options(view)[0]["value"]
    view = (await ana.click(view, comp(view, "hcards"), [low])).last
    assert not disabled(view, "hplay")
    view = (await ana.click(view, comp(view, "hcards"), [])).last
    assert disabled(view, "hplay")

    # the Play of the view drawn with nothing selected, pressed anyway (an old message,
    # a modified client): the polite answer, and the table does not move
    seq = table_of(fake).seq
    answer = (await ana.click(empty, comp(empty, "hplay"))).last
    no_cards = {"en": "⚠️ Select some cards first.", "es": "⚠️ Primero elige algunas cartas.",
                "zh_CN": "⚠️ 请先选牌。"}[lang]
    assert no_cards in answer.content, answer.content
    assert table_of(fake).seq == seq and table_of(fake).hand.turn == 0

    # the Hint selects its play: Play on, and pressing it plays
    view = (await ana.click(answer, comp(answer, "hhint"))).last
    await fake.idle()
    view = fake.messages[view.id]
    assert "💡" in view.content and not disabled(view, "hplay"), view.content
    reply = await ana.click(view, comp(view, "hplay"))
    hand = table_of(fake).hand
    played = hand.to_beat_for(1)
    assert hand.turn == 1 and played is not None
    assert reply.text.endswith("\n" + t("hand.played", lang, cards=show_cards(list(played.cards)))), \
        reply.text

    # Bo, to beat it: Pass on, Play off until he picks; he passes
    mine = (await bo.slash("hand")).last
    assert disabled(mine, "hplay") and not disabled(mine, "hpass")
    reply = await bo.click(mine, comp(mine, "hpass"))
    assert t("hand.passed", lang) in reply.text, reply.text

    # Cy: a rank button picks a card (Play on), Clear takes it back (Play off)
    mine = (await cy.slash("hand")).last
    assert disabled(mine, "hplay")
    rank = next(v for v in mine.custom_ids() if v.split(":")[3].split(".")[0].startswith("hr"))
    mine = (await cy.click(mine, rank)).last
    assert not disabled(mine, "hplay")
    mine = (await cy.click(mine, comp(mine, "hclear"))).last
    assert disabled(mine, "hplay")

    # auto-play needs no button: it plays the hand out
    for member in (ana, bo, cy):
        await member.slash("autoplay", mode="on")
    await fake.idle()
    assert table_of(fake).hand.result is not None
