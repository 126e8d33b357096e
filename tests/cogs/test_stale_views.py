"""Stale hand-view components (old seq, finished hand) say so before anything else."""

from __future__ import annotations

import copy

from tests.support.fake_discord import FakeDiscord
from tests.support.fake_game import autoplayed_solo_hand, comp, deal_for, members, seated_hand

REFRESHED = "The table changed; this is the current view."


async def test_play_from_a_finished_hand_with_nothing_selected_says_the_view_is_stale(
        fake: FakeDiscord) -> None:
    fake.deal = {"hands": deal_for("XD2222AAAAKKKKQQQ", "QJJ"), "kitty": "QJJ", "first_bidder": 0}
    ana, _, _ = members(fake)
    await ana.slash("start", computers=2)
    await ana.click(fake.table_message(), "Start")
    await ana.click(fake.table_message(), "Bid 3")
    view = (await ana.click(fake.table_message(), "My hand")).last
    old = copy.deepcopy(view)  # the Play button of hand #1, nothing selected
    assert comp(old, "hplay").split(":")[3].startswith("hplay.0.")
    await ana.slash("autoplay", mode="on")
    await fake.idle()
    assert "hand #1 · result" in fake.table_message().content
    reply = await ana.click(old, comp(old, "hplay"))
    assert REFRESHED in reply.text and "Select some cards first." not in reply.text
    for verb in ("hpass", "hhint", "hr8", "hsort"):
        assert REFRESHED in (await ana.click(old, comp(old, verb))).text


async def test_an_old_play_button_mid_hand_is_refused_before_the_selection(fake: FakeDiscord) -> None:
    ana, bo, _ = await seated_hand(fake)
    await ana.click(fake.table_message(), "Bid 3")
    view = (await ana.click(fake.table_message(), "My hand")).last
    old = copy.deepcopy(view)  # drawn before Ana's lead, nothing selected
    assert (await ana.slash("play", cards="3")).text == "You played 3."
    reply = await ana.click(old, comp(old, "hplay"))
    assert REFRESHED in reply.text and "Select some cards first." not in reply.text
    table = fake.bot.service.table_in_channel(fake.channel_id)
    assert table.hand.landlord == 0 and table.hand.history[-1].kind == "play"
    assert table.hand.history[-1].seat == 0


async def test_an_old_rank_button_still_selects_in_the_current_hand(fake: FakeDiscord) -> None:
    ana, _, _ = await seated_hand(fake)
    view = (await ana.click(fake.table_message(), "My hand")).last
    old = copy.deepcopy(view)
    await ana.click(fake.table_message(), "Bid 3")
    view = (await ana.click(old, comp(old, "hr0"))).last
    assert view.alt_texts[0].endswith("Selected: 3") and REFRESHED not in view.content


async def test_a_result_redrawn_after_a_restart_keeps_the_match_totals(fake: FakeDiscord) -> None:
    await autoplayed_solo_hand(fake)
    result = fake.table_message()
    before, edits = result.content, result.edits
    assert "→ match total" in before
    cog = fake.bot.get_cog("ddz")
    cog.board.states.clear()  # a new process: nothing in memory but the stored table
    table = fake.bot.service.table_in_channel(fake.channel_id)
    await cog.redraw_restored([table.model_copy(deep=True)])
    await fake.idle()
    after = fake.messages[result.id]
    assert after.edits > edits and after.content == before
