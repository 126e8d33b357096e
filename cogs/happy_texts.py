"""Texts of a table's rule set and deal, and of the Happy rules' decisions and stakes
(docs/RULES.md §Happy rules, §No-shuffle deals). No discord calls."""

from __future__ import annotations

from bot.game.happy import HappyHand, HappyResult
from bot.game.models import Action
from bot.game.table import Table
from bot.i18n import t
from bot.rules import RuleSet, show_cards
from bot.rules.happy import Stake
from rendering.replay_pages import decision_label

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


def factors_text(stake: Stake, bombs: int, spring: bool, lang: str) -> str:
    """"grab ×4 · shown hand ×2 · bombs ×2 · double ×4" (factors above 1), then "capped at
    64" when the cap cut it; "×1" when every factor is 1."""
    parts = []
    if stake.grab > 1:
        parts.append(t("factor.grab", lang, n=stake.grab))
    if stake.show > 1:
        parts.append(t("factor.show", lang, n=stake.show))
    if bombs:
        parts.append(t("factor.bombs", lang, n=2**bombs))
    if spring:
        parts.append(t("factor.spring", lang))
    if stake.landlord_double > 1:
        parts.append(t("factor.landlord_double", lang, n=stake.landlord_double))
    if stake.double > 1:
        parts.append(t("factor.double", lang, n=stake.double))
    if stake.capped:
        parts.append(t("factor.cap", lang, cap=stake.cap))
    return " · ".join(parts) if parts else "×1"


def stake_lines(table: Table, lang: str) -> list[str]:
    """One line per peasant of a finished Happy hand: its factors and its stake
    ("Bo: grab ×4 · shown hand ×2 · bombs ×2 · spring ×2 = 64"); [] for another hand."""
    hand = table.hand
    result = hand.result if hand is not None else None
    if not isinstance(result, HappyResult):
        return []
    bombs = result.bombs + result.rockets
    spring = result.spring or result.anti_spring
    return [t("result.stake", lang, name=table.seats[seat].name or "?",
              factors=factors_text(result.stake(seat), bombs, spring, lang),
              stake=result.stakes[seat])
            for seat in range(3) if seat != result.landlord]


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
