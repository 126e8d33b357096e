"""Three members play a whole hand of Dou Dizhu against the real ``python -m bot``.

One module-scoped game (lobby → bids → play to settlement) feeds the checks:
the result and ``/ddz score`` (issue 7 suite item 1), privacy of hands (item 5)
and response times (item 7). Members act through the public buttons, the hand
view's select menu, rank buttons, Play/Pass and ``/ddz play`` / ``/ddz pass``.
"""

from __future__ import annotations

import os
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import pytest_asyncio

from bot.rules import Card, format_cards, parse_cards, rank_counts, show_cards
from sandbox.loopback.emulator import Emulator, SimMember, SimMessage
from tests.support import timing
from tests.support.botproc import BotProcess
from tests.support.ddz_driver import (
    FAST_ENV,
    MENTION_RE,
    SHOWN,
    Tracker,
    cards_in_alt,
    changes_in_result,
    choose,
    finished,
    open_view,
    pass_by_slash,
    play_by_slash,
    play_from_view,
    press,
    public_actions,
    public_seq,
    reply_text,
    result_total,
    table_message,
    wait_public,
)
from tests.support.three_members import NAMES, join_and_start

pytestmark = pytest.mark.asyncio(loop_scope="module")


@dataclass
class Played:
    """What the module's game left behind for the checks."""

    emu: Emulator
    bot: BotProcess
    members: list[SimMember]
    dealt: dict[int, list[Card]]  # seat → 17 cards read from the hand view at the deal
    landlord_hand: list[Card]  # 20 cards after the kitty
    tracker: Tracker
    kitty: list[Card]
    result: SimMessage
    steps: list[str] = field(default_factory=list)

    @property
    def secrets(self) -> dict[int, list[str]]:
        """Per seat, the hand strings no one else may see (docs/RULES.md notation)."""
        out = {s: [format_cards(c), show_cards(c)] for s, c in self.dealt.items()}
        out[self.tracker.landlord] += [format_cards(self.landlord_hand),
                                       show_cards(self.landlord_hand)]
        return out


async def bid(emu: Emulator, members: list[SimMember]) -> tuple[int, list[Card]]:
    """First bidder passes (public button), the next bids 2 (hand view), the last passes
    (``/ddz pass``). Returns (landlord seat, kitty)."""
    msg = await wait_public(emu, lambda m: "bid1" in public_actions(m), what="bidding")
    ids = [m.id for m in members]
    first = ids.index(int(MENTION_RE.search(msg.content).group(1)))  # type: ignore[union-attr]
    seq = public_seq(msg)
    await members[first].click(msg, public_actions(msg)["bid0"]["custom_id"])
    second, third = (first + 1) % 3, (first + 2) % 3
    msg = await wait_public(
        emu, lambda m: public_seq(m) > seq and f"<@{ids[second]}>" in m.content, what="2nd bidder"
    )
    view = await open_view(members[second])
    await press(members[second], view, "b2")
    assert "You bid 2." in view.text, view.text
    await wait_public(emu, lambda m: f"<@{ids[third]}>" in m.content, what="3rd bidder")
    await pass_by_slash(members[third])
    msg = await wait_public(emu, lambda m: "Landlord:" in m.text, what="the landlord announced")
    assert f"Landlord: {NAMES[second]} · bid 2" in msg.text, msg.text
    kitty = re.search(r"Kitty[^:]*: (" + SHOWN + ")$", msg.text, re.M)  # "3 10 small joker"
    assert kitty is not None and len(parse_cards(kitty.group(1))) == 3, msg.text
    return second, parse_cards(kitty.group(1))


async def play_out(emu: Emulator, members: list[SimMember], tracker: Tracker) -> list[str]:
    """Play to the end: the seat to act opens its view (or types), plays ``choose(...)``."""
    steps: list[str] = []
    for step in range(150):
        if tracker.winner is not None:
            return steps
        seat = tracker.turn
        member, hand, to_beat = members[seat], tracker.hands[seat], tracker.to_beat
        combo = choose(hand, to_beat)
        mode = ("select", "ranks", "slash")[(step + step // 3) % 3]  # each seat uses all three
        if mode == "slash":
            if combo is None:
                await pass_by_slash(member)
            else:
                combo = await play_by_slash(member, combo, to_beat)
        else:
            button_msg = table_message(emu) if step % 4 == 0 else None
            view = await open_view(member, via_button=button_msg)
            assert format_cards(cards_in_alt(view)) == format_cards(hand), view.attachments
            assert "It's your turn" in view.text, view.text
            if combo is None:
                await press(member, view, "pass")
                assert "You passed." in view.text, view.text
            else:
                combo = await play_from_view(member, view, combo, to_beat, ranks=mode == "ranks")
        if combo is None:
            tracker.pass_turn(seat)
            steps.append(f"{NAMES[seat]} pass ({mode})")
        else:
            tracker.play(seat, combo)
            steps.append(f"{NAMES[seat]} {combo.notation} ({mode})")
    raise AssertionError(f"hand did not end after 150 actions: {steps}")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def played(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Played]:
    tmp: Path = tmp_path_factory.mktemp("game_hand")
    emu = await Emulator().start()
    bot = BotProcess(emu, db_path=tmp / "bot.sqlite3", log_path=tmp / "bot.log", extra_env=FAST_ENV)
    try:
        await bot.start(timeout=30)
        members = [emu.member(name=n.lower()) for n in NAMES]
        await join_and_start(emu, members)
        deal = await wait_public(emu, lambda m: "hand" in public_actions(m), what="the deal")
        views = [await open_view(members[0], via_button=deal)]
        views += [await open_view(m) for m in members[1:]]
        dealt = {s: cards_in_alt(v) for s, v in enumerate(views)}
        landlord, kitty = await bid(emu, members)
        landlord_hand = parse_cards(format_cards(dealt[landlord] + kitty))  # distinct cards
        fresh = await open_view(members[landlord])
        assert format_cards(cards_in_alt(fresh)) == format_cards(landlord_hand)
        tracker = Tracker({s: list(c) for s, c in dealt.items()}, landlord=landlord, bid=2)
        tracker.hands[landlord] = list(landlord_hand)
        steps = await play_out(emu, members, tracker)
        result = await wait_public(
            emu, lambda m: "again" in public_actions(m), timeout=15, what="the result message"
        )
        yield Played(emu, bot, members, dealt, landlord_hand, tracker, kitty, result, steps)
    finally:
        await bot.kill()
        timing.record(emu)
        await emu.close()


async def test_three_members_play_a_whole_hand_to_settlement(played: Played) -> None:
    emu, tracker = played.emu, played.tracker
    every_card = [c for cards in played.dealt.values() for c in cards] + played.kitty
    assert len(every_card) == 54 and rank_counts(every_card) == [4] * 13 + [1, 1]

    text = played.result.text
    winner_seat = tracker.winner
    assert winner_seat is not None
    if winner_seat == tracker.landlord:
        assert f"The landlord {NAMES[tracker.landlord]} wins!" in text, text
    else:
        peasants = " and ".join(NAMES[s] for s in range(3) if s != tracker.landlord)
        assert f"The peasants {peasants} win!" in text, text
    expected = tracker.points()
    changes = changes_in_result(text, NAMES)
    assert changes == {NAMES[s]: expected[s] for s in range(3)}, (text, played.steps)
    assert sum(changes.values()) == 0
    for s in range(3):
        assert re.search(rf"^{NAMES[s]}.*→ match total {result_total(expected[s])}$", text,
                         re.M), text
    assert played.result.attachments[0].is_png

    score = await finished(await played.members[2].slash("ddz score"))
    board = reply_text(score)
    assert score.message is not None and not score.message.ephemeral
    for s in range(3):
        total = f"+{expected[s]}" if expected[s] > 0 else str(expected[s])
        assert re.search(rf"{NAMES[s]}: \*\*{re.escape(total)}\*\* \(1 hand\)", board), board
    assert emu.errors == [] and emu.late_interactions() == []


async def test_python_m_bot_runs_on_uvloop_by_default(played: Played) -> None:
    """``DDZ_EVENT_LOOP`` unset (or ``auto``) with uvloop installed: the whole hand
    above was played on uvloop's loop (docs/ARCHITECTURE.md)."""
    if os.environ.get("DDZ_EVENT_LOOP", "auto").strip().lower() not in ("", "auto", "uvloop"):
        pytest.skip("DDZ_EVENT_LOOP chooses asyncio in this environment")
    assert "event loop: uvloop" in played.bot.log_text(), played.bot.log_tail()


def snapshot_texts(msg: SimMessage) -> list[str]:
    """The text and alt texts of every state a message had (edits included)."""
    states = [*msg.history, msg.snapshot()]
    out = []
    for st in states:
        parts = [st.get("content") or ""]
        for e in st.get("embeds") or []:
            parts += [str(e.get("title", "")), str(e.get("description", ""))]
            parts += [f"{f.get('name')} {f.get('value')}" for f in e.get("fields") or []]
        parts += [a.description or "" for a in st.get("attachments") or []]
        out.append("\n".join(parts))
    return out


async def test_no_hand_is_shown_in_public_in_logs_or_to_another_member(played: Played) -> None:
    emu, members = played.emu, played.members
    secrets = played.secrets
    public = [m for m in emu.messages.values() if m.visible_to is None]
    assert public, "no public messages recorded"
    for msg in public:
        for text in snapshot_texts(msg):
            if "· result" in text:  # the result lists the cards left, by design
                continue
            assert "Your hand" not in text
            for seat, hands in secrets.items():
                for hand in hands:
                    assert hand not in text, f"{NAMES[seat]}'s hand {hand} in public: {text!r}"
    log = played.bot.log_text()
    assert "logged in as" in log
    for seat, hands in secrets.items():
        for hand in hands:
            assert hand not in log, f"{NAMES[seat]}'s hand {hand} in the bot log"
    for msg in emu.messages.values():
        owner = msg.visible_to
        if owner is None:
            continue
        ix = emu.by_id[msg.interaction_id] if msg.interaction_id else None
        assert ix is not None and ix.member is owner, f"ephemeral {msg!r} not from its member"
        assert msg in owner.ephemerals
        assert not any(msg in m.ephemerals for m in members if m is not owner)
        seat = members.index(owner)
        for text in snapshot_texts(msg):
            for other, hands in secrets.items():
                if other != seat:
                    assert all(h not in text for h in hands), f"{NAMES[other]}'s hand shown to {owner.name}"
    for member in members:
        assert all(m.visible_to is member for m in member.ephemerals)
        assert all(member.can_see(m) for m in member.ephemerals if not m.deleted)


async def test_every_interaction_answered_inside_3_seconds(played: Played) -> None:
    emu = played.emu
    summary = emu.response_time_summary()
    print(f"\n3-member hand: {len(played.steps)} actions ({'; '.join(played.steps)})")
    print(f"result: {played.result.text}\nresponse times: {summary}")
    assert summary["count"] == len(emu.interactions) > 30
    assert emu.late_interactions() == [] and emu.errors == []
    assert summary["max"] < 3000
