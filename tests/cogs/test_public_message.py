"""cogs/public_message.py: what the public table message shows, without Discord."""

from __future__ import annotations

from bot.game.seat import Seat, computer_seat
from bot.game.table import Table
from bot.service.budget import COSMETIC, RESULT, TURN
from cogs.public_message import compose, retired


def lobby() -> Table:
    return Table(guild_id=1, channel_id=2, starter_id=11,
                 seats=[Seat(user_id=11, name="Ana"), computer_seat(1, "easy"), Seat()])


def labels(table: Table, lang: str = "en") -> list[str]:
    view = compose(table, lang).view
    assert view is not None
    return [c["label"] for row in view.to_components() for c in row["components"]]


def test_the_lobby_is_text_and_buttons_without_an_image() -> None:
    shown = compose(lobby(), "en")
    assert shown.key == ("lobby", 0) and shown.image is None and shown.ping is None
    assert shown.content.splitlines()[1:4] == ["Seat 1: Ana", "Seat 2: Bot 2 (computer, easy)",
                                               "Seat 3: — empty —"]
    assert labels(lobby()) == ["Join", "Leave", "Add computer", "Start", "Cancel",
                              "Seat given up → computer"]
    assert labels(lobby(), "es")[0] == "Unirse"
    assert shown.priority == COSMETIC


def test_a_deal_mentions_the_member_to_bid_and_draws_the_table() -> None:
    table = lobby()
    table.add_computer(11)
    table.start(11, 0.0, seed=7, first_bidder=0)
    shown = compose(table, "en")
    assert shown.key == ("hand", 1, 0) and shown.image == "table"
    assert shown.filename == "table.png" and f"Table {table.id}: Ana, 17 cards" in shown.alt
    assert shown.ping == 11 and "<@11>, your turn to bid" in shown.content
    assert shown.priority == TURN
    assert labels(table) == ["Pass", "Bid 1", "Bid 2", "Bid 3", "My hand", "Leave"]


def test_a_closed_table_has_no_buttons_and_goes_first() -> None:
    table = lobby()
    table.phase = "closed"
    shown = compose(table, "en")
    assert shown.key == ("closed",) and shown.view is None and shown.priority == RESULT


def test_the_member_to_act_is_mentioned_but_the_board_notifies_nobody() -> None:
    """Issue 35: the turn ping notifies (docs/RULES.md §Turn pings), never the board."""
    table = lobby()
    assert compose(table, "en").mentions.users is False  # nobody
    table.add_computer(11)
    table.start(11, 0.0, seed=7, first_bidder=0)
    shown = compose(table, "en")
    assert shown.ping == 11 and "<@11>" in shown.content
    mentions = shown.mentions
    assert (mentions.users, mentions.roles, mentions.everyone) == (False, False, False)


def test_a_message_left_behind_says_where_the_game_went_and_a_result_keeps_its_replay() -> None:
    table = lobby()
    table.add_computer(11)
    table.start(11, 0.0, seed=7, first_bidder=0)
    text, keep = retired(table, ("lobby", 0), ("hand", 1, 0), "en", None)
    assert text == (f"**Dou Dizhu** · table `{table.id}`\n"
                    "The cards were dealt: the hand goes on in a new message below.")
    assert keep is None
    text, _ = retired(table, ("hand", 1, 0), ("hand", 1, 1), "es", None)  # dealt again
    assert text == (f"**Dou Dizhu** · mesa `{table.id}`\n"
                    "La mano sigue en un mensaje nuevo más abajo.")
    text, keep = retired(table, ("hand", 1, 1), ("lobby", 1), "en", 41)  # a result
    assert text is None and keep is not None
    assert [c["label"] for row in keep.to_components() for c in row["components"]] == [
        "Replay", "Review my play"]
    assert retired(table, None, ("hand", 1, 0), "en", None) == (None, None)
