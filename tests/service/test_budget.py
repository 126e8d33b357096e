"""GlobalBudget: the token bucket for Discord's global-limited requests (bot/service/budget.py)."""

from __future__ import annotations

import asyncio

import pytest

from bot.service.budget import COSMETIC, RESULT, TURN, GlobalBudget, share_of
from bot.storage import StorageUnavailable


async def test_a_burst_goes_at_once_and_the_rest_at_the_rate() -> None:
    loop = asyncio.get_running_loop()
    budget = GlobalBudget(rate=20.0, burst=2)
    start = loop.time()
    times: list[float] = []

    async def one() -> None:
        await budget.take(TURN)
        times.append(loop.time() - start)

    await asyncio.gather(*(one() for _ in range(6)))
    assert times[1] < 0.02  # the two banked tokens
    assert 4 * 0.05 - 0.02 <= times[-1] <= 4 * 0.05 + 0.15, times  # then one per 50 ms
    assert budget.taken == 6 and budget.waited == 4 and budget.waiting == 0


async def test_results_go_before_turns_and_turns_before_cosmetic_redraws() -> None:
    budget = GlobalBudget(rate=50.0, burst=1)
    await budget.take()  # the bucket is empty now
    order: list[str] = []

    async def one(name: str, priority: int) -> None:
        await budget.take(priority)
        order.append(name)

    tasks = [asyncio.create_task(one(n, p)) for n, p in
             (("cosmetic", COSMETIC), ("turn", TURN), ("cosmetic2", COSMETIC), ("result", RESULT))]
    await asyncio.gather(*tasks)
    assert order == ["result", "turn", "cosmetic", "cosmetic2"]


async def test_a_cancelled_waiter_spends_nothing() -> None:
    budget = GlobalBudget(rate=10.0, burst=1)
    await budget.take()
    waiter = asyncio.create_task(budget.take(COSMETIC))
    await asyncio.sleep(0)
    waiter.cancel()
    await asyncio.gather(waiter, return_exceptions=True)
    await asyncio.wait_for(budget.take(RESULT), 0.5)  # the next token is the next caller's
    assert budget.taken == 2


def test_each_process_takes_its_shards_share_of_the_rate() -> None:
    assert share_of(40.0, None, None) == 40.0
    assert share_of(40.0, [0], 2) == 20.0
    assert share_of(40.0, [0, 1, 2], 4) == 30.0
    assert share_of(40.0, [0, 1], 2) == 40.0
    with pytest.raises(ValueError):
        GlobalBudget(rate=0)


class ScriptedBucket:
    """A SharedBucket answering each lease from ``answers`` (granted, ready_in, busiest;
    or an exception to raise); records what was asked."""

    def __init__(self, *answers: tuple[int, float, int] | Exception) -> None:
        self.answers = list(answers)
        self.asked: list[int] = []
        self.waiting: list[int] = []
        self.closed = False

    async def lease(self, wanted: int, waiting: int) -> tuple[int, float, int]:
        self.asked.append(wanted)
        self.waiting.append(waiting)
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    async def close(self) -> None:
        self.closed = True


async def test_shared_tokens_go_by_priority_and_a_leftover_is_dropped_not_kept() -> None:
    bucket = ScriptedBucket((3, 0.02, 0), (1, 0.0, 0))
    budget = GlobalBudget(rate=40.0, burst=10, shared=bucket, fallback_rate=20.0)
    order: list[str] = []

    async def one(name: str, priority: int) -> None:
        await budget.take(priority)
        order.append(name)

    cosmetic = asyncio.create_task(one("cosmetic", COSMETIC))
    turn = asyncio.create_task(one("turn", TURN))
    result = asyncio.create_task(one("result", RESULT))
    await asyncio.sleep(0)  # all three wait; the lease asks for three
    cosmetic.cancel()  # gives up while the reservation is owed
    await asyncio.gather(turn, result)
    assert order == ["result", "turn"] and bucket.asked == [3]
    assert budget.taken == 2
    assert not budget.try_take()  # the third reserved token was dropped, not banked
    await asyncio.wait_for(budget.take(RESULT), 0.5)  # a lease of its own
    assert bucket.asked == [3, 1] and budget.leases == 2
    await budget.close()
    assert bucket.closed
    await asyncio.wait_for(budget.take(RESULT), 0.5)  # after close: the share, no lease
    assert bucket.asked == [3, 1] and budget.on_own_tokens


async def test_a_failing_shared_bucket_falls_back_to_the_share_then_tries_again() -> None:
    bucket = ScriptedBucket(StorageUnavailable("PostgreSQL: TimeoutError: "), (1, 0.0, 0))
    leases: list[bool] = []
    budget = GlobalBudget(rate=40.0, burst=10, shared=bucket, fallback_rate=20.0,
                          on_lease=leases.append)
    loop = asyncio.get_running_loop()
    begun = loop.time()
    await asyncio.wait_for(budget.take(RESULT), 0.5)  # at the share: one token in 50 ms
    assert 0.04 <= loop.time() - begun <= 0.3
    assert budget.fallbacks == 1 and budget.on_own_tokens and bucket.asked == [1]
    budget._fallback_until = loop.time()  # the fallback's second is over
    await asyncio.wait_for(budget.take(RESULT), 0.5)
    assert bucket.asked == [1, 1] and not budget.on_own_tokens and budget.leases == 1
    assert leases == [False, True]
    await budget.close()


async def test_a_process_with_less_waiting_than_the_busiest_reserves_its_part_of_a_batch() -> None:
    """Each process holds one reservation at a time, so its size sets its part of the
    rate: the busiest asks for ``burst``, one with a fifth of its waiting a fifth."""
    bucket = ScriptedBucket((10, 0.0, 50), (2, 0.0, 50), (1, 0.0, 0))
    budget = GlobalBudget(rate=40.0, burst=10, shared=bucket, fallback_rate=20.0)
    callers = [asyncio.create_task(budget.take(TURN)) for _ in range(20)]
    await asyncio.wait_for(asyncio.gather(*callers[:10]), 0.5)  # nothing known yet: burst
    assert bucket.asked == [10] and bucket.waiting == [20]
    await asyncio.wait_for(asyncio.gather(*callers[10:12]), 0.5)  # 10 wait, 50 elsewhere
    assert bucket.asked == [10, 2] and bucket.waiting == [20, 10]
    for task in callers[12:]:
        task.cancel()
    await asyncio.gather(*callers[12:], return_exceptions=True)
    await asyncio.wait_for(budget.take(RESULT), 0.5)  # alone again: as many as wait
    assert bucket.asked == [10, 2, 1]
    await budget.close()
