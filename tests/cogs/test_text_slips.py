"""Text slips a new player met (issue 37 §6), each as the member sees it, in English and
Spanish: Auto said the same thing twice, the channel told a computer "your turn",
``web:on`` promised "new tables" though it acts at once, and a forged card value read
"You don't hold ?."."""

from __future__ import annotations

import pytest

from bot.game.table import Table
from bot.i18n import t
from cogs.texts import public_text
from tests.support.fake_discord import FakeDiscord, Member
from tests.support.fake_game import comp, pick_id, three_members_ana_leads
from tests.support.forge import forge_click

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
    counter = await admin.slash("config", counter="off")  # read on every view drawn
    assert now in counter.text, counter.text
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


def test_an_events_name_is_not_read_as_the_subject_of_a_gendered_word() -> None:
    # Before: "**Copa del viernes** está cerrado" (la copa… cerrado): the event is closed.
    name = "Copa del viernes"
    assert t("event.closed", "es", name=name, channel="#ddz").startswith(
        "El evento **Copa del viernes** está cerrado.")
    assert t("error.event_closed", "es", name=name).startswith(
        "El evento **Copa del viernes** está cerrado:")
    assert t("event.announce", "es", name=name).startswith(
        "🏆 El evento **Copa del viernes** ha terminado")
    assert t("event.closed", "en", name=name, channel="#ddz").startswith(
        "**Copa del viernes** is closed.")


@pytest.mark.parametrize(("lang", "trick"), [("en", "trick 1:"), ("es", "ronda 1:")])
async def test_a_daily_deals_replay_has_no_bidding_page(lang: str, trick: str) -> None:
    # Before: page 2 of a daily replay was "bidding: Ana bids 3", though the daily deal
    # has no bidding (the member is dealt the landlord's seat at bid 3).
    import random

    from bot.ai import choose_play
    from bot.game import Hand
    from bot.game.replay import step_of
    from bot.game.selfplay import play_out
    from bot.service.replays import ReplayService, private_record
    from rendering.replay_pages import page_alt, players_of

    rng = random.Random(5)
    hand = play_out(Hand.deal(seed=5, first_bidder=0), lambda obs: 3,
                    lambda obs: choose_play(obs, "normal", rng).action)
    record = private_record("h1", GUILD_ID, "t1", 1.0, hand.model_dump_json(), 11, "Ana")
    assert record is not None and record.hand_no == 0
    found = await ReplayService(storage=None).rebuilt(record)
    kinds = [s.kind for s in found.steps]
    assert kinds[0] == "deal" and "bidding" not in kinds and kinds[1] == "trick", kinds
    assert step_of(found.steps, 0) == 0  # the fixed bid: on the deal page
    alt = page_alt(found.hand, found.steps, 1, players_of(record), lang, None, name="Daily")
    assert alt.startswith("Daily") and f" {trick} " in alt, alt


@pytest.mark.parametrize(("locale", "head"), [
    ("en-US", "Current match #2 · target 30 points · 0 hands played"),
    ("es-ES", "Partida actual n.º 2 · objetivo 30 puntos · 0 manos jugadas"),
    ("zh-CN", "当前第2场比赛 · 目标 30 分 · 已打 0 局"),
    ("zh-TW", "目前第2場比賽 · 目標 30 分 · 已打 0 局")])
async def test_the_score_names_the_target_once(fake: FakeDiscord, locale: str,
                                               head: str) -> None:
    # sandbox, zh-CN at phone width: /ddz 积分 read "目标 30 分 分" (the count already says 分)
    from tests.support.fake_game import autoplayed_solo_hand

    await autoplayed_solo_hand(fake)  # a spring at bid 3 wins match #1 at once
    ana = Member(fake, 11, "Ana", locale, locale)
    score = (await ana.slash("score")).last
    names = [field["name"] for field in score.embeds[0].get("fields", [])]
    assert head in names, names
    assert not any("分 分" in name for name in names)
