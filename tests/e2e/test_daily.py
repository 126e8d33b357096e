"""The daily deal end to end through ``python -m bot`` (docs/RULES.md §Daily deal): two
members play the same deal privately, once; the standings show both; a member who has
not played sees only how many have."""

from __future__ import annotations

import re

from bot.rules import parse_cards
from sandbox.loopback.emulator import Emulator, SimMember, SimMessage
from tests.support import timing
from tests.support.botproc import BotFactory
from tests.support.ddz_driver import (
    FAST_ENV,
    SHOWN,
    cards_in_alt,
    choose,
    finished,
    hand_verbs,
    play_from_view,
    press,
    reply_text,
)
from tests.support.solo import to_beat_in

DEALT_RE = re.compile(r"(?P<name>Alice|Bot 2|Bot 3) holds (?P<cards>" + SHOWN + ")")
RESULT_RE = re.compile(r"You (won|lost) the daily deal of (\d{4}-\d\d-\d\d): \*\*([+-]?\d+)\*\*")


def my_turn_or_over(view: SimMessage) -> bool:
    acted = "You played" in view.text or "You passed." in view.text
    return bool(RESULT_RE.search(view.text)) or ("It's your turn" in view.text and not acted)


async def play_daily(emu: Emulator, member: SimMember) -> tuple[SimMessage, list[str]]:
    """``/ddz daily``, then the member's turns in the private view, which the bot keeps
    current, until it shows the result. Returns the view and the member's actions."""
    ix = await finished(await member.slash("ddz daily"), timeout=15)
    view = ix.message
    assert view is not None and view.ephemeral and view.visible_to is member, reply_text(ix)
    assert "Daily deal of" in view.text and "landlord at bid 3" in view.text, view.text
    assert len(cards_in_alt(view)) == 20, view.text  # the kitty is the member's
    first_hand = cards_in_alt(view)
    actions: list[str] = []
    for turn in range(40):
        await emu.wait_until(lambda: my_turn_or_over(view), timeout=30,
                             what=f"{member.name}'s daily turn {turn}")
        if RESULT_RE.search(view.text):
            return view, [",".join(c.rank.symbol for c in first_hand), *actions]
        hand = cards_in_alt(view)
        to_beat = to_beat_in(view)
        combo = choose(hand, to_beat)
        if combo is None:
            await press(member, view, "pass")
            actions.append("pass")
        else:
            actions.append((await play_from_view(member, view, combo, to_beat,
                                                 ranks=turn % 2 == 0)).notation)
    raise AssertionError(f"{member.name}'s daily hand never ended: {actions}")


async def test_two_members_play_the_same_daily_deal_and_the_board_shows_both(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    emu = emulator
    await bot_factory(extra_env=FAST_ENV).start(timeout=30)
    admin = emu.member(name="boss", manage_guild=True)
    saved = await finished(await admin.slash("ddz config", daily_level="normal"))
    assert "Daily deal's computers: normal" in reply_text(saved), reply_text(saved)
    alice, bob, carol = emu.member(name="alice"), emu.member(name="bob"), emu.member(name="carol")

    alice_view, alice_moves = await play_daily(emu, alice)
    hidden = await finished(await bob.slash("ddz daily", board="today"))
    assert "Play today's deal first" in reply_text(hidden) and "1 member has" in reply_text(hidden)
    refused = await finished(await bob.slash("ddz daily", replay=alice, day="today"))
    assert "Not yet" in reply_text(refused), reply_text(refused)
    bob_view, bob_moves = await play_daily(emu, bob)
    # the same deal: the same 20 cards to start with; the same moves → the same answers
    assert alice_moves[0] == bob_moves[0]
    if alice_moves == bob_moves:
        assert RESULT_RE.search(alice_view.text).group(3) == RESULT_RE.search(bob_view.text).group(3)  # type: ignore[union-attr]
    assert emu.public_messages() == []  # nothing of the deal in any channel

    again = await finished(await alice.slash("ddz daily"))
    text = reply_text(again)
    assert again.message is not None and again.message.ephemeral
    assert RESULT_RE.search(text) and "Alice" in text and "Bob" in text, text
    assert [b["label"] for b in again.message.buttons] == ["Replay", "Review my play"]
    board = await finished(await carol.slash("ddz daily", board="yesterday"))
    assert "Nobody has finished this deal yet." in reply_text(board), reply_text(board)
    board = await finished(await bob.slash("ddz daily", board="today"))
    lines = [line for line in reply_text(board).splitlines() if re.match(r"^\d\. ", line)]
    assert len(lines) == 2 and {"Alice", "Bob"} == {re.match(r"^\d\. (\w+):", x).group(1)  # type: ignore[union-attr]
                                                     for x in lines}, reply_text(board)
    replay = await finished(await bob.slash("ddz daily", replay=alice, day="today"))
    page = replay.message
    assert page is not None and page.ephemeral and page.visible_to is bob, reply_text(replay)
    (image,) = page.attachments  # page 1 of the replay: the deal, as an image with alt text
    assert image.is_png and image.description.startswith("Daily deal of "), image.description
    dealt = {m["name"]: m["cards"] for m in DEALT_RE.finditer(image.description)}
    assert len(parse_cards(dealt["Alice"])) == 17 and len(dealt) == 3, image.description
    assert "Review my play" not in [b["label"] for b in page.buttons]  # Alice's play, not his
    assert not hand_verbs(alice_view)  # the finished view has no controls left
    assert emu.errors == [] and emu.late_interactions() == []
    timing.record(emu)
