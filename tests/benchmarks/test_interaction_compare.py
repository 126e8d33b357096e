"""benchmarks/interaction_compare.py reads the figures of benchmarks/interaction.py's output
(issue 54's side-by-side runs), and GcWatch prints the full collections it reads."""

from __future__ import annotations

import gc

from benchmarks.interaction import GcWatch
from benchmarks.interaction_compare import parse

OUTPUT = """\
kind                 n  first p50    p90    p99    max  full p50    p90    p99    max
hint                49      192.7  263.0  284.2  284.2     383.7 1057.1 1204.3 1204.3
ALL               2786       43.2  217.3  367.5  980.9     171.8 1484.1 2624.0 3532.8
throughput 92.4 interactions/s; event-loop lag p50 20.0 ms p99 190.0 ms max 748.0 ms
CPU: bot process 0.11 cores = 1.19 ms per interaction; workers 0.20 cores = 2.21 ms per \
interaction (render 1.77, AI 0.44); total 0.31 cores
bot process without the harness: 0.97 ms per interaction (simulated members and fake \
Discord: 0.22 ms, 19% of the process)
hint full p99 1204.3 (≤ 300): MISSED
gen-2 pauses: 1, longest 685.1 ms wall 118.5 ms CPU, total 685 ms wall 118 ms CPU
"""


def test_the_figures_of_one_run_are_read() -> None:
    assert parse(OUTPUT) == {
        "ALL first p99": 367.5, "ALL full p99": 2624.0, "hint full p99": 1204.3,
        "workers ms/click": 2.21, "render ms/click": 1.77, "AI ms/click": 0.44,
        "cores": 0.31, "bot ms/click": 0.97, "clicks/s": 92.4, "loop lag p99": 190.0,
        "gen-2 count": 1.0, "gen-2 longest ms": 685.1, "gen-2 longest CPU ms": 118.5,
        "bot+workers ms/click": 0.97 + 2.21,
    }


COUNTS = """\
per click (5034 clicks): hand images asked 0.658, uploads 0.882, worker calls 1.032, worker CPU 3.479 ms
  call render draw_hand (new fan) urgent             0.535/click   2.735 ms each   1.463 ms/click, \
0.000/click the same call again
  call render _draw_table                            0.300/click   3.105 ms each   0.930 ms/click, \
0.000/click the same call again
  request webhook PATCH @original                        0.746/click
"""


def test_the_counts_per_click_are_read() -> None:
    """``--counts`` (benchmarks/click_counts.py): what a click causes, exact whatever the load."""
    assert parse(COUNTS) == {"hand images/click": 0.658, "uploads/click": 0.882,
                             "table images/click": 0.300, "new fan ms each": 2.735,
                             "table ms each": 3.105}


def test_figures_of_five_digits_that_touch_are_read_apart() -> None:
    row = "ALL               5202       61.2  235.3  643.4  857.5     514.9 3179.3 7596.212356.0"
    assert parse(row) == {"ALL first p99": 643.4, "ALL full p99": 7596.2}


def test_a_run_that_failed_gives_no_figures() -> None:
    assert parse("Traceback (most recent call last):\n  ...\nValueError: no\n") == {}


def test_gc_watch_prints_the_full_collections_in_the_line_the_comparison_reads() -> None:
    watch = GcWatch()
    watch.start()
    try:
        gc.collect()
        gc.collect(1)
    finally:
        watch.stop()
    line = watch.full_line()
    figures = parse(line)
    assert figures["gen-2 count"] == 1 and len(watch.pauses[1]) == 1
    assert figures["gen-2 longest ms"] >= 0 and figures["gen-2 longest CPU ms"] >= 0
    assert line.startswith("gen-2 pauses: 1, longest ")
