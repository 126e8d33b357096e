"""cogs/board.py with a render backlog: a hand's moves wait longer between two redraws
of the table's message (``Renderer.board_interval``) and for room in the backlog
(``Renderer.board_room``) before the board reads its table, the message still ends on
the latest state, and a hand's result is drawn at the base pace, never skipped
(docs/PERFORMANCE.md §Fewer table images while the render backlog is long)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.game.table import Table
from bot.service.pool import WorkerPool
from bot.service.renderer import BOARD_MAX_INTERVAL, board_interval
from tests.support.fake_discord import FakeDiscord, Member, Message
from tests.support.fake_game import answered, autoplayed_solo_hand, comp, members, seated_hand
from tests.support.menu_play import card_values

BASE = 0.1
"""The board's base interval in these tests (seconds)."""


def test_the_wait_grows_with_the_backlog_from_ten_calls_up_to_four_seconds() -> None:
    assert [board_interval(1.0, n) for n in (0, 10, 11, 110, 310, 800, 5000)] == \
        pytest.approx([1.0, 1.0, 1.01, 2.0, 4.0, 4.0, 4.0])
    assert board_interval(0.1, 60) == pytest.approx(0.6)
    assert board_interval(6.0, 800) == 6.0  # a base above the cap stays the base
    assert BOARD_MAX_INTERVAL == 4.0


def test_queued_counts_the_calls_waiting_in_the_backlog() -> None:
    pool = WorkerPool("render", 0)
    assert pool.queued == 0
    pool._backlog[0].extend([(1, b"", None, None)] * 2)  # type: ignore[list-item]
    pool._backlog[1].extend([(2, b"", None, None)] * 5)  # type: ignore[list-item]
    assert pool.queued == 7


def shows(fake: FakeDiscord) -> list[tuple[float, int, str]]:
    """Each state the board puts on the table's message: (loop time, seq, phase)."""
    board = fake.bot.get_cog("ddz").board
    board.interval = BASE
    drawn: list[tuple[float, int, str]] = []
    show = board.messages.show

    async def recorded(table: Table | None, *args: Any, **kwargs: Any) -> None:
        if table is not None:
            drawn.append((asyncio.get_running_loop().time(), table.seq, table.phase))
        await show(table, *args, **kwargs)

    board.messages.show = recorded
    return drawn


def backlog(monkeypatch: pytest.MonkeyPatch, calls: int) -> None:
    """The render workers' backlog holds ``calls`` calls from now on."""
    monkeypatch.setattr(WorkerPool, "queued", property(lambda _: calls))


@pytest.mark.parametrize(("calls", "wait", "within"), [(0, BASE, 0.55), (60, 0.6, 1.5)])
async def test_a_bid_after_a_redraw_waits_the_interval_the_backlog_gives(
        fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch, calls: int, wait: float,
        within: float) -> None:
    """``within``: a bound a loaded machine keeps (0.55 s: shorter than the 0.6 s wait)."""
    ana, _, _ = await seated_hand(fake)
    drawn = shows(fake)
    backlog(monkeypatch, calls)
    await ana.click(fake.table_message(), "Bid 1")
    await fake.idle()
    service = fake.bot.service
    table = service.table_in_channel(fake.channel_id)
    assert table is not None and drawn[-1][1] == table.seq
    first = drawn[-1][0]
    await service.bid(table.id, 22, 2)  # Bo bids at once; the computer answers
    await fake.idle()
    later = [t - first for t, _, _ in drawn if t > first]
    assert later, drawn
    assert wait - 0.02 <= later[0] < within, (later, wait)  # 0.1 s, or 0.6 s
    table = service.get(table.id)
    assert table is not None and drawn[-1][1] == table.seq  # the last state wins
    assert "Bo" in fake.table_message().content  # Bo's bid of 2 shows
    assert "2" in fake.table_message().content


async def test_the_result_is_drawn_at_the_base_pace_even_with_a_long_backlog(
        fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> None:
    """Auto-play ends the hand within a board's long wait (800 calls queued: 4 s): the
    result wakes it and shows a base interval after the last redraw, and the next deal
    does not replace it unseen."""
    drawn = shows(fake)
    board = fake.bot.get_cog("ddz").board
    notify = board.notify
    ended: list[float] = []

    def noted(table: Table, *args: Any, **kwargs: Any) -> None:
        if table.phase == "finished" and not ended:
            ended.append(asyncio.get_running_loop().time())
        notify(table, *args, **kwargs)

    board.notify = noted
    backlog(monkeypatch, 800)
    assert fake.bot.renderer.board_interval(BASE) == BOARD_MAX_INTERVAL
    ana = await autoplayed_solo_hand(fake)
    result = fake.table_message()
    assert "result" in result.content, result.content
    finished = [t for t, _, phase in drawn if phase == "finished"]
    playing = [t for t, _, phase in drawn if phase == "playing"]
    assert ended and finished and playing
    assert finished[0] - ended[0] < 2.0, (finished[0] - ended[0])  # not the 4 s wait
    assert finished[0] - playing[-1] < 2.0
    await ana.click(result, "Play again")  # the next deal: a new message
    await fake.idle()
    assert fake.table_message().id != result.id
    assert "result" in fake.messages[result.id].content  # the old one keeps the result


async def test_the_results_image_goes_ahead_of_the_table_images(fake: FakeDiscord) -> None:
    pool = fake.bot.renderer.pool
    run = pool.run
    calls: list[tuple[str, bool]] = []

    async def recorded(fn: Any, *args: Any, urgent: bool = False, **kwargs: Any) -> Any:
        calls.append((fn.__name__, urgent))
        return await run(fn, *args, urgent=urgent, **kwargs)

    pool.run = recorded
    await autoplayed_solo_hand(fake)
    assert "result" in fake.table_message().content
    assert ("_draw_result", True) in calls
    assert ("_draw_table", False) in calls and ("_draw_table", True) not in calls


async def test_a_join_in_the_lobby_waits_longer_too(
        fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> None:
    ana, bo, _ = members(fake)
    drawn = shows(fake)
    backlog(monkeypatch, 60)  # 0.6 s
    await ana.slash("start")
    await bo.click(fake.table_message(), "Join")
    await fake.idle()
    assert [phase for _, _, phase in drawn] == ["lobby", "lobby"]
    assert 0.58 <= drawn[1][0] - drawn[0][0] < 1.5, drawn
    assert "Bo" in fake.table_message().content


async def test_moves_made_while_a_board_waits_for_room_show_in_its_one_image(
        fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> None:
    """The render backlog is full: the board waits for room (``Renderer.board_room``)
    before it reads the table, so Bo's bid and the computer's answer, made meanwhile,
    show in the same image as Ana's bid."""
    ana, _, _ = await seated_hand(fake)
    drawn = shows(fake)
    room = asyncio.Event()
    waited: list[int] = []

    async def board_room() -> None:
        waited.append(1)
        await room.wait()

    monkeypatch.setattr(fake.bot.renderer, "board_room", board_room)
    service = fake.bot.service
    table = service.table_in_channel(fake.channel_id)
    assert table is not None
    await service.bid(table.id, ana.id, 1)  # (a click waits for the board to be idle)
    for _ in range(100):
        if waited:
            break
        await asyncio.sleep(0.01)
    assert waited == [1] and drawn == []
    await service.bid(table.id, 22, 2)  # Bo, while the board waits for room
    await asyncio.sleep(0.2)
    room.set()
    await fake.idle()
    table = service.get(table.id)
    assert table is not None
    assert [seq for _, seq, _ in drawn] == [table.seq]  # one image, the newest state
    assert "Bo" in fake.table_message().content


PLAYED = {"en-US": ("You played 3.", "Waiting for Ana. On the table: 2 (single) from Bot 3."),
          "es-ES": ("Has jugado 3.", "Esperando a Ana. En la mesa: 2 (carta suelta) de Bot 3.")}
"""What Ana reads after her Play, and Bo after his Pass (the computer has beaten it)."""


@pytest.mark.parametrize("locale", sorted(PLAYED))
async def test_members_play_from_their_hand_views_while_the_board_waits_longer(
        fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch, locale: str) -> None:
    """With 200 calls queued the board waits 2 s between redraws; Ana (the landlord) picks
    a 3 in her card menu and presses Play, Bo presses Pass in his view and reads the
    computer's 2 over it: each hears at once from their own view, and the table's message
    then shows the newest state."""
    played, waiting = PLAYED[locale]
    ana, bo, _ = members(fake, locale)
    await ana.slash("start")
    await bo.click(fake.table_message(), fake.table_message().custom_ids()[0])  # Join
    add = next(c for c in fake.table_message().custom_ids() if c.endswith(":cpu"))
    await ana.click(fake.table_message(), add)
    start = next(c for c in fake.table_message().custom_ids() if c.endswith(":start"))
    await bo.click(fake.table_message(), start)
    bid3 = next(c for c in fake.table_message().custom_ids() if c.endswith(":bid3"))
    await ana.click(fake.table_message(), bid3)
    await fake.idle()
    drawn = shows(fake)
    backlog(monkeypatch, 200)
    assert fake.bot.renderer.board_interval(BASE) == pytest.approx(2.0)
    loop = asyncio.get_running_loop()

    async def pressed(member: Member, view: Message, verb: str) -> tuple[str, float]:
        """``verb`` pressed in ``view``: its answer's text and how long it took (s); not
        ``member.click``, which waits for the whole bot to be idle, the board's wait too."""
        edits, begun = view.edits, loop.time()
        fake.dispatch(member.click_payload(view, comp(view, verb)))
        await answered(fake, view, edits)
        return fake.messages[view.id].content, loop.time() - begun

    view = (await ana.slash("hand")).last
    view = (await ana.click(view, comp(view, "hcards"), card_values(view, "3"))).last
    text, took = await pressed(ana, view, "hplay")
    assert played in text and took < 1.5, (text, took)  # not after the board's 2 s
    view = (await bo.slash("hand")).last
    text, took = await pressed(bo, view, "hpass")
    assert "⚠️" not in text and took < 1.5, (text, took)
    await fake.idle()  # the computer beats it; the board's wait is over
    assert waiting in fake.messages[view.id].content, fake.messages[view.id].content
    table = fake.bot.service.table_in_channel(fake.channel_id)
    assert table is not None and drawn and drawn[-1][1] == table.seq  # the newest state
    assert [a.kind for a in table.hand.history if a.kind != "bid"][:3] == ["play", "pass", "play"]
