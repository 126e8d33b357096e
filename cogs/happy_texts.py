"""Texts of a table's rule set and deal, and of the Happy rules' decisions and stakes
(docs/RULES.md §Happy rules, §No-shuffle deals). No discord calls."""

from __future__ import annotations

from bot.game.happy import HappyHand
from bot.game.models import Action
from bot.game.table import Table
from bot.i18n import t
from bot.rules import Card, show_cards
from rendering.replay_pages import decision_label
from rendering.replay_pages import stake_lines as replay_stake_lines
from rendering.strings import rules_name as rules_name  # the web page says it too

HAPPY_KINDS = ("call", "grab", "show", "double")
"""The Happy rules' decisions, as ``Action.kind``."""


def rules_line(table: Table, lang: str) -> str | None:
    """"Rules: Happy, cap ×64 · deal: no shuffle", or None for the classic shuffled game
    (the default says nothing)."""
    rules = table.rules
    if rules.variant == "classic" and rules.deal == "shuffled":
        return None
    deal = t("deal.no_shuffle" if rules.deal == "no-shuffle" else "deal.shuffled", lang)
    return t("table.rules_line", lang, rules=rules_name(rules, lang), deal=deal)


def choice_label(kind: str, amount: int, lang: str) -> str:
    """The button text of a Happy decision (``kind`` and ``amount`` as in ``Action``):
    ``rendering.replay_pages.decision_label``, which the replays' texts share."""
    return decision_label(kind, amount, lang)


def button_label(kind: str, amount: int, lang: str) -> str:
    """A Happy decision's button: ``choice_label``, but a choice that multiplies the
    stakes says so in a form no rank button has ("Grab (points ×2)", "明牌（4倍）"): the
    rank buttons beside it read "5 ×2" for two 5s (issue 52)."""
    if kind == "grab" and amount:
        return t("btn.grab_stake", lang)
    if kind == "show" and amount:
        return t("btn.show_stake", lang, n=amount)
    if kind == "double" and amount > 1:
        return t(f"btn.double_stake_{amount}", lang)
    return choice_label(kind, amount, lang)


def action_label(action: Action, lang: str) -> str:
    """``choice_label`` of a recorded decision."""
    return choice_label(action.kind, action.amount or 0, lang)


def decisions_text(table: Table, lang: str) -> str | None:
    """"So far: Ana: Call · Bo: Grab ×2 · …", each Happy decision in order (doubles only
    once every seat has chosen: they are made at the same time); None when none."""
    hand = table.hand
    if not isinstance(hand, HappyHand):
        return None
    secret = hand.phase == "doubling"
    entries = [t("table.decision_entry", lang, name=table.seats[a.seat].name or "?",
                 choice=action_label(a, lang))
               for a in hand.history
               if a.kind in HAPPY_KINDS and not (secret and a.kind == "double")]
    return t("table.decisions", lang, entries=" · ".join(entries)) if entries else None


def stake_lines(table: Table, lang: str) -> list[str]:
    """One line per peasant of a finished Happy hand: its factors and its stake
    ("Bo: grab ×4 · shown hand ×2 · bombs ×2 · spring ×2 = 64"); [] for another hand
    (``rendering.replay_pages.stake_lines``, the result image's too)."""
    hand = table.hand
    result = hand.result if hand is not None else None
    if result is None:
        return []
    return replay_stake_lines(result, [seat.name or "?" for seat in table.seats], lang)


def shown_hands(table: Table, lang: str, *, viewer: int) -> tuple[tuple[str, tuple[Card, ...]], ...]:
    """The hands other seats show face up, for ``viewer``'s hand image: ("Ana's hand,
    shown", the cards she holds now) each, in seat order; () for a classic hand."""
    hand = table.hand
    return tuple((t("img.shown_title", lang, name=table.seats[seat].name or "?"),
                  tuple(hand.hand_of(seat)))
                 for seat in shown_seats(table, viewer) if hand is not None)


def shown_seats(table: Table, viewer: int | None) -> list[int]:
    """The seats other than ``viewer`` whose hand is face up now and not empty (Happy
    rules, while the hand is played); [] for a classic hand."""
    hand = table.hand
    if not isinstance(hand, HappyHand) or table.phase != "playing":
        return []
    return [seat for seat in hand.shown if seat != viewer and hand.cards_left(seat)]


def shown_lines(table: Table, lang: str, *, viewer: int | None = None) -> list[str]:
    """The hands shown face up (明牌) while the hand is played, one line each ("Carol's
    hand, shown: 3 4 4 …", the cards held now): every seat sees them, so the public
    message and the other seats' views list them (``viewer``'s own hand is left out)."""
    hand = table.hand
    if not isinstance(hand, HappyHand) or table.phase != "playing":
        return []
    return [t("table.shown_hand", lang, name=table.seats[seat].name or "?",
              cards=show_cards(hand.hand_of(seat)))
            for seat in hand.shown if seat != viewer and hand.cards_left(seat)]


ASKED_NOW = ("call", "grab", "show", "double")
"""What ``asked_now`` may answer: the Happy rules' questions before the play."""


def asked_now(table: Table) -> str | None:
    """The Happy rules' question the table waits on: ``"call"``, ``"grab"`` or ``"show"``
    (the seat to act's, ``HappyHand.asked``), ``"double"`` while all three double; None
    for a classic hand, during the play and between hands. The turn lines, pings and the
    image use it to say "call" and "grab" where a classic table says "bid"."""
    hand = table.hand
    if not isinstance(hand, HappyHand) or table.phase != "playing":
        return None
    if hand.phase == "doubling":
        return "double"
    if hand.turn is None:
        return None
    asked = hand.asked(hand.turn)
    return asked if asked in ASKED_NOW else None


def latest_words(hand: HappyHand) -> dict[int, Action]:
    """Each seat's latest Call / Don't call / Grab / Don't grab of the hand."""
    return {a.seat: a for a in hand.history if a.kind in ("call", "grab")}
