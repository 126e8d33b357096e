"""Creating and editing emulated messages the way Discord does (API v10 "Create/Edit Message").

Attachments: ``files[n]`` parts are matched to ``attachments[].id == n`` (keeping
``filename`` and ``description`` = alt text); on edit, ``attachments`` lists what to
keep (existing ids) plus new files; files sent without an ``attachments`` list are
appended. The final state is validated with ``limits.message_problems``.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Protocol

from sandbox.loopback import limits
from sandbox.loopback.discord_rules import DiscordRules
from sandbox.loopback.model import (
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    FLAG_SUPPRESS_NOTIFICATIONS,
    SimAttachment,
    SimChannel,
    SimMessage,
    iso_now,
    snowflake,
)

if TYPE_CHECKING:
    from sandbox.loopback.members import SimInteraction, SimMember


class Emulator(Protocol):
    """What new and edited messages use of the loopback Discord (the ``Emulator``, which builds on this module: a protocol here, so that no import closes a circle)."""

    @property
    def application_id(self) -> int: ...

    @property
    def rules(self) -> DiscordRules: ...

    @property
    def messages(self) -> dict[int, SimMessage]: ...

    @property
    def by_id(self) -> dict[int, SimInteraction]: ...

    def now(self) -> float: ...

    def notify(self) -> None: ...

Files = dict[int, tuple[str, bytes]]
SETTABLE_FLAGS = FLAG_SUPPRESS_EMBEDS | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2


class MessageError(Exception):
    """A message the bot sent breaks a Discord rule: ``code`` 50035 or 50006."""

    def __init__(self, code: int, message: str, problems: list[str] | None = None) -> None:
        super().__init__(f"{code} {message} {problems or ''}")
        self.code, self.message, self.problems = code, message, problems or []


def _new_attachment(filename: str, data: bytes, description: str | None) -> SimAttachment:
    return SimAttachment(id=snowflake(), filename=filename, data=data, description=description)


def _attachments(
    payload: dict[str, Any], files: Files, existing: list[SimAttachment] | None
) -> tuple[list[SimAttachment], list[str]]:
    problems: list[str] = []
    used: set[int] = set()
    out: list[SimAttachment] = []
    if "attachments" in payload and payload["attachments"] is not None:
        by_id = {a.id: a for a in existing or []}
        for i, a in enumerate(payload["attachments"]):
            aid = int(a.get("id", -1))
            if aid in by_id:
                out.append(by_id[aid])
            elif aid in files:
                name, data = files[aid]
                out.append(_new_attachment(a.get("filename") or name, data, a.get("description")))
                used.add(aid)
            else:
                problems.append(f"attachments[{i}]: unknown attachment id {aid}")
    elif existing is not None:
        out = list(existing)
    for idx in sorted(files):
        if idx not in used:
            out.append(_new_attachment(files[idx][0], files[idx][1], None))
    return out, problems


def _check(state: dict[str, Any], extra: list[str]) -> None:
    view = dict(state)
    view["attachments"] = [
        {"filename": a.filename, "description": a.description} for a in state["attachments"]
    ]
    problems = extra + limits.message_problems(view)
    if problems:
        raise MessageError(50035, "Invalid Form Body", problems)
    if limits.is_empty(view):
        raise MessageError(50006, "Cannot send an empty message")


def new_message(
    emu: Emulator,
    channel: SimChannel,
    payload: dict[str, Any],
    files: Files,
    *,
    visible_to: SimMember | None,
    interaction: SimInteraction | None,
    loading: bool = False,
) -> SimMessage:
    """Validate and store a new bot message; MessageError when Discord would refuse it."""
    atts, problems = _attachments(payload, files, None)
    flags = int(payload.get("flags") or 0) & SETTABLE_FLAGS
    state: dict[str, Any] = {
        "content": payload.get("content") or "",
        "embeds": payload.get("embeds") or [],
        "components": payload.get("components") or [],
        "attachments": atts,
        "flags": flags,
        "poll": payload.get("poll"),
    }
    if not loading:
        _check(state, problems)
    if visible_to is not None:
        flags |= FLAG_EPHEMERAL
    if loading:
        flags |= FLAG_LOADING
    m = SimMessage(
        id=snowflake(),
        channel=channel,
        author_id=emu.application_id,
        content=state["content"],
        embeds=state["embeds"],
        components=state["components"],
        attachments=atts,
        flags=flags,
        visible_to=visible_to,
        interaction_id=interaction.id if interaction else None,
        allowed_mentions=payload.get("allowed_mentions"),
        type=20 if interaction is not None and interaction.type == 2 else 0,
    )
    m.born = emu.now()
    if not loading:
        m.notified = emu.rules.created(
            m.id, channel.id, m.content, payload.get("allowed_mentions"),
            set(channel.guild.members), visible_to is not None,
            bool(flags & FLAG_SUPPRESS_NOTIFICATIONS))
    emu.messages[m.id] = m
    channel.messages.append(m)
    if visible_to is not None:
        visible_to.ephemerals.append(m)
    emu.notify()
    return m


def apply_edit(emu: Emulator, m: SimMessage, payload: dict[str, Any], files: Files) -> None:
    """Apply an edit in place (fields absent from ``payload`` are kept); the previous state
    goes to ``m.history``. MessageError (nothing changed) when the result breaks a rule."""
    atts, problems = _attachments(payload, files, m.attachments)
    state = m.snapshot()
    for key, empty in (("content", ""), ("embeds", []), ("components", [])):
        if key in payload:
            state[key] = payload[key] if payload[key] is not None else empty
    if payload.get("flags") is not None:
        state["flags"] = (m.flags & FLAG_EPHEMERAL) | (int(payload["flags"]) & SETTABLE_FLAGS)
    state["flags"] &= ~FLAG_LOADING
    state["attachments"] = atts
    _check(state, problems)
    if not m.loading:
        m.history.append(m.snapshot())
        m.edited_at = iso_now()
    m.content, m.embeds, m.components = state["content"], state["embeds"], state["components"]
    m.attachments, m.flags = atts, state["flags"]
    if m.interaction_id is not None and (ix := emu.by_id.get(m.interaction_id)):
        ix.last_activity = time.monotonic()
    emu.notify()
