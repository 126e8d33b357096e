"""A duplicate event end to end through ``python -m bot`` (docs/RULES.md §Events): an admin
creates a two-deal event, two members play both deals privately (the landlord seat, then
a peasant seat), the standings before the close show only the deals a member has
played, and at the close the results are posted once in the event's channel with both
members' duplicate scores."""

from __future__ import annotations

import asyncio
import re
from fractions import Fraction

from sandbox.loopback.emulator import Emulator, SimMember, SimMessage
from tests.support import timing
from tests.support.botproc import BotFactory
from tests.support.ddz_driver import (
    FAST_ENV,
    cards_in_alt,
    choose,
    finished,
    play_from_view,
    press,
    reply_text,
)
from tests.support.solo import to_beat_in

RESULT_RE = re.compile(r"Deal (\d+) done: \*\*([+-]?\d+)\*\*")
LINE_RE = re.compile(r"^(\d+)\. (\w+): \*\*([+-]?[\d.]+)\*\* · points ([+-]?\d+) · played (\d)/2",
                     re.M)


def my_turn_or_over(view: SimMessage) -> bool:
    acted = "You played" in view.text or "You passed." in view.text
    return bool(RESULT_RE.search(view.text)) or ("It's your turn" in view.text and not acted)


async def play_deal(emu: Emulator, member: SimMember, deal: int, *,
                    stop_after: int | None = None, again: bool = False,
                    deals: int = 2) -> tuple[int, int]:
    """``/ddz event play``, then the member's turns in the private view until its result
    (or ``stop_after`` moves: then points 0). ``again``: the deal goes on (after a
    restart). Returns (cards held when the view opened, points)."""
    ix = await finished(await member.slash("ddz event play"), timeout=15)
    view = ix.message
    assert view is not None and view.ephemeral and view.visible_to is member, reply_text(ix)
    assert f"{deal} of {deals}" in view.text and "Event deal" in view.text, view.text
    assert ("goes on" in view.text) == again, view.text
    start = len(cards_in_alt(view))
    for turn in range(40):
        await emu.wait_until(lambda: my_turn_or_over(view), timeout=30,
                             what=f"{member.name}'s event turn {turn} of deal {deal}")
        found = RESULT_RE.search(view.text)
        if found:
            assert int(found.group(1)) == deal
            return start, int(found.group(2))
        if turn == stop_after:
            return start, 0
        to_beat = to_beat_in(view)
        combo = choose(cards_in_alt(view), to_beat)
        if combo is None:
            await press(member, view, "pass")
        else:
            await play_from_view(member, view, combo, to_beat, ranks=turn % 2 == 0)
    raise AssertionError(f"{member.name}'s deal {deal} never ended")


async def test_two_members_play_an_event_and_the_results_show_both_duplicate_scores(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    emu = emulator
    await bot_factory(extra_env=FAST_ENV).start(timeout=30)
    admin = emu.member(name="boss", manage_guild=True)
    made = await finished(await admin.slash("ddz event create", name="Winter cup", deals=2,
                                            hours=24, level="easy"))
    assert "Event **Winter cup** created" in reply_text(made), reply_text(made)
    alice, bob = emu.member(name="alice"), emu.member(name="bob")
    joined = await finished(await bob.slash("ddz event join"))
    assert "You're in **Winter cup**" in reply_text(joined), reply_text(joined)

    alice_points = []
    for deal, cards in ((1, 20), (2, 17)):  # the landlord, then a peasant
        start, points = await play_deal(emu, alice, deal)
        assert start == cards
        alice_points.append(points)
    hidden = await finished(await bob.slash("ddz event standings"))
    assert "Play a deal to see" in reply_text(hidden) and "Alice" not in reply_text(hidden)
    bob_points = [(await play_deal(emu, bob, deal))[1] for deal in (1, 2)]
    done = await finished(await bob.slash("ddz event play"))
    assert "You've played every deal" in reply_text(done), reply_text(done)
    # nothing of the event in any channel yet but its announcement (issue 37: members
    # learn that an event exists)
    (made_post,) = emu.public_messages()
    assert "New duplicate event: **Winter cup**" in made_post.text, made_post.text

    closed = await finished(await admin.slash("ddz event close"))
    assert "**Winter cup** is closed" in reply_text(closed), reply_text(closed)
    await emu.wait_until(lambda: any("is over" in m.text for m in emu.public_messages()),
                         timeout=30, what="the results of the event")
    (post,) = [m for m in emu.public_messages() if "is over" in m.text]
    lines = {m.group(2): m for m in LINE_RE.finditer(post.text)}
    assert set(lines) == {"Alice", "Bob"}, post.text
    # two entrants: on each deal each scores half the difference of their points
    pairs = list(zip(alice_points, bob_points, strict=True))
    expected = {"Alice": sum(Fraction(a - b, 2) for a, b in pairs),
                "Bob": sum(Fraction(b - a, 2) for a, b in pairs)}
    for name, line in lines.items():
        assert Fraction(line.group(3)) == expected[name], post.text
        assert line.group(5) == "2"
    assert int(lines["Alice"].group(4)) == sum(alice_points)
    places = {name: int(line.group(1)) for name, line in lines.items()}
    assert places == ({"Alice": 1, "Bob": 1} if expected["Alice"] == 0 else
                      {"Alice": 1 + (expected["Alice"] < 0), "Bob": 1 + (expected["Bob"] < 0)})
    final = await finished(await alice.slash("ddz event standings"))
    assert "Final, over every deal (2)" in reply_text(final), reply_text(final)
    assert len([m for m in emu.public_messages() if "is over" in m.text]) == 1
    # after the close, Bob replays Alice's peasant deal: image pages, no review of hers
    replay = await finished(await bob.slash("ddz event replay", member=alice, deal=2))
    page = replay.message
    assert page is not None and page.ephemeral and page.visible_to is bob, reply_text(replay)
    (image,) = page.attachments
    assert image.is_png and image.description.startswith("Deal 2 of Winter cup, page 1 of ")
    labels = [b["label"] for b in page.buttons]
    assert labels == ["◀", "▶", "Animation"], labels
    assert emu.errors == [] and emu.late_interactions() == []
    timing.record(emu)


async def test_kill_9_in_the_middle_of_an_event_deal_then_it_goes_on(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    emu = emulator
    bot = await bot_factory(extra_env=FAST_ENV).start(timeout=30)
    admin = emu.member(name="boss", manage_guild=True)
    await finished(await admin.slash("ddz event create", name="Cup", deals=2, hours=24,
                                     level="easy"))
    alice = emu.member(name="alice")
    start, _ = await play_deal(emu, alice, 1, stop_after=2)  # two moves in, then kill -9
    await bot.restart(timeout=30)
    held, _ = await play_deal(emu, alice, 1, again=True)
    assert held < start  # the cards she played before the kill stay played
    await finished(await admin.slash("ddz event close"))
    await emu.wait_until(lambda: any("is over" in m.text for m in emu.public_messages()),
                         timeout=30, what="the results of the event")
    (post,) = [m for m in emu.public_messages() if "is over" in m.text]
    (line,) = LINE_RE.finditer(post.text)
    assert line.group(2) == "Alice" and line.group(3) == "0" and line.group(5) == "1", post.text
    assert emu.errors == [] and emu.late_interactions() == []


async def test_a_deal_still_played_at_the_close_stays_hidden_until_it_ends_then_one_post(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    # the input that showed it: Alice finished the deal, the admin began it, closed the
    # event and peeked at Alice's play of it; the standings said "Final" (all 0)
    emu = emulator
    await bot_factory(extra_env=FAST_ENV).start(timeout=30)
    admin = emu.member(name="boss", manage_guild=True)
    await finished(await admin.slash("ddz event create", name="Spring cup", deals=1,
                                     hours=24, level="easy"))
    alice = emu.member(name="alice")
    await play_deal(emu, alice, 1, deals=1)
    await play_deal(emu, admin, 1, deals=1, stop_after=1)  # begun, one move in
    closed = await finished(await admin.slash("ddz event close"))
    assert "**Spring cup** is closed" in reply_text(closed), reply_text(closed)
    peek = await finished(await admin.slash("ddz event replay", member=alice, deal=1))
    assert "Not yet: finish your own play of deal 1 first" in reply_text(peek), reply_text(peek)
    assert peek.message is None or not peek.message.attachments
    for member in (admin, alice):
        board = reply_text(await finished(await member.slash("ddz event standings")))
        assert "Provisional" in board and "Final" not in board, board
    await asyncio.sleep(1.0)
    assert [m for m in emu.public_messages() if "is over" in m.text] == []
    await play_deal(emu, admin, 1, deals=1, again=True)  # the admin's deal ends
    await emu.wait_until(lambda: any("is over" in m.text for m in emu.public_messages()),
                         timeout=30, what="the results of the event")
    final = reply_text(await finished(await admin.slash("ddz event standings")))
    assert "Final, over every deal (1)" in final, final
    (post,) = [m for m in emu.public_messages() if "is over" in m.text]
    names = re.findall(r"^\d+\. (\w+): \*\*[+-]?[\d.]+\*\* · points [+-]?\d+ · played 1/1$",
                       post.text, re.M)
    assert sorted(names) == ["Alice", "Boss"], post.text
    seen = await finished(await admin.slash("ddz event replay", member=alice, deal=1))
    assert seen.message is not None and seen.message.attachments, reply_text(seen)
    await asyncio.sleep(1.0)
    assert len([m for m in emu.public_messages() if "is over" in m.text]) == 1
    assert emu.errors == [] and emu.late_interactions() == []
