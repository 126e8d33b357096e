"""Texts of a table's rule set and deal, and of the Happy rules' decisions and stakes
(docs/RULES.md §Happy rules, §No-shuffle deals). No discord calls."""

from __future__ import annotations

from bot.game.happy import HappyHand
from bot.game.models import Action
from bot.game.table import Table
from bot.i18n import t
from bot.rules import RuleSet, show_cards
from rendering.replay_pages import decision_label
from rendering.replay_pages import stake_lines as replay_stake_lines

HAPPY_KINDS = ("call", "grab", "show", "double")
"""The Happy rules' decisions, as ``Action.kind``."""


def rules_name(rules: RuleSet, lang: str) -> str:
    """"classic" / "Happy, cap ×64" / "Happy, no cap"."""
    if rules.variant == "happy":
        return (t("rules.happy", lang, cap=rules.cap) if rules.cap is not None
                else t("rules.happy_no_cap", lang))
    return t("rules.classic", lang)


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
