"""Log redaction: no log record, from our code or a library, may carry a hand.

At DEBUG, discord.py logs every gateway event in full (an interaction from a
hand view carries that view: its alt text lists the cards, its custom_ids carry
selection masks) and every HTTP request and response body (the hand views we
send). Rather than chase lines, ``install()`` wraps logging's record factory so
that *every* record, from any logger and for any handler, is cleaned when it is
created:

* an argument that is a payload (dict, list, tuple, set, bytes, or a string that
  looks like JSON or is longer than ``MAX_ARG_CHARS``) is replaced by a short
  summary; a gateway event keeps its ``op``, ``t`` and ``s``;
* other objects are formatted once (``str``) and cleaned like strings (a
  ``discord.ui.Button`` repr names its custom_id);
* hand-view custom_ids lose their mask and sort state
  (``ddz:<table>:<seq>:h<verb>.<mask>.<sort><hint>``, see ``cogs/items.py``);
* interaction tokens in webhook / callback URLs are replaced by ``<token>``.

Numbers, ``None``, booleans and exceptions pass unchanged (an exception's text is
Discord's error message, never a payload we sent). A record whose message is
not a string gets the same treatment. The README promises this ("hands never
appear in logs"); docs/RELIABILITY.md lists the test that checks it.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping
from enum import Enum
from typing import Any

MAX_ARG_CHARS = 500
"""Longer string arguments are withheld (our own messages use ids and short words)."""

HAND_ID = re.compile(r"(ddz:[A-Za-z0-9]{1,16}:\d+:h[a-z]+\d*)\.[0-9a-z]+\.[rg]\d+")
TOKEN_URL = re.compile(r"(/(?:webhooks/\d+|interactions/\d+))/[A-Za-z0-9_.\-]{20,}")
QUIET_LOGGERS = ("aiosqlite",)
"""Libraries whose DEBUG lines are every SQL statement with its parameters (stored
table states hold the hands): kept at INFO and above whatever ``DDZ_LOG_LEVEL`` says."""
_PLAIN = (int, float, bool, type(None), Enum, BaseException)
_MARK = "_ddz_redacted"


def clean_text(text: str) -> str:
    """``text`` with hand-view custom_id states and interaction tokens masked."""
    text = HAND_ID.sub(r"\1.…", text)
    return TOKEN_URL.sub(r"\1/<token>", text)


def summary(value: Any) -> str:
    """A payload-free stand-in for ``value`` (type, size; op/t/s of a gateway event)."""
    if isinstance(value, Mapping):
        if "op" in value:
            return (f"<gateway op={value.get('op')} t={value.get('t')} s={value.get('s')}"
                    f" (payload withheld)>")
        return f"<{type(value).__name__} of {len(value)} keys withheld>"
    if isinstance(value, list | tuple | set | frozenset | bytes | bytearray):
        return f"<{type(value).__name__} of {len(value)} items withheld>"
    return f"<{type(value).__name__} of {len(str(value))} chars withheld>"


def clean_arg(value: Any) -> Any:
    """One log argument made safe (see the module docstring)."""
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, Mapping | list | tuple | set | frozenset | bytes | bytearray):
        return summary(value)
    text = value if isinstance(value, str) else str(value)
    stripped = text.lstrip()
    if len(text) > MAX_ARG_CHARS or stripped[:1] in ("{", "["):
        return summary(text)
    return clean_text(text)


def clean_record(record: logging.LogRecord) -> logging.LogRecord:
    """Clean ``record.msg`` and ``record.args`` in place (idempotent); returns it."""
    if getattr(record, _MARK, False):
        return record
    setattr(record, _MARK, True)
    if isinstance(record.msg, str):
        record.msg = clean_text(record.msg)
    else:
        record.msg = clean_arg(record.msg)
    args = record.args
    if isinstance(args, Mapping):
        if isinstance(record.msg, str) and "%(" in record.msg:
            record.args = {k: clean_arg(v) for k, v in args.items()}
        else:  # logging unpacks a lone mapping argument into args
            record.args = (summary(args),)
    elif args:
        record.args = tuple(clean_arg(a) for a in args)
    return record


class RedactingFilter(logging.Filter):
    """A handler/logger filter doing :func:`clean_record` (for handlers made elsewhere)."""

    def filter(self, record: logging.LogRecord) -> bool:
        clean_record(record)
        return True


def install() -> None:
    """Clean every log record at creation (record factory), add
    :class:`RedactingFilter` to the root logger's handlers and keep
    ``QUIET_LOGGERS`` at INFO or above. Safe to call twice."""
    for name in QUIET_LOGGERS:
        quiet = logging.getLogger(name)
        quiet.setLevel(max(quiet.getEffectiveLevel(), logging.INFO))
    current: Callable[..., logging.LogRecord] = logging.getLogRecordFactory()
    if not getattr(current, _MARK, False):

        def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
            return clean_record(current(*args, **kwargs))

        setattr(factory, _MARK, True)
        logging.setLogRecordFactory(factory)
    for handler in logging.getLogger().handlers:
        if not any(isinstance(f, RedactingFilter) for f in handler.filters):
            handler.addFilter(RedactingFilter())
