"""Interactions counted for ``/metrics`` (``bot.service.metrics``): kind, outcome, time.

``cogs/replies.py`` calls ``first_response`` when an interaction gets its first
response (the answer itself or a deferral) and ``ended`` when it ends in a refusal or
an apology; the time counts from the interaction's arrival, stamped by the bot
(``ARRIVED`` in ``interaction.extras``, ``bot.client``). Kinds are few and fixed:
``/<command>`` for a slash command, the button's verb for a component (``hplay``,
``join``, ``replay``, ``forget``…), never ids or user input.
"""

from __future__ import annotations

import re
import time
from typing import Any

import discord

from bot.game.errors import GameError
from bot.rules import CardParseError
from bot.service.metrics import METRICS

ARRIVED = "ddz_arrived"
"""``interaction.extras`` key: ``time.perf_counter()`` when the interaction arrived."""
_COUNTED = "ddz_counted"
_VERB = re.compile(r"[a-z]{1,16}")
_PREFIXES = {"ddzforget": "forget", "ddznew": "newmatch"}


def kind_of(interaction: discord.Interaction) -> str:
    """The interaction's kind for the metrics (bounded set of values)."""
    if interaction.type is discord.InteractionType.application_command:
        command = interaction.command
        return "/" + command.name if command is not None else "/?"
    if interaction.type is not discord.InteractionType.component:
        return str(interaction.type.name)[:24]
    data: Any = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    parts = custom_id.split(":")
    if parts[0] in _PREFIXES:
        return _PREFIXES[parts[0]]
    if parts[0] != "ddz" or len(parts) < 2:
        return "other"
    if parts[1] == "rp":
        return "replay"
    found = _VERB.match(parts[3]) if len(parts) > 3 else None
    return found.group() if found else "other"


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
