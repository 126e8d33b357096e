"""cogs/delivery.py: the table message on interaction tokens, the channel only without one."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from types import SimpleNamespace
from typing import Any

import discord

from bot.service.budget import GlobalBudget
from bot.service.metrics import METRICS
from cogs import delivery
from cogs.delivery import Delivery
from tests.support.fake_tokens import fake_token


class Calls(list[tuple[str, Any]]):
    pass


_IDS = itertools.count(1)


class FakeInteraction:
    """What Delivery uses of a discord.Interaction: channel, response state, webhook."""

    def __init__(self, calls: Calls, channel_id: int = 7, refuse: int | None = None,
                 status: int = 401) -> None:
        self.channel_id, self.calls, self.refuse, self.status = channel_id, calls, refuse, status
        self.id = next(_IDS)
        self.done, self.extras = True, {}
        self.response = SimpleNamespace(is_done=lambda: self.done)
        self.followup = SimpleNamespace(send=self._send, edit_message=self._edit)
        fake_token(self)

    def _fail(self) -> None:
        if self.refuse is not None:
            error = {403: discord.Forbidden, 404: discord.NotFound}.get(self.status,
                                                                         discord.HTTPException)
            raise error(SimpleNamespace(status=self.status, reason="refused"),
                        {"code": self.refuse, "message": "refused"})

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


async def test_a_404_on_a_token_drops_it_and_the_request_is_repeated_once_on_the_channel(
) -> None:
    # 10008 on a token says only that this token cannot reach the message (docs/DISCORD.md
    # row 7); the channel's own answer decides whether the message is deleted.
    calls = Calls()
    out = Delivery(FakeBot(calls))  # type: ignore[arg-type]
    out.offer(FakeInteraction(calls, refuse=10008, status=404), edits=42)
    assert await out.edit(7, 42, content="move") is True
    assert calls == [("channel edit", 42)] and out.token_errors == 1 and out.editors == {}
    out.offer(FakeInteraction(calls, refuse=0, status=404))  # a 404 without a known code
    await out.send(7, 1, content="deal")
    assert calls[-1] == ("channel", "deal") and out.token_errors == 2 and out.posters == {}


async def test_a_403_on_a_token_goes_up_and_keeps_the_token() -> None:
    calls = Calls()
    out = Delivery(FakeBot(calls))  # type: ignore[arg-type]
    out.offer(FakeInteraction(calls, refuse=50013, status=403), edits=42)
    try:
        await out.edit(7, 42, content="move")
    except discord.Forbidden as error:
        assert error.code == 50013
    else:
        raise AssertionError("a 403 on a token must reach the board's PermissionBackoff")
    assert calls == [] and out.token_errors == 0 and 42 in out.editors


async def test_a_thinking_token_never_posts_a_board() -> None:
    # Its first follow-up would fill the member's private placeholder in; later ones
    # would reply to a message nobody else can load (docs/DISCORD.md rows 4 and 8).
    calls = Calls()
    out = Delivery(FakeBot(calls))  # type: ignore[arg-type]
    click = FakeInteraction(calls)
    out.offer(click)
    slash = FakeInteraction(calls)
    slash.extras["ddz_deferred_reply"] = True  # deferred "thinking", answered since
    out.offer(slash)
    await out.send(7, 1, content="deal")
    assert calls == [("followup", "deal")]  # on the click, the older token
    assert slash.extras["ddz_token"] in [t.ref for t in out.posters[7]]
    out.forget_channel(7)
    out.offer(slash)
    await out.send(7, 1, content="next")
    assert calls[-1] == ("channel", "next")


async def test_a_placeholder_whose_answer_failed_still_waits_for_it() -> None:
    # cogs/replies.py cleared the "thinking" mark before the edit was sent: when the
    # edit failed, the next board was the placeholder's first follow-up (docs/DISCORD.md
    # row 4), shown to one member only.
    from cogs import replies

    calls = Calls()
    slash = FakeInteraction(calls)
    slash.type = discord.InteractionType.application_command
    slash.done = False

    async def defer(**kwargs: Any) -> None:
        slash.done = True

    async def edit_original_response(**kwargs: Any) -> None:
        raise discord.HTTPException(SimpleNamespace(status=500, reason="error"), "error")

    slash.response = SimpleNamespace(is_done=lambda: slash.done, defer=defer)
    slash.edit_original_response = edit_original_response  # type: ignore[method-assign]
    await replies.defer(slash, thinking=True)  # type: ignore[arg-type]
    with contextlib.suppress(discord.HTTPException):
        await replies.respond(slash, "your hand")  # type: ignore[arg-type]
    assert slash.extras.get("ddz_thinking") is True  # the next answer still edits it
    out = Delivery(FakeBot(calls))  # type: ignore[arg-type]
    out.offer(slash)
    await out.send(7, 1, content="deal")
    assert calls == [("channel", "deal")]


async def test_a_token_without_room_in_its_bucket_is_skipped_for_the_next_then_the_channel(
) -> None:
    # Discord's webhook bucket: 5 requests per 2 s per token (docs/DISCORD.md row 12);
    # Delivery keeps 4 of them and never queues behind discord.py's per-token lock.
    calls = Calls()
    now = [0.0]
    out = Delivery(FakeBot(calls), clock=lambda: now[0])  # type: ignore[arg-type]
    old, new = FakeInteraction(calls), FakeInteraction(calls)
    out.offer(old, edits=42)
    out.offer(new, edits=42)
    for n in range(delivery.WEBHOOK_BUDGET[0] * 2):
        assert await out.edit(7, 42, content=f"move {n}") is False
    assert await out.edit(7, 42, content="one more") is True  # both full: the channel
    assert not out.can_edit(42) and out.skipped == 4 + 2
    now[0] = delivery.WEBHOOK_BUDGET[1] + delivery.BUDGET_MARGIN
    assert out.can_edit(42)
    assert [c for c in calls if c[0] == "original edit"] == [
        ("original edit", f"move {n}") for n in range(8)]


async def test_ready_waits_for_a_token_with_room_instead_of_queueing() -> None:
    calls = Calls()
    out = Delivery(FakeBot(calls), edits=delivery.EditBucket())  # type: ignore[arg-type]
    out.tokens = delivery._Window(1, 0.05)
    out.offer(FakeInteraction(calls), edits=42)
    await out.edit(7, 42, content="first")
    loop = asyncio.get_running_loop()
    start = loop.time()
    await out.ready(7, 42)  # the token frees in 0.3 s (0.05 + margin): waited, no channel
    assert 0.25 <= loop.time() - start < 1.0 and out.can_edit(42)
    assert await out.edit(7, 42, content="second") is False


async def test_follow_ups_stay_within_30_new_messages_a_minute_per_channel() -> None:
    calls = Calls()
    now = [0.0]
    out = Delivery(FakeBot(calls), clock=lambda: now[0])  # type: ignore[arg-type]
    for n in range(delivery.CHANNEL_WEBHOOK_BUDGET[0] + 1):
        now[0] += 1.0  # one a second: no token bucket is ever full
        out.offer(FakeInteraction(calls))
        await out.send(7, 1, content=f"m{n}")
    assert [c[0] for c in calls].count("followup") == 30 and calls[-1] == ("channel", "m30")


async def test_a_new_message_waits_for_the_answer_of_an_interaction_still_thinking() -> None:
    calls = Calls()
    out = Delivery(FakeBot(calls))  # type: ignore[arg-type]
    slash = FakeInteraction(calls)
    slash.done = False  # offered before its answer (a click's update, not "thinking")
    out.offer(slash)

    async def answer() -> None:
        await asyncio.sleep(0.1)
        slash.done = True

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
