"""Hint suggestions are computed once per position; unchanged hand images are not redrawn."""

from __future__ import annotations

import random
from typing import Any

import pytest

import bot.service.hints as hints
import cogs.hand_view as hand_view
from bot.ai import HINT_STEP_BUDGET, search
from bot.ai.players import HINT_EVALUATION
from bot.ai.search import hard_play
from bot.ai.view import view_of
from bot.game.computer import table_hint_options
from bot.game.hand import Hand
from bot.game.table import Table
from bot.rules import DEFAULT_RULES, spaced_cards
from tests.support.fake_discord import FakeDiscord, Member
from tests.support.fake_game import HANDS, KITTY, comp, seated_hand


async def test_cycling_hints_computes_the_suggestions_once(
        fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, int]] = []
    computed: list[list[Any]] = []
    original = hints.compute

    async def counting(table: Any, seat: int, pool: Any = None) -> list[Any]:
        calls.append((table.id, table.seq))
        computed.append(await original(table, seat, pool))
        return computed[-1]

    monkeypatch.setattr(hints, "compute", counting)
    fake.bot.service.hints.clear()
    ana, _, _ = await seated_hand(fake)
    await ana.click(fake.table_message(), "Bid 3")
    view = (await ana.click(fake.table_message(), "My hand")).last
    table = fake.bot.service.table_in_channel(fake.channel_id)
    picks = []
    for _ in range(3):
        view = (await ana.click(view, comp(view, "hhint"))).last
        picks.append(view.alt_texts[0].split("Selected: ")[1])
    assert calls == [(table.id, table.seq)]
    # the picks follow the one computed list (comparing with a second search would
    # depend on the wall-clock cap of the hard search on a loaded machine)
    assert picks == [spaced_cards(sorted(d.action.cards)) for d in computed[0][:3]]
    assert comp(view, "hplay").endswith(".r3")


def test_suggestions_start_with_the_search_pick_then_the_normal_ranking(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "TIME_CAP", float("inf"))  # both searches run to their budget
    hand = Hand.deal(DEFAULT_RULES, hands=HANDS, kitty=KITTY, first_bidder=0)
    hand.bid(0, 3)
    table = Table(guild_id=1, channel_id=2, starter_id=3, phase="playing", hand=hand, hand_no=1)
    options = table_hint_options(table, 0)
    view = view_of(hand.observation(0))
    first = hard_play(view, random.Random(0), step_budget=HINT_STEP_BUDGET,
                      evaluation=HINT_EVALUATION)
    assert options[0].action == first.action
    plays = [d.action for d in options]
    assert len(plays) == len(set(plays)) > 3 and None not in plays  # free lead: no pass
    assert all(d.reason for d in options)


async def counter_off(fake: FakeDiscord) -> None:
    admin = Member(fake, 99, "Admin", admin=True)
    reply = await admin.slash("config", counter="off")
    assert "Card counter: off" in reply.last.embeds[0]["description"]


async def test_another_players_move_refreshes_the_text_but_not_the_image(
        fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> None:
    await counter_off(fake)  # with the counter, a turned-up kitty changes the image
    ana, bo, _ = await seated_hand(fake)
    view = (await bo.click(fake.table_message(), "My hand")).last
    alt = view.alt_texts
    drawn: list[tuple[Any, ...]] = []
    original = hand_view.render_hand_cached

    def counting(cards: Any, **kwargs: Any) -> bytes:
        drawn.append(tuple(cards))
        return original(cards, **kwargs)

    monkeypatch.setattr(hand_view, "render_hand_cached", counting)
    await ana.click(fake.table_message(), "Bid 3")
    await fake.idle()
    view = fake.messages[view.id]
    assert "Peasant" in view.content or "peasant" in view.content
    assert view.alt_texts == alt and drawn == []
    view = (await bo.click(view, comp(view, "hr0"))).last
    assert len(drawn) == 1 and view.alt_texts[0].endswith("Selected: 3")


async def test_with_the_counter_a_bid_redraws_nothing_but_the_turned_up_kitty_does(
        fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> None:
    ana, bo, _ = await seated_hand(fake)
    view = (await bo.click(fake.table_message(), "My hand")).last
    drawn: list[tuple[Any, ...]] = []
    original = hand_view.render_hand_cached

    def counting(cards: Any, **kwargs: Any) -> bytes:
        drawn.append(kwargs["counter"])
        return original(cards, **kwargs)

    monkeypatch.setattr(hand_view, "render_hand_cached", counting)
    await ana.click(fake.table_message(), "Bid 1")  # nothing new seen: same image
    await fake.idle()
    assert drawn == []
    await bo.click(fake.table_message(), "Bid 3")  # Bo is landlord: the kitty 2XD is seen
    await fake.idle()
    view = fake.messages[view.id]
    assert len(drawn) == 1 and drawn[0][12:] == (2, 0, 0)  # 2s, small joker, big joker
    assert view.alt_texts[0].endswith(", 2×2"), view.alt_texts


async def test_a_click_at_a_ranked_position_draws_without_asking_for_the_ranking_again(
        fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> None:
    ana, _, _ = await seated_hand(fake)
    await ana.click(fake.table_message(), "Bid 3")
    view = (await ana.click(fake.table_message(), "My hand")).last
    service = fake.bot.service
    table = service.table_in_channel(fake.channel_id)
    ranked = service.ranked_known(table, 0)
    assert ranked is not None and ranked.plays  # "My hand" ranked Ana's lead
    asked: list[int] = []
    original = service.ranked

    async def counting(table: Any, seat: int, urgent: bool = False) -> Any:
        asked.append(seat)
        return await original(table, seat, urgent)

    monkeypatch.setattr(service, "ranked", counting)
    view = (await ana.click(view, comp(view, "hr0"))).last
    assert asked == []
    assert view.alt_texts[0].endswith("Selected: 3")  # the new selection was drawn
    menu = [c for row in view.components for c in row["components"] if c["type"] == 3]
    assert len(menu[0]["options"]) == 20  # the card menu: one option per card held


async def test_only_the_member_to_play_has_the_position_ranked(fake: FakeDiscord) -> None:
    # Issue 54: ranking the legal plays (for the Hint) of a view nobody can play from
    # was a sixth of the render workers' CPU. Bo opens his hand while bidding, then
    # waits while Ana leads: neither position is ranked, and his card menu counts no
    # plays (off-turn what beats the table now is not what he will be asked, sandbox).
    ana, bo, _ = await seated_hand(fake)
    service = fake.bot.service
    bo_view = (await bo.click(fake.table_message(), "My hand")).last
    table = service.table_in_channel(fake.channel_id)
    assert service.ranked_known(table, 1) is None  # bidding: no ranking for the view
    await ana.click(fake.table_message(), "Bid 3")
    await fake.idle()
    table = service.table_in_channel(fake.channel_id)
    assert table.turn_seat == 0 and table.hand.phase == "playing"
    bo_view = fake.messages[bo_view.id]
    assert service.ranked_known(table, 1) is None  # Bo's refreshed view: not his turn
    menu = [c for row in bo_view.components for c in row["components"] if c["type"] == 3]
    assert menu and menu[0]["placeholder"] == "Choose cards for your turn…"
    await ana.click(fake.table_message(), "My hand")
    ranked = service.ranked_known(table, 0)
    assert ranked is not None and ranked.plays  # Ana is to play: her Hint is ready
