"""The bot-process steps of one click, each timed alone (docs/PERFORMANCE.md §Answers, §Appendix).

``python -m benchmarks.click_path``: a table at a free lead past the middle of a hand
(seeded deal, normal computers' choices), then, per step, the fastest of 9 rounds of ``timeit``
(µs per call): the copy ``TableService`` applies a change to (deep copy vs
``Table.copy_for_change``), the hand view's text and components (``build_screen``),
the card counter, the table's JSON for storage, and a ranking answer through
pickle (bytes, µs to load). CPU on one core, no event loop, no Discord. Runs on older trees
too (a step they lack prints "-"), for side-by-side figures.
"""

from __future__ import annotations

import pickle
import timeit
from collections.abc import Callable

from bot.ai import choose_bid, choose_play
from bot.ai.choices import choices
from bot.game.hand import Hand
from bot.game.selfplay import play_out
from bot.game.table import Table
from cogs.hand_view import build_screen, image_inputs
from cogs.items import ViewState


def mid_hand(seed: int = 7) -> Table:
    """A playing table at the first free lead past the middle of the hand dealt from
    ``seed``."""
    positions: list[Hand] = []
    play_out(Hand.deal(seed=seed), lambda o: choose_bid(o, "normal").bid,
             lambda o: choose_play(o, "normal").combo,
             before_action=lambda hand: positions.append(hand.model_copy(deep=True)))
    leads = [hand for hand in positions[len(positions) // 2:]
             if hand.phase == "playing" and hand.last_play is None]
    hand = leads[0]  # a free lead past the middle: the whole legal-play menu
    table = Table(guild_id=1, channel_id=2, starter_id=3)
    return table.model_copy(update={"hand": hand, "phase": "playing", "seq": 40})


def per_call(fn: Callable[[], object], number: int = 2000) -> float:
    """µs per call in the fastest of 9 rounds of ``number`` calls: on this shared machine
    the other rounds measure the neighbours as well (``timeit``'s own advice)."""
    return min(timeit.repeat(fn, number=number, repeat=9)) / number * 1e6


def main() -> None:
    table = mid_hand()
    assert table.hand is not None
    seat = table.hand.turn or 0
    ranked = choices(table.hand.observation(seat))
    state = ViewState()
    inputs = image_inputs(table, seat, state, True)
    answer = pickle.dumps(ranked, protocol=pickle.HIGHEST_PROTOCOL)
    print(f"a table {len(table.hand.history)} actions into a hand; seat {seat}'s view, "
          f"{len(ranked.plays)} plays in the menu, {len(ranked.suggestions)} Hint suggestions")
    def screen() -> object:
        try:
            return build_screen(table, seat, state, "en", plays=ranked.plays,
                                legal=ranked.legal, counter=True, inputs=inputs)
        except TypeError:  # before ``inputs`` (the card counter computed inside)
            return build_screen(table, seat, state, "en", plays=ranked.plays,
                                legal=ranked.legal, counter=True)

    steps = [
        ("deep copy of the table (model_copy(deep=True))", lambda: table.model_copy(deep=True)),
        ("Table.copy_for_change", getattr(table, "copy_for_change", None)),
        ("build_screen (text, alt text, components)", screen),
        ("card counter (observation + still_out)",
         lambda: table.hand.observation(seat).still_out()),
        ("table JSON for storage (model_dump_json)", table.model_dump_json),
        (f"ranking answer unpickled ({len(answer)} bytes)", lambda: pickle.loads(answer)),
    ]
    for name, fn in steps:
        if fn is None:  # a tree before this step existed
            print(f"{name:<52} {'-':>8}")
        else:
            print(f"{name:<52} {per_call(fn):8.1f} µs")


if __name__ == "__main__":
    main()
