"""Simulated guild members and the interactions they start.

A :class:`SimMember` sends slash commands (resolved against what the bot synced),
clicks buttons and picks select options on messages it can see; each call returns
a :class:`SimInteraction` that records the bot's answers to it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from sandbox.loopback.model import (
    PERM_ADMINISTRATOR,
    ApiError,
    SimChannel,
    SimGuild,
    SimMessage,
    SimRole,
    iso_now,
)


class Commands(Protocol):
    """What a member's slash command uses of the registry (``commands.CommandRegistry``,
    which builds on this module)."""

    def build_data(self, member: SimMember, command: str,
                   options: dict[str, Any]) -> dict[str, Any]: ...


class Emulator(Protocol):
    """What members and their interactions use of the loopback Discord (the ``Emulator``, which builds on this module: a protocol here, so that no import closes a circle)."""

    @property
    def response_deadline(self) -> float: ...

    @property
    def commands(self) -> Commands: ...

    async def wait_until(self, predicate: Callable[[], Any], *, timeout: float = 5.0,
                         what: str = "condition") -> None: ...

    async def dispatch_interaction(self, member: SimMember, itype: int, data: dict[str, Any],
                                   channel: SimChannel,
                                   message: SimMessage | None = None) -> SimInteraction: ...


class EmulatorUsageError(AssertionError):
    """The test asked for something a real Discord client would not let a user do."""


@dataclass(eq=False)
class SimInteraction:
    """One interaction a member started, and everything the bot answered to it.

    ``response_type`` is the initial callback type (4 message, 5 deferred message,
    6 deferred update, 7 update message, 9 modal) or None; ``message`` is the message
    the initial response created (4/5) or updated (6/7), kept current in place;
    ``followups`` are messages created through the webhook; ``edits`` counts applied
    ``@original``/follow-up edits made with this token; ``errors`` are the
    4xx answers the bot got for this interaction's id/token.
    """

    id: int
    token: str
    type: int
    member: SimMember
    channel: SimChannel
    data: dict[str, Any]
    source_message: SimMessage | None = None
    dispatched_at: float = 0.0
    created_at: float = 0.0
    delivered: bool = False
    response_type: int | None = None
    responded_at: float | None = None
    late: bool = False
    message: SimMessage | None = None
    followups: list[SimMessage] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    errors: list[ApiError] = field(default_factory=list)
    edits: int = 0
    last_activity: float = 0.0
    _emu: Emulator | None = None

    @property
    def first_response_ms(self) -> float | None:
        """Milliseconds from dispatch to the first accepted initial response, or None."""
        if self.responded_at is None:
            return None
        return (self.responded_at - self.dispatched_at) * 1000.0

    @property
    def in_time(self) -> bool:
        """True when the initial response arrived inside Discord's 3 s window."""
        ms = self.first_response_ms
        return ms is not None and not self.late and ms <= self._deadline() * 1000.0

    @property
    def ephemeral(self) -> bool:
        return self.message is not None and self.message.ephemeral

    @property
    def messages(self) -> list[SimMessage]:
        """The response message (if any) followed by the follow-ups."""
        return ([self.message] if self.message else []) + self.followups

    def _deadline(self) -> float:
        return self._emu.response_deadline if self._emu else 3.0

    def _describe(self) -> str:
        what = self.data.get("custom_id") or self.data.get("name")
        return f"interaction {self.id} ({what!r} by {self.member.name})"

    async def response(self, timeout: float = 5.0) -> SimInteraction:
        """Wait for the initial response; AssertionError (with the bot's log tail) on timeout."""
        assert self._emu is not None
        await self._emu.wait_until(
            lambda: self.response_type is not None,
            timeout=timeout,
            what=f"initial response to {self._describe()}"
            + ("" if self.delivered else " [never delivered: bot not connected]"),
        )
        return self

    async def settled(self, timeout: float = 8.0, quiet: float = 0.3) -> SimInteraction:
        """Wait until answered, no message of it is still "thinking", and nothing
        touched this interaction for ``quiet`` seconds."""
        assert self._emu is not None
        await self.response(timeout)

        def done() -> bool:
            if any(m.loading for m in self.messages):
                return False
            return time.monotonic() - self.last_activity >= quiet

        await self._emu.wait_until(done, timeout=timeout, what=f"{self._describe()} to settle")
        return self


@dataclass(eq=False)
class SimMember:
    """A user in a guild, with a locale, roles and what the bot showed only to them."""

    id: int
    name: str
    guild: SimGuild
    locale: str
    roles: list[SimRole]
    emu: Emulator
    joined_at: str = field(default_factory=iso_now)
    ephemerals: list[SimMessage] = field(default_factory=list)
    interactions: list[SimInteraction] = field(default_factory=list)

    @property
    def permissions(self) -> int:
        perms = self.guild.everyone.permissions
        for r in self.roles:
            perms |= r.permissions
        if self.guild.owner_id == self.id or perms & PERM_ADMINISTRATOR:
            return (1 << 53) - 1
        return perms

    @property
    def latest_ephemeral(self) -> SimMessage | None:
        """The newest ephemeral message shown to this member (not deleted), or None."""
        live = [m for m in self.ephemerals if not m.deleted]
        return live[-1] if live else None

    def can_see(self, message: SimMessage) -> bool:
        return not message.deleted and message.visible_to in (None, self)

    def visible_messages(self, channel: SimChannel | None = None) -> list[SimMessage]:
        """What this member sees in ``channel`` (default channel): public + own ephemerals."""
        ch = channel or self.guild.channels[0]
        return [m for m in ch.messages if self.can_see(m)]

    async def wait_for(
        self,
        predicate: Callable[[SimMessage], Any],
        *,
        channel: SimChannel | None = None,
        timeout: float = 5.0,
        what: str = "a matching message",
    ) -> SimMessage:
        """The newest message this member sees in ``channel`` for which ``predicate`` holds,
        waiting up to ``timeout`` s for one to appear (AssertionError otherwise)."""
        found: list[SimMessage] = []

        def check() -> bool:
            found[:] = [m for m in reversed(self.visible_messages(channel)) if predicate(m)][:1]
            return bool(found)

        await self.emu.wait_until(check, timeout=timeout, what=f"{what} visible to {self.name}")
        return found[0]

    def user_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name.title(),
            "discriminator": "0",
            "avatar": None,
            "bot": False,
            "public_flags": 0,
            "flags": 0,
            "primary_guild": None,
        }

    def member_payload(self, *, with_permissions: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "user": self.user_payload(),
            "nick": None,
            "avatar": None,
            "roles": [str(r.id) for r in self.roles],
            "joined_at": self.joined_at,
            "premium_since": None,
            "banner": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_permissions:
            out["permissions"] = str(self.permissions)
        return out

    # ---- actions ---------------------------------------------------------------

    async def slash(
        self,
        command: str,
        *,
        channel: SimChannel | None = None,
        wait: bool = True,
        timeout: float = 5.0,
        **options: Any,
    ) -> SimInteraction:
        """Run ``/command`` (e.g. ``"ddz start"``) with ``options`` (by option name).

        Resolves names (default or this member's locale) against the synced commands
        and type-checks values; EmulatorUsageError when a Discord client would refuse.
        With ``wait`` it returns after the initial response (AssertionError on timeout).
        """
        data = self.emu.commands.build_data(self, command, options)
        ix = await self.emu.dispatch_interaction(self, 2, data, channel or self.guild.channels[0])
        return await ix.response(timeout) if wait else ix

    async def click(
        self,
        message: SimMessage,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        wait: bool = True,
        timeout: float = 5.0,
    ) -> SimInteraction:
        """Press the button with ``custom_id`` (or ``label``) on ``message``.

        EmulatorUsageError if this member cannot see the message, or the button is
        missing, disabled or a link.
        """
        comp = self._find(message, custom_id, label)
        if comp.get("type") != 2 or comp.get("style") == 5:
            raise EmulatorUsageError(f"{comp.get('custom_id')!r} is not a clickable button")
        data = {"custom_id": comp["custom_id"], "component_type": 2}
        ix = await self.emu.dispatch_interaction(self, 3, data, message.channel, message)
        return await ix.response(timeout) if wait else ix

    async def select(
        self,
        message: SimMessage,
        custom_id: str,
        values: list[str],
        *,
        wait: bool = True,
        timeout: float = 5.0,
    ) -> SimInteraction:
        """Pick ``values`` in the string select ``custom_id`` on ``message`` (type 3)."""
        comp = self._find(message, custom_id, None)
        if comp.get("type") != 3:
            raise EmulatorUsageError(
                f"{custom_id!r} is not a string select (type {comp.get('type')})"
            )
        allowed = [o["value"] for o in comp.get("options") or []]
        bad = [v for v in values if v not in allowed]
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if bad or not lo <= len(values) <= hi:
            raise EmulatorUsageError(f"cannot pick {values} (allowed {allowed}, {lo}..{hi} values)")
        data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        ix = await self.emu.dispatch_interaction(self, 3, data, message.channel, message)
        return await ix.response(timeout) if wait else ix

    def _find(
        self, message: SimMessage, custom_id: str | None, label: str | None
    ) -> dict[str, Any]:
        if not self.can_see(message):
            raise EmulatorUsageError(f"{self.name} cannot see message {message.id}")
        try:
            comp = message.component(custom_id, label=label)
        except KeyError as exc:
            raise EmulatorUsageError(str(exc)) from None
        if comp.get("disabled"):
            raise EmulatorUsageError(f"component {comp.get('custom_id')!r} is disabled")
        return comp
