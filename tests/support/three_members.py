"""Three members (Alice, Bob, Carol) open a table together against the real bot
(tests/e2e/test_game_hand.py, tests/e2e/test_game_fair_clicks.py)."""

from __future__ import annotations

import re

from sandbox.loopback.emulator import Emulator, SimMember
from tests.support.ddz_driver import finished, public_actions, public_seq, reply_text, wait_public

NAMES = ("Alice", "Bob", "Carol")


async def join_and_start(emu: Emulator, members: list[SimMember]) -> str:
    """Alice types ``/ddz start``, Bob and Carol join the lobby, Alice presses Start;
    the table id from Alice's reply."""
    alice, bob, carol = members
    ack = await finished(await alice.slash("ddz start"))
    m = re.search(r"`([A-Za-z0-9]+)`", reply_text(ack))
    assert ack.ephemeral and m is not None, reply_text(ack)
    lobby = await wait_public(emu, lambda msg: "join" in public_actions(msg), what="the lobby")
    for n, member in enumerate((bob, carol), start=1):
        join = public_actions(lobby)["join"]["custom_id"]
        await member.click(lobby, join)
        lobby = await wait_public(
            emu, lambda msg, n=n: public_seq(msg) >= n and NAMES[n] in msg.text, what=f"join {n}"
        )
    assert [f"Seat {i + 1}: {name}" in lobby.text for i, name in enumerate(NAMES)] == [True] * 3
    start = public_actions(lobby)["start"]
    assert not start.get("disabled")
    await alice.click(lobby, start["custom_id"])
    return m.group(1)
