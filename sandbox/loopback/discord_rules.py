"""Discord's documented limits and rules that the loopback enforces by default
(docs/DISCORD.md, one row each; ``Emulator(rules=False)`` switches them off).

* **Webhook bucket per token** (row 12): 5 requests per 2 s on
  ``/webhooks/{app}/{token}…``, a fixed window opened by its first request, reported in
  ``X-RateLimit-*`` headers on every answer; beyond it a 429 (``retry_after`` = the
  window's rest, ``Via``: discord.py waits it out and retries).
* **Webhook messages per channel** (row 13): 30 messages created by follow-ups per 60 s
  per channel; beyond it a 429 with ``X-RateLimit-Scope: shared``.
* **Edits of messages older than an hour** (row 14): on the loopback's clock
  (``Emulator.now``, moved by ``advance``), every edit answers 429 with code 30046.
* **Permissions on webhook routes** (row 17): follow-ups and token edits of public
  messages need the bot's permissions in the channel, as channel posts do.
* **Notifications** (row 19): a user mention notifies only in a *created* message
  (not ephemeral, not ``SUPPRESS_NOTIFICATIONS``) whose ``allowed_mentions`` let it;
  ``notifications`` records them.
* **Invalid requests** (row 16): ``invalid`` counts the 401, 403 and 429 answers
  (not ``shared`` ones): Discord bans an IP at 10,000 per 10 minutes.

``webhook_429`` counts the 429s of both webhook buckets (``per_token`` and
``per_channel``), ``old_edits`` the 30046 answers.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

WEBHOOK_LIMIT = (5, 2.0)
"""Requests per seconds on one interaction token (discord-api-docs #2701, #367)."""
CHANNEL_WEBHOOK_LIMIT = (30, 60.0)
"""Messages created by webhooks per seconds in one channel (#367; per channel: a guess)."""
OLD_MESSAGE_AGE = 3600.0
"""Seconds after which a message's edits answer 30046 (the loopback's strictest guess:
Discord does not publish how many such edits it allows, #4413)."""
OLD_EDIT_RETRY = 1.0
"""``retry_after`` of a 30046 answer (a guess; discord.py retries 5 times, then raises)."""
INVALID_STATUSES = (401, 403, 429)
_MENTION = re.compile(r"<@!?(\d+)>")


class Limited(Exception):
    """A request refused with a 429 (``code`` 0 for a bucket, 30046 for an old message)."""

    def __init__(self, message: str, retry_after: float, headers: dict[str, str],
                 code: int = 0) -> None:
        super().__init__(message)
        self.message, self.retry_after, self.headers, self.code = (
            message, retry_after, headers, code)


@dataclass
class Notification:
    """A member notified by a mention in a message the bot created."""

    member_id: int
    message_id: int
    channel_id: int
    at: float
    """``time.monotonic()`` when the message was created."""


class _Bucket:
    """``limit`` requests per ``window`` seconds from the first one, by key (Discord's
    fixed windows: the bucket resets ``window`` s after it opened)."""

    def __init__(self, limit: int, window: float) -> None:
        self.limit, self.window = limit, window
        self.opened: dict[Any, tuple[float, int]] = {}

    def state(self, key: Any, now: float) -> tuple[float, int]:
        opened, used = self.opened.get(key, (now, 0))
        if now - opened >= self.window:
            opened, used = now, 0
        return opened, used

    def take(self, key: Any, now: float) -> float:
        """Spend one request of ``key``: 0 when it fits, else the seconds to the reset."""
        opened, used = self.state(key, now)
        if used >= self.limit:
            return max(opened + self.window - now, 0.001)
        self.opened[key] = (opened, used + 1)
        return 0.0

    def headers(self, key: Any, now: float, bucket: str) -> dict[str, str]:
        opened, used = self.state(key, now)
        reset_after = max(opened + self.window - now, 0.0)
        return {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(max(self.limit - used, 0)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket,
        }


def _bucket_name(key: Any) -> str:
    return hashlib.sha1(repr(key).encode()).hexdigest()[:16]


class DiscordRules:
    """The rows of docs/DISCORD.md the loopback enforces (see the module docstring).

    ``enabled`` False: nothing is checked (notifications are still recorded).
    Times: ``time.monotonic()`` for buckets, the emulator's clock for message ages.
    """

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self.tokens = _Bucket(*WEBHOOK_LIMIT)
        self.channels = _Bucket(*CHANNEL_WEBHOOK_LIMIT)
        self.notifications: list[Notification] = []
        self.webhook_429: Counter[str] = Counter()
        self.old_edits = 0
        self.invalid = 0

    # ----- buckets --------------------------------------------------------------------

    def token_request(self, interaction_id: int) -> None:
        """One request on an interaction token's webhook bucket; Limited beyond it."""
        if not self.enabled:
            return
        now = time.monotonic()
        wait = self.tokens.take(interaction_id, now)
        if wait:
            self.webhook_429["per_token"] += 1
            headers = self.tokens.headers(interaction_id, now, _bucket_name(interaction_id))
            headers["X-RateLimit-Scope"] = "user"
            raise Limited("You are being rate limited.", round(wait, 3), headers)

    def token_headers(self, interaction_id: int) -> dict[str, str]:
        """The token bucket's ``X-RateLimit-*`` headers for a successful answer."""
        if not self.enabled:
            return {}
        return self.tokens.headers(interaction_id, time.monotonic(),
                                   _bucket_name(interaction_id))

    def webhook_message(self, channel_id: int) -> None:
        """A follow-up about to create a message in ``channel_id``; Limited beyond 30/min."""
        if not self.enabled:
            return
        now = time.monotonic()
        wait = self.channels.take(channel_id, now)
        if wait:
            self.webhook_429["per_channel"] += 1
            headers = self.channels.headers(channel_id, now, _bucket_name(("c", channel_id)))
            headers["X-RateLimit-Scope"] = "shared"
            raise Limited("You are being rate limited.", round(wait, 3), headers)

    def edit(self, born: float, now: float) -> None:
        """An edit of a message created at ``born`` (emulator clock); Limited (30046) when
        it is older than an hour."""
        if not self.enabled or now - born < OLD_MESSAGE_AGE:
            return
        self.old_edits += 1
        headers = {"X-RateLimit-Scope": "user"}
        raise Limited("Maximum number of edits to messages older than 1 hour reached. "
                      "Try again later", OLD_EDIT_RETRY, headers, code=30046)

    def answered(self, status: int, headers: dict[str, str] | Any) -> None:
        """Count an answer toward the invalid-request limit (401, 403, 429 not shared)."""
        if status in INVALID_STATUSES and headers.get("X-RateLimit-Scope") != "shared":
            self.invalid += 1

    # ----- notifications ------------------------------------------------------------

    def created(self, message_id: int, channel_id: int, content: str,
                allowed_mentions: dict[str, Any] | None, members: set[int],
                ephemeral: bool, suppressed: bool) -> list[int]:
        """Record who a newly created message notifies (``members``: the guild's) and
        return their ids: user mentions in ``content`` that ``allowed_mentions`` lets
        through (absent: every mention), none for an ephemeral or suppressed message."""
        if ephemeral or suppressed:
            return []
        mentioned = [int(m) for m in _MENTION.findall(content or "")]
        if allowed_mentions is not None:
            users = {int(u) for u in allowed_mentions.get("users") or ()}
            if "users" not in (allowed_mentions.get("parse") or ()):
                mentioned = [m for m in mentioned if m in users]
        out = [m for m in dict.fromkeys(mentioned) if m in members]
        at = time.monotonic()
        self.notifications.extend(Notification(m, message_id, channel_id, at) for m in out)
        return out

    def notified(self, member_id: int) -> list[Notification]:
        """The notifications ``member_id`` got, oldest first."""
        return [n for n in self.notifications if n.member_id == member_id]
