"""Threads on the loopback Discord as docs/DISCORD.md rows 23 and 24 say Discord answers them:
raw requests (no bot process), like tests/e2e/test_discord_rules.py."""

from __future__ import annotations

from typing import Any

import pytest

from sandbox.loopback.emulator import Emulator
from sandbox.loopback.model import (
    PERM_CREATE_PUBLIC_THREADS,
    PERM_MANAGE_THREADS,
    PERM_SEND_IN_THREADS,
    PERM_SEND_MESSAGES,
)
from tests.support.busy_threads import busy_threads
from tests.support.emulator_calls import call


def captured(emu: Emulator) -> list[tuple[str, dict[str, Any]]]:
    """Every gateway dispatch from now on, as (event, data), bot connected or not."""
    seen: list[tuple[str, dict[str, Any]]] = []
    send = emu.gateway.dispatch

    async def dispatch(event: str, data: dict[str, Any], guild_id: int) -> bool:
        seen.append((event, data))
        return await send(event, data, guild_id)

    emu.gateway.dispatch = dispatch  # type: ignore[method-assign]
    return seen


async def test_a_public_thread_is_created_dispatched_and_takes_messages_and_clicks(
        emulator: Emulator) -> None:
    emu = emulator
    parent = emu.default_channel
    seen = captured(emu)
    status, body = await call(emu, "POST", f"/channels/{parent.id}/threads",
                              {"name": "Cup · round 1 · table 2", "type": 11,
                               "auto_archive_duration": 1440})
    assert status == 201, body
    assert body["type"] == 11 and body["parent_id"] == str(parent.id)
    assert body["name"] == "Cup · round 1 · table 2"
    assert body["owner_id"] == str(emu.application_id)
    assert body["thread_metadata"]["archived"] is False
    thread = emu.channel_by_id(int(body["id"]))
    assert thread is not None and thread.parent is parent
    assert [(e, d["id"], d["newly_created"]) for e, d in seen] == [
        ("THREAD_CREATE", body["id"], True)]

    status, posted = await call(emu, "POST", f"/channels/{thread.id}/messages",
                                {"content": "hello", "components": [{"type": 1, "components": [
                                    {"type": 2, "style": 1, "label": "Go", "custom_id": "go"}]}]})
    assert status == 200 and posted["channel_id"] == str(thread.id)
    assert [m.content for m in thread.public_messages] == ["hello"]
    assert parent.public_messages == []

    alice = emu.member(name="alice")
    board = thread.public_messages[0]
    ix = await emu.dispatch_interaction(alice, 3, {"custom_id": "go", "component_type": 2},
                                        board.channel, board)
    assert ix.channel is thread  # the interaction's channel_id is the thread's
    interaction = next(d for e, d in seen if e == "INTERACTION_CREATE")
    assert interaction["channel_id"] == str(thread.id)
    assert interaction["channel"]["type"] == 11
    assert interaction["channel"]["parent_id"] == str(parent.id)


async def test_without_create_public_threads_nothing_is_created(emulator: Emulator) -> None:
    emu = emulator
    parent = emu.default_channel
    parent.bot_denied = PERM_CREATE_PUBLIC_THREADS
    before = list(emu.default_guild.channels)
    status, body = await call(emu, "POST", f"/channels/{parent.id}/threads",
                              {"name": "x", "type": 11})
    assert (status, body["code"]) == (403, 50013)
    assert emu.default_guild.channels == before


async def test_a_thread_takes_its_parents_send_messages_in_threads(emulator: Emulator) -> None:
    emu = emulator
    parent = emu.default_channel
    thread = await emu.thread(parent, "t")
    parent.bot_denied = PERM_SEND_MESSAGES  # Send Messages alone does not matter in a thread
    status, _ = await call(emu, "POST", f"/channels/{thread.id}/messages", {"content": "a"})
    assert status == 200
    parent.bot_denied = PERM_SEND_IN_THREADS
    status, body = await call(emu, "POST", f"/channels/{thread.id}/messages", {"content": "b"})
    assert (status, body["code"]) == (403, 50013)
    ix = await emu.dispatch_interaction(emu.member(name="bob"), 2,
                                        {"id": "1", "name": "x", "type": 1}, thread)
    assert ix.channel is thread
    assert [m.content for m in thread.public_messages] == ["a"]


@pytest.mark.openapi_invalid_requests  # a name of 101 characters on purpose
async def test_bad_thread_requests_answer_as_discord_does(emulator: Emulator) -> None:
    emu = emulator
    parent = emu.default_channel
    status, body = await call(emu, "POST", f"/channels/{parent.id}/threads",
                              {"name": "x" * 101, "type": 11})
    assert (status, body["code"]) == (400, 50035)
    thread = await emu.thread(parent, "t")
    status, body = await call(emu, "POST", f"/channels/{thread.id}/threads",
                              {"name": "inner", "type": 11})
    assert (status, body["code"]) == (400, 50024)
    status, message = await call(emu, "POST", f"/channels/{parent.id}/messages",
                                 {"content": "start here"})
    status, body = await call(emu, "POST",
                              f"/channels/{parent.id}/messages/{message['id']}/threads",
                              {"name": "from a message"})
    assert status == 201 and body["id"] == message["id"] and body["type"] == 11
    status, body = await call(emu, "POST",
                              f"/channels/{parent.id}/messages/{message['id']}/threads",
                              {"name": "again"})
    assert (status, body["code"]) == (400, 160004)


async def test_archived_threads_leave_the_guilds_active_threads_and_lock_needs_manage_threads(
        emulator: Emulator) -> None:
    """docs/DISCORD.md rows 23 and 26: at 1000 active threads a new one is refused (160006);
    archiving one (``PATCH /channels/{id}``, the bot as its creator) makes room; ``locked``
    needs Manage Threads; an archived thread's messages cannot be edited (50083), a post
    unarchives it unless it is locked."""
    emu = emulator
    parent = emu.default_channel
    seen = captured(emu)
    busy_threads(parent, 998)
    status, body = await call(emu, "POST", f"/channels/{parent.id}/threads",
                              {"name": "ours", "type": 11})
    assert status == 201
    ours = emu.channel_by_id(int(body["id"]))
    assert ours is not None
    status, board = await call(emu, "POST", f"/channels/{ours.id}/messages", {"content": "b"})
    assert status == 200
    status, body = await call(emu, "POST", f"/channels/{parent.id}/threads",
                              {"name": "1000th", "type": 11})
    assert status == 201
    status, body = await call(emu, "POST", f"/channels/{parent.id}/threads",
                              {"name": "1001st", "type": 11})
    assert (status, body["code"]) == (400, 160006)

    parent.bot_denied = PERM_MANAGE_THREADS
    status, body = await call(emu, "PATCH", f"/channels/{ours.id}",
                              {"archived": True, "locked": True})
    assert (status, body["code"]) == (403, 50013) and not ours.archived
    status, body = await call(emu, "PATCH", f"/channels/{ours.id}", {"archived": True})
    assert status == 200 and body["thread_metadata"]["archived"] is True  # its creator
    parent.bot_denied = 0
    status, body = await call(emu, "PATCH", f"/channels/{ours.id}",
                              {"archived": True, "locked": True})
    assert status == 200 and body["thread_metadata"] == {
        **body["thread_metadata"], "archived": True, "locked": True}
    assert [e for e, d in seen if d.get("id") == str(ours.id)] == [
        "THREAD_CREATE", "THREAD_UPDATE", "THREAD_UPDATE"]
    status, body = await call(emu, "PATCH", f"/channels/{ours.id}/messages/{board['id']}",
                              {"content": "late"})
    assert (status, body["code"]) == (400, 50083)
    status, body = await call(emu, "POST", f"/channels/{parent.id}/threads",
                              {"name": "room again", "type": 11})
    assert status == 201  # 999 active: the archived one does not count

    parent.bot_denied = PERM_MANAGE_THREADS
    status, body = await call(emu, "POST", f"/channels/{ours.id}/messages", {"content": "x"})
    assert (status, body["code"]) == (400, 50083) and ours.archived  # locked
    other = await emu.thread(parent, "unlocked", owner_id=emu.application_id)
    other.archived = True
    status, _ = await call(emu, "POST", f"/channels/{other.id}/messages", {"content": "y"})
    assert status == 200 and not other.archived  # a post unarchives an unlocked thread
