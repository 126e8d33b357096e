"""Text slips a new player met (issue 37 §6), each as the member sees it, in English and
Spanish: Auto said the same thing twice, the channel told a computer "your turn",
``web:on`` promised "new tables" though it acts at once, and a forged card value read
"You don't hold ?."."""

from __future__ import annotations

import pytest

from bot.game.table import Table
from bot.i18n import t
from cogs.texts import public_text
from tests.cogs.test_fair_stale import pick_id, three_members_ana_leads
from tests.cogs.test_flow import comp
from tests.security.forge import forge_click
from tests.support.fake_discord import FakeDiscord, Member

GUILD_ID, CHANNEL_ID = 1, 2


@pytest.mark.parametrize(("locale", "sentence"), [
    ("en-US", "the computer plays for you"), ("es-ES", "el ordenador juega por ti")])
async def test_auto_says_that_auto_play_is_on_once(fake: FakeDiscord, locale: str,
                                                   sentence: str) -> None:
    # Before: the view's line "Auto-play is on (one move every 2 s): the computer plays for
    # you…" and the button's notice "Auto-play is on: the computer plays for you, one move
    # every 2 s…" one under the other.
    _, bo, _ = await three_members_ana_leads(fake, locale)
    view = (await bo.slash("hand")).last
    reply = await bo.click(view, comp(view, "ha1"))
    assert reply.last.content.count(sentence) == 1, reply.last.content
    assert comp(reply.last, "ha0")
    off = await bo.click(reply.last, comp(reply.last, "ha0"))  # off still says so
    assert ("Auto-play is off" if locale == "en-US" else "Juego automático desactivado"
            ) in off.last.content, off.last.content


@pytest.mark.parametrize(("lang", "bidding", "playing"), [
    ("en", "{name} (computer, normal) bids next.", "{name} plays next."),
    ("es", "Ahora apuesta {name} (ordenador, normal).", "Ahora juega {name}.")])
def test_the_channel_never_tells_a_computer_your_turn(lang: str, bidding: str,
                                                      playing: str) -> None:
    # Before: "Bot 2 (computer, normal), your turn." under the table.
    table = Table.open(GUILD_ID, CHANNEL_ID, 11, "Ana", computers=2)
    table.start(11, 0.0, seed=3)
    assert table.hand is not None
    if table.hand.turn == 0:
        table.bid(11, 0, 0.0)  # Ana passes: a computer is to bid
    turn = table.hand.turn
    assert turn is not None and turn != 0
    text, ping = public_text(table, lang)
    assert bidding.format(name=table.seats[turn].name) in text, text
    assert "your turn" not in text and "te toca" not in text and ping is None
    assert t("table.turn_other_play", lang, name="{name}") == playing


@pytest.mark.parametrize(("locale", "now", "later"), [
    ("en-US", "Settings saved. They apply at once.",
     "Settings saved. New tables and hands use them."),
    ("es-ES", "Ajustes guardados. Se aplican ya.",
     "Ajustes guardados. Las mesas y manos nuevas los usarán.")])
async def test_config_says_whether_a_setting_acts_at_once(fake: FakeDiscord, locale: str,
                                                          now: str, later: str) -> None:
    # Before: web:on answered "New tables and hands use them." and served the page at once.
    admin = Member(fake, 44, "Di", admin=True, locale=locale)
    web = await admin.slash("config", web="on")
    assert now in web.text and later not in web.text, web.text
    assert (await fake.bot.service.settings(fake.guild_id)).web
    timer = await admin.slash("config", turn_seconds=45)
    assert later in timer.text, timer.text
    both = await admin.slash("config", web="off", turn_seconds=50)
    assert ("new tables and hands use the others" in both.text
            or "las mesas y manos nuevas usan los demás" in both.text), both.text


@pytest.mark.parametrize(("locale", "expected"), [
    ("en-US", "That option value is not one of the choices; nothing was changed."),
    ("es-ES", "Ese valor no es una de las opciones; no se ha cambiado nada.")])
async def test_a_forged_card_value_that_names_no_card_is_refused_without_a_question_mark(
        fake: FakeDiscord, locale: str, expected: str) -> None:
    # Before: "You don't hold ?." (card index 99 is no card at all).
    ana, _, _ = await three_members_ana_leads(fake, locale)
    view = (await ana.slash("hand")).last
    reply = await forge_click(ana, view, pick_id(view), ["99"])
    assert expected in reply.text and "?." not in reply.text, reply.text
