"""Localized texts and image view models built from a ``Table`` (no discord calls).

Public texts never contain a seat's cards while a hand is being played (only
plays already made, a hand its seat showed face up under the Happy rules and, at the
result, the cards left). Card lists use the
docs/RULES.md notation as players read it, ten written ``10`` and the jokers named in
the reader's language (``show_cards`` filled in by ``t``; docs/RULES.md §Notation).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from bot.game.happy import HappyHand
from bot.game.seat import Event
from bot.game.table import Table
from bot.i18n import superscript, t, tn
from bot.i18n.numbers import MINUS
from bot.rules import Combo, ComboKind, ShownCards, show_cards, spaced_cards
from bot.values import Settlement
from cogs.happy_texts import (
    action_label,
    asked_now,
    decisions_text,
    latest_words,
    rules_line,
    rules_name,
    shown_lines,
    stake_lines,
)
from rendering import ResultView, SeatResult, SeatView, TableView
from rendering.models import DoublingKind


def signed(points: int, minus: str = "-") -> str:
    """``+8`` / ``-4`` / ``0``; a negative value takes ``minus`` (``MINUS``, U+2212, where the
    text stands beside an image that writes it so: the result)."""
    return f"+{points}" if points > 0 else (f"{minus}{-points}" if points < 0 else "0")


def minus_signed(points: int) -> str:
    """A total as the result writes it, with the image's minus sign: ``12`` / ``−6``."""
    return f"{MINUS}{-points}" if points < 0 else str(points)


def seat_name(table: Table, index: int, lang: str) -> str:
    """A seat's display name; computer seats say so, auto-play seats too."""
    seat = table.seats[index]
    if seat.computer is not None:
        return t("table.computer", lang, name=seat.name, level=t(f"level.{seat.computer}", lang))
    if seat.autoplay:
        return t("table.auto", lang, name=seat.name)
    return seat.name or "?"


def plain_name(table: Table, index: int) -> str:
    """A seat's bare display name (``"?"`` when empty)."""
    return table.seats[index].name or "?"


def kind_name(combo: Combo, lang: str) -> str:
    """The localized name of the combination's kind (``kind.<value>``)."""
    return kind_label(combo.kind, lang)


def play_kind(combo: Combo, lang: str) -> str:
    """The kind a sentence names after a play ("Ana played 55 (pair)."): ``kind_name``, but
    for the rocket, which the sentence already names ("Ana played the rocket (both
    jokers).": ``bot.i18n.catalog.THE_ROCKET_KEY``), the cards it is (``kind.rocket_jokers``)."""
    if combo.kind is ComboKind.ROCKET:
        return t("kind.rocket_jokers", lang)
    return kind_name(combo, lang)


def kind_label(kind: ComboKind, lang: str) -> str:
    """The localized name of a kind of combination (``kind.<value>``)."""
    return t(f"kind.{kind.value}", lang)


def reading_label(combo: Combo, lang: str) -> str:
    """``"airplane with single wings: 444555666 + 333"``."""
    body = show_cards(combo.body)
    kickers = show_cards(combo.kickers)
    if kickers:
        return t("reading.label_kickers", lang, kind=kind_name(combo, lang), body=body,
                 kickers=kickers)
    return t("reading.label", lang, kind=kind_name(combo, lang), body=body)


def join_names(names: Sequence[str], lang: str) -> str:
    """Names as a sentence joins them: "Ana", "Ana and Bo", "Ana, Bo and Cy" (es: "y")."""
    if len(names) <= 1:
        return "".join(names)
    return t("list.and", lang, names=t("sep.list", lang).join(names[:-1]), last=names[-1])


def mention(user_id: int) -> str:
    """``<@id>``, a Discord user mention."""
    return f"<@{user_id}>"


def deadline_text(table: Table, lang: str) -> str | None:
    """``Time runs out <t:…:R>.`` when the deadline is a wall-clock timestamp."""
    if table.deadline is None or table.deadline < 1_000_000_000:
        return None
    return t("table.deadline", lang, when=f"<t:{int(table.deadline)}:R>")


def _event_lines(table: Table, events: Sequence[Event], lang: str) -> list[str]:
    lines = []
    for event in events:
        kind = getattr(event, "kind", None)
        seat = getattr(event, "seat", None)
        if kind == "timeout" and seat is not None:
            lines.append(t("table.timeout", lang, name=plain_name(table, seat)))
        elif kind == "left" and seat is not None and getattr(event, "params", {}).get("during_hand"):
            lines.append(t("table.left_hand", lang, name=plain_name(table, seat)))
        elif kind == "redeal":
            lines.append(t("table.redeal", lang))
    return lines


def given_up_lines(table: Table, lang: str) -> list[str]:
    """Whose seat the last Play again gave up, and to what (docs/RULES.md §Timers)."""
    return [t(f"table.released_{p.get('reason')}_{p.get('fill')}", lang, name=p.get("name") or "?")
            for p in table.given_up]


def lobby_text(table: Table, lang: str) -> list[str]:
    """Lines of the lobby message: title, the three seats, the computer level, who may start."""
    lines = [t("table.title_lobby", lang, table=table.id)]
    for i, seat in enumerate(table.seats):
        if seat.is_empty:
            lines.append(t("table.seat_empty", lang, n=i + 1))
        else:
            lines.append(t("table.seat", lang, n=i + 1, name=seat_name(table, i, lang)))
    lines.append(t("table.lobby_level", lang, level=t(f"level.{table.computer_level}", lang)))
    rules = rules_line(table, lang)
    if rules:
        lines.append(rules)
    lines.append(t(f"table.lobby_fill_{table.fill}", lang))
    starter = table.seat_of(table.starter_id)
    starter_name = plain_name(table, starter) if starter is not None else "?"
    lines.append(t("table.lobby_hint", lang, starter=starter_name))
    return lines


def bids_text(table: Table, lang: str) -> str:
    """The bids so far in order (pass / bid N per seat). Needs a hand."""
    hand = table.hand
    assert hand is not None
    entries = [
        t("table.bid_pass", lang, name=plain_name(table, seat)) if amount == 0
        else t("table.bid_entry", lang, name=plain_name(table, seat), amount=amount)
        for seat, amount in hand.bids
    ]
    return t("table.bids", lang, bids=" · ".join(entries)) if entries else t("table.no_bids", lang)


def public_text(table: Table, lang: str, events: Sequence[Event] = ()) -> tuple[str, int | None]:
    """Content of the public table message while in the lobby or playing.

    Returns (text, user id to mention or None). The mention is the member whose
    turn it is (computer seats are never mentioned).
    """
    if table.phase == "lobby":
        return "\n".join(lobby_text(table, lang) + given_up_lines(table, lang)), None
    if table.phase == "closed":
        return "\n".join([t("table.title_closed", lang, table=table.id), t("table.closed", lang)]), None
    hand = table.hand
    assert hand is not None
    ping: int | None = None
    rules = rules_line(table, lang)
    decisions = decisions_text(table, lang)  # the Happy rules' calls, grabs, shows, doubles
    asked = asked_now(table)  # the Happy rules' call, grab, show or double
    if hand.phase in ("bidding", "redeal"):
        title = "table.title_calling" if isinstance(hand, HappyHand) else "table.title_bidding"
        lines = [t(title, lang, table=table.id)]
        lines += [rules] if rules else []
        lines += given_up_lines(table, lang) + _event_lines(table, events, lang)
        if isinstance(hand, HappyHand):  # no bids under the Happy rules: its decisions
            lines += [decisions] if decisions else []
            lines.append(t("table.multiplier", lang, multiplier=hand.multiplier))
        else:
            lines.append(bids_text(table, lang))
    else:
        lines = [t("table.title_playing", lang, table=table.id)]
        lines += [rules] if rules else []
        lines += given_up_lines(table, lang) + _event_lines(table, events, lang)
        if hand.landlord is not None:
            if decisions is None:
                lines.append(t("table.landlord", lang, name=plain_name(table, hand.landlord),
                               bid=hand.winning_bid, multiplier=hand.multiplier))
            else:
                lines.append(t("table.landlord_happy", lang, multiplier=hand.multiplier,
                               name=plain_name(table, hand.landlord)))
                lines.append(decisions)
            lines.append(t("table.kitty", lang, cards=show_cards(hand.kitty)))
        if hand.phase == "doubling":
            lines.append(t("table.doubling", lang))
        if hand.last_play is not None:
            combo = hand.last_play.combo
            lines.append(t("table.last_play", lang, name=plain_name(table, hand.last_play.seat),
                           cards=show_cards(combo.notation), kind=play_kind(combo, lang)))
        elif hand.turn is not None:
            lines.append(t("table.lead", lang, name=plain_name(table, hand.turn)))
        for i in range(3):
            left = hand.cards_left(i)
            if left in (1, 2):
                key = "table.warn_one" if left == 1 else "table.warn_two"
                lines.append(t(key, lang, name=plain_name(table, i)))
    lines += shown_lines(table, lang)  # 明牌: face up for everyone (docs/RULES.md §Happy rules)
    turn = table.turn_seat
    if turn is not None:
        seat = table.seats[turn]
        who = mention(seat.user_id) if seat.user_id is not None and not seat.automatic else (
            seat_name(table, turn, lang))
        if seat.user_id is not None and not seat.automatic:
            ping = seat.user_id
        bidding = hand.phase != "playing"  # bids, and the Happy rules' call, grab and show
        verb = asked if asked in ("call", "grab", "show") else "bid" if bidding else "play"
        if seat.user_id is not None and not seat.automatic:
            line = t(f"table.turn_{verb}", lang, mention=who)
        else:  # a computer (or auto-play) is not told "your turn": the channel is told who
            line = t(f"table.turn_other_{verb}", lang, name=who)
        when = deadline_text(table, lang)
        lines.append(f"{line} {when}" if when and not seat.automatic else line)
    return "\n".join(lines), ping


def table_view(table: Table, lang: str) -> TableView:
    """The image model of the public table (seat order, round plays — or each seat's
    bid while bidding —, no hidden cards). Its status line is plain text (catalog
    ``img.status_*``: no Markdown, mentions or timestamps, which an image would show
    literally)."""
    hand = table.hand
    assert hand is not None
    bidding = hand.landlord is None
    bids = dict(hand.bids)  # seat → latest bid (0 = pass)
    beat = hand.last_play if hand.phase == "playing" else None
    seats = []
    for i, seat in enumerate(table.seats):
        action = hand.round_plays[i] if hand.phase == "playing" else None
        last: Any = None
        tag: Any = None
        if action is not None and action.kind == "play":
            last = list(action.cards)
            if action.combo is not None and action.combo.is_bomb:
                tag = "rocket" if action.combo.kind is ComboKind.ROCKET else "bomb"
        elif action is not None and action.kind == "pass":
            last = "pass"
        seats.append(SeatView(
            name=seat.name or "?", is_landlord=hand.landlord == i, cards_left=hand.cards_left(i),
            last_action=last, is_turn=hand.turn == i, is_computer=seat.computer is not None,
            bid=bids.get(i), to_beat=beat is not None and beat.seat == i and last is not None,
            last_tag=tag))
    revealed = hand.landlord is not None
    happy = isinstance(hand, HappyHand)  # no bids: the rule set's name in the bid's place
    if isinstance(hand, HappyHand):
        seats = happy_seats(table, hand, seats, lang)
    return TableView(
        seats=seats, bid=None if happy else hand.winning_bid or None, multiplier=hand.multiplier,
        kitty=list(hand.kitty) if revealed else None, bidding=bidding,
        rules=rules_name(table.rules, lang) if happy else None,
        status=turn_words(table, lang) or t(
            "img.status_bidding" if bidding else "img.status_playing", lang, table=table.id))


def happy_seats(table: Table, hand: HappyHand, seats: Sequence[SeatView],
                lang: str) -> list[SeatView]:
    """``seats`` with what the Happy rules add to the image (docs/RULES.md §Happy rules):
    each shown hand's cards face up, each seat's latest call or grab while calling, and
    what the seat asked is asked ("to grab"; every seat still to choose while doubling)."""
    asked = asked_now(table)
    words = latest_words(hand)
    shown = set(hand.shown) if table.phase == "playing" else set()
    out = []
    for i, seat in enumerate(seats):
        cards = hand.hand_of(i) if i in shown and hand.cards_left(i) else None
        word = words.get(i)
        if asked == "double":
            asking = t("img.turn_double", lang) if i in hand.pending() else None
        else:
            asking = t(f"img.turn_{asked}", lang) if asked and hand.turn == i else None
        out.append(dataclasses.replace(
            seat, shown=cards, shown_label=t("img.shown_hand", lang) if cards else "",
            said=action_label(word, lang) if word is not None else None,
            said_yes=word is not None and bool(word.amount), asking=asking))
    return out


def play_words(combo: Combo) -> ShownCards:
    """A play as players read it: the body, then the wings or kickers after a space
    ("333444 58", "6666 39", "10 JQKA")."""
    kickers = show_cards(combo.kickers)
    return ShownCards(show_cards(combo.body) + (" " + kickers if kickers else ""))


def turn_words(table: Table, lang: str, *, spaced: bool = False) -> str | None:
    """Who is to act and what they must do, in words, for the table image and its alt
    text: "Bob to play: beat 333444 58 or pass", "Bob to play: lead any combination",
    "Bob to bid" — under the Happy rules "Bob to call the landlord", "Bob may grab the
    landlord", "Everyone doubles now…"; None when no one is to act. Plain text (names,
    no mentions). ``spaced``: the cards one by one, for the alt text (``spaced_cards``)."""
    hand = table.hand
    if asked_now(table) == "double":  # all three at once: nobody's turn
        return t("img.status_double", lang)
    if hand is None or hand.turn is None or hand.phase not in ("bidding", "playing", "showing"):
        return None
    name = plain_name(table, hand.turn)
    asked = asked_now(table)
    if asked in ("call", "grab", "show"):  # the Happy rules' words, not "bid"
        return t(f"img.status_{asked}", lang, name=name)
    if hand.phase == "bidding":
        return t("img.status_bid", lang, name=name)
    to_beat = hand.to_beat_for(hand.turn)
    if to_beat is None:
        return t("img.status_lead", lang, name=name)
    cards = play_words(to_beat)
    return t("img.status_beat", lang, name=name, cards=spaced_cards(cards) if spaced else cards)


def table_alt(table: Table, view: TableView, lang: str) -> str:
    """Alt text of the table image (seats, cards left, last plays, bid, kitty), the cards
    one by one for a screen reader (``spaced_cards``, docs/RULES.md §Notation)."""
    parts = []
    for seat in view.seats:
        if view.bidding and view.rules:  # the Happy rules' latest call or grab
            last = seat.said if seat.said is not None else t("alt.last_none", lang)
        elif view.bidding:
            last = (t("alt.bid_none", lang) if seat.bid is None else t("alt.last_pass", lang)
                    if seat.bid == 0 else t("alt.bid", lang, amount=seat.bid))
        elif seat.last_action is None:
            last = t("alt.last_none", lang)
        elif seat.last_action == "pass":
            last = t("alt.last_pass", lang)
        else:
            last = t("alt.last_play", lang, cards=spaced_cards(seat.last_action))
        role = t("alt.seat_landlord", lang) if seat.is_landlord else ""
        parts.append(tn("alt.seat", seat.cards_left, lang, name=seat.name, role=role,
                        n=seat.cards_left, last=last))
    if view.rules:
        text = t("alt.table_happy", lang, table=table.id, seats=t("sep.items", lang).join(parts),
                 rules=view.rules, multiplier=view.multiplier)
    else:
        text = t("alt.table" if view.bid else "alt.table_no_bid", lang, table=table.id,
                 seats=t("sep.items", lang).join(parts), bid=view.bid or 0,
                 multiplier=view.multiplier)
    words = turn_words(table, lang, spaced=True)
    if words:
        text = words + t("sep.sentence", lang) + text
    if view.kitty is not None:
        text += " " + t("alt.table_kitty", lang, cards=spaced_cards(view.kitty))
    for seat in view.seats:  # 明牌: the cards face up on the image
        if seat.shown is not None:
            text += " " + t("table.shown_hand", lang, name=seat.name,
                            cards=spaced_cards(seat.shown)) + t("sep.sentence", lang).strip()
    return text[:1024]


def doublings(table: Table) -> list[tuple[DoublingKind, str | None]]:
    """Every doubling of the finished hand in play order: (kind, seat name or None)."""
    hand = table.hand
    assert hand is not None and hand.result is not None
    out: list[tuple[DoublingKind, str | None]] = []
    for action in hand.history:
        if action.kind == "play" and action.combo is not None and action.combo.is_bomb:
            kind: DoublingKind = "rocket" if action.combo.kind is ComboKind.ROCKET else "bomb"
            out.append((kind, plain_name(table, action.seat)))
    if hand.result.spring:
        out.append(("spring", None))
    if hand.result.anti_spring:
        out.append(("anti_spring", None))
    return out


def result_number(table: Table, settlement: Settlement | None) -> int:
    """The one hand number a result shows (its title, image, alt text and replay line):
    the server's (``Settlement.hand_no``, what ``/ddz replay`` takes), else the table's
    own count for a hand with no server number (stopped, or settled before hands were
    numbered). Issue 37 §5: a second table's first hand read "hand #1" and "Hand #2 of
    this server" at once."""
    number = getattr(settlement, "hand_no", None)
    return number if isinstance(number, int) else table.hand_no


def result_text(table: Table, lang: str, settlement: Settlement | None) -> str:
    """Content of the result message: winner, bid, every doubling, P, changes, totals;
    numbered by ``result_number``."""
    hand = table.hand
    assert hand is not None
    lines = [t("table.title_result", lang, table=table.id, hand=result_number(table, settlement))]
    result = hand.result
    if result is None:
        lines.append(t("table.stopped", lang))
        return "\n".join(lines)
    if result.winner == "landlord":
        lines.append(t("result.landlord_wins", lang, name=plain_name(table, result.landlord)))
    else:
        names = join_names([plain_name(table, i) for i in range(3) if i != result.landlord], lang)
        lines.append(t("result.peasants_win", lang, names=names))
    stakes = stake_lines(table, lang)  # the Happy rules: each peasant's stake, its factors
    if stakes:
        lines += stakes
    else:
        items = [t(f"result.doubling.{kind}", lang, name=name or "")
                 for kind, name in doublings(table)]
        lines.append(t("result.points", lang, bid=result.base, n=superscript(result.doublings), p=result.p,
                       doublings=t("sep.list", lang).join(items) if items
                       else t("result.no_doublings", lang)))
    totals = _totals(settlement)
    for i in range(3):
        role = t("result.role_landlord", lang) if i == result.landlord else ""
        change = signed(result.points[i], MINUS)  # "−2", as the result image writes it
        total = totals.get(i)
        if total is None:
            lines.append(t("result.line_computer", lang, name=plain_name(table, i), role=role,
                           change=change))
        else:
            lines.append(t("result.line", lang, name=plain_name(table, i), role=role,
                           change=change, total=minus_signed(total)))
    left = [
        t("result.left_entry", lang, name=plain_name(table, i), cards=show_cards(hand.hand_of(i)))
        if hand.cards_left(i) else t("result.out", lang, name=plain_name(table, i))
        for i in range(3)
    ]
    lines.append(t("result.left", lang, cards=" · ".join(left)))
    number = getattr(settlement, "hand_no", None)
    if number is not None:
        lines.append(t("result.replay", lang, n=number))
    if not table.feature_deals:
        lines.append(t("result.next", lang))
    elif 0 < table.feature_hands <= table.hand_no:  # its feature deals no more hands here
        lines.append(t(f"{table.kind}.result_last", lang))
    else:
        lines.append(t(f"{table.kind}.result_next", lang))
    return "\n".join(lines)


def _totals(settlement: Settlement | None) -> dict[int, int]:
    if settlement is None:
        return {}
    return {c.seat: c.total for c in settlement.changes if c.total is not None}


def result_view(table: Table, lang: str, settlement: Settlement | None) -> ResultView:
    """The image model of a settled hand."""
    hand = table.hand
    assert hand is not None and hand.result is not None
    result = hand.result
    totals = _totals(settlement)
    seats = [SeatResult(name=plain_name(table, i), is_landlord=i == result.landlord,
                        change=result.points[i], total=totals.get(i),
                        remaining=hand.hand_of(i)) for i in range(3)]
    winners: list[str] = []
    if settlement is not None and getattr(settlement, "match_over", False):
        winners = winner_names(table, settlement)
    return ResultView(winner=result.winner, bid=result.base, points=result.p, seats=seats,
                      doublings=doublings(table), hand_number=result_number(table, settlement),
                      match_winners=winners, stakes=tuple(stake_lines(table, lang)))


def result_alt(table: Table, lang: str, settlement: Settlement | None) -> str:
    """Alt text of the result image (winner, change and total per seat, the cards each seat
    had left, one by one: ``spaced_cards``), ≤ 1024 chars."""
    hand = table.hand
    assert hand is not None and hand.result is not None
    totals = _totals(settlement)
    lines = t("sep.items", lang).join(
        t("alt.result_line", lang, name=plain_name(table, i),
          change=signed(hand.result.points[i], MINUS),
          total=minus_signed(totals[i]) if i in totals else "—")
        for i in range(3))
    winner = t(f"alt.winner_{hand.result.winner}", lang)
    left = t("sep.items", lang).join(
        t("result.left_entry", lang, name=plain_name(table, i), cards=spaced_cards(hand.hand_of(i)))
        if hand.cards_left(i) else t("result.out", lang, name=plain_name(table, i))
        for i in range(3))
    return (t("alt.result", lang, hand=result_number(table, settlement), winner=winner,
              lines=lines) + t("sep.sentence", lang) + t("result.left", lang, cards=left))[:1024]


def winner_names(table: Table, settlement: Settlement) -> list[str]:
    """Display names of the match winners (a mention when the name is unknown)."""
    names = {c.user_id: c.name for c in settlement.changes if c.user_id is not None}
    return [names.get(uid) or mention(uid) for uid in settlement.winners]


def match_won_text(table: Table, settlement: Settlement, lang: str) -> str:
    """The match-win announcement (a separate public message)."""
    names = join_names(winner_names(table, settlement), lang)
    best = max((settlement.final_totals.get(uid, 0) for uid in settlement.winners), default=0)
    if settlement.match_hands and not settlement.winners:  # the computers came out ahead
        return tn("result.match_no_winner_hands", settlement.match_hands, lang,
                  hands=settlement.match_hands)
    if settlement.match_hands:  # a fixed-length match: highest total, ties share
        key = "result.match_shared_hands" if len(settlement.winners) > 1 else "result.match_won_hands"
        return tn(key, settlement.match_hands, lang, names=names, hands=settlement.match_hands,
                  points=tn("count.points", best, lang, n=best))
    return tn("result.match_won", best, lang, names=names, total=best, target=settlement.target)
