"""cogs/delivery.py: the table message on interaction tokens, the channel only without one."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import discord

from bot.service.budget import GlobalBudget
from bot.service.metrics import METRICS
from cogs import delivery
from cogs.delivery import Delivery


class Calls(list[tuple[str, Any]]):
    pass


class FakeInteraction:
    """What Delivery uses of a discord.Interaction: channel, response state, webhook."""

    def __init__(self, calls: Calls, channel_id: int = 7, refuse: int | None = None) -> None:
        self.channel_id, self.calls, self.refuse = channel_id, calls, refuse
        self.done, self.extras = True, {}
        self.response = SimpleNamespace(is_done=lambda: self.done)
        self.followup = SimpleNamespace(send=self._send, edit_message=self._edit)

    def _fail(self) -> None:
        if self.refuse is not None:
            raise discord.HTTPException(SimpleNamespace(status=401, reason="Unauthorized"),
                                        {"code": self.refuse, "message": "Invalid Webhook Token"})

    async def _send(self, **kwargs: Any) -> Any:
        self._fail()
        self.calls.append(("followup", kwargs["content"]))
        return SimpleNamespace(id=100 + len(self.calls))

    async def _edit(self, message_id: int, **kwargs: Any) -> None:
        self._fail()
        self.calls.append(("followup edit", message_id))

    async def edit_original_response(self, **kwargs: Any) -> None:
        self._fail()
        self.calls.append(("original edit", kwargs["content"]))


class FakeBot:
    def __init__(self, calls: Calls) -> None:
        self.calls = calls

    def get_partial_messageable(self, channel_id: int, guild_id: int | None = None) -> Any:
        calls = self.calls

        async def send(**kwargs: Any) -> Any:
            calls.append(("channel", kwargs["content"]))
            return SimpleNamespace(id=500 + len(calls))

        def message(message_id: int) -> Any:
            async def edit(**kwargs: Any) -> None:
                calls.append(("channel edit", message_id))
            return SimpleNamespace(edit=edit)

        return SimpleNamespace(send=send, get_partial_message=message)


async def test_posts_and_edits_go_on_the_newest_token_and_never_through_the_channel() -> None:
    before = global_requests()
    calls = Calls()
    budget = GlobalBudget(rate=50)
    out = Delivery(FakeBot(calls), budget)  # type: ignore[arg-type]
    start = FakeInteraction(calls)
    out.offer(start, edits=42)  # a click on message 42, deferred as an update
    deal = await out.send(7, 1, content="deal")
    assert await out.edit(7, deal, content="move") is False
    assert await out.edit(7, 42, content="dealt below") is False
    assert calls == [("followup", "deal"), ("followup edit", deal), ("original edit", "dealt below")]
    assert (out.by_token, out.by_channel, budget.taken) == (3, 0, 0)
    assert global_requests() == before  # exempt


def global_requests() -> float:
    return METRICS.registry.get_sample_value("ddz_global_requests_total") or 0.0


async def test_without_a_live_token_the_channel_is_used_within_the_budget() -> None:
    before = global_requests()
    calls = Calls()
    now = [0.0]
    budget = GlobalBudget(rate=50)
    out = Delivery(FakeBot(calls), budget, clock=lambda: now[0])  # type: ignore[arg-type]
    out.offer(FakeInteraction(calls), edits=42)
    now[0] = delivery.TOKEN_LIFETIME - delivery.TOKEN_MARGIN  # its last minute: not used
    assert not out.can_edit(42)
    assert await out.edit(7, 42, content="move") is True
    message = await out.send(7, 1, content="deal")
    assert calls == [("channel edit", 42), ("channel", "deal")] and message == 502
    assert (out.by_token, out.by_channel, budget.taken) == (0, 2, 2)
    # /metrics' ddz_global_requests_total counts both (it stayed 0 before: nothing fed it)
    assert global_requests() == before + 2


async def test_a_refused_token_costs_one_error_and_the_same_request_goes_through_the_channel(
) -> None:
    calls = Calls()
    out = Delivery(FakeBot(calls))  # type: ignore[arg-type]
    out.offer(FakeInteraction(calls, refuse=50027), edits=42)
    assert await out.edit(7, 42, content="move") is True
    assert await out.edit(7, 42, content="next") is True  # dropped: straight to the channel
    await out.send(7, 1, content="deal")
    assert calls == [("channel edit", 42), ("channel edit", 42), ("channel", "deal")]
    assert out.token_errors == 1 and out.posters == {} and out.editors == {}


async def test_another_error_is_not_taken_for_a_dead_token() -> None:
    calls = Calls()
    out = Delivery(FakeBot(calls))  # type: ignore[arg-type]
    out.offer(FakeInteraction(calls, refuse=10008), edits=42)  # Unknown Message: the board's
    try:
        await out.edit(7, 42, content="move")
    except discord.HTTPException as error:
        assert error.code == 10008
    else:
        raise AssertionError("10008 must reach the board (it posts a new message)")
    assert calls == [] and out.token_errors == 0 and 42 in out.editors


async def test_a_new_message_waits_for_the_answer_of_an_interaction_still_thinking() -> None:
    calls = Calls()
    out = Delivery(FakeBot(calls))  # type: ignore[arg-type]
    slash = FakeInteraction(calls)
    slash.extras["ddz_thinking"] = True  # its first follow-up would fill the placeholder in
    out.offer(slash)

    async def answer() -> None:
        await asyncio.sleep(0.1)
        del slash.extras["ddz_thinking"]

    asyncio.get_running_loop().create_task(answer())
    await out.send(7, 1, content="lobby")
    assert calls == [("followup", "lobby")]


async def test_expired_tokens_are_forgotten() -> None:
    calls = Calls()
    now = [0.0]
    out = Delivery(FakeBot(calls), clock=lambda: now[0])  # type: ignore[arg-type]
    for n in range(delivery.PRUNE_EVERY - 1):
        out.offer(FakeInteraction(calls, channel_id=n), edits=n)
    now[0] = delivery.TOKEN_LIFETIME
    out.offer(FakeInteraction(calls, channel_id=-1), edits=-1)
    assert list(out.editors) == [-1] and list(out.posters) == [-1]


async def test_channel_edits_wait_for_the_channel_edit_bucket_and_token_edits_do_not() -> None:
    calls = Calls()
    bucket = delivery.EditBucket(limit=2, window=0.2, margin=0.0)
    out = Delivery(FakeBot(calls), edits=bucket)  # type: ignore[arg-type]
    loop = asyncio.get_running_loop()
    start = loop.time()
    for n in range(3):
        await out.edit(7, 42, content=f"move {n}")
    assert loop.time() - start >= 0.2  # the third waited for the first to leave the window
    await out.ready(8, 43)  # another channel: its own bucket
    out.offer(FakeInteraction(calls), edits=42)
    before = loop.time()
    await out.ready(7, 42)  # on a token: no wait, although the channel's bucket is full
    await out.edit(7, 42, content="on the token")
    assert loop.time() - before < 0.1
    assert calls[-1] == ("original edit", "on the token") and out.by_channel == 3


async def test_a_403_blocks_for_30_s_doubling_up_to_600_s_and_the_timer_retries() -> None:
    retried: list[str] = []
    backoff = delivery.PermissionBackoff(retried.append, wait=(0.05, 0.15))
    forbidden = discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden"),
                                  {"code": 50001, "message": "Missing Access"})
    assert [backoff.refused("t1", 7, forbidden) for _ in range(3)] == [0.05, 0.1, 0.15]
    assert backoff.refused("t1", 7, forbidden) == 0.15 and backoff.blocked("t1")
    assert not backoff.blocked("t2")
    assert delivery.FORBIDDEN_WAIT == (30.0, 600.0)
    await asyncio.sleep(0.2)
    assert retried == ["t1"] and not backoff.blocked("t1")  # one timer: the last one
    backoff.delivered("t1")
    assert backoff.refused("t1", 7, forbidden) == 0.05  # a new row of 403s


async def test_permissions_back_in_the_channel_retry_its_blocked_tables_at_once() -> None:
    retried: list[str] = []
    backoff = delivery.PermissionBackoff(retried.append, wait=(60.0, 60.0))
    forbidden = discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden"), "Missing Access")
    backoff.refused("t1", 7, forbidden)
    backoff.refused("t2", 8, forbidden)
    backoff.back(9)
    assert retried == []
    backoff.back(7)
    assert retried == ["t1"] and not backoff.blocked("t1") and backoff.blocked("t2")
    backoff.back(7)  # not blocked any more: nothing to retry
    assert list(backoff.probes) == ["t2"]  # t1's timer is cancelled: no second redraw
    backoff.forget("t2")  # its table closed: no timer, no retry
    assert retried == ["t1"] and not backoff.blocked("t2") and backoff.probes == {}
    backoff.forget("t1")
    assert backoff.probes == {} and backoff.until == {} and backoff.refusals == {}


async def test_permissions_back_retry_once_not_again_when_the_timer_was_due() -> None:
    retried: list[str] = []
    backoff = delivery.PermissionBackoff(retried.append, wait=(0.05, 0.05))
    forbidden = discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden"), "Missing Access")
    backoff.refused("t1", 7, forbidden)
    backoff.back(7)
    await asyncio.sleep(0.15)
    assert retried == ["t1"]  # the click's retry only; the cancelled timer stays quiet
