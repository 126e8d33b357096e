"""A hand-view button is refused as out of date only when what it acts on changed
(issue 12 item 4): another seat's auto-play toggle, leaving, coming back or view
refresh leaves it valid; a double click still applies once; a select value naming
cards the member does not hold is refused with the reason."""

from __future__ import annotations

import copy
from collections.abc import Awaitable, Callable

import pytest

from tests.support.fake_discord import FakeDiscord, Member
from tests.support.fake_game import comp, members, pick_id, three_members_ana_leads
from tests.support.forge import forge_click, table_of

REFRESHED = "The table changed; this is the current view."
REFRESHED_ES = "La mesa ha cambiado; esta es la vista actual."


async def three_members_bidding(fake: FakeDiscord) -> tuple[Member, Member, Member]:
    """Ana, Bo and Cy seated in that order; the hand is dealt, Ana bids first."""
    ana, bo, cy = members(fake)
    await ana.slash("start")
    await bo.click(fake.table_message(), "Join")
    await cy.click(fake.table_message(), "Join")
    await ana.click(fake.table_message(), "Start")
    return ana, bo, cy


async def cy_autoplay_slash(fake: FakeDiscord, cy: Member) -> None:
    assert "Auto-play is on" in (await cy.slash("autoplay", mode="on")).text


async def cy_autoplay_button(fake: FakeDiscord, cy: Member) -> None:
    view = (await cy.slash("hand")).last
    view = (await cy.click(view, comp(view, "ha1"))).last
    assert "one move every 2 s" in view.content


async def cy_autoplay_on_and_off(fake: FakeDiscord, cy: Member) -> None:
    await cy.slash("autoplay", mode="on")
    assert "Auto-play is off" in (await cy.slash("autoplay", mode="off")).text


async def cy_refreshes_her_view(fake: FakeDiscord, cy: Member) -> None:
    await cy.slash("hand")


async def cy_leaves_and_comes_back(fake: FakeDiscord, cy: Member) -> None:
    table = table_of(fake)
    message = fake.table_message()
    await forge_click(cy, message, f"ddz:{table.id}:{table.seq}:leave")
    assert table_of(fake).seats[2].away
    await forge_click(cy, message, f"ddz:{table.id}:{table_of(fake).seq}:join")
    assert not table_of(fake).seats[2].away


NON_MOVES: dict[str, Callable[[FakeDiscord, Member], Awaitable[None]]] = {
    "auto-play on (command)": cy_autoplay_slash,
    "auto-play on (Auto button)": cy_autoplay_button,
    "auto-play on then off": cy_autoplay_on_and_off,
    "her own view refresh": cy_refreshes_her_view,
    "leaving and coming back": cy_leaves_and_comes_back,
}


@pytest.mark.parametrize("action", list(NON_MOVES))
async def test_the_player_in_turn_plays_from_a_view_drawn_before_another_seats_action(
        fake: FakeDiscord, action: str) -> None:
    ana, _, cy = await three_members_ana_leads(fake)
    view = (await ana.slash("hand")).last
    view = (await ana.click(view, comp(view, "hr0"))).last  # one 3 selected
    old = copy.deepcopy(view)
    seq = table_of(fake).seq
    await NON_MOVES[action](fake, cy)
    assert table_of(fake).seq >= seq  # the table may have changed…
    reply = await ana.click(old, comp(old, "hplay"))  # …but not what Play acts on
    assert REFRESHED not in reply.text and "You played 3." in reply.text, reply.text
    hand = table_of(fake).hand
    assert [(a.seat, a.combo.notation) for a in hand.history if a.kind == "play"] == [(0, "3")]


async def test_a_public_bid_button_stays_valid_after_another_seat_turns_auto_play_on(
        fake: FakeDiscord) -> None:
    ana, bo, cy = await three_members_bidding(fake)
    deal = copy.deepcopy(fake.table_message())
    await bo.slash("autoplay", mode="on")
    reply = await ana.click(deal, "Bid 1")
    assert "out of date" not in reply.text
    assert table_of(fake).hand.bids[0] == (0, 1)


async def test_a_double_click_on_play_plays_once(fake: FakeDiscord) -> None:
    ana, _, _ = await three_members_ana_leads(fake)
    view = (await ana.slash("hand")).last
    view = (await ana.click(view, comp(view, "hr0"))).last
    first, second = copy.deepcopy(view), copy.deepcopy(view)
    assert "You played 3." in (await ana.click(first, comp(first, "hplay"))).text
    assert REFRESHED in (await ana.click(second, comp(second, "hplay"))).text
    hand = table_of(fake).hand
    assert [a.combo.notation for a in hand.history if a.kind == "play"] == ["3"]


async def test_a_double_click_on_pass_passes_once(fake: FakeDiscord) -> None:
    ana, bo, _ = await three_members_ana_leads(fake)
    await ana.slash("play", cards="3")
    view = (await bo.slash("hand")).last
    first, second = copy.deepcopy(view), copy.deepcopy(view)
    assert "You passed." in (await bo.click(first, comp(first, "hpass"))).text
    assert REFRESHED in (await bo.click(second, comp(second, "hpass"))).text
    hand = table_of(fake).hand
    assert [a.kind for a in hand.history if a.kind != "bid"] == ["play", "pass"]
    assert hand.turn == 2


async def test_a_double_click_on_auto_leaves_auto_play_on(fake: FakeDiscord) -> None:
    _, bo, _ = await three_members_ana_leads(fake)
    view = (await bo.slash("hand")).last
    first, second = copy.deepcopy(view), copy.deepcopy(view)
    await bo.click(first, comp(first, "ha1"))
    reply = await bo.click(second, comp(second, "ha1"))
    assert "Auto-play is on" in reply.text and REFRESHED not in reply.text
    assert table_of(fake).seats[1].autoplay
    assert comp(reply.last, "ha0")  # the view now offers to turn it off


async def test_a_double_click_on_a_public_bid_bids_once(fake: FakeDiscord) -> None:
    ana, bo, cy = await three_members_bidding(fake)
    deal = copy.deepcopy(fake.table_message())
    await ana.click(deal, "Bid 1")
    reply = await ana.click(deal, "Bid 1")
    assert reply.text == "That button is out of date: the table has moved on."
    assert table_of(fake).hand.bids == [(0, 1)]


@pytest.mark.parametrize("locale,expected", [("en-US", "You don't hold "),
                                             ("es-ES", "No tienes ")])
async def test_a_select_value_naming_cards_not_held_is_refused_with_the_reason(
        fake: FakeDiscord, locale: str, expected: str) -> None:
    ana, _, _ = await three_members_ana_leads(fake, locale)
    view = (await ana.slash("hand")).last
    table = table_of(fake)
    mine = {c.index for c in table.hand.hand_of(0)}
    other = next(c for c in table.hand.hand_of(1))
    forged = str(other.index)  # one card of Bo's, as a card-menu value
    assert other.index not in mine
    reply = await forge_click(ana, view, pick_id(view), [forged])
    assert expected in reply.text, reply.text
    assert (REFRESHED if locale == "en-US" else REFRESHED_ES) not in reply.text
    assert ana.locale == locale
    assert "Selected" not in reply.last.alt_texts[0] and "Seleccionadas" not in reply.last.alt_texts[0]
