"""View models of the web pages, built from what the services return (pure: no I/O).

``replay_steps`` turns a settled hand into the viewer's steps (the deal, the bidding,
every trick, the result) from the same page models as ``/ddz replay``
(``rendering.replay_pages``); ``card_view`` is what one card shows; ``chart_svg`` draws the
``/ddz stats`` chart (match total and rating after each hand) as SVG for the web. (A
feature's pages build their own models in its wing, bot/web/routes.py.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup, escape

from bot.game.hand import Hand
from bot.game.replay import Step
from bot.i18n import joker_words, t, tn
from bot.rules import format_cards
from bot.rules.cards import Card, Rank
from rendering import ResultView
from rendering import replay_pages as rp
from rendering.replay_models import ReplayPage
from rendering.strings import decision_words

RANK_TEXT = {Rank.TEN: "10", Rank.BLACK_JOKER: "★", Rank.RED_JOKER: "★"}


@dataclass(frozen=True)
class CardView:
    """One card as drawn: ``rank`` text, ``suit`` symbol (jokers: "JOKER"), ``red``,
    ``label`` for screen readers and ``code`` in docs/RULES.md notation."""

    rank: str
    suit: str
    red: bool
    joker: bool
    label: str
    code: str


def card_view(card: Card, lang: str = "en") -> CardView:
    """What ``card`` shows (``Rank.symbol``, ``Suit.symbol``); a joker's label names it in
    ``lang`` as the bot's texts do (``bot.i18n.joker_words``, docs/RULES.md §Notation)."""
    rank = card.rank
    if rank.is_joker:
        big = rank is Rank.RED_JOKER
        return CardView("★", "JOKER", big, True, joker_words(lang)[big], rank.symbol)
    assert card.suit is not None
    text = RANK_TEXT.get(rank, rank.symbol)
    return CardView(text, card.suit.symbol, card.suit.is_red, False,
                    f"{text}{card.suit.symbol}", rank.symbol)


@dataclass(frozen=True)
class ReplayStep:
    """One step of the viewer: ``kind`` ``deal`` / ``bidding`` / ``trick`` / ``result``,
    its ``title``, the ``page`` model (None for the result) and, for a trick, its
    ``trick`` number and the plays in notation (``plays``, for tests and alt text)."""

    kind: str
    title: str
    page: ReplayPage | None
    trick: int = 0
    plays: tuple[str, ...] = ()


@dataclass(frozen=True)
class ReplayView:
    """A whole settled hand for the viewer."""

    hand_no: int
    title: str
    description: str
    steps: tuple[ReplayStep, ...]
    result: ResultView
    names: tuple[str, str, str]
    computers: tuple[bool, bool, bool]
    doublings: int


def replay_view(hand: Hand, steps: Sequence[Step], players: rp.Players, hand_no: int,
                lang: str) -> ReplayView:
    """The viewer's model of a settled hand (Raises AssertionError for an unsettled one)."""
    pages = rp.pages(hand, steps, players, hand_no)
    result = rp.result_view(hand, players, hand_no, lang)
    tricks = sum(1 for s in steps if s.kind == "trick")
    out: list[ReplayStep] = []
    for page, step in zip(pages, steps, strict=False):
        if step.kind == "deal":
            title = t("web.step_deal", lang)
        elif step.kind == "bidding":
            title = t("web.step_calling" if page.happy else "web.step_bidding", lang)
        else:
            title = t("web.step_trick", lang, n=step.trick, total=tricks)
        plays = tuple(format_cards(line.cards) for line in page.lines if line.cards)
        out.append(ReplayStep(step.kind, title, page, step.trick, plays))
    out.append(ReplayStep("result", t("web.step_result", lang), None))
    landlord = next(seat.name for seat in result.seats if seat.is_landlord)
    outcome = t(f"web.outcome_{result.winner}", lang)
    if result.stakes:  # the Happy rules: no bid, a stake per peasant (docs/RULES.md)
        description = t("web.replay_description_happy", lang, landlord=landlord,
                        outcome=outcome)
    else:
        description = t("web.replay_description", lang, landlord=landlord, bid=result.bid,
                        outcome=outcome, p=result.points)
    return ReplayView(hand_no, t("web.replay_title", lang, n=hand_no), description,
                      tuple(out), result, players.names,
                      (players.is_computer(0), players.is_computer(1), players.is_computer(2)),
                      len(result.doublings))


def line_verb(kind: str, amount: int, lang: str) -> str:
    """The verb of a replay line: ``bids 2``, ``does not bid``, ``leads``, ``plays``,
    ``passes``; a Happy decision in its words ("Grab ×2", ``decision_words``)."""
    if kind in ("call", "grab", "show", "double"):
        return decision_words(lang, kind, amount)
    if kind == "bid":
        return t("web.bid", lang, n=amount) if amount else t("web.bid_pass", lang)
    return t(f"web.{kind}", lang)


def cards_left(n: int, lang: str) -> str:
    """``17 cards`` / ``out``."""
    return tn("web.cards_left", n, lang, n=n) if n else t("web.out", lang)


CHART_W, CHART_H, PAD = 640, 220, 28


def chart_svg(points: Sequence[Any], lang: str) -> Markup:
    """The stats chart: the match total after each hand (bars, green won / red lost) and
    the rating (μ − 3σ) as a line, for ``HandPoint``-like rows (``total``, ``points``,
    ``ordinal``), oldest first. Scales to its container (``viewBox``)."""
    rows = list(points)
    if not rows:
        return Markup("")
    totals = [r.total if r.total is not None else 0 for r in rows]
    ratings = [r.ordinal for r in rows]
    low, high = min(0, *totals), max(1, *totals)
    inner_w, inner_h = CHART_W - 2 * PAD, CHART_H - 2 * PAD
    step = inner_w / len(rows)

    def y(value: float) -> float:
        return PAD + inner_h * (high - value) / (high - low)

    parts = [f'<svg class="chart" viewBox="0 0 {CHART_W} {CHART_H}" role="img" '
             f'aria-label="{escape(tn("web.chart_title", len(rows), lang, n=len(rows)))}">',
             f'<line class="axis" x1="{PAD}" x2="{CHART_W - PAD}" y1="{y(0):.1f}" y2="{y(0):.1f}"/>']
    for i, (row, total) in enumerate(zip(rows, totals, strict=True)):
        top, bottom = sorted((y(total), y(0)))
        cls = "won" if row.points > 0 else "lost"
        parts.append(f'<rect class="{cls}" x="{PAD + i * step + step * 0.15:.1f}" y="{top:.1f}" '
                     f'width="{step * 0.7:.1f}" height="{max(bottom - top, 1):.1f}">'
                     f'<title>{row.points:+d} → {total}</title></rect>')
    known = [(i, r) for i, r in enumerate(ratings) if r is not None]
    if len(known) > 1:
        r_low = min(r for _, r in known)
        r_high = max(r for _, r in known)
        span = (r_high - r_low) or 1.0

        def ry(value: float) -> float:
            y_: float = PAD + inner_h * (r_high - value) / span
            return y_

        path = " ".join(f"{PAD + i * step + step / 2:.1f},{ry(r):.1f}" for i, r in known)
        parts.append(f'<polyline class="rating" points="{path}"/>')
    parts.append(f'<text class="label" x="{PAD}" y="{PAD - 10}">{escape(str(high))}</text>')
    parts.append(f'<text class="label" x="{PAD}" y="{CHART_H - 8}">{escape(str(low))}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))
