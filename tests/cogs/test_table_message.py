"""cogs/table_message.py: one state of a table onto its public message (new or edit),
the previous message retired only after the new one's id is saved."""

from __future__ import annotations

from typing import Any

from bot.game.seat import Seat, computer_seat
from bot.game.table import Table
from bot.service.budget import RESULT, TURN
from cogs.table_message import Shown, TableMessages


class Out:
    """Delivery's side of it: every request, and every id saved, in one log."""

    def __init__(self) -> None:
        self.log: list[tuple[Any, ...]] = []
        self.ids = iter(range(100, 200))

    async def send(self, channel_id: int, guild_id: int, priority: int, **kwargs: Any) -> int:
        message_id = next(self.ids)
        self.log.append(("send", message_id, priority, kwargs["content"].splitlines()[0],
                         [f.filename for f in kwargs.get("files", [])]))
        return message_id

    async def edit(self, channel_id: int, message_id: int, priority: int = RESULT,
                   **kwargs: Any) -> bool:
        self.log.append(("edit", message_id, priority, kwargs.get("content"),
                         kwargs.get("view")))
        return True

    def forget_message(self, message_id: int) -> None:
        self.log.append(("forget", message_id))

    async def set_message_id(self, table_id: str, message_id: int) -> None:
        self.log.append(("saved", message_id))

    async def settings(self, guild_id: int) -> Any:
        raise AssertionError("the language comes from ServerLanguages")

    async def language(self, guild_id: int) -> str:
        return "en"

    async def table(self, view: Any, *, locale: str = "en") -> bytes:
        return b"png"

    result = table


def messages(out: Out) -> TableMessages:
    return TableMessages(out, out, out, out)  # type: ignore[arg-type]  # one fake of all four


def lobby() -> Table:
    return Table(guild_id=1, channel_id=2, starter_id=11,
                 seats=[Seat(user_id=11, name="Ana"), computer_seat(1, "easy"), Seat()])


async def test_a_state_of_the_same_message_is_an_edit_and_a_new_key_a_new_message() -> None:
    out, shown, table = Out(), Shown(), lobby()
    await messages(out).show(table, shown)
    assert out.log == [("send", 100, RESULT, f"**Dou Dizhu** · table `{table.id}` · waiting for "
                        "players", []), ("saved", 100)]
    assert (shown.message_id, shown.key) == (100, ("lobby", 0))
    table.add_computer(11)
    await messages(out).show(table, shown)  # the lobby, full: an edit of the same message
    assert out.log[-1][:2] == ("edit", 100) and len(out.log) == 3
    out.log.clear()
    table.start(11, 0.0, seed=7, first_bidder=0)
    await messages(out).show(table, shown)  # the deal: a new message, then the lobby retired
    assert [e[:2] for e in out.log] == [("send", 101), ("saved", 101), ("edit", 100),
                                        ("forget", 100)]
    assert out.log[0][4] == ["table.png"]
    retired = out.log[2]
    assert retired[3].endswith("The cards were dealt: the hand goes on in a new message below.")
    assert retired[4] is None  # no buttons left
    assert (shown.message_id, shown.key) == (101, ("hand", 1, 0))
    await messages(out).show(table, shown)
    assert out.log[-1][:3] == ("edit", 101, TURN)  # Ana to bid: a turn change


async def test_a_closed_table_clears_its_message_once() -> None:
    out, shown, table = Out(), Shown(message_id=100, key=("lobby", 0)), lobby()
    table.phase = "closed"
    await messages(out).show(table, shown)
    assert out.log == [("edit", 100, RESULT, out.log[0][3], None)] and shown.key == ("closed",)
    assert out.log[0][3].startswith("**Dou Dizhu**")
    await messages(out).show(None, Shown())  # gone from the service, never posted: nothing
    assert len(out.log) == 1
