"""``bot.service.lru.SingleFlight``: one task per key that every caller shares; ``drop``
lets a computation leave early, and an older task's end never removes a newer one."""

from __future__ import annotations

import asyncio

from bot.service.lru import SingleFlight


async def test_callers_share_one_task_and_it_leaves_when_done() -> None:
    flight: SingleFlight[str, int] = SingleFlight()
    gate = asyncio.Event()
    started: list[str] = []

    async def work() -> int:
        started.append("k")
        await gate.wait()
        return 7

    first = asyncio.ensure_future(flight.run("k", work))
    second = asyncio.ensure_future(flight.run("k", work))
    await asyncio.sleep(0)
    assert "k" in flight and len(flight) == 1 and flight.tasks() == [flight.running("k")]
    gate.set()
    assert await asyncio.gather(first, second) == [7, 7]
    await asyncio.sleep(0)
    assert started == ["k"] and "k" not in flight and flight.tasks() == []


async def test_a_dropped_key_takes_a_new_task_that_the_old_one_s_end_leaves_alone() -> None:
    flight: SingleFlight[str, str] = SingleFlight()
    gates = {"old": asyncio.Event(), "new": asyncio.Event()}

    async def work(name: str) -> str:
        await gates[name].wait()
        return name

    old = flight.start("k", work("old"))
    flight.drop("k")  # over, as far as the owner is concerned: the task runs on
    assert "k" not in flight and not old.done()
    new = flight.start("k", work("new"))
    gates["old"].set()
    assert await old == "old"
    await asyncio.sleep(0)  # the old task's done callbacks have run
    assert flight.running("k") is new
    gates["new"].set()
    assert await new == "new"
    await asyncio.sleep(0)
    assert "k" not in flight
