"""A finished hand rebuilt step by step from its stored history (``/ddz replay``).

Pure (no discord, no I/O). ``replay(hand)`` deals the stored cards again
(``Hand.dealt``, ``Hand.kitty``, ``Hand.first_bidder``, ``Hand.rules``) and applies
every action of ``Hand.history`` through the same ``Hand`` methods the game used,
so each step is checked by the rules engine (docs/RULES.md §Play, §Beating a play) and
the rebuilt hand must equal the stored one. The steps are the pages of a replay:

* ``deal``: the three 17-card hands and the kitty (shown only after the hand is
  over: a replay never starts from an unfinished hand);
* ``bidding``: every bid in order (under the Happy rules every call, grab, show and
  double), the landlord and the kitty they took;
* ``trick``: one per round, from a free lead until the table clears (two passes)
  or the hand ends — who led, each follow or pass, bombs and rockets;
* ``result``: the score (docs/RULES.md §Scoring).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from bot.game.errors import GameError
from bot.game.hand import Hand
from bot.game.models import Action
from bot.rules import Card

StepKind = Literal["deal", "bidding", "trick", "result"]


@dataclass(frozen=True)
class Step:
    """One page of a replay.

    * ``kind``: ``deal``, ``bidding``, ``trick`` or ``result``.
    * ``trick``: 1-based round number for a ``trick`` step, else 0.
    * ``actions``: the history entries shown on this page, in order (bids for
      ``bidding``, plays and passes for ``trick``, none for ``deal``/``result``).
    * ``first``: index in ``Hand.history`` of ``actions[0]`` (the history length for
      ``result``; 0 for ``deal``).
    * ``before`` / ``after``: each seat's cards (sorted) when the page starts / ends.
    * ``multiplier``: 2^doublings after this page (spring included on ``result``).
    """

    kind: StepKind
    trick: int
    actions: tuple[Action, ...]
    first: int
    before: tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
    after: tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
    multiplier: int

    @property
    def leader(self) -> int | None:
        """The seat that led a ``trick`` step (None for other pages)."""
        return self.actions[0].seat if self.kind == "trick" and self.actions else None

    def history_indices(self) -> range:
        """Indices in ``Hand.history`` of this page's actions."""
        return range(self.first, self.first + len(self.actions))


def fresh_deal(hand: Hand) -> Hand:
    """The hand as it was dealt, before any action (same cards, rules, first bidder,
    and the same Hand class: its rule set's)."""
    return type(hand)(
        rules=hand.rules,
        seed=hand.seed,
        first_bidder=hand.first_bidder,
        redeals=hand.redeals,
        turn=hand.first_bidder,
        dealt=[list(cards) for cards in hand.dealt],
        holdings=[list(cards) for cards in hand.dealt],
        kitty=list(hand.kitty),
    )


def apply_action(hand: Hand, action: Action) -> None:
    """Apply one stored history entry to ``hand`` (raises GameError when illegal)."""
    hand.apply(action)


def position_before(hand: Hand, index: int) -> Hand:
    """The hand just before ``hand.history[index]`` was made (rebuilt from the deal).

    ``index`` may equal ``len(hand.history)`` (the final position). Raises
    ValueError for an index out of range or a history the rules refuse.
    """
    if not 0 <= index <= len(hand.history):
        raise ValueError(f"no decision {index} in a history of {len(hand.history)}")
    position = fresh_deal(hand)
    try:
        for action in hand.history[:index]:
            apply_action(position, action)
    except GameError as error:
        raise ValueError(f"the stored history does not replay ({error.code})") from None
    return position


def _holdings(hand: Hand) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]:
    first, second, third = (tuple(sorted(h)) for h in hand.holdings)
    return first, second, third


def replay(hand: Hand, *, bidding: bool = True) -> list[Step]:
    """The pages of a finished hand: deal, bidding, one per trick, result. ``bidding``
    False: no bidding page, for a deal dealt with its bid fixed (a daily or event deal,
    docs/RULES.md §Daily deal: the member "has bid 3", nobody bid); tricks are numbered
    from 1 either way.

    Raises ValueError when ``hand`` is not finished, when its history breaks the
    rules, or when replaying it does not give back the same hand (holdings,
    doublings, result).
    """
    if hand.phase != "finished" or hand.result is None:
        raise ValueError("only a finished hand can be replayed")
    position = fresh_deal(hand)
    dealt = _holdings(position)
    steps = [Step("deal", 0, (), 0, dealt, dealt, 1)]
    history = hand.history
    n_bids = sum(1 for a in history if a.kind not in _TRICK_KINDS)
    if any(a.kind not in _TRICK_KINDS for a in history[n_bids:]):
        raise ValueError("a bid after the bidding")
    try:
        for action in history[:n_bids]:
            apply_action(position, action)
        if bidding:
            steps.append(Step("bidding", 0, tuple(history[:n_bids]), 0, dealt,
                              _holdings(position), position.multiplier))
        first = len(steps)  # the first trick's page: trick 1
        trick: list[Action] = []
        start, before = n_bids, _holdings(position)
        for i in range(n_bids, len(history)):
            if position.last_play is None and trick:
                steps.append(_trick(len(steps) - first + 1, trick, start, before, position))
                trick, start, before = [], i, _holdings(position)
            trick.append(history[i])
            apply_action(position, history[i])
        if trick:
            steps.append(_trick(len(steps) - first + 1, trick, start, before, position))
    except GameError as error:
        raise ValueError(f"the stored history does not replay ({error.code})") from None
    if position != hand:
        raise ValueError("the replayed hand differs from the stored one")
    final = _holdings(position)
    steps.append(Step("result", 0, (), len(history), final, final, position.multiplier))
    return steps


_TRICK_KINDS = ("play", "pass")
"""What a trick page shows; everything before the first play (bids, and the Happy
rules' calls, grabs, shows and doubles) is on the bidding page."""


def _trick(number: int, actions: Sequence[Action], start: int, before: tuple[Any, ...], position: Hand) -> Step:
    return Step("trick", number, tuple(actions), start, before, _holdings(position),
                position.multiplier)


def step_of(steps: Sequence[Step], history_index: int) -> int:
    """The page index that shows ``hand.history[history_index]``: a fixed bid (no bidding
    page) shows on the deal page; ValueError if none."""
    for page, step in enumerate(steps):
        if step.kind in ("bidding", "trick") and history_index in step.history_indices():
            return page
    if steps and not any(s.kind == "bidding" for s in steps) and all(
            history_index < s.first for s in steps if s.kind == "trick"):
        return 0
    raise ValueError(f"no page shows history entry {history_index}")
