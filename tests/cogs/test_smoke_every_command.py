"""Every slash command and every component the bot draws answers without the apology
(issue 48 §How the tests must play: a smoke pass), in every language the bot speaks.

Nothing is listed by hand: the commands are the bot's own command tree (each once with
its required options, and once per choice of each option that has choices), and the
components are every button and menu of every message those commands produced, public or
private, each clicked once (a menu given its first option). A refusal, a stale button, a
command for admins only: each is a polite answer. The one thing that must never show is
``error.internal`` ("Sorry, something went wrong on my side…"), nor an error logged
with a traceback.
"""

from __future__ import annotations

import copy
import logging
from typing import Any

import pytest
from discord import AppCommandOptionType, app_commands

from bot.i18n import available_locales, t
from tests.support.fake_discord import FakeDiscord, Member, Message

LOCALES = {"en": "en-US", "es": "es-ES", "zh_CN": "zh-CN", "zh_TW": "zh-TW"}
"""The Discord locale of each catalog's language."""
TEXT = {"name": "Cup", "cards": "3", "timezone": "Europe/Madrid"}
"""A plain string option's value, by option name (any other: ``TEXT_DEFAULT``)."""
TEXT_DEFAULT = "3"


def invocations(fake: FakeDiscord, bo: Member) -> list[tuple[str, dict[str, Any]]]:
    """(command path, options) for every command of the tree: its required options, then
    one more call per choice of each option with choices."""
    out: list[tuple[str, dict[str, Any]]] = []
    for command in fake.bot.tree.walk_commands():
        if not isinstance(command, app_commands.Command):
            continue
        path = command.qualified_name.removeprefix("ddz ")
        required = {p.name: value_of(p, bo) for p in command.parameters if p.required}
        out.append((path, required))
        for param in command.parameters:
            for choice in param.choices:
                if param.required and choice.value == required.get(param.name):
                    continue
                out.append((path, {**required, param.name: choice.value}))
    return out


def value_of(param: app_commands.Parameter, bo: Member) -> Any:
    """A valid-looking value for a required option."""
    if param.choices:
        return param.choices[0].value
    if param.type is AppCommandOptionType.user:
        return bo
    if param.type is AppCommandOptionType.integer:
        return int(param.min_value or 1)
    if param.type is AppCommandOptionType.boolean:
        return False
    return TEXT.get(param.name, TEXT_DEFAULT)


LAST = ("leave", "cancel", "yes", "close", "stop", "again")
"""Verbs clicked after the others of their message: they end what the rest would open."""
FIRST = ("join", "cpu", "start", "hand", "b3", "bid3")
"""Verbs clicked first: they open what the rest of the walk clicks through (a lobby's
seats and deal, the bid, the hand view)."""
MAX_CLICKS = 260
"""Clicks per language at most (the walk of the views the commands open, breadth first)."""


def verb_of(custom_id: str) -> str:
    """``join`` of ``ddz:T1:4:join``, ``r3`` of ``ddz:T1:4:hr3.0.r0``."""
    return custom_id.rsplit(":", 1)[-1].split(".")[0].removeprefix("h")


def components(message: Message) -> list[dict[str, Any]]:
    """The message's enabled components, the opening verbs first and the ending ones last."""
    found = [c for row in message.components for c in row.get("components", [])
             if not c.get("disabled") and "custom_id" in c]

    def order(comp: dict[str, Any]) -> int:
        verb = verb_of(comp["custom_id"])
        return 0 if verb in FIRST else 2 if verb in LAST else 1

    return sorted(found, key=order)


@pytest.mark.parametrize("lang", available_locales())
async def test_every_command_and_every_component_answers_without_the_apology(
        fake: FakeDiscord, lang: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR)
    locale = LOCALES[lang]
    ana = Member(fake, 11, "Ana", locale, locale, admin=True)
    bo = Member(fake, 22, "Bo", locale, locale)
    sorry = t("error.internal", lang)
    answers: list[tuple[str, str]] = []
    seen: set[int] = set()
    clicked = 0

    async def walk(queue: list[int]) -> None:
        """Click every component of the messages in ``queue`` (and, depth first, of those
        the clicks bring), as Bo and as Ana: each verb once, as the message draws it then (a lobby's
        Start shows once its seats are full), then the verbs it no longer draws, on the
        message as first seen (their out-of-date answer)."""
        nonlocal clicked
        while queue and clicked < MAX_CLICKS:
            message_id = queue.pop(0)
            original = copy.deepcopy(fake.messages[message_id])
            done: set[str] = set()
            while clicked < MAX_CLICKS:
                snapshot = copy.deepcopy(fake.messages[message_id])
                todo = [c for c in components(snapshot) if verb_of(c["custom_id"]) not in done]
                if not todo:
                    todo = [c for c in components(original)
                            if verb_of(c["custom_id"]) not in done]
                    snapshot = original
                if not todo:
                    break
                comp = todo[0]
                done.add(verb_of(comp["custom_id"]))
                values = None
                if comp["type"] == 3:  # a menu: its first option
                    choices = comp.get("options") or []
                    values = [choices[0]["value"]] if choices else []
                for member in (bo, ana):
                    before = set(fake.messages)
                    reply = await member.click(snapshot, comp["custom_id"], values)
                    answers.append((f"{member.name} clicks {comp['custom_id']}", reply.text))
                    clicked += 1
                    await walk(fresh(before, reply))  # what it opened first (a deal, a view)

    def fresh(before: set[int], reply: Any) -> list[int]:
        new = [i for i in fake.messages if i not in seen
               and (i not in before or i in {m.id for m in reply.messages})]
        seen.update(new)
        return new

    for path, options in invocations(fake, bo):
        before = set(fake.messages)
        reply = await ana.slash(path, **options)
        answers.append((f"/{path} {options}", reply.text))
        await walk(fresh(before, reply))
    failed = [(what, text) for what, text in answers if sorry in text]
    assert failed == []
    tracebacks = [r for r in caplog.records if r.exc_info and r.levelno >= logging.ERROR]
    assert tracebacks == [], [r.getMessage() for r in tracebacks]
    assert len(answers) > 100 and clicked > 100, (len(answers), clicked)
