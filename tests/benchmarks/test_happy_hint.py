"""benchmarks/happy_hint.py measures the Hints it means to: the worker's answer on a Happy
call and on a classic bid, and the quick one, on deals whose first speaker is a member."""

from __future__ import annotations

from benchmarks.happy_hint import KINDS, measure, table_of
from bot.game.computer import table_hint_options


def test_it_times_the_call_and_the_bid_it_names() -> None:
    happy, classic = table_of(KINDS["Happy call"], 3), table_of(KINDS["classic bid"], 3)
    assert happy.hand is not None and happy.hand.asked(0) == "call"
    assert classic.hand is not None and classic.hand.asked(0) == "bid"
    assert table_hint_options(happy, 0)[-1].reason.startswith("happy_")
    assert table_hint_options(classic, 0)[0].reason.startswith("bid_")
    rows = measure(2)
    assert all(len(parts[p]) == 2 and min(parts[p]) >= 0 for parts in rows.values()
               for p in ("worker", "quick"))
