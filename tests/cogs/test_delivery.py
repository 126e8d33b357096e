"""cogs/delivery.py: the table message on interaction tokens, the channel only without one."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import discord

from bot.service.budget import GlobalBudget
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


async def test_without_a_live_token_the_channel_is_used_within_the_budget() -> None:
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
