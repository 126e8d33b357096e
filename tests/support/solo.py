"""One member against computer players: act whenever the table names the member.

The member learns that it is their turn from the public table message (a mention at
a newer seq), opens the hand view, reads the hand (alt text) and what to beat (view
text), chooses with ``bot.rules`` (``ddz_driver.choose``) and acts from the view.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

from bot.rules import Card, Combo, classify, parse_cards
from sandbox.loopback.emulator import Emulator, SimMember, SimMessage
from tests.support import timing
from tests.support.botproc import BotProcess
from tests.support.ddz_driver import (
    FAST_ENV,
    SHOWN,
    cards_in_alt,
    changes_in_result,
    choose,
    finished,
    hand_component,
    hand_verbs,
    open_view,
    play_from_view,
    press,
    public_actions,
    public_seq,
    reply_text,
    result_total,
    wait_public,
)

NAMES = ("Alice", "Bot 2", "Bot 3")  # a member called alice + two computers
BEAT_RE = re.compile(r"beat (" + SHOWN + r") \(")


@dataclass
class SoloLog:
    """What happened on the member's turns: actions, the ids of buttons they saw."""

    actions: list[str] = field(default_factory=list)
    views: list[SimMessage] = field(default_factory=list)
    seen_ids: list[str] = field(default_factory=list)
    public_seen: list[str] = field(default_factory=list)
    hands: list[list[Card]] = field(default_factory=list)
    frozen: SimMessage | None = None  # a view opened on a turn and then left behind


def to_beat_in(view: SimMessage) -> Combo | None:
    """What the view says must be beaten (None on a free lead)."""
    m = BEAT_RE.search(view.text)
    return classify(parse_cards(m.group(1)))[0] if m else None


def is_turn_of(member: SimMember, after_seq: int) -> Callable[[SimMessage], bool]:
    def check(msg: SimMessage) -> bool:
        acts = public_actions(msg)
        if "again" in acts:
            return True
        return public_seq(msg) > after_seq and f"<@{member.id}>" in msg.content

    return check


async def my_turn(
    emu: Emulator, member: SimMember, view: SimMessage, log: SoloLog, turn: int
) -> None:
    """One turn from a fresh hand view: bid 3 while bidding, else play ``choose(...)``."""
    log.views.append(view)
    log.seen_ids += view.custom_ids
    verbs = hand_verbs(view)
    if "b3" in verbs:
        await press(member, view, "b3")
        assert "You bid 3." in view.text, view.text
        log.actions.append("bid 3")
        return
    hand = cards_in_alt(view)
    log.hands.append(hand)
    assert "It's your turn" in view.text, view.text
    assert hand_component(view, "play").get("disabled"), "Play on with nothing selected"
    to_beat = to_beat_in(view)
    combo = choose(hand, to_beat)
    if combo is None:
        assert not hand_component(view, "pass").get("disabled"), "Pass disabled on a follow"
        await press(member, view, "pass")
        assert "You passed." in view.text, view.text
        log.actions.append("pass")
        return
    played = await play_from_view(member, view, combo, to_beat, ranks=turn % 2 == 1)
    log.actions.append(played.notation)


Hook = Callable[[int, SimMessage], Awaitable[None]]


async def play_solo(
    emu: Emulator,
    member: SimMember,
    *,
    after_turn: Hook | None = None,
    max_turns: int = 60,
    timeout: float = 20.0,
    log: SoloLog | None = None,
) -> tuple[SimMessage, SoloLog]:
    """Play the member's turns until the result message shows; returns (result, log).

    ``after_turn(turn, table_message)`` runs after each of the member's turns; ``log``
    (default a new one) records them as they happen.
    """
    log = log if log is not None else SoloLog()
    seq = -1
    for turn in range(max_turns):
        msg = await wait_public(
            emu,
            is_turn_of(member, seq),
            timeout=timeout,
            what=f"{member.name}'s turn {turn}",
            guild=member.guild,
        )
        if "again" in public_actions(msg):
            return msg, log
        seq = public_seq(msg)
        log.public_seen += msg.custom_ids
        if log.frozen is None and "bid1" not in public_actions(msg):
            # superseded by the next view: it says so once, and is never redrawn; a card
            # ticked in it first, so that its Play is on (docs/RULES.md §Controls)
            log.frozen = await open_view(member)
            menu = hand_component(log.frozen, "cards")
            await finished(await member.select(log.frozen, menu["custom_id"],
                                               [menu["options"][0]["value"]]))
        view = await open_view(member, via_button=msg if turn % 2 == 0 else None)
        await my_turn(emu, member, view, log, turn)
        if after_turn is not None:
            await after_turn(turn, msg)
    raise AssertionError(f"no result after {max_turns} turns: {log.actions}")


def result_points(text: str) -> tuple[int, int]:
    """(bid, P) from the result text ("Bid 2 · … · P = 2 × 2¹ = 4")."""
    m = re.search(r"Bid (\d+) · .*P = \d+ × 2[⁰¹²³⁴⁵⁶⁷⁸⁹]+ = (\d+)", text)
    assert m is not None, text
    return int(m.group(1)), int(m.group(2))


async def open_with_computers(emu: Emulator, member: SimMember) -> None:
    """``/ddz start computers:2`` then Start."""
    ack = await finished(await member.slash("ddz start", computers=2))
    assert ack.ephemeral and "is open in this channel" in reply_text(ack), reply_text(ack)
    lobby = await wait_public(
        emu, lambda m: "start" in public_actions(m), what="the lobby", guild=member.guild
    )
    assert "Bot 2 (computer, normal)" in lobby.text and "Bot 3 (computer, normal)" in lobby.text
    start = public_actions(lobby)["start"]
    assert not start.get("disabled"), lobby.text
    await member.click(lobby, start["custom_id"])


def check_result(text: str, member_name: str = "Alice") -> dict[str, int]:
    """Winner line, P and every change agree (docs/RULES.md §Scoring); the member's match total
    equals its change (first hand of the match). Returns the changes by name."""
    bid, p = result_points(text)
    assert bid in (1, 2, 3) and p >= bid
    changes = changes_in_result(text, NAMES)
    assert set(changes) == set(NAMES) and sum(changes.values()) == 0, text
    (landlord,) = [n for n in NAMES if re.search(rf"^{n} \([^)]*landlord", text, re.M)]
    landlord_won = "The landlord" in text
    assert ("The peasants" in text) is not landlord_won, text
    sign = 1 if landlord_won else -1
    assert changes == {n: (2 * p if n == landlord else -p) * sign for n in NAMES}, text
    mine = changes[member_name]
    assert re.search(rf"^{member_name}.*: [+−]?\d+ → match total {result_total(mine)}$", text,
                     re.M), text
    for computer in NAMES[1:]:  # computers are never in the ledger
        assert not re.search(rf"^{computer}.*match total", text, re.M), text
    return changes


@dataclass
class SoloSession:
    """A running emulator and bot where ``alice`` played one hand against two computers."""

    emu: Emulator
    bot: BotProcess
    alice: SimMember
    result: SimMessage
    log: SoloLog


@asynccontextmanager
async def solo_session(tmp: Path, env: dict[str, str] | None = None
                       ) -> AsyncIterator[SoloSession]:
    """Start the emulator and the bot (database and log under ``tmp``; ``env``: more
    settings), let alice play a whole hand against two normal computers, yield; then kill
    the bot and close."""
    emu = await Emulator().start()
    bot = BotProcess(emu, db_path=tmp / "bot.sqlite3", log_path=tmp / "bot.log",
                     extra_env={**FAST_ENV, **(env or {})})
    try:
        await bot.start(timeout=30)
        alice = emu.member(name="alice")
        await open_with_computers(emu, alice)
        result, log = await play_solo(emu, alice)
        yield SoloSession(emu, bot, alice, result, log)
    finally:
        await bot.kill()
        timing.record(emu)
        await emu.close()


async def score_counts_once(member: SimMember, result_text: str,
                            member_name: str = "Alice") -> dict[str, int]:
    """The hand of ``result_text`` is in ``/ddz score`` exactly once: the member's match
    total equals its change, after one hand (the first of the match). Returns the changes."""
    changes = check_result(result_text, member_name)
    mine = changes[member_name]
    signed = f"+{mine}" if mine > 0 else str(mine)
    board = reply_text(await finished(await member.slash("ddz score")))
    assert re.search(rf"{member_name}: \*\*{re.escape(signed)}\*\* \(1 hand\)", board), board
    return changes
