"""A hand view drawn within ``ANSWER_WITHIN_SECONDS`` is the click's one response; a
slower one is deferred first, then edited in (``cogs.replies.defer_soon``,
docs/PERFORMANCE.md §Answers)."""

from __future__ import annotations

import asyncio
import gc
from typing import Any

import discord
import pytest

from cogs import replies
from tests.support.fake_discord import FakeDiscord, Message
from tests.support.fake_game import members


def record_answers(fake: FakeDiscord) -> list[tuple[str, str, int | None, int]]:
    """Every answer request from now on: (interaction token, "callback" or the
    edited message, callback type, message flags)."""
    seen: list[tuple[str, str, int | None, int]] = []
    on_webhook = fake.on_webhook

    def spy(route: Any, body: dict[str, Any]) -> Any:
        if route.path.endswith("/callback"):
            data = body.get("data") or {}
            seen.append((route.webhook_token, "callback", body["type"], data.get("flags", 0)))
        else:
            seen.append((route.webhook_token, route.url.rsplit("/", 1)[1], None,
                         body.get("flags", 0)))
        return on_webhook(route, body)

    fake.on_webhook = spy  # type: ignore[method-assign]
    return seen


async def dealt(fake: FakeDiscord) -> tuple[Any, Message, Message]:
    """Ana alone against two computers, her hand view open; (Ana, table message, view)."""
    ana, _, _ = members(fake)
    await ana.slash("start", computers=2)
    await ana.click(fake.table_message(), "Start")
    table = fake.table_message()
    view = (await ana.click(table, "My hand")).last
    return ana, table, view


def slow_hand_views(fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
                    ) -> list[tuple[str, str, int | None, int]]:
    """Hand views drawn in 0.2 s, answers due within 0.01 s; ``record_answers`` from now."""
    monkeypatch.setattr(replies, "ANSWER_WITHIN_SECONDS", 0.01)
    hands = fake.bot.get_cog("ddz").hands  # the hand screens (cogs/hand_screens.py)
    render = hands.render

    async def slow(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.2)
        return await render(*args, **kwargs)

    monkeypatch.setattr(hands, "render", slow)
    return record_answers(fake)


async def test_a_hand_view_click_answered_in_time_is_one_update_of_the_view(
        fake: FakeDiscord) -> None:
    ana, _, view = await dealt(fake)
    seen = record_answers(fake)
    edits = view.edits
    reply = await ana.click(view, "Sort: rank")
    assert [(what, kind) for _, what, kind, _ in seen] == [("callback", 7)]
    assert reply.last.id == view.id and fake.messages[view.id].edits == edits + 1
    assert "Sort: groups" in fake.messages[view.id].buttons()


async def test_a_slow_hand_view_click_is_deferred_then_edited(
        fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> None:
    ana, _, view = await dealt(fake)
    seen = slow_hand_views(fake, monkeypatch)
    await ana.click(view, "Sort: rank")
    assert [(what, kind) for _, what, kind, _ in seen] == [("callback", 6), ("@original", None)]
    assert "Sort: groups" in fake.messages[view.id].buttons()


async def test_my_hand_in_time_is_an_ephemeral_reply_and_the_table_message_is_untouched(
        fake: FakeDiscord) -> None:
    ana, table, _ = await dealt(fake)
    seen = record_answers(fake)
    before = (fake.messages[table.id].edits, fake.messages[table.id].content)
    reply = await ana.click(fake.messages[table.id], "My hand")
    await fake.idle()
    mine = [answer for answer in seen if answer[0] == seen[0][0]]  # this click's token
    assert [(what, kind, flags & 64) for _, what, kind, flags in mine] == [("callback", 4, 64)]
    # and one edit of the view it replaced, by that view's token (cogs/open_views.py)
    assert [(what, kind) for token, what, kind, _ in seen if token != seen[0][0]] == [
        ("@original", None)]
    assert reply.last.ephemeral and reply.last.id != table.id
    assert reply.last.alt_texts[0].startswith("Your hand: ")
    assert (fake.messages[table.id].edits, fake.messages[table.id].content) == before


async def test_a_slow_my_hand_is_a_thinking_reply_filled_in_never_the_table_message(
        fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> None:
    ana, table, _ = await dealt(fake)
    seen = slow_hand_views(fake, monkeypatch)
    before = (fake.messages[table.id].edits, fake.messages[table.id].content)
    reply = await ana.click(fake.messages[table.id], "My hand")
    mine = [answer for answer in seen if answer[0] == seen[0][0]]  # this click's token
    assert [(what, kind, flags & 64) for _, what, kind, flags in mine] == [
        ("callback", 5, 64), ("@original", None, 0)]
    assert reply.last.ephemeral and not reply.last.loading
    assert reply.last.alt_texts[0].startswith("Your hand: ")
    assert (fake.messages[table.id].edits, fake.messages[table.id].content) == before


async def test_a_refusal_in_time_is_one_update_of_the_clicked_message(
        fake: FakeDiscord) -> None:
    ana, _, view = await dealt(fake)
    _, bo, _ = members(fake)
    seen = record_answers(fake)
    content = fake.messages[view.id].content
    reply = await bo.click(fake.messages[view.id], "Sort: rank")  # not Bo's view, not seated
    assert [(what, kind) for _, what, kind, _ in seen] == [("callback", 7)]
    assert reply.last.id == view.id  # the clicked message: Bo sees the refusal in it
    assert fake.messages[view.id].content != content


async def test_an_answered_view_keeps_no_pending_deferral(fake: FakeDiscord) -> None:
    ana, _, view = await dealt(fake)
    await ana.click(view, "Sort: rank")
    tracked = [entry.token for (_, user), entry in fake.bot.get_cog("ddz").views.views.items()
               if user == ana.id]
    assert len(tracked) == 1 and tracked[0].answered()
    assert tracked[0]._interaction is None  # no timer, lock, cycle or interaction kept for 15 min


def live_interactions() -> list[discord.Interaction]:
    """Every ``discord.Interaction`` alive, the frozen ones included: ``gc.get_objects``
    leaves out the permanent generation that ``gc.freeze`` fills (the bot freezes after
    each full collection; the test processes freeze what collection left), so it is
    emptied into the oldest generation for the look and frozen again."""
    gc.unfreeze()
    try:
        return [o for o in gc.get_objects() if isinstance(o, discord.Interaction)]
    finally:
        gc.freeze()


def test_live_interactions_sees_a_frozen_one() -> None:
    kept = discord.Interaction.__new__(discord.Interaction)
    gc.freeze()
    assert [o for o in gc.get_objects() if o is kept] == []  # what the old check missed
    assert [o for o in live_interactions() if o is kept] == [kept]


async def test_finished_clicks_leave_no_interaction_behind(fake: FakeDiscord) -> None:
    # A tracked hand view and the board's delivery tokens keep the token only
    # (cogs/tokens.py): the interaction, its member and response die young, never
    # aging into what a full garbage collection scans (docs/PERFORMANCE.md §Collector).
    ana, _, view = await dealt(fake)  # /ddz start, Start and My hand: all offered
    await ana.click(view, "Sort: rank")
    await ana.click(fake.messages[view.id], "Hint")
    cog = fake.bot.get_cog("ddz")
    refs = [entry.token for entry in cog.views.views.values()]
    refs += [token.ref for tokens in (*cog.board.delivery.posters.values(),
                                      *cog.board.delivery.editors.values()) for token in tokens]
    assert len(refs) >= 3 and all(ref._interaction is None for ref in refs)
    assert all(ref.answered() for ref in refs)
    gc.collect()  # the bot's hook freezes what survived it (bot.client.FreezeAfterFull)
    assert live_interactions() == []


async def test_a_handled_click_goes_without_the_collector(fake: FakeDiscord) -> None:
    # The heap is frozen after each full collection (bot.client): a click handled
    # meanwhile must go by reference counting alone (no cycle with its response).
    ana, _, view = await dealt(fake)
    gc.collect()
    gc.disable()
    try:
        await ana.click(view, "Sort: rank")
        await ana.click(fake.messages[view.id], "Hint")
        await ana.slash("hand")  # a command: released at app_command_completion
        await ana.click(fake.table_message(), "My hand")
        await fake.idle()  # and the edits saying each older view was replaced
        assert live_interactions() == []
    finally:
        gc.enable()


async def test_a_deferral_that_fails_without_an_http_error_is_logged_and_the_answer_still_goes(
        fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    ana, _, view = await dealt(fake)
    seen = slow_hand_views(fake, monkeypatch)

    async def dropped(*args: Any, **kwargs: Any) -> None:
        raise ConnectionResetError("connection reset by peer")

    monkeypatch.setattr(replies, "defer", dropped)
    await ana.click(view, "Sort: rank")
    assert [(what, kind) for _, what, kind, _ in seen] == [("callback", 7)]  # the answer itself
    assert "could not defer" in caplog.text and "ConnectionResetError" in caplog.text


async def test_a_handled_click_lets_go_of_the_message_discord_py_parsed(
    fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    import cogs.ddz

    ana, _, _ = members(fake)
    await ana.slash("start", computers=2)
    seen: list[Any] = []
    route = cogs.ddz.route_click

    async def spy(cog: Any, interaction: Any, *routes: Any) -> bool:
        assert interaction.message is not None  # the handlers still read it
        seen.append(interaction)
        return await route(cog, interaction, *routes)

    monkeypatch.setattr(cogs.ddz, "route_click", spy)
    await ana.click(fake.table_message(), "Start")  # a table-message click: no view tracks it
    assert len(seen) == 1 and seen[0].message is None
    assert "Start" not in fake.table_message().buttons()  # and it was handled: dealt
