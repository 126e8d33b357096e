"""Forged private hand-view custom_ids (``ddz:<table>:<seq>:h<verb>.<mask36>.<r|g><hints>``)
and select values. Only the clicker's own cards can ever be selected or played; nobody
sees another player's hand; every refusal is a polite ephemeral notice."""

from __future__ import annotations

import pytest

from bot.rules import spaced_cards
from cogs.items import to_base36
from tests.support.fake_discord import FakeDiscord, Member, Message
from tests.support.fake_game import comp
from tests.support.forge import (
    assert_polite,
    dispatch,
    forge_click,
    playing_hand,
    seated_hand,
    snapshot,
    table_of,
    visible_text,
    with_seq,
    with_state,
    with_verb,
)

NOT_SEATED = "You're not seated at this table."


def hand_text(fake: FakeDiscord, seat: int) -> str:
    """The seat's hand as its hand view's alt text writes it (one by one, ten as ``10``)."""
    return spaced_cards(table_of(fake).hand.hand_of(seat))


def selected(view: Message) -> str:
    """The selection mask (base 36) carried by the view's Play button."""
    return comp(view, "hplay").split(":")[3].split(".")[1]


async def ana_view(fake: FakeDiscord, ana: Member) -> Message:
    return (await ana.click(fake.table_message(), "My hand")).last


async def own_ephemeral(member: Member) -> Message:
    """A message only ``member`` sees (their /ddz rules answer) to hang forged ids on."""
    return (await member.slash("rules")).last


ENORMOUS = [
    f"{'z' * 11}.r0",                      # 36**11 - 1 > 2**54: bits beyond the deck
    f"{'z' * 80}.g0",                      # over-long mask
    "0.r" + "9" * 80,                      # enormous hint counter
    "1ekf.r999999999",                     # hint counter beyond the clamp
]


async def test_enormous_masks_and_counters_select_only_own_cards(fake: FakeDiscord) -> None:
    ana, _, _ = await playing_hand(fake)
    view = await ana_view(fake, ana)
    held = {c.index for c in table_of(fake).hand.hand_of(0)}
    before = await snapshot(fake)
    for state in ENORMOUS:
        for verb in ("r0", "hint", "pick"):
            custom_id = with_state(with_verb(comp(view, "hr0"), verb), state)
            values = [state.split(".")[0]] if verb == "pick" else None
            reply = await forge_click(ana, view, custom_id, values)
            assert_polite(reply)
            mask = int(selected(reply.last), 36)
            assert {i for i in range(64) if mask >> i & 1} <= held
    assert await snapshot(fake) == before


async def test_malformed_view_state_changes_nothing(fake: FakeDiscord) -> None:
    ana, _, _ = await playing_hand(fake)
    view = await ana_view(fake, ana)
    before = await snapshot(fake)
    for state in ("ZZ.r0", "-1.r0", "0x1f.r0", ".r0", "1.x0", "1.r-1", "1.r"):
        for verb in ("play", "r0", "pick"):
            dispatch(ana, view, with_state(with_verb(comp(view, "hr0"), verb), state),
                     ["1"] if verb == "pick" else None)
    await fake.idle()
    assert await snapshot(fake) == before


async def test_a_mask_of_another_seats_cards_plays_nothing_and_shows_nothing(
        fake: FakeDiscord) -> None:
    ana, bo, _ = await playing_hand(fake)
    view = await ana_view(fake, ana)
    bo_cards = table_of(fake).hand.hand_of(1)
    bo_mask = sum(1 << c.index for c in bo_cards)
    forged = with_state(comp(view, "hplay"), f"{to_base36(bo_mask)}.r0")
    before = await snapshot(fake)
    reply = await forge_click(ana, view, forged)
    assert_polite(reply, "Select some cards first.")
    assert await snapshot(fake) == before
    assert selected(reply.last) == "0"
    reply = await forge_click(ana, view, comp(view, "hcards"), [str(c.index) for c in bo_cards])
    assert_polite(reply)
    assert selected(reply.last) == "0" and "Selected:" not in reply.last.alt_texts[0]
    assert await snapshot(fake) == before


async def test_a_reading_index_out_of_range_is_refused(fake: FakeDiscord) -> None:
    ana, _, _ = await playing_hand(fake)
    view = await ana_view(fake, ana)
    view = (await ana.click(view, comp(view, "hr0"))).last
    view = (await ana.click(view, comp(view, "hr1"))).last  # 34: not a combination
    before = await snapshot(fake)
    for verb in ("rd99", "rd5", "rd0", "rd٣", "rd" + "9" * 60):
        reply = await forge_click(ana, view, with_verb(comp(view, "hplay"), verb))
        assert_polite(reply, "That reading of the cards is not possible.")
    assert await snapshot(fake) == before


async def test_unknown_hand_verbs_do_nothing(fake: FakeDiscord) -> None:
    ana, _, _ = await playing_hand(fake)
    view = await ana_view(fake, ana)
    before = await snapshot(fake)
    for verb in ("r99", "r15", "r00000", "zap", "b", "bid1", "playx", "rd"):
        reply = await forge_click(ana, view, with_verb(comp(view, "hr0"), verb))
        assert_polite(reply)
    assert await snapshot(fake) == before


async def test_a_forged_bid_out_of_range_is_refused(fake: FakeDiscord) -> None:
    ana, _, _ = await seated_hand(fake)
    view = await ana_view(fake, ana)
    before = await snapshot(fake)
    for verb in ("b4", "b99999999999999999999", "b10"):
        reply = await forge_click(ana, view, with_verb(comp(view, "hb1"), verb))
        assert_polite(reply, "is not a valid bid (pass, 1, 2 or 3).")
    assert await snapshot(fake) == before


async def test_a_forged_bid_while_playing_and_a_pass_on_the_lead_are_refused(
        fake: FakeDiscord) -> None:
    ana, bo, _ = await playing_hand(fake)
    view = await ana_view(fake, ana)
    before = await snapshot(fake)
    assert_polite(await forge_click(ana, view, with_verb(comp(view, "hr0"), "b3")),
                  "That can't be done at this point of the hand.")
    assert_polite(await forge_click(ana, view, comp(view, "hpass")),
                  "You lead this round, so you can't pass")
    bo_view = (await bo.click(fake.table_message(), "My hand")).last
    lowest = table_of(fake).hand.hand_of(1)[0].index  # Bo's own card, but not his turn
    forged = with_state(comp(bo_view, "hplay"), f"{to_base36(1 << lowest)}.r0")
    assert_polite(await forge_click(bo, bo_view, forged), "It's not your turn.")
    assert await snapshot(fake) == before


async def test_select_values_not_offered_only_change_the_selection(fake: FakeDiscord) -> None:
    ana, _, _ = await playing_hand(fake)
    view = await ana_view(fake, ana)
    before = await snapshot(fake)
    for values in ([], ["1", "2"], ["0"], ["3"], ["zzzzzzzzzzz"], ["１"], ["53", "53"],
                   [str(i) for i in range(25)], ["-1"], ["54"]):
        reply = await forge_click(ana, view, comp(view, "hcards"), values)
        assert_polite(reply)
    assert await snapshot(fake) == before


@pytest.mark.parametrize("value", ["zz!", "z" * 5000], ids=["zz!", "z*5000"])
async def test_a_select_value_that_is_not_a_mask_gets_a_clear_answer(fake: FakeDiscord,
                                                                     value: str) -> None:
    ana, _, _ = await playing_hand(fake)
    view = await ana_view(fake, ana)
    before = await snapshot(fake)
    reply = await forge_click(ana, view, comp(view, "hcards"), [value])
    assert await snapshot(fake) == before
    assert_polite(reply)


async def test_an_outsider_with_copied_hand_ids_sees_no_hand(fake: FakeDiscord) -> None:
    ana, _, cy = await playing_hand(fake)
    view = await ana_view(fake, ana)
    view = (await ana.click(view, comp(view, "hr0"))).last
    secret = hand_text(fake, 0)
    own = await own_ephemeral(cy)
    before = await snapshot(fake)
    for custom_id in view.custom_ids():
        values = [view.components[0]["components"][0]["options"][0]["value"]] \
            if ":hcards." in custom_id else None
        reply = await forge_click(cy, own, custom_id, values)
        assert_polite(reply, NOT_SEATED)
        for message in reply.messages:
            assert not message.attachments and secret not in visible_text(message)
    for stale in (with_seq(comp(view, "hplay"), 0), with_seq(comp(view, "hr0"), 10**40)):
        assert_polite(await forge_click(cy, own, stale), NOT_SEATED)
    assert await snapshot(fake) == before


async def test_a_seated_player_with_copied_ids_sees_only_their_own_hand(
        fake: FakeDiscord) -> None:
    ana, bo, _ = await playing_hand(fake)
    view = await ana_view(fake, ana)
    view = (await ana.click(view, comp(view, "hhint"))).last
    secret, bos = hand_text(fake, 0), hand_text(fake, 1)
    own = (await bo.click(fake.table_message(), "My hand")).last
    before = await snapshot(fake)
    for custom_id in view.custom_ids():
        if ":hpick." in custom_id or ":ha1." in custom_id or ":ha0." in custom_id:
            continue  # Auto toggles the clicker's own seat: allowed
        reply = await forge_click(bo, own, custom_id)
        assert_polite(reply)
        for message in reply.messages:
            text = visible_text(message)
            assert secret not in text
            assert all(bos in alt for alt in message.alt_texts), message.alt_texts
    assert await snapshot(fake) == before
