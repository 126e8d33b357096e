"""What a log must never contain: every way a hand shows in the members' private views.

``hand_secrets(emu)`` collects, from every state of every ephemeral message (the
hand views and their history): the alt text of ``hand.png`` ("Your hand: …"), the
hand it lists in docs/RULES.md notation, every hand-view custom_id (it carries the
selection mask), every select option value (a play's card mask) and label.
``leaks(text, secrets)`` returns the ones found in ``text``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from sandbox.loopback.emulator import Emulator, SimMessage
from tests.support.ddz_driver import CARDS_RE, HAND_RE

MIN_NOTATION = 8
"""Shorter card runs may be a public play ("33344") or part of any token: not checked."""


def _states(msg: SimMessage) -> Iterable[dict[str, Any]]:
    yield from msg.history
    yield msg.snapshot()


def _components(items: list[dict[str, Any]]) -> Iterable[dict[str, Any]]:
    for c in items:
        yield c
        yield from _components(c.get("components") or [])


def hand_secrets(emu: Emulator) -> set[str]:
    """Every secret string shown in a hand view (see the module docstring)."""
    out: set[str] = set()
    for g in emu.guilds:
        for ch in g.channels:
            for msg in ch.messages:
                if not msg.ephemeral:
                    continue
                for state in _states(msg):
                    for att in state["attachments"]:
                        if att.filename == "hand.png" and att.description:
                            out.add(att.description)
                            for m in CARDS_RE.finditer(att.description):
                                if len(m.group(1)) >= MIN_NOTATION:
                                    out.add(m.group(1))
                    for comp in _components(state["components"]):
                        cid = comp.get("custom_id") or ""
                        if HAND_RE.match(cid):
                            out.add(cid)
                        for option in comp.get("options") or []:
                            if len(option.get("value") or "") >= 6:
                                out.add(option["value"])
                            if len(option.get("label") or "") >= MIN_NOTATION:
                                out.add(option["label"])
    return out


def leaks(text: str, secrets: Iterable[str]) -> list[str]:
    """The secrets found in ``text`` as whole tokens (not inside a longer word)."""
    found = []
    for secret in secrets:
        pattern = rf"(?<![0-9A-Za-z]){re.escape(secret)}(?![0-9A-Za-z])"
        if re.search(pattern, text):
            found.append(secret)
    return sorted(found)
