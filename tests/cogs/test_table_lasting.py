"""Issue 26 §1-2 on the fake Discord: what members read about lasting auto-play, the
lobby's choice for seats given up, the public line and the private note of a seat given
up, and the rules (docs/RULES.md §Timers)."""

from __future__ import annotations

from bot.features.daily.values import DailyTable
from bot.features.events.values import EventDeal
from bot.features.tournaments.values import TournamentKey
from bot.game.table import Table
from bot.service.releases import ReleaseNote
from cogs.hand_view import build_screen
from cogs.items import ViewState
from tests.support.embeds import embed_text
from tests.support.fake_discord import FakeDiscord, Message
from tests.support.fake_game import (
    CHANNEL_ID,
    GUILD_ID,
    autoplayed_solo_hand,
    comp,
    members,
    seated_hand,
)
from tests.support.forge import table_of

COMPUTER_LINE = ("A seat given up (its player left during a hand, or was away for a whole"
                 " one) goes to a computer at Play again.")


async def test_the_starter_chooses_in_the_lobby_what_becomes_of_a_seat_given_up(
        fake: FakeDiscord) -> None:
    ana, bo, _ = members(fake)
    await ana.slash("start")
    await bo.click(fake.table_message(), "Join")
    lobby = fake.table_message()
    assert COMPUTER_LINE in lobby.content
    refused = await bo.click(lobby, "Seat given up → computer")
    assert refused.text == "Only the player who opened the table (or an admin) can do that."
    assert table_of(fake).fill == "computer"
    await ana.click(fake.table_message(), "Seat given up → computer")
    lobby = fake.table_message()
    assert table_of(fake).fill == "wait"
    assert "Seat given up → wait for Join" in lobby.buttons()
    assert ("stays free at Play again: the table waits here for someone to Join."
            in lobby.content), lobby.content
    es, _, _ = members(fake, "es-ES")  # Ana again, her client in Spanish
    fill = next(c for c in fake.table_message().custom_ids() if c.endswith(":fill"))
    await es.click(fake.table_message(), fill)
    assert table_of(fake).fill == "computer"


async def test_chosen_auto_play_goes_on_into_the_next_deal_and_the_result_says_so(
        fake: FakeDiscord) -> None:
    ana = await autoplayed_solo_hand(fake)  # helper turns auto-play on, hand played out
    assert "again" in str(fake.table_message().custom_ids())
    view = (await ana.slash("hand")).last
    assert "Press Auto to take over" not in view.content, view.content
    assert ("Auto-play stays on for the next hand (one move every 2 s), until you turn it"
            " off: /ddz autoplay off.") in view.content, view.content
    await ana.click(fake.table_message(), "Play again")
    await fake.idle()
    table = table_of(fake)
    assert table.hand_no == 2 and table.phase == "finished" and table.seats[0].autoplay
    mine = [a for a in table.hand.history if a.seat == 0]
    assert mine and all(a.auto for a in mine)  # the computer played all of hand 2 for Ana


def test_the_hand_view_and_the_auto_button_say_that_auto_play_lasts() -> None:
    table = Table.open(GUILD_ID, CHANNEL_ID, 11, "Ana", computers=2)
    table.start(11, 0.0, seed=3)
    table.set_autoplay(11, True, 3.0)
    screen = build_screen(table, 0, ViewState(), "en")
    assert ("Auto-play is on (one move every 3 s): the computer plays for you in this hand and"
            " the next ones at this table until you turn it off or leave. Press Auto to take"
            " over.") in screen.content
    assert "Auto: on · 3 s · every hand" in [b["label"] for b in _buttons(screen)]
    table.seats[0].timeout_hand = 1  # auto-play from timeouts instead
    screen = build_screen(table, 0, ViewState(), "es")
    assert "Se te acabó el tiempo, así que el ordenador juega por ti" in screen.content
    assert "Auto: sí (sin tiempo) · 3 s" in [b["label"] for b in _buttons(screen)]


def _buttons(screen: object) -> list[dict]:
    view = screen.view  # type: ignore[attr-defined]
    return [c for row in view.to_components() for c in row["components"]]


async def test_a_member_given_up_while_away_is_told_privately_after_their_next_command(
        fake: FakeDiscord) -> None:
    _, bo, _ = members(fake)
    service = fake.bot.service
    service.releases.kept[(GUILD_ID, bo.id)] = [ReleaseNote("t1", CHANNEL_ID, 2, "timeouts")]
    reply = await bo.slash("score")
    assert len(reply.messages) == 2 and reply.messages[-1].ephemeral
    assert reply.last.content == (
        f"While you were away, your seat at the table in <#{CHANNEL_ID}> played a whole hand"
        " on auto-play, so Play again gave it up. You are free to join any table; your"
        " points from those hands count.")
    again = await bo.slash("score")
    assert "While you were away" not in again.text  # said once


async def test_the_rules_say_what_lasts_who_is_set_free_and_who_may_replay(
        fake: FakeDiscord) -> None:
    ana, _, _ = members(fake)
    text = embed_text((await ana.slash("rules")).last.embeds[0])
    assert ("Auto-play you turn on (Auto, `/ddz autoplay on`) stays on, at its pace, for the"
            " next hands at the table until you turn it off or leave.") in text
    assert "a seat that plays a whole hand that way is given up at Play again" in text
    assert "you are free to join another table as soon as it ends" in text
    assert ("to anyone else only in the channel where it was played; Share works only there"
            in text)
    assert "three equal players are an even match at every level" in text
    es, _, _ = members(fake, "es-ES")
    texto = embed_text((await es.slash("rules")).last.embeds[0])
    assert "queda libre al volver a jugar" in texto and "solo en el canal donde se jugó" in texto


def test_the_auto_button_says_this_deal_where_there_is_no_next_hand() -> None:
    # Issue 48: the Auto button read "every hand" at a daily or event deal, one hand
    # that has no next one.
    for payload in (DailyTable(day="2026-12-01"), EventDeal(event_id="ev1", deal=1)):
        table = Table.open(GUILD_ID, CHANNEL_ID, 11, "Ana", computers=2)
        table.start(11, 0.0, seed=3)
        table.set_autoplay(11, True, 3.0)
        table = payload.mark(table.model_copy())
        assert table.private
        labels = [b["label"] for b in _buttons(build_screen(table, 0, ViewState(), "en"))]
        assert "Auto: on · 3 s · this deal" in labels and not any("every hand" in str(x)
                                                                   for x in labels)
        labels = [b["label"] for b in _buttons(build_screen(table, 0, ViewState(), "es"))]
        assert "Auto: sí · 3 s · esta mano" in labels


def tournament_table_on_auto() -> Table:
    """A dealt tournament table (round 1, table 2): Ana (11) on auto-play at 3 s, Bo (22)
    and a computer."""
    from bot.game.seat import Seat, computer_seat

    table = Table(guild_id=GUILD_ID, channel_id=CHANNEL_ID, starter_id=999,
                  computer_level="easy")
    TournamentKey(tournament_id="cup", round_no=1, table_no=2).mark(table)
    table.seats[0], table.seats[1] = Seat(user_id=11, name="Ana"), Seat(user_id=22, name="Bo")
    table.seats[2] = computer_seat(2, "easy")
    table.deal_next(0.0, seed=1)
    table.set_autoplay(11, True, 3.0)
    return table


def test_the_auto_button_says_this_table_at_a_tournament_table() -> None:
    # Issue 48: "every hand" at a one-hand tournament table; its hands end with the table.
    table = tournament_table_on_auto()
    labels = [b["label"] for b in _buttons(build_screen(table, 0, ViewState(), "en"))]
    assert "Auto: on · 3 s · this table" in labels
    labels = [b["label"] for b in _buttons(build_screen(table, 0, ViewState(), "es"))]
    assert "Auto: sí · 3 s · esta mesa" in labels


async def test_a_member_who_left_mid_hand_reads_that_she_left_not_until_she_leaves(
        fake: FakeDiscord) -> None:
    """Playtest: Bo opened My hand, pressed Leave on the table mid-hand; his view then said
    auto-play lasted "until you turn it off or leave", as if he had not left."""
    ana, bo, _ = await seated_hand(fake)
    await bo.click(fake.table_message(), "My hand")
    await bo.click(fake.table_message(), "Leave")
    assert table_of(fake).seats[1].away
    view = (await bo.click(fake.table_message(), "My hand")).last
    assert ("You left this hand: the computer plays the rest of it for you, at the"
            " computers' pace, and its result counts for you. Press Auto or make a move to"
            " take your seat back.") in view.content, view.content
    assert "until you turn it off or leave" not in view.content
    # Playtest: his Auto button still said "Auto: on · 2 s · every hand"; he is played at
    # the computers' pace (not his 2 s) and only to the end of this hand
    assert "Auto: on · this hand" in _labels(view) and not any(
        "every hand" in label or " s ·" in label for label in _labels(view))
    es, _, _ = members(fake, "es-ES")
    view = (await es.slash("hand")).last  # Ana, who did not leave, in Spanish
    assert "Has dejado esta mano" not in view.content
    assert "Auto: no" in " ".join(_labels(view))
    bo_es = members(fake, "es-ES")[1]
    view = (await bo_es.slash("hand")).last
    assert ("Has dejado esta mano: el ordenador juega el resto por ti, al ritmo de los"
            " ordenadores, y su resultado cuenta para ti.") in view.content
    assert "Auto: sí · esta mano" in _labels(view)
    assert not any("cada mano" in label for label in _labels(view))
    await bo.click(view, comp(view, "ha0"))  # Auto (on → off): he takes his seat back
    assert not table_of(fake).seats[1].away and not table_of(fake).seats[1].autoplay
    view = (await bo.slash("hand")).last
    assert "You left this hand" not in view.content


def _labels(view: Message) -> list[str]:
    return [str(c.get("label")) for row in view.components for c in row.get("components", [])
            if c.get("type") == 2]


async def test_a_member_who_left_a_tournament_table_reads_this_table_without_his_pace() -> None:
    """A withdrawn tournament member (``hand_over``): his seat is played at the computers'
    pace to the end of the table, and says so, not "3 s" nor "until you leave"."""
    from bot.features.tournaments.rules import hand_over
    table = tournament_table_on_auto()
    hand_over(table, 11, computer=False)
    for lang, button, line in (
            ("en", "Auto: on · this table", "You left: the computer plays the rest of this"
             " table's hands for you, at the computers' pace"),
            ("es", "Auto: sí · esta mesa", "Te has ido: el ordenador juega por ti el resto de"
             " las manos de esta mesa, al ritmo de los ordenadores"),
            ("zh_CN", "托管：开 · 本桌", "你已离开：电脑按电脑玩家的速度替你打完这张牌桌剩下的牌局")):
        screen = build_screen(table, 0, ViewState(), lang)
        labels = [b["label"] for b in _buttons(screen)]
        assert button in labels and line in screen.content, (labels, screen.content)
        assert "until you turn it off or leave" not in screen.content
