"""Small builders for AI tests (docs/RULES.md notation)."""

from __future__ import annotations

import random

from bot.ai import Decision, bidding, hint_options, search
from bot.ai.observation import Observation
from bot.game.computer import AutoAction, decide_from_json
from bot.rules import Combo, classify, parse_cards


def combo(text: str) -> Combo:
    """The preferred reading of ``text`` (longest body, then highest rank)."""
    return classify(parse_cards(text))[0]


def playing(
    seat: int,
    hand: str,
    *,
    landlord: int,
    cards_left: tuple[int, int, int],
    last: tuple[int, str] | None = None,
    history: tuple[tuple[int, str | None], ...] = (),
) -> Observation:
    """A playing-phase observation; ``cards_left[seat]`` must match ``hand``."""
    played = tuple((s, None if c is None else combo(c)) for s, c in history)
    return Observation(
        seat=seat,
        hand=tuple(parse_cards(hand)),
        phase="playing",
        landlord=landlord,
        kitty=None,
        bids=((landlord, 1),),
        highest_bid=1,
        history=played,
        cards_left=cards_left,
        last_play=None if last is None else (last[0], combo(last[1])),
    )


def uncapped_decide_from_json(table_json: str, rng: random.Random) -> AutoAction:
    """``decide_from_json`` with the hard player's wall-clock caps lifted (play search
    and bidding).

    Only the step budget (the number of sampled deals) bounds them then, so a loaded
    machine cannot change a seeded decision; picklable, so a worker process can run it too.
    """
    search.TIME_CAP = float("inf")
    bidding.TIME_CAP = float("inf")
    return decide_from_json(table_json, rng)


def nth_hint(obs: Observation, n: int) -> Decision:
    """The ``n``-th Hint suggestion (cycling), with the hard level's own search budget,
    so that the first one is exactly what ``hard`` plays."""
    options = hint_options(obs, search.STEP_BUDGET)
    return options[n % len(options)]
