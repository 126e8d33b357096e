"""What a member types in the message box, e.g. ``/ddz start computers:2``, as the
command path and option values Discord's client would send (API v10 "Application
Command Object": option types 3 string … 10 number)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from sandbox.loopback.commands import (
    BOOLEAN,
    CHANNEL,
    INTEGER,
    MENTIONABLE,
    NUMBER,
    ROLE,
    STRING,
    USER,
)
from sandbox.loopback.members import EmulatorUsageError, SimMember

OPTION = re.compile(r"(?:^|\s)([^\s:]+):")
TRUE, FALSE = ("true", "yes", "on", "sí", "si", "1"), ("false", "no", "off", "0")


@dataclass
class CommandLine:
    """``path`` (``"ddz start"``) and ``options`` (name as typed → typed value)."""

    path: str
    options: dict[str, Any]


def _named(item: dict[str, Any], word: str, locale: str) -> bool:
    names = {item.get("name", ""), (item.get("name_localizations") or {}).get(locale, "")}
    return word.lower() in {n.lower() for n in names if n}


def parse(text: str, commands: list[dict[str, Any]], member: SimMember) -> CommandLine:
    """Split ``text`` into the command path and its ``name:value`` options, converting
    each value to its option's type; EmulatorUsageError naming what is wrong (unknown
    command or option, a value that is not a number, a choice that does not exist)."""
    text = text.strip()
    if not text.startswith("/"):
        raise EmulatorUsageError("a command starts with /")
    first = OPTION.search(text)
    head, rest = (text[: first.start()], text[first.start():]) if first else (text, "")
    words = head.lstrip("/").split()
    if not words:
        raise EmulatorUsageError("type a command after /")
    node = next((c for c in commands if c.get("type", 1) == 1
                 and _named(c, words[0], member.locale)), None)
    if node is None:
        raise EmulatorUsageError(f"/{words[0]} is not a command of this server")
    path = [node["name"]]
    for word in words[1:]:
        sub = next((o for o in node.get("options") or [] if o["type"] in (1, 2)
                    and _named(o, word, member.locale)), None)
        if sub is None:
            raise EmulatorUsageError(f"/{' '.join(path)} has no subcommand {word!r}")
        path.append(sub["name"])
        node = sub
    params = [o for o in node.get("options") or [] if o["type"] not in (1, 2)]
    marks = list(OPTION.finditer(rest))
    options: dict[str, Any] = {}
    for k, mark in enumerate(marks):
        end = marks[k + 1].start() if k + 1 < len(marks) else len(rest)
        name, raw = mark.group(1), rest[mark.end():end].strip()
        param = next((p for p in params if _named(p, name, member.locale)), None)
        if param is None:
            raise EmulatorUsageError(f"/{' '.join(path)} has no option {name!r}")
        options[param["name"]] = convert(param, raw, member)
    return CommandLine(" ".join(path), options)


def convert(param: dict[str, Any], raw: str, member: SimMember) -> Any:
    """``raw`` text as the value of option ``param`` (a choice by its name or value,
    a member by ``@name``, a channel by ``#name``); EmulatorUsageError when it cannot be."""
    t, name = param["type"], param["name"]
    for choice in param.get("choices") or []:
        if _named(choice, raw, member.locale) or str(choice["value"]).lower() == raw.lower():
            return choice["value"]
    try:
        if t == INTEGER:
            return int(raw)
        if t == NUMBER:
            return float(raw)
    except ValueError:
        raise EmulatorUsageError(f"{name}: {raw!r} is not a number") from None
    if t == BOOLEAN:
        if raw.lower() in TRUE:
            return True
        if raw.lower() in FALSE:
            return False
        raise EmulatorUsageError(f"{name}: say true or false")
    if t in (USER, MENTIONABLE):
        wanted = raw.lstrip("@").lower()
        found = next((m for m in member.guild.members.values() if m.name.lower() == wanted), None)
        if found is not None:
            return found
    if t == CHANNEL:
        wanted = raw.lstrip("#").lower()
        found_ch = next((c for c in member.guild.channels if c.name.lower() == wanted), None)
        if found_ch is not None:
            return found_ch
    if t in (ROLE, MENTIONABLE):
        wanted = raw.lstrip("@").lower()
        role = next((r for r in member.guild.roles if r.name.lower() == wanted), None)
        if role is not None:
            return role
    if t == STRING:
        return raw
    raise EmulatorUsageError(f"{name}: cannot read {raw!r}")
