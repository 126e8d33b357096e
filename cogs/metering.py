"""Interactions counted for ``/metrics`` (``bot.service.metrics``): kind, outcome, time.

``cogs/replies.py`` calls ``first_response`` when an interaction gets its first
response (the answer itself or a deferral) and ``ended`` when it ends in a refusal or
an apology; the time counts from the interaction's arrival, stamped by the bot
(``ARRIVED`` in ``interaction.extras``, ``bot.client``). Kinds are few and fixed:
``/<command>`` for a slash command; for a component, the kind of the custom_id template
it matched, which ``cogs.items.route_click`` stamps (``KIND`` in ``interaction.extras``:
``hplay``, ``join``, ``replay``, ``dailyreplay``…, ``cogs.items.KINDS``); a component
that matched no template is ``other``. Never ids or user input: a forged custom_id adds
no label value (docs/OPERATING.md §Metrics).

Requests on interaction routes (callbacks, follow-ups, token edits; exempt from the
global limit) are counted at the wire and paced by an ``InteractionGuard``
(``MeteredWebhookAdapter``, installed by ``bot.client`` at start-up).
"""

from __future__ import annotations

import time
from typing import Any

import discord
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from bot.game.errors import GameError
from bot.rules import CardParseError
from bot.service.budget import InteractionGuard
from bot.service.metrics import METRICS

ARRIVED = "ddz_arrived"
"""``interaction.extras`` key: ``time.perf_counter()`` when the interaction arrived."""
KIND = "ddz_kind"
"""``interaction.extras`` key: the kind of the custom_id template a click matched, stamped
by ``cogs.items.route_click`` (one of ``cogs.items.KINDS``)."""
_COUNTED = "ddz_counted"


def kind_of(interaction: discord.Interaction) -> str:
    """The interaction's kind for the metrics (bounded set of values)."""
    if interaction.type is discord.InteractionType.application_command:
        command = interaction.command
        return "/" + command.name if command is not None else "/?"
    if interaction.type is not discord.InteractionType.component:
        return str(interaction.type.name)[:24]
    extras: Any = getattr(interaction, "extras", None)
    kind = extras.get(KIND) if isinstance(extras, dict) else None
    return kind if isinstance(kind, str) else "other"


def first_response(interaction: discord.Interaction, outcome: str) -> None:
    """Count the first response (``answered`` / ``deferred``) once, with its time.
    Never raises (an interaction stand-in of a test may lack ``extras``)."""
    extras = getattr(interaction, "extras", None)
    if not isinstance(extras, dict) or extras.get(_COUNTED):
        return
    extras[_COUNTED] = True
    arrived = extras.get(ARRIVED)
    seconds = time.perf_counter() - arrived if isinstance(arrived, float) else None
    try:
        METRICS.answered(kind_of(interaction), outcome, seconds)
    except Exception:  # the metrics never cost an answer
        return


def ended(interaction: discord.Interaction, error: BaseException) -> None:
    """Count an interaction that ended in a refusal (GameError, a bad card text) or an
    apology (anything else). Never raises."""
    refused = isinstance(error, GameError | CardParseError)
    try:
        METRICS.ended(kind_of(interaction), "refused" if refused else "failed")
    except Exception:
        return


class _Watched:
    """``session.request(...)`` of one interaction-route request: waits for the guard
    before each attempt (discord.py retries inside one call) and reports a global 429."""

    def __init__(self, guard: InteractionGuard, route: str, inner: Any) -> None:
        self.guard, self.route, self.inner = guard, route, inner

    async def __aenter__(self) -> Any:
        await self.guard.take()
        METRICS.count_interaction_request()
        response = await self.inner.__aenter__()
        headers = getattr(response, "headers", {}) or {}
        if response.status == 429 and (
            headers.get("X-RateLimit-Global") or headers.get("X-RateLimit-Scope") == "global"
        ):
            self.guard.global_429(self.route)
        return response

    async def __aexit__(self, *exc: Any) -> Any:
        return await self.inner.__aexit__(*exc)


class _Session:
    """The bot's aiohttp session as ``AsyncWebhookAdapter.request`` sees it, watched."""

    def __init__(self, session: Any, guard: InteractionGuard, route: str) -> None:
        self._session, self._guard, self._route = session, guard, route

    def request(self, *args: Any, **kwargs: Any) -> _Watched:
        return _Watched(self._guard, self._route, self._session.request(*args, **kwargs))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)


class MeteredWebhookAdapter(AsyncWebhookAdapter):
    """discord.py's adapter of every interaction route (callbacks, follow-ups, token
    edits: ``discord.webhook.async_.async_context``), each wire attempt counted in
    ``/metrics`` (``ddz_interaction_requests_total``) and paced by ``guard`` (its cap,
    ``DDZ_INTERACTION_RATE``; a global 429 switches it on). docs/SCALING.md §Exempt
    traffic."""

    def __init__(self, guard: InteractionGuard) -> None:
        super().__init__()  # type: ignore[no-untyped-call]  # discord.py's adapter has no annotations
        self.guard = guard

    async def request(self, route: Any, session: Any, **kwargs: Any) -> Any:
        name = f"{route.method} {route.path}"  # the template: no id, no token
        watched: Any = _Session(session, self.guard, name)  # quacks as the ClientSession
        return await super().request(route, watched, **kwargs)


def install_interaction_guard(guard: InteractionGuard) -> MeteredWebhookAdapter:
    """Route this context's interaction requests (and the tasks it starts afterwards)
    through a :class:`MeteredWebhookAdapter` of ``guard``; its per-second rate goes to
    ``/metrics`` (``ddz_interaction_requests_per_second``)."""
    adapter = MeteredWebhookAdapter(guard)
    async_context.set(adapter)
    METRICS.watch_interaction_rate(guard.per_second)
    return adapter
