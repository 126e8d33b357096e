"""Crash points for the end-to-end fault tests (off unless ``DDZ_FAULT`` is set).

``DDZ_FAULT=crash_after_post:<point>[:<n>]`` makes the process exit at once, with
``os._exit(CRASH_EXIT_CODE)`` (no clean-up, no commit: like ``kill -9``), the
``n``-th time (default 1) the code passes ``crash_point(<point>)``. Points:

* ``table``: a new public table message was posted, its id not yet saved;
* ``announce``: the match announcement was posted;
* ``view``: a hand view was answered, not yet tracked for refreshes.

docs/RELIABILITY.md lists what the bot does after each crash and the tests.

The points are a seam, not code on the production path: the objects that post
(``cogs.table_message.TableMessages``, ``cogs.hand_screens.HandScreens``) hold a ``crash``
hook that is None unless ``bot/client.py`` sets it to ``crash_point`` (``crash_hook``) when
``DDZ_FAULT`` is set, so without it a post pays one test of None.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

CRASH_EXIT_CODE = 70
POINTS = ("table", "announce", "view")


def parse(spec: str) -> tuple[str, int] | None:
    """``"crash_after_post:table:2"`` → ``("table", 2)``; None for an empty spec.
    Raises ValueError for anything else (a typo must not silently test nothing)."""
    spec = spec.strip()
    if not spec:
        return None
    parts = spec.split(":")
    if parts[0] != "crash_after_post" or len(parts) not in (2, 3) or parts[1] not in POINTS:
        raise ValueError(f"DDZ_FAULT: expected crash_after_post:<{'|'.join(POINTS)}>[:n], got {spec!r}")
    count = int(parts[2]) if len(parts) == 3 else 1
    if count < 1:
        raise ValueError("DDZ_FAULT: n must be at least 1")
    return parts[1], count


_SPEC = parse(os.environ.get("DDZ_FAULT", ""))
_seen: dict[str, int] = {}


def crash_point(point: str) -> None:
    """Exit the process here if ``DDZ_FAULT`` names this point and pass (see module doc)."""
    if _SPEC is None or _SPEC[0] != point:
        return
    _seen[point] = _seen.get(point, 0) + 1
    if _seen[point] == _SPEC[1]:
        print(f"ddz-bot: DDZ_FAULT crash after post ({point} #{_SPEC[1]})", file=sys.stderr,
              flush=True)
        os._exit(CRASH_EXIT_CODE)


def crash_hook() -> Callable[[str], None] | None:
    """``crash_point`` when ``DDZ_FAULT`` names a point, else None (nothing to call)."""
    return crash_point if _SPEC is not None else None
