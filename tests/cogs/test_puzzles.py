"""``/ddz puzzle`` on the fake Discord (docs/RULES.md §Puzzles): the puzzle view (image,
alt text, card menu, rank buttons, Play / Pass / Clear), a solve and a failure in words,
one attempt a day refused politely, forged and stale clicks that change nothing, the
board, the line in ``/ddz stats`` and the rules' section. Hand-made puzzles
(tests/support/puzzles.py)."""

from __future__ import annotations

import copy
import json

import pytest

from bot.features.puzzles.service import PuzzleService
from bot.features.puzzles.solver import solve, winning_moves
from tests.support.embeds import embed_text
from tests.support.fake_discord import FakeDiscord, Member, Message
from tests.support.menu_play import card_values
from tests.support.puzzles import LANDLORD, PASSER, PEASANT

CUSTOM_ID_MAX = 100


def serve(fake: FakeDiscord, *puzzles: object) -> None:
    fake.bot.features.get(PuzzleService).serve(puzzles)


def menu_id(view: Message) -> str:
    return next(c["custom_id"] for row in view.components for c in row["components"]
                if c["type"] == 3)


async def play(member: Member, fake: FakeDiscord, view: Message, cards: str) -> Message:
    """Choose ``cards`` in the card menu, then Play; the view as it is after."""
    await member.click(view, menu_id(view), card_values(view, cards))
    view = fake.messages[view.id]
    await member.click(view, "Play")
    return fake.messages[view.id]


async def test_the_daily_puzzle_is_played_in_the_view_and_solved(fake: FakeDiscord) -> None:
    serve(fake, PEASANT)
    ana = Member(fake, 11, "Ana")
    reply = await ana.slash("puzzle")
    view = reply.last
    assert view.ephemeral and "Puzzle of the day" in view.content, view.content
    assert "You are a peasant, with a computer partner" in view.content
    assert "Your turn: lead any combination." in view.content
    assert all(len(cid) <= CUSTOM_ID_MAX for cid in view.custom_ids())
    alt = view.alt_texts[0]
    assert "Ana (peasant) holds 10 10 Q" in alt and "Bot 1 (landlord) holds K 2" in alt
    assert "Bot 2 (peasant) holds 5 5 7 8 9" in alt  # one by one, for a screen reader
    # issue 48: who plays after whom, and the computers named as at tables (not "Computer 1")
    assert "Play goes round: Ana → Bot 1 → Bot 2, then Ana again." in view.content
    assert {"Play", "Pass", "Clear", "10 ×2", "Q"} <= set(view.buttons())
    assert view.buttons()["Pass"]["disabled"]  # a free lead
    await ana.click(view, "10 ×2")  # a rank button adds one 10
    view = fake.messages[view.id]
    assert "10 1/2" in view.buttons()
    view = await play(ana, fake, view, "TT")
    assert "You played 10 10." in view.content
    assert "The computers answered: Bot 1: pass · Bot 2: pass" in view.content
    view = await play(ana, fake, view, "Q")
    assert "**Solved in 2 moves!**" in view.content, view.content
    assert "Your puzzle rating: 1500 → " in view.content
    assert "This puzzle's rating: 1450 → 14" in view.content  # solved: it went down
    assert not view.components  # over: nothing to click
    again = await ana.slash("puzzle")
    assert again.last.ephemeral
    assert "You have had your attempt at today's puzzle: Solved in 2 moves!" in again.text
    board = again.last.embeds[0]["description"]
    assert "1. Ana: **solved in 2 moves** · streak: 1 (best 1)" in board
    stats = await ana.slash("stats")
    field = next(f for f in stats.last.embeds[0]["fields"] if f["name"] == "Puzzles")
    assert "solved: 1/1" in field["value"] and "streak: 1" in field["value"]


async def test_a_wrong_first_move_ends_the_attempt_and_shows_the_win(fake: FakeDiscord) -> None:
    serve(fake, LANDLORD)
    bo = Member(fake, 22, "Bo")
    view = (await bo.slash("puzzle", mode="practice")).last
    assert "Practice puzzle (rated 1550)" in view.content
    view = await play(bo, fake, view, "3")
    assert "**3 loses: against the best defence there is no win after it.**" in view.content
    assert "The winning move: play 10 10." in view.content
    assert "How it loses: Bot 2: " in view.content
    assert "Your puzzle rating: 1500 → " in view.content and "(−" in view.content
    assert not view.components
    assert "The winning move: play 10 10." in view.alt_texts[0]  # the failure's image, in words
    none_left = await bo.slash("puzzle", mode="practice")  # failed: it may come back
    assert "Practice puzzle" in none_left.last.content


def test_the_passing_puzzle_is_sound() -> None:
    pos = PASSER.position()
    assert solve(pos).plies == PASSER.depth and winning_moves(pos) == [None]


PASSED = {"en": ("Pass", "You passed."), "es": ("Pasar", "Has pasado."),
          "zh-CN": ("不出", "你选择了不出。")}


async def test_pass_in_the_view_answers_you_passed_in_each_language(fake: FakeDiscord) -> None:
    """The member presses Pass twice (the second mid-line, after the computers' answer)
    and reads "You passed.", as at a table, never "You played pass." (the bug)."""
    serve(fake, PASSER)
    for uid, (locale, (button, passed)) in enumerate(PASSED.items(), start=31):
        member = Member(fake, uid, f"M{uid}", locale=locale)
        view = (await member.slash("puzzle")).last
        assert not view.buttons()[button]["disabled"], view.buttons()
        await member.click(view, button)
        view = fake.messages[view.id]
        assert passed in view.content, view.content
        await member.click(view, button)  # mid-line: the partner led 10 after the answer
        view = fake.messages[view.id]
        assert passed in view.content, view.content
        assert "played pass" not in view.content and "jugado paso" not in view.content
        assert "出了 不出" not in view.content
        if locale == "en":
            assert "**Solved in 2 moves!**" in view.content, view.content
        assert not view.components


WINNING_PASS = {
    "en": ("Play", "**K loses: against the best defence there is no win after it.**",
           "The winning move: pass.", "How it loses: "),
    "es": ("Jugar", "**K pierde: contra la mejor defensa ya no hay victoria.**",
           "La jugada ganadora: pasar.", "Cómo pierde: "),
    "zh-CN": ("出牌", "**出 K 会输：面对最佳防守，之后再也赢不了。**", "必胜的一手：不出。",
              "为什么会输："),
}
"""Play-test: a member who beat the partner's J read "The move that wins: pass", the pass
named as if it were cards one plays."""


@pytest.mark.parametrize("locale", sorted(WINNING_PASS))
async def test_a_wrong_play_where_the_win_is_a_pass_says_so_in_words(
        fake: FakeDiscord, locale: str) -> None:
    """The member picks a K in the card menu and presses Play over the partner's J; the
    only winning move was to pass, and the answer (the text and the image's description)
    says so as a sentence in the member's language."""
    play_label, wrong, winning, how = WINNING_PASS[locale]
    serve(fake, PASSER)
    member = Member(fake, 51, "Mia", locale=locale)
    view = (await member.slash("puzzle")).last
    await member.click(view, menu_id(view), card_values(view, "K"))
    await member.click(fake.messages[view.id], play_label)
    view = fake.messages[view.id]
    assert wrong in view.content, view.content
    assert winning in view.content.splitlines(), view.content
    assert how in view.content, view.content
    assert winning in view.alt_texts[0], view.alt_texts
    assert "The move that wins" not in view.content and "La jugada que gana" not in view.content
    assert not view.components


async def test_forged_and_stale_clicks_change_nothing(fake: FakeDiscord) -> None:
    serve(fake, PEASANT)
    ana, bo = Member(fake, 11, "Ana"), Member(fake, 22, "Bo")
    ana_view = (await ana.slash("puzzle")).last
    bo_view = (await bo.slash("puzzle")).last
    ana_attempt = ana_view.custom_ids()[0].split(":")[2]
    bo_attempt = bo_view.custom_ids()[0].split(":")[2]
    assert ana_attempt != bo_attempt
    forged = copy.deepcopy(bo_view)
    forged.components = json.loads(json.dumps(bo_view.components).replace(bo_attempt,
                                                                          ana_attempt))
    play_id = next(cid for cid in forged.custom_ids() if ":play." in cid)
    reply = await bo.click(forged, play_id)
    assert "That button is out of date: the puzzle has moved on." in reply.text, reply.text
    assert all(m.ephemeral for m in reply.messages)
    stored = await fake.bot.features.get(PuzzleService).store.puzzle_attempt(ana_attempt)
    assert stored is not None and stored.plies == 0  # nothing changed
    old = copy.deepcopy(ana_view)  # Ana's first view, kept
    await play(ana, fake, ana_view, "TT")
    stale = await ana.click(old, next(cid for cid in old.custom_ids() if ":clear." in cid))
    assert "out of date" in stale.text
    stored = await fake.bot.features.get(PuzzleService).store.puzzle_attempt(ana_attempt)
    assert stored is not None and stored.plies == 3 and not stored.finished


async def test_the_rules_have_the_puzzles_in_both_languages(fake: FakeDiscord) -> None:
    en = await Member(fake, 11, "Ana").slash("rules")
    assert "**Puzzles** `/ddz puzzle` gives the server's puzzle of the day" in \
        embed_text(en.last.embeds[0])
    es = await Member(fake, 12, "Eva", locale="es-ES").slash("rules")
    assert "**Problemas** `/ddz problema` da el problema del día" in \
        embed_text(es.last.embeds[0])


LINE_BY_HAND = {"en": ("Play", "Pass", "You played 10 10.", "You passed.", "**Solved in 5 moves!**"),
                "es": ("Jugar", "Pasar", "Has jugado 10 10.", "Has pasado.",
                       "**¡Resuelto en 5 jugadas!**")}


@pytest.mark.parametrize("locale", sorted(LINE_BY_HAND))
async def test_a_member_plays_a_puzzle_line_by_hand_with_play_and_pass(
        fake: FakeDiscord, locale: str) -> None:
    """The landlord's puzzle played from the view as a person does: 10 10 and then 3
    picked in the card menu with Play, two Passes, then the ace; every answer read in
    the member's language ("You passed.", never "You played pass.")."""
    play_label, pass_label, played, passed, solved = LINE_BY_HAND[locale]
    serve(fake, LANDLORD)
    bo = Member(fake, 41, "Bo", locale=locale)
    view = (await bo.slash("puzzle", mode="practice")).last

    async def by_hand(cards: str | None) -> Message:
        if cards is None:
            await bo.click(view, pass_label)
        else:
            await bo.click(view, menu_id(view), card_values(view, cards))
            await bo.click(fake.messages[view.id], play_label)
        return fake.messages[view.id]

    view = await by_hand("TT")
    assert played in view.content, view.content
    view = await by_hand("3")
    for _ in range(2):
        view = await by_hand(None)
        assert passed in view.content, view.content
    view = await by_hand("A")
    assert solved in view.content, view.content
    assert not view.components
