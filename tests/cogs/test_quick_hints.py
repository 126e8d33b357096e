"""A Hint answers at once; the hard search's pick replaces it when it arrives in time."""

from __future__ import annotations

import asyncio

import pytest

import bot.service.hints as hints
from bot.ai import Decision
from bot.ai.choices import choices
from bot.game.table import Table
from bot.rules import format_cards, parse_cards
from cogs.hand_actions import hint_reason
from tests.support.fake_discord import FakeDiscord, Message
from tests.support.fake_game import answered, comp, seated_hand


class SlowSearch:
    """``hints.compute`` whose pick is the normal level's second suggestion, given once
    the test opens the gate (so the quick answer and the better one differ)."""

    def __init__(self) -> None:
        self.gate = asyncio.Event()

    async def __call__(self, table: Table, seat: int, pool: object = None) -> list[Decision]:
        await self.gate.wait()
        normal = list(choices(table.hand.observation(seat)).suggestions)
        return [normal[1], normal[0], *normal[2:]]


def selected(view: Message) -> str:
    """The selection the alt text names, in the compact notation (the alt text writes the
    cards one by one: docs/RULES.md §Notation)."""
    alt = view.alt_texts[0]
    return format_cards(parse_cards(alt.split("Selected: ")[1])) if "Selected: " in alt else ""


@pytest.fixture
def search(monkeypatch: pytest.MonkeyPatch) -> SlowSearch:
    slow = SlowSearch()
    monkeypatch.setattr(hints, "compute", slow)
    return slow


async def test_a_first_hint_shows_the_quick_pick_then_the_search_pick(
        fake: FakeDiscord, search: SlowSearch) -> None:
    ana, _, _ = await seated_hand(fake)
    await ana.click(fake.table_message(), "Bid 3")
    view = (await ana.click(fake.table_message(), "My hand")).last
    table = fake.bot.service.table_in_channel(fake.channel_id)
    normal = choices(table.hand.observation(0)).suggestions
    edits = fake.messages[view.id].edits
    fake.dispatch(ana.click_payload(view, comp(view, "hhint")))
    await answered(fake, view, edits)
    assert selected(fake.messages[view.id]) == format_cards(sorted(normal[0].action.cards))
    search.gate.set()
    await fake.idle()
    view = fake.messages[view.id]
    assert selected(view) == format_cards(sorted(normal[1].action.cards))
    assert comp(view, "hhint").endswith(".r1")  # one Hint shown: the next one cycles on
    view = (await ana.click(view, comp(view, "hhint"))).last
    assert selected(view) == format_cards(sorted(normal[0].action.cards))


async def test_a_member_who_moved_on_keeps_what_they_chose(
        fake: FakeDiscord, search: SlowSearch) -> None:
    ana, _, _ = await seated_hand(fake)
    await ana.click(fake.table_message(), "Bid 3")
    view = (await ana.click(fake.table_message(), "My hand")).last
    edits = fake.messages[view.id].edits
    fake.dispatch(ana.click_payload(view, comp(view, "hhint")))
    await answered(fake, view, edits)
    view = fake.messages[view.id]
    cleared = fake.messages[view.id].edits
    fake.dispatch(ana.click_payload(view, comp(view, "hclear")))
    await answered(fake, view, cleared)
    search.gate.set()
    await fake.idle()
    assert selected(fake.messages[view.id]) == ""  # the late pick did not come back


@pytest.mark.parametrize(("locale", "quick"), [
    ("en-US", "Quick look (the full search may change it): "),
    ("es-ES", "Vistazo rápido (la búsqueda completa puede cambiarlo): "),
])
async def test_a_quick_first_hint_says_it_is_the_quick_one(
        fake: FakeDiscord, search: SlowSearch, locale: str, quick: str) -> None:
    # the review makes the search's evaluation: a Hint shown before that search is done
    # is the normal level's pick, and says so (issue 37: Hint and review contradicted)
    ana, _, _ = await seated_hand(fake)
    await ana.click(fake.table_message(), "Bid 3")
    ana.locale = locale
    view = (await ana.click(fake.table_message(), "My hand")).last
    edits = fake.messages[view.id].edits
    fake.dispatch(ana.click_payload(view, comp(view, "hhint")))
    await answered(fake, view, edits)
    assert "💡 " + quick in fake.messages[view.id].content, fake.messages[view.id].content
    search.gate.set()
    await fake.idle()
    view = fake.messages[view.id]
    assert "💡" in view.content and quick not in view.content, view.content  # the search's
    view = (await ana.click(view, comp(view, "hhint"))).last  # the search is done now
    assert "💡" in view.content and quick not in view.content, view.content


@pytest.mark.parametrize("bid_from", ["hand view", "table message"])
async def test_a_hint_asked_while_bidding_leaves_the_first_plays_hint_first(
        fake: FakeDiscord, bid_from: str) -> None:
    # the input that showed it: Hint during the bidding, bid, then Hint on the first
    # play: it showed the second suggestion (the bidding's Hint had counted one)
    ana, _, _ = await seated_hand(fake)
    view = (await ana.click(fake.table_message(), "My hand")).last
    view = (await ana.click(view, comp(view, "hhint"))).last
    assert "💡" in view.content and comp(view, "hhint").endswith(".r1")
    if bid_from == "hand view":
        view = (await ana.click(view, comp(view, "hb3"))).last
    else:
        await ana.click(fake.table_message(), "Bid 3")
        await fake.idle()
        view = fake.messages[view.id]
    table = fake.bot.service.table_in_channel(fake.channel_id)
    assert table.hand.phase == "playing" and table.hand.turn == 0
    first = (await fake.bot.service.hint_options(table, 0))[0]
    view = (await ana.click(view, comp(view, "hhint"))).last
    assert selected(view) == format_cards(sorted(first.action.cards)), view.content
    assert comp(view, "hhint").endswith(".r1")


@pytest.mark.parametrize(("locale", "yours", "named"), [
    ("en-US", "On the table: 3 (single), yours.", "from Ana"),
    ("es-ES", "En la mesa: 3 (", "de Ana"),
])
async def test_a_members_own_play_on_the_table_is_yours_in_her_view(
        fake: FakeDiscord, locale: str, yours: str, named: str) -> None:
    # the input that showed it: Ana led 3 and her own view said "On the table: 3
    # (single) from Ana" while Bo was to answer it
    ana, _, _ = await seated_hand(fake)
    await ana.click(fake.table_message(), "Bid 3")
    assert (await ana.slash("play", cards="3")).text == "You played 3."
    ana.locale = locale
    view = (await ana.click(fake.table_message(), "My hand")).last
    assert yours in view.content and named not in view.content, view.content
    if locale == "es-ES":
        assert "), tuyo." in view.content, view.content


def test_the_bid_hint_writes_the_expected_points_the_members_way() -> None:
    # Issue 48: the bidding Hint explains itself in expected points, each language's way.
    decision = Decision(3, "bid_expected", {"bid": 3, "n": 42, "gain": "-1.0", "passing": "-1.2"})
    assert hint_reason(decision, "en") == (
        "Bid 3: as landlord this hand should win about 42% of the time; expected points a"
        " hand: −1.0 if you bid 3, −1.2 if you pass.")
    assert hint_reason(decision, "es") == (
        "Apuesta 3: como terrateniente esta mano ganaría cerca del 42% de las veces; puntos"
        " esperados por mano: −1,0 si apuestas 3, −1,2 si pasas.")
    passing = Decision(0, "bid_pass_expected", {"bid": 1, "n": 30, "gain": "-1.4",
                                                "passing": "+0.2"})
    assert hint_reason(passing, "en").endswith("expected points a hand: −1.4 if you bid 1,"
                                               " +0.2 if you pass.")
