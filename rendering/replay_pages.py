"""Replay and review view models and texts built from a finished hand (no discord calls).

``pages(...)`` turns the steps of ``bot.game.replay`` into ``rendering`` page models
(the last page is the result, drawn by ``render_result``); ``page_alt`` / ``plays_alt``
give the alt texts (≤ 1024 characters, Discord's limit); ``review_lines`` the
summary of a review. Card lists use the docs/RULES.md notation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.game.hand import Hand
from bot.game.happy import HappyHand, HappyResult
from bot.game.models import Action, HandResult
from bot.game.replay import Step
from bot.i18n import cards_text, t
from bot.i18n.numbers import MINUS
from bot.rules import Combo, ComboKind, spaced_cards
from bot.rules.happy import Stake
from rendering import ResultView, SeatResult
from rendering.models import DoublingKind
from rendering.replay_models import ReplayLine, ReplayPage, ReplaySeat, ReviewMark
from rendering.strings import decision_words

if TYPE_CHECKING:
    from bot.values import FinishedHand

ALT_LIMIT = 1024


@dataclass(frozen=True)
class Players:
    """Who sat where in a finished hand: names (``"?"`` once forgotten), user ids
    (None for computers and forgotten members), match totals after the hand."""

    names: tuple[str, str, str]
    user_ids: tuple[int | None, int | None, int | None]
    totals: tuple[int | None, int | None, int | None] = (None, None, None)

    def is_computer(self, seat: int) -> bool:
        return self.user_ids[seat] is None and self.names[seat] != "?"


def players_of(record: FinishedHand) -> Players:
    """The Players of a recorded hand (names as stored now: ``"?"`` once forgotten)."""
    changes = sorted(record.settlement.changes, key=lambda c: c.seat)
    names = [c.name or "?" for c in changes]
    totals = [c.total for c in changes]
    return Players(names=(names[0], names[1], names[2]), user_ids=record.user_ids,
                   totals=(totals[0], totals[1], totals[2]))


HAPPY_DECISIONS = ("call", "grab", "show", "double")
"""The Happy rules' decisions (docs/RULES.md §Happy rules): lines of the bidding page,
each with its words and the multiplier it leaves, and named in its alt text."""


def decision_label(kind: str, amount: int, lang: str) -> str:
    """The words of a Happy decision ("Grab ×2", "No double"):
    ``rendering.strings.decision_words``."""
    return decision_words(lang, kind, amount)


def happy_multipliers(actions: Sequence[Action]) -> list[int]:
    """The multiplier G × S after each of ``actions`` (a Happy hand's bidding page, in
    order): every grab doubles G, a show makes S the largest show so far (docs/RULES.md
    §Happy rules); 0 after a double, whose factor is the seat's own."""
    grab, show, out = 1, 1, []
    for action in actions:
        if action.kind == "grab" and action.amount:
            grab *= 2
        elif action.kind == "show":
            show = max(show, action.amount or 1)
        out.append(0 if action.kind == "double" else grab * show)
    return out



def factors_text(stake: Stake, bombs: int, spring: bool, lang: str) -> str:
    """"grab ×4 · shown hand ×2 · bombs ×2 · double ×4" (factors above 1), then "capped at
    64" when the cap cut it; "×1" when every factor is 1 (docs/RULES.md §Happy rules)."""
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


def stake_lines(result: HandResult, names: Sequence[str], lang: str) -> list[str]:
    """One line per peasant of a settled Happy hand, its factors and its stake ("Bo: grab
    ×4 · shown hand ×2 · bombs ×2 · spring ×2 = 64"), seats in order; [] for a classic
    hand. ``names``: the three seats' names."""
    if not isinstance(result, HappyResult):
        return []
    bombs = result.bombs + result.rockets
    spring = result.spring or result.anti_spring
    return [t("result.stake", lang, name=names[seat],
              factors=factors_text(result.stake(seat), bombs, spring, lang),
              stake=result.stakes[seat])
            for seat in range(3) if seat != result.landlord]

def _line(action: Action, lead: bool, mark: ReviewMark | None, players: Players,
          multiplier: int = 0) -> ReplayLine:
    """One action's line; "auto-played" only for a move the computer made *for a member*
    (timeout, auto-play): a computer seat's own moves are all the computer's (issue 37).
    ``multiplier``: what a Happy decision leaves (``happy_multipliers``)."""
    auto = action.auto and not players.is_computer(action.seat)
    if action.kind in HAPPY_DECISIONS:
        return ReplayLine(action.seat, action.kind, amount=action.amount or 0, auto=auto,  # type: ignore[arg-type]  # one of HAPPY_DECISIONS, a LineKind
                          mark=mark, multiplier=multiplier)
    if action.kind == "bid":
        return ReplayLine(action.seat, "bid", amount=action.amount or 0, auto=auto, mark=mark)
    if action.kind == "pass":
        return ReplayLine(action.seat, "pass", auto=auto, mark=mark)
    combo = action.combo
    assert combo is not None
    doubling = ("rocket" if combo.kind is ComboKind.ROCKET else "bomb") if combo.is_bomb else None
    return ReplayLine(action.seat, "lead" if lead else "follow", cards=tuple(combo.cards),
                      doubling=doubling, auto=auto, mark=mark)  # type: ignore[arg-type]  # "bomb", "rocket" or None


def pages(hand: Hand, steps: Sequence[Step], players: Players, hand_no: int | None,
          marks: Mapping[int, ReviewMark] | None = None) -> list[ReplayPage]:
    """Page models for every step but the result (``marks``: by history index); the
    models are hashable, so ``render_replay_page_cached`` can memoize them."""
    marks = marks or {}
    tricks = sum(1 for s in steps if s.kind == "trick")
    landlord = hand.landlord
    out = []
    for number, step in enumerate(steps[:-1], start=1):
        seats = tuple(ReplaySeat(players.names[i],
                                 is_landlord=step.kind != "deal" and i == landlord,
                                 is_computer=players.is_computer(i), cards=step.after[i])
                      for i in range(3))
        multipliers = happy_multipliers(step.actions)
        lines = tuple(_line(a, step.kind == "trick" and k == 0, marks.get(step.first + k),
                            players, multipliers[k])
                      for k, a in enumerate(step.actions))
        bid = None if step.kind == "deal" else hand.winning_bid or None
        out.append(ReplayPage(
            kind=step.kind, seats=seats, lines=lines,  # type: ignore[arg-type]  # step.kind is one of ReplayPage's kinds
            kitty=tuple(hand.kitty) if step.kind in ("deal", "bidding") else (),
            hand_number=hand_no, page=number, pages=len(steps), trick=step.trick, tricks=tricks,
            bid=bid, multiplier=step.multiplier,
            first_bidder=hand.opener if isinstance(hand, HappyHand) else hand.first_bidder,
            happy=isinstance(hand, HappyHand)))
    return out


def result_view(hand: Hand, players: Players, hand_no: int | None,
                lang: str = "en") -> ResultView:
    """The result page (the same image as the result message; ``lang``: the words of a
    Happy hand's stakes)."""
    result = hand.result
    assert result is not None
    doublings: list[tuple[DoublingKind, str | None]] = [
        ("rocket" if a.combo.kind is ComboKind.ROCKET else "bomb", players.names[a.seat])
        for a in hand.history if a.kind == "play" and a.combo is not None and a.combo.is_bomb]
    if result.spring:
        doublings.append(("spring", None))
    if result.anti_spring:
        doublings.append(("anti_spring", None))
    seats = [SeatResult(name=players.names[i], is_landlord=i == result.landlord,
                        change=result.points[i], total=players.totals[i],
                        remaining=hand.hand_of(i)) for i in range(3)]
    return ResultView(winner=result.winner, bid=result.base, points=result.p, seats=seats,
                      doublings=doublings, hand_number=hand_no,
                      stakes=tuple(stake_lines(result, players.names, lang)))


def _act(action: Action, players: Players, lang: str) -> str:
    name = players.names[action.seat]
    if action.kind in HAPPY_DECISIONS:
        return t("table.decision_entry", lang, name=name,
                 choice=decision_label(action.kind, action.amount or 0, lang))
    if action.kind == "bid":
        return (t("replay.alt_bid", lang, name=name, n=action.amount) if action.amount
                else t("replay.alt_pass", lang, name=name))
    if action.kind == "pass":
        return t("replay.alt_pass", lang, name=name)
    combo = action.combo
    assert combo is not None
    text = t("replay.alt_play", lang, name=name, cards=spaced_cards(combo.notation))
    if combo.is_bomb:
        text += " " + t(f"replay.alt_{'rocket' if combo.kind is ComboKind.ROCKET else 'bomb'}",
                        lang)
    return text


def _clip(text: str) -> str:
    return text if len(text) <= ALT_LIMIT else text[: ALT_LIMIT - 1] + "…"


def page_alt(hand: Hand, steps: Sequence[Step], index: int, players: Players, lang: str,
             hand_no: int | None, name: str | None = None) -> str:
    """Alt text of page ``index`` (0-based; the last page is the result). ``name``: what
    the hand is called instead of "Hand #n" (a daily hand: "Daily deal of 2026-12-01")."""
    step = steps[index]
    head = (t("replay.alt_head", lang, n=hand_no or "?", page=index + 1, pages=len(steps))
            if name is None else
            t("replay.alt_head_named", lang, name=name, page=index + 1, pages=len(steps)))
    if step.kind == "deal":
        body = t("sep.items", lang).join(t("replay.alt_hand", lang, name=players.names[i],
                           cards=spaced_cards(step.after[i])) for i in range(3))
        body += t("sep.items", lang) + t("replay.alt_kitty", lang, cards=spaced_cards(hand.kitty))
    elif step.kind == "result":
        result = hand.result
        assert result is not None
        body = t(f"alt.winner_{result.winner}", lang) + " " + t("sep.items", lang).join(
            players.names[i] + " " + f"{result.points[i]:+d}".replace("-", MINUS)  # "−2"
            for i in range(3))
    else:
        body = t("sep.items", lang).join(_act(a, players, lang) for a in step.actions)
        if step.kind == "trick":
            body = t("replay.alt_trick", lang, n=step.trick) + " " + body
    return _clip(f"{head} {body}")


def plays_alt(hand: Hand, steps: Sequence[Step], players: Players, lang: str,
              hand_no: int | None, name: str | None = None) -> str:
    """Alt text of the animation: every bid and play, trick by trick (clipped to 1024);
    ``name`` as in ``page_alt``."""
    parts = []
    for step in steps:
        if step.kind == "bidding":
            parts.append(t("sep.list", lang).join(_act(a, players, lang) for a in step.actions))
        elif step.kind == "trick":
            plays = [_act(a, players, lang) for a in step.actions if a.kind == "play"]
            parts.append(f"{step.trick}. " + t("sep.list", lang).join(plays))
    head = (t("replay.alt_animation", lang, n=hand_no or "?") if name is None
            else t("replay.alt_animation_named", lang, name=name))
    return _clip(head + " " + " | ".join(parts))


def action_text(action: int | Combo | None, kind: str, lang: str) -> str:
    """A bid, a play or a pass in words/notation (review summaries); a Happy decision
    (``kind`` call, grab, show, double; ``action`` its amount) as a verb phrase."""
    if kind in ("call", "grab"):
        return t(f"review.{kind}" if action else f"review.no_{kind}", lang)
    if kind == "show":
        return t("review.show", lang, n=action) if action else t("review.no_show", lang)
    if kind == "double":
        return t(f"review.double_{action}", lang)
    if kind == "bid":
        return t("review.bid", lang, n=action) if action else t("review.bid_pass", lang)
    if action is None:
        return t("review.pass", lang)
    return f"`{cards_text(action.notation, lang)}`"  # type: ignore[union-attr]  # a play: bids are shown as text above
