"""benchmarks/interaction_compare.py reads the figures of benchmarks/interaction.py's output
(issue 54's side-by-side runs), and GcWatch prints the full collections it reads."""

from __future__ import annotations

import asyncio
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
        "bid share %": 0.0, "My hand share %": 0.0, "turn share %": 100 * 49 / 2786,
    }


MIX = """kind                 n  first p50    p90    p99    max  full p50    p90    p99    max
My hand           1198       13.8  158.0  200.9  228.7      14.2  166.4  257.0  347.3
bid                894        0.7    9.8   32.6   99.0      20.3  123.6  323.2  569.8
join               700        0.2    0.7   10.6   58.3       0.9    6.2  157.3  251.6
pick (menu)        328       48.0  137.1  210.0  230.0      49.2  137.4  264.6  358.1
play               277      102.1  180.8  248.6  276.9     104.3  263.8  439.8  441.2
rank (waiting)     151       47.4  129.1  203.5  227.6      48.9  129.6  228.1  254.7
pass                18       18.4   91.0  225.5  225.5      22.8   91.3  576.2  576.2
ALL               3566        4.1   98.0  193.5  276.9      10.6  125.1  271.6  603.8
gen-2 pauses: 28, longest 21.7 ms wall 14.3 ms CPU, total 300 ms wall 200 ms CPU
ramp gen-2 pauses: 3, longest 2.4 ms wall 2.4 ms CPU, total 5 ms wall 5 ms CPU
"""


def test_the_click_mix_is_read_and_the_ramps_collections_are_not_the_measured_ones() -> None:
    # the mix tells whether two runs did the same clicks (docs/PERFORMANCE.md §The same
    # clicks on both trees?); a rank pressed while waiting is not a click in one's turn
    figures = parse(MIX)
    assert figures["bid share %"] == 100 * 894 / 3566
    assert figures["My hand share %"] == 100 * 1198 / 3566
    assert figures["turn share %"] == 100 * (328 + 277 + 18) / 3566
    assert (figures["gen-2 count"], figures["gen-2 longest ms"],
            figures["gen-2 longest CPU ms"]) == (28, 21.7, 14.3)


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


def test_gc_watch_prints_the_young_and_middle_collections() -> None:
    watch = GcWatch()
    watch.start()
    try:
        gc.collect(1)
        gc.collect(0)
        gc.collect(0)
    finally:
        watch.stop()
    line = watch.young_line()
    assert line.startswith("gen-1 pauses: 1, longest ") and "; gen-0 pauses: 2, longest " in line


def test_gc_watch_census_names_what_a_full_collection_scanned() -> None:
    # --gc-census: what the long full collections scan, by type, coroutines and tasks
    # by their code (docs/PERFORMANCE.md §Short collections)
    async def asleep() -> None:
        await asyncio.sleep(3600)

    async def scan() -> GcWatch:
        task = asyncio.get_running_loop().create_task(asleep())
        await asyncio.sleep(0)
        kept = [[n] for n in range(300)]
        watch = GcWatch(census=True)
        watch.start()
        try:
            gc.collect()
        finally:
            watch.stop()
            task.cancel()
        assert len(kept) == 300
        return watch

    watch = asyncio.run(scan())
    assert watch.census is not None and len(watch.scanned) == 1
    assert watch.census["list"] >= 301 and watch.census["coroutine " + ASLEEP] == 1
    assert watch.census["Task " + ASLEEP] == 1
    line = watch.census_line(top=3)
    assert line.startswith("gen-2 census (objects a full collection scanned, mean of 1): ")
    assert len(line.split(": ", 1)[1].split(", ")) == 3
    assert GcWatch().census_line() == "gen-2 census: -"


ASLEEP = "test_gc_watch_census_names_what_a_full_collection_scanned.<locals>.asleep"
