"""Members doing what they should not (issue 7 suite item 4): an outsider clicks, a
player clicks or types out of turn, a double click (two interactions sent at once
with the same custom_id), malformed ``/ddz play cards:`` text. Each gets a polite
ephemeral reason and nothing changes; the double click applies once."""

from __future__ import annotations

import re

from sandbox.loopback.emulator import Emulator, SimInteraction, SimMember, SimMessage
from tests.support import timing
from tests.support.botproc import BotFactory
from tests.support.ddz_driver import (
    FAST_ENV,
    MENTION_RE,
    cards_in_alt,
    choose,
    finished,
    hand_component,
    open_view,
    public_actions,
    public_seq,
    reply_text,
    select_cards_by_rank,
    table_message,
    wait_public,
    watch_table,
)
from tests.support.solo import to_beat_in

NOT_SEATED = "You're not seated at this table."
NOT_YOUR_TURN = "It's not your turn."
STALE = "That button is out of date: the table has moved on."


def only_reply(ix: SimInteraction, member: SimMember) -> str:
    """The one ephemeral answer ``member`` got (AssertionError otherwise)."""
    msgs = ix.followups or ([ix.message] if ix.message is not None else [])
    assert len(msgs) == 1, msgs
    (msg,) = msgs
    assert msg.visible_to is member and not msg.attachments, msg
    assert "something went wrong" not in msg.text, msg.text
    return msg.text


async def turn_of_a_member(emu: Emulator, members: list[SimMember], after: int) -> SimMessage:
    ids = {f"<@{m.id}>" for m in members}
    return await wait_public(
        emu,
        lambda m: public_seq(m) > after and any(i in m.content for i in ids),
        what="a member's turn",
    )


async def member_bid_turn(emu: Emulator, starter: SimMember, members: list[SimMember]) -> SimMessage:
    """The table message when a member is to bid. Should a computer end the bidding
    first (a bid of 3), the starter stops that hand and presses Play again."""
    after = 0
    for _ in range(4):
        msg = await turn_of_a_member(emu, members, after=after)
        if "bid1" in public_actions(msg):
            return msg
        await finished(await starter.slash("ddz stop"))
        result = await wait_public(emu, lambda m: "again" in public_actions(m), what="stopped")
        await starter.click(result, public_actions(result)["again"]["custom_id"])
        after = public_seq(result)
    raise AssertionError("a computer ended the bidding four times in a row")


async def test_outsider_out_of_turn_double_click_and_bad_text_change_nothing(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    emu = emulator
    watch_table(emu)
    await bot_factory(extra_env=FAST_ENV).start(timeout=30)
    alice, bob, carol = (emu.member(name=n) for n in ("alice", "bob", "carol"))
    await finished(await alice.slash("ddz start", computers=1))
    lobby = await wait_public(emu, lambda m: "join" in public_actions(m), what="the lobby")
    await bob.click(lobby, public_actions(lobby)["join"]["custom_id"])
    lobby = await wait_public(emu, lambda m: "Bob" in m.text and public_seq(m) > 0, what="bob in")
    await alice.click(lobby, public_actions(lobby)["start"]["custom_id"])
    members = [alice, bob]

    # ---- bidding: an outsider and the member out of turn press the public buttons ----
    msg = await member_bid_turn(emu, alice, members)
    seq, bids_before = public_seq(msg), msg.text
    cur = alice if f"<@{alice.id}>" in msg.content else bob
    other = bob if cur is alice else alice
    acts = public_actions(msg)
    amount = next(n for n in (1, 2, 3) if not acts[f"bid{n}"].get("disabled"))
    bid1 = acts[f"bid{amount}"]["custom_id"]

    outsider_bid = await finished(await carol.click(msg, bid1))
    outsider_view = await finished(await carol.click(msg, public_actions(msg)["hand"]["custom_id"]))
    outsider_play = await finished(await carol.slash("ddz play", cards="33"))
    early = await finished(await other.click(msg, bid1))

    assert only_reply(outsider_bid, carol) == NOT_SEATED
    assert only_reply(outsider_view, carol) == NOT_SEATED
    assert only_reply(outsider_play, carol) == NOT_SEATED
    assert only_reply(early, other) == NOT_YOUR_TURN
    assert public_seq(table_message(emu)) == seq and table_message(emu).text == bids_before  # type: ignore[arg-type,union-attr]

    # ---- a double click on "Bid 1": both interactions answered, the bid applied once ----
    first = await cur.click(msg, bid1, wait=False)
    second = await cur.click(msg, bid1, wait=False)
    await first.response()
    await second.response()
    msg = await wait_public(emu, lambda m: public_seq(m) > seq, what="the bid drawn")
    name = "Alice" if cur is alice else "Bob"
    if "Landlord:" in msg.text:
        # the bidding ended: by this bid, or by a computer outbidding it before the
        # coalesced redraw (≤ 1 edit/s) showed the bid on its own
        landlord = re.search(r"Landlord: (.+?) · bid (\d)", msg.text)
        assert landlord is not None, msg.text
        assert (landlord[1], int(landlord[2])) == (name, amount) or int(landlord[2]) > amount, (
            msg.text)
    else:
        assert msg.text.count(f"{name}: {amount}") == 1, msg.text
    await emu.wait_until(lambda: first.followups or second.followups, what="the refusal")
    refused = [ix for ix in (first, second) if ix.followups]
    assert len(refused) == 1 and only_reply(refused[0], cur) in (STALE, NOT_YOUR_TURN)

    # ---- finish bidding: members pass, the computer decides ----
    handled = seq  # the seq before the bid
    while "Landlord:" not in msg.text:
        msg = await wait_public(
            emu,
            lambda m, h=handled: "Landlord:" in m.text
            or (public_seq(m) > h and MENTION_RE.search(m.content) is not None),
            what="the end of bidding",
        )
        if "Landlord:" not in msg.text:
            handled = public_seq(msg)
            mention = int(MENTION_RE.search(msg.content).group(1))  # type: ignore[union-attr]
            who = alice if mention == alice.id else bob
            assert reply_text(await finished(await who.slash("ddz pass"))) == "You passed."

    # ---- playing: malformed and illegal text, typed out of turn ----
    msg = await turn_of_a_member(emu, members, after=public_seq(msg) - 1)
    p = alice if f"<@{alice.id}>" in msg.content else bob
    q = bob if p is alice else alice
    seq = public_seq(msg)
    view = await open_view(p)
    hand = cards_in_alt(view)
    replies = {
        text: only_reply(await finished(await p.slash("ddz play", cards=text)), p)
        for text in ("33Z", "hello", "33333", "3 4 5")
    }
    replies["q"] = only_reply(await finished(await q.slash("ddz play", cards="3")), q)

    assert replies["33Z"].startswith("I can't read the card “Z”"), replies
    assert replies["hello"].startswith("I can't read the card"), replies
    assert replies["33333"] == ("That is not a valid selection: the deck has only four cards of"
                                " each rank."), replies
    assert "not a combination" in replies["3 4 5"] or "You don't hold" in replies["3 4 5"]
    assert replies["q"] == NOT_YOUR_TURN
    again = await open_view(p)
    assert cards_in_alt(again) == hand and "It's your turn" in again.text, again.text
    assert public_seq(table_message(emu)) == seq  # type: ignore[arg-type]

    # ---- a double click on Play: one play (pass until a member can play) ----
    combo = choose(hand, to_beat_in(again))
    for _ in range(10):
        if combo is not None:
            break
        assert reply_text(await finished(await p.slash("ddz pass"))) == "You passed."
        msg = await turn_of_a_member(emu, members, after=public_seq(msg))
        p = alice if f"<@{alice.id}>" in msg.content else bob
        again = await open_view(p)
        hand = cards_in_alt(again)
        combo = choose(hand, to_beat_in(again))
    assert combo is not None, "no member could play in 10 turns"
    await select_cards_by_rank(p, again, combo.cards)
    play = hand_component(again, "play")["custom_id"]
    clicks = [await p.click(again, play, wait=False), await p.click(again, play, wait=False)]
    for ix in clicks:
        await finished(ix)
    after = await open_view(p)
    assert len(cards_in_alt(after)) == len(hand) - len(combo.cards), (combo, after.attachments)

    # ---- stop: only the starter (or an admin); a stopped hand adds no points ----
    refused_stop = await finished(await bob.slash("ddz stop"))
    stop = await finished(await alice.slash("ddz stop"))
    assert only_reply(refused_stop, bob) == (
        "Only the player who opened the table (or an admin) can do that."
    )
    assert only_reply(stop, alice) == "The hand was stopped; it adds no points."
    score = reply_text(await finished(await carol.slash("ddz score")))
    assert "No hands played yet." in score, score
    assert emu.errors == [] and emu.late_interactions() == []
    timing.record(emu)
