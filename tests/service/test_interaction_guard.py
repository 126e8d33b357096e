"""The interaction routes' meter and cap (bot.service.budget.InteractionGuard) and the
adapter that feeds it (cogs.metering.MeteredWebhookAdapter): docs/SCALING.md §Exempt
traffic."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from discord.webhook.async_ import Route
from multidict import CIMultiDict

from bot.service.budget import INTERACTION_RATE, InteractionGuard
from bot.service.metrics import METRICS
from cogs.metering import MeteredWebhookAdapter


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


async def test_uncapped_guard_counts_without_waiting() -> None:
    clock = Clock()
    guard = InteractionGuard(clock=clock)
    for _ in range(200):
        await guard.take()
    assert (guard.sent, guard.waited, guard.capped) == (200, 0, False)
    assert guard.per_second() == 20.0  # 200 in the last 10 s
    clock.now += 11
    assert guard.per_second() == 0.0


async def test_capped_guard_paces_at_its_rate_after_a_quarter_second_burst() -> None:
    clock = Clock()
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        clock.now += seconds

    guard = InteractionGuard(40.0, capped=True, clock=clock, sleep=sleep)
    for _ in range(50):
        await guard.take()
    # 10 go at once (a quarter second's worth), the 40 others one every 1/40 s.
    assert guard.waited == 40 and guard.sent == 50
    assert clock.now - 100.0 == pytest.approx(1.0)  # the 50th is due at 49/40 - 9/40
    assert all(w == pytest.approx(1 / 40) for w in waits)


async def test_a_global_429_switches_the_cap_on_once_with_one_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    guard = InteractionGuard()
    with caplog.at_level(logging.WARNING, logger="bot.service.budget"):
        assert guard.global_429("POST /webhooks/{webhook_id}/{webhook_token}") is True
        assert guard.global_429("POST /webhooks/{webhook_id}/{webhook_token}") is False
    assert guard.capped and guard.rate == INTERACTION_RATE and guard.switched_on == 1
    assert len(caplog.records) == 1 and "global 429" in caplog.records[0].getMessage()
    never = InteractionGuard(0.0)
    assert never.global_429("x") is False and not never.capped


class FakeResponse:
    def __init__(self, status: int, headers: dict[str, str], body: str) -> None:
        self.status, self.headers, self._body = status, CIMultiDict(headers), body

    async def text(self, encoding: str = "utf-8") -> str:
        return self._body


class FakeRequest:
    def __init__(self, response: FakeResponse) -> None:
        self.response = response

    async def __aenter__(self) -> FakeResponse:
        return self.response

    async def __aexit__(self, *exc: Any) -> None:
        return None


class FakeSession:
    """Answers a global 429 (with Via, so discord.py waits and retries), then 200."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []

    def request(self, method: str, url: str, **kwargs: Any) -> FakeRequest:
        self.calls.append((method, url))
        if len(self.calls) == 1:
            headers = {"Via": "1.1 google", "X-RateLimit-Global": "true",
                       "X-RateLimit-Scope": "global", "Content-Type": "application/json"}
            return FakeRequest(FakeResponse(
                429, headers, '{"message": "rate limited", "retry_after": 0.01, "global": true}'))
        return FakeRequest(FakeResponse(200, {"Content-Type": "application/json"}, '{"id": "1"}'))


async def test_adapter_counts_each_attempt_and_a_global_429_on_a_token_route_caps(
    caplog: pytest.LogCaptureFixture,
) -> None:
    guard = InteractionGuard()
    adapter = MeteredWebhookAdapter(guard)
    session = FakeSession()
    before = METRICS.interaction_requests._value.get()
    route = Route("POST", "/webhooks/{webhook_id}/{webhook_token}", webhook_id=1,
                  webhook_token="secret-token")
    with caplog.at_level(logging.WARNING, logger="bot.service.budget"):
        data = await adapter.request(route, session, payload={"content": "x"})  # type: ignore[arg-type]

    assert data == {"id": "1"} and len(session.calls) == 2
    assert guard.sent == 2 and METRICS.interaction_requests._value.get() - before == 2
    assert guard.capped and guard.switched_on == 1
    warnings = [r.getMessage() for r in caplog.records if r.name == "bot.service.budget"]
    assert len(warnings) == 1
    assert "POST /webhooks/{webhook_id}/{webhook_token}" in warnings[0]
    assert "secret-token" not in warnings[0]


async def test_the_rate_is_read_from_the_metrics_thread_without_a_loop() -> None:
    """/metrics renders in a thread (asyncio.to_thread): the default clock read the
    running loop's time there, so every scrape of the running bot answered 500."""

    guard = InteractionGuard()
    for _ in range(30):
        await guard.take()
    assert await asyncio.to_thread(guard.per_second) == 3.0
