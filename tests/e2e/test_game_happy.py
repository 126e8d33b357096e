"""Three members play a Happy hand at a no-shuffle table through the real ``python -m bot``
(issue 52; docs/RULES.md §Happy rules, §No-shuffle deals).

Alice opens the table with ``/ddz start rules:happy deal:no-shuffle``; Carol plays in
Spanish. Through their hand views they make a call, two grabs (the seat holding a bomb
ends up landlord), the landlord shows its hand, one peasant super doubles, and the
landlord leads its bomb; then they play it out. The result's points must equal the
formula computed here from what the members did and saw. Play again deals the second
hand from the first hand's played order, which the test checks too.
"""

from __future__ import annotations

import io
import random
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image

from bot.game.deal import deal_from_order
from bot.rules import DECK, Card, classify, format_cards, parse_cards
from rendering.table import HEIGHT, SHOWN_H, WIDTH
from sandbox.loopback.emulator import Emulator, SimMember, SimMessage
from tests.support import timing
from tests.support.botproc import BotProcess
from tests.support.ddz_driver import (
    FAST_ENV,
    HAND_RE,
    MENTION_RE,
    Tracker,
    cards_in_alt,
    changes_in_result,
    choose,
    finished,
    hand_component,
    hand_verbs,
    open_view,
    press,
    public_actions,
    public_seq,
    reply_text,
    select_cards_by_rank,
    wait_public,
)

pytestmark = pytest.mark.asyncio(loop_scope="function")

NAMES = ("Alice", "Bob", "Carol")
DEAL_SEED = 8
"""``DDZ_DEAL_SEED``: its first deal gives one seat a bomb in its 17 cards."""
CHOSE = {"en": "You chose: {}.", "es": "Has elegido: {}."}
LABELS = {
    "en": {"b1call": "Call", "b0call": "Don't call", "b1grab": "Grab ×2", "b0grab": "Don't grab",
           "show2": "Show hand ×2", "dbl1": "No double", "dbl2": "Double ×2",
           "dbl4": "Super double ×4"},
    "es": {"b1call": "Cantar", "b0call": "No cantar", "b1grab": "Robar ×2",
           "b0grab": "No robar", "show2": "Mostrar la mano ×2", "dbl1": "No doblar",
           "dbl2": "Doblar ×2", "dbl4": "Superdoble ×4"},
}
BUTTONS = {  # the buttons that multiply the stakes say so unlike a rank's "5 ×2" (two 5s)
    "en": {"b1grab": "Grab (points ×2)", "show2": "Show hand (points ×2)",
           "dbl2": "Double (points ×2)", "dbl4": "Super double (points ×4)"},
    "es": {"b1grab": "Robar (puntos ×2)", "show2": "Mostrar la mano (puntos ×2)",
           "dbl2": "Doblar (puntos ×2)", "dbl4": "Superdoble (puntos ×4)"},
}
ASKED = {"b1call": "your turn to call the landlord", "b0call": "your turn to call the landlord",
         "b1grab": "your turn to grab the landlord", "b0grab": "your turn to grab the landlord"}
"""The board's turn line (the server's language, English) for each auction verb: the
Happy rules' words, never "your turn to bid"."""
SHOWN = {"en": "{}'s hand, shown: ", "es": "Mano mostrada de {}: "}
CAP = 64


def bombs_of(cards: list[Card]) -> list[int]:
    return [rank for rank, n in Counter(c.rank_index for c in cards).items() if n == 4 and rank < 13]


def auction_plan(first: int, holder: int) -> list[tuple[int, str]]:
    """A call and two grabs that make ``holder`` the landlord, from ``first``:
    (seat, hand-view verb + stage)."""
    second, third = (first + 1) % 3, (first + 2) % 3
    if holder == first:  # call, grab, no grab, the caller grabs back
        return [(first, "b1call"), (second, "b1grab"), (third, "b0grab"), (first, "b1grab")]
    if holder == second:  # the first declines (never grabs), the second calls
        return [(first, "b0call"), (second, "b1call"), (third, "b1grab"), (second, "b1grab")]
    return [(first, "b1call"), (second, "b1grab"), (third, "b1grab"), (first, "b0grab")]


def with_suits(ranks: list[Card]) -> list[Card]:
    """The same ranks in the same order, each card a distinct one of the deck."""
    used: Counter[int] = Counter()
    out = []
    for card in ranks:
        r = card.rank_index
        out.append(DECK[52 + r - 13] if r >= 13 else DECK[r * 4 + used[r]])
        used[r] += 1
    return out


def shown_after(prefix: str, text: str) -> str:
    """The cards written after ``prefix`` up to the line's (or sentence's) end, sorted
    compact ("3445…"); "" when ``prefix`` is not there."""
    if prefix not in text:
        return ""
    rest = text.split(prefix, 1)[1].splitlines()[0].split(".")[0]
    return format_cards(sorted(parse_cards(rest)))


async def decide(emu: Emulator, member: SimMember, lang: str, verb: str) -> SimMessage:
    """The member opens their hand view and presses ``verb`` (``b1call`` → b1, …);
    the view acknowledges the choice in the member's language."""
    view = await open_view(member)
    pressed = verb[:2] if verb.startswith("b") else verb
    assert pressed in hand_verbs(view), (verb, view.text, hand_verbs(view))
    label = hand_component(view, pressed)["label"]
    assert label == BUTTONS[lang].get(verb, LABELS[lang][verb]), (verb, label)
    ranks = [c["label"] for c in view.buttons
             if (m := HAND_RE.match(c.get("custom_id", ""))) and m["verb"][1:].isdigit()
             and m["verb"].startswith("r")]
    assert ranks and not any("(" in rank for rank in ranks), ranks  # "5 ×2": two 5s
    await press(member, view, pressed)
    expected = CHOSE[lang].format(LABELS[lang][verb])
    assert expected in view.text, (expected, view.text)
    return view


async def test_a_happy_no_shuffle_table_through_the_hand_view(tmp_path: Path) -> None:
    emu = await Emulator().start()
    bot = BotProcess(emu, db_path=tmp_path / "bot.sqlite3", log_path=tmp_path / "bot.log",
                     extra_env={**FAST_ENV, "DDZ_DEAL_SEED": str(DEAL_SEED)})
    try:
        await bot.start(timeout=30)
        langs = ("en", "en", "es")
        members = [emu.member(name=n.lower(), locale="es-ES" if lang == "es" else "en-US")
                   for n, lang in zip(NAMES, langs, strict=True)]
        ids = [m.id for m in members]
        ack = await finished(await members[0].slash("ddz start", rules="happy", deal="no-shuffle"))
        assert ack.ephemeral, reply_text(ack)
        lobby = await wait_public(emu, lambda m: "join" in public_actions(m), what="the lobby")
        assert "Rules: Happy, cap ×64 · deal: no shuffle" in lobby.text, lobby.text
        for n, member in enumerate(members[1:], start=1):
            await member.click(lobby, public_actions(lobby)["join"]["custom_id"])
            lobby = await wait_public(emu, lambda m, n=n: NAMES[n] in m.text, what=f"join {n}")
        await members[0].click(lobby, public_actions(lobby)["start"]["custom_id"])

        # ---- the deal, the call and the grabs --------------------------------------------
        deal = await wait_public(emu, lambda m: MENTION_RE.search(m.content) is not None
                                 and "hand" in public_actions(m), what="the deal")
        dealt = {s: cards_in_alt(await open_view(m)) for s, m in enumerate(members)}
        first = ids.index(int(MENTION_RE.search(deal.content).group(1)))  # type: ignore[union-attr]
        holder = next(s for s in range(3) if bombs_of(dealt[s]))
        assert "calling the landlord" in deal.text and "to bid" not in deal.text, deal.text
        for seat, verb in auction_plan(first, holder):
            turn = await wait_public(emu, lambda m, seat=seat: f"<@{ids[seat]}>" in m.content,
                                     what=f"{NAMES[seat]}'s turn to {verb}")
            assert f"<@{ids[seat]}>, {ASKED[verb]}" in turn.content, turn.content
            await decide(emu, members[seat], langs[seat], verb)
        landlord = holder
        peasants = [s for s in range(3) if s != landlord]
        msg = await wait_public(emu, lambda m: "Landlord:" in m.text, what="the landlord")
        assert f"Landlord: {NAMES[landlord]} · multiplier ×4" in msg.text, msg.text

        # ---- the landlord shows, everyone doubles ---------------------------------------
        asked = await wait_public(emu, lambda m: f"<@{ids[landlord]}>" in m.content,
                                  what="show")
        assert "you are the landlord: show your hand" in asked.content, asked.content
        view = await decide(emu, members[landlord], langs[landlord], "show2")
        with_kitty = sorted(cards_in_alt(view))
        msg = await wait_public(emu, lambda m: "Everyone doubles now" in m.text,
                                what="the doubling")
        shown = SHOWN["en"].format(NAMES[landlord])  # 明牌: face up for everyone
        assert shown_after(shown, msg.text) == format_cards(with_kitty), msg.text
        # ... and face up on the board's image: its own strip under the landlord's row,
        # the cards named in the alt text; the image is one strip taller than a classic one
        (board,) = [a for a in msg.attachments if a.is_png]
        assert shown_after(shown, board.description or "") == format_cards(with_kitty)
        assert "Everyone doubles now: ×1, ×2 or ×4" in (board.description or "")
        assert Image.open(io.BytesIO(board.data)).size == (WIDTH, HEIGHT + SHOWN_H)
        doubles = {landlord: 2, peasants[0]: 4, peasants[1]: 1}  # a super double
        for seat, factor in doubles.items():
            view = await decide(emu, members[seat], langs[seat], f"dbl{factor}")
            if seat != landlord:  # each peasant reads it in their own view
                mine = SHOWN[langs[seat]].format(NAMES[landlord])
                assert shown_after(mine, view.text) == format_cards(with_kitty), view.text

        # ---- the play: the landlord leads its bomb, then plays it out --------------------
        msg = await wait_public(emu, lambda m: f"<@{ids[landlord]}>" in m.content
                                and "Everyone doubles" not in m.text, what="the lead")
        tracker = Tracker({s: list(c) for s, c in dealt.items()}, landlord=landlord, bid=1)
        view = await open_view(members[landlord])
        tracker.hands[landlord] = cards_in_alt(view)  # with the kitty
        assert len(tracker.hands[landlord]) == 20
        rank = bombs_of(dealt[landlord])[0]
        bomb = [c for c in tracker.hands[landlord] if c.rank_index == rank]
        await select_cards_by_rank(members[landlord], view, bomb)
        await press(members[landlord], view, "play")
        assert "You played" in view.text or "Has jugado" in view.text, view.text
        played: list[list[Card]] = []
        [bomb_combo] = [c for c in classify(bomb) if c.is_bomb]
        tracker.play(landlord, bomb_combo)
        played.append(list(bomb_combo.cards))
        # Each member's first pass and first play go through the hand view as a person
        # does (Pass; the cards picked by rank, Play), Carol's in Spanish; the rest typed.
        by_view: set[tuple[int, str]] = set()
        for _ in range(150):
            if tracker.winner is not None:
                break
            seat = tracker.turn
            combo = choose(tracker.hands[seat], tracker.to_beat)
            verb = "pass" if combo is None else "play"
            if (seat, verb) not in by_view:
                by_view.add((seat, verb))
                view = await open_view(members[seat])
                if combo is None:
                    await press(members[seat], view, "pass")
                    assert "You passed." in view.text or "Has pasado." in view.text, view.text
                    tracker.pass_turn(seat)
                else:
                    await select_cards_by_rank(members[seat], view, list(combo.cards))
                    await press(members[seat], view, "play")
                    assert "You played" in view.text or "Has jugado" in view.text, view.text
                    tracker.play(seat, combo)
                    played.append(list(combo.cards))
                continue
            if combo is None:
                ix = await finished(await members[seat].slash("ddz pass"))
                assert reply_text(ix) in ("You passed.", "Has pasado."), reply_text(ix)
                tracker.pass_turn(seat)
            else:
                ix = await finished(await members[seat].slash("ddz play", cards=combo.notation))
                assert "played" in reply_text(ix) or "jugado" in reply_text(ix), reply_text(ix)
                tracker.play(seat, combo)
                played.append(list(combo.cards))
        assert tracker.winner is not None
        assert {v for s, v in by_view if langs[s] == "es"} == {"pass", "play"}, by_view
        assert {v for s, v in by_view if langs[s] == "en"} == {"pass", "play"}, by_view

        # ---- the result: the formula from what the members did and saw ------------------
        result = await wait_public(emu, lambda m: "again" in public_actions(m), timeout=15,
                                   what="the result")
        landlord_won = tracker.winner == landlord
        n = tracker.doublings
        if landlord_won and all(tracker.plays[s] == 0 for s in peasants):
            n += 1
        if not landlord_won and tracker.plays[landlord] == 1:
            n += 1
        grab, show = 4, 2  # two grabs; the landlord showed after the kitty
        stakes = {s: min(grab * show * 2**n * doubles[landlord] * doubles[s], CAP)
                  for s in peasants}
        sign = 1 if landlord_won else -1
        expected = {NAMES[s]: -sign * stakes[s] for s in peasants}
        expected[NAMES[landlord]] = sign * sum(stakes.values())
        assert changes_in_result(result.text, NAMES) == expected, result.text
        for s in peasants:
            assert f"{NAMES[s]}: grab ×4 · shown hand ×2 · bombs ×" in result.text, result.text
            assert result.text.count(f"= {stakes[s]}") >= 1, result.text
        assert "double ×4" in result.text, result.text

        # ---- the second hand: dealt from the first hand's played order ------------------
        order = [c for cards in played for c in cards]
        for seat in range(3):
            order += sorted(tracker.hands[seat])
        deals = random.Random(DEAL_SEED)
        deals.getrandbits(63)  # the first hand's seed
        expected_hands, _ = deal_from_order(random.Random(deals.getrandbits(63)),
                                            with_suits(order))
        seq = public_seq(result)
        await members[1].click(result, public_actions(result)["again"]["custom_id"])
        # The live board names no hand number (only a result does): the second deal is
        # the first table message after the result that offers My hand.
        await wait_public(emu, lambda m: public_seq(m) > seq and "hand" in public_actions(m),
                          what="the second deal")
        second = {s: cards_in_alt(await open_view(m)) for s, m in enumerate(members)}
        for seat in range(3):
            assert format_cards(second[seat]) == format_cards(expected_hands[seat]), seat
        assert emu.errors == [] and emu.late_interactions() == []
    finally:
        await bot.kill()
        timing.record(emu)
        await emu.close()
