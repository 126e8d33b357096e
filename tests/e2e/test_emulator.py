"""The loopback emulator works against an unmodified discord.py bot (tests/support/echo_bot.py)
and enforces Discord's rules on raw HTTP calls."""

from __future__ import annotations

import re
import sys
from typing import Any

import aiohttp
import pytest

from sandbox.loopback.emulator import Emulator, EmulatorUsageError
from tests.support.botproc import REPO_ROOT, BotFactory, BotProcess
from tests.support.echo_bot import make_png
from tests.support.emulator_calls import call

ECHO_ARGV = [sys.executable, str(REPO_ROOT / "tests" / "support" / "echo_bot.py")]


async def start_echo(bot_factory: BotFactory) -> BotProcess:
    return await bot_factory(ECHO_ARGV).start(timeout=20)


# ---- against the echo bot ----------------------------------------------------------


async def test_slash_reply_is_ephemeral_and_only_visible_to_invoker(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    await start_echo(bot_factory)
    alice = emulator.member(name="alice", locale="es-ES")
    bob = emulator.member(name="bob")

    ix = await alice.slash("ddz ping")
    await ix.settled()

    assert emulator.gateway.queries[-1] == {
        "v": "10",
        "encoding": "json",
        "compress": "zlib-stream",
    }
    assert ix.response_type == 4 and ix.in_time and ix.first_response_ms < 3000
    msg = ix.message
    assert msg is not None and msg.ephemeral and msg.content == "pong es-ES"
    assert alice.latest_ephemeral is msg
    assert [b["custom_id"] for b in msg.buttons] == ["echo:0"]
    (att,) = msg.attachments
    assert (att.filename, att.description, att.data) == ("ping.png", "ping image", make_png(0))
    assert not bob.can_see(msg) and bob.ephemerals == [] and bob.visible_messages() == []
    assert emulator.default_channel.public_messages == []
    with pytest.raises(EmulatorUsageError):
        await bob.click(msg, "echo:0")
    assert emulator.errors == [] and emulator.late_interactions() == []


async def test_button_click_edits_message_and_sends_png_with_alt_text(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    await start_echo(bot_factory)
    alice = emulator.member(name="alice")
    ping = await alice.slash("ddz ping")
    msg = ping.message
    assert msg is not None

    click = await alice.click(msg, "echo:0")
    await click.settled()

    assert click.response_type == 7 and click.message is msg
    assert msg.content.startswith("clicks=1 ") and msg.custom_ids == ["echo:1"]
    assert [h["content"] for h in msg.history] == ["pong en-US"]
    assert [a.filename for a in msg.attachments] == ["ping.png"]  # edits keep attachments
    assert await alice.wait_for(lambda m: m.content == "image 1") is click.followups[0]
    (image_msg,) = click.followups
    assert image_msg.visible_to is alice and alice.latest_ephemeral is image_msg
    (att,) = image_msg.attachments
    assert att.is_png and att.data == make_png(1)
    assert (att.filename, att.description) == ("echo.png", "echo image 1")
    assert emulator.errors == []


async def test_deferred_reply_is_public_and_filled_by_first_followup(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    await start_echo(bot_factory)
    alice, bob = emulator.member(name="alice"), emulator.member(name="bob")

    ix = await alice.slash("ddz say", text="ab", times=3)
    await ix.settled()

    assert ix.response_type == 5
    assert ix.message is not None and not ix.message.loading and ix.message.content == "ababab"
    assert emulator.default_channel.public_messages == [ix.message]
    assert bob.visible_messages() == [ix.message]
    assert emulator.errors == []


async def test_slash_options_are_checked_like_a_discord_client(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    await start_echo(bot_factory)
    alice = emulator.member(name="alice")
    bad_calls: list[tuple[str, dict[str, Any]]] = [
        ("ddz say", {"times": 2}),  # missing required text
        ("ddz say", {"text": "x", "times": 9}),  # out of range 1..5
        ("ddz say", {"text": "x", "loud": True}),  # unknown option
        ("ddz nope", {}),  # unknown subcommand
        ("ddz", {}),  # group needs a subcommand
    ]
    for command, options in bad_calls:
        with pytest.raises(EmulatorUsageError):
            await alice.slash(command, **options)
    assert emulator.interactions == []


async def test_second_initial_response_is_rejected_with_40060(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    await start_echo(bot_factory)
    alice = emulator.member(name="alice")

    ix = await alice.slash("ddz double")
    await ix.settled()

    assert [e.code for e in ix.errors] == [40060]
    assert [m.content for m in alice.ephemerals] == ["first", "second failed: 40060"]
    assert [(e.status, e.code) for e in emulator.take_errors()] == [(400, 40060)]


async def test_select_menu_pick_reaches_the_bot(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    await start_echo(bot_factory)
    alice = emulator.member(name="alice")
    menu = await alice.slash("ddz menu")
    assert menu.message is not None and not menu.message.ephemeral

    with pytest.raises(EmulatorUsageError):
        await alice.select(menu.message, "echo:pick", ["purple"])
    pick = await alice.select(menu.message, "echo:pick", ["red", "blue"])
    await pick.settled()

    assert pick.message is not None and pick.message.content == "picked red,blue"
    assert alice.latest_ephemeral is pick.message
    assert emulator.errors == []


async def test_channel_message_edit_is_applied_in_place(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    await start_echo(bot_factory)
    alice = emulator.member(name="alice")

    ix = await alice.slash("ddz post")
    channel = emulator.default_channel
    await emulator.wait_until(
        lambda: channel.last_public is not None and channel.last_public.edited_at is not None,
        timeout=5,
        what="the public post to be edited",
    )

    (post,) = channel.public_messages
    assert post.content == "public post (edited)" and post.history[0]["content"] == "public post"
    assert post.interaction_id is None and ix.message is not None and ix.message.ephemeral
    assert emulator.errors == []


async def test_kill_and_restart_keeps_dynamic_button_working(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    bot = await start_echo(bot_factory)
    alice = emulator.member(name="alice")
    ping = await alice.slash("ddz ping")
    first = await alice.click(ping.message, "echo:0")  # type: ignore[arg-type]
    await first.settled()
    old_pid = bot.pid

    bot.ready_log = re.compile(r"echo bot ready .*pid")
    await bot.restart()
    assert bot.pid != old_pid and emulator.gateway.identify_count == 2
    second = await alice.click(ping.message, "echo:1")  # type: ignore[arg-type]
    await second.settled()

    assert second.response_type == 7 and ping.message is not None
    assert ping.message.content == f"clicks=2 pid={bot.pid}"
    assert second.followups[0].attachments[0].data == make_png(2)
    assert emulator.errors == []


async def test_late_initial_response_is_rejected_with_10062(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    await start_echo(bot_factory)
    emulator.response_deadline = 0.3
    alice = emulator.member(name="alice")

    ix = await alice.slash("ddz slow", seconds=0.8, wait=False)
    await emulator.wait_until(lambda: ix.errors, timeout=5, what="the late answer")

    assert ix.late and not ix.in_time and ix.response_type is None
    assert [e.code for e in ix.errors] == [10062]
    assert emulator.late_interactions() == [ix]
    assert emulator.response_time_summary()["count"] == 0


# ---- raw HTTP rules (no bot) -------------------------------------------------------


def button(custom_id: str) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": "b", "custom_id": custom_id}


def row(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(items)}


@pytest.mark.parametrize(
    "components",
    [
        [row(button(f"r{i}")) for i in range(6)],
        [row(*(button(f"b{i}") for i in range(6)))],
        [row(button("x" * 101))],
        [row(button("same"), button("same"))],
        [
            row(
                {
                    "type": 3,
                    "custom_id": "s",
                    "options": [{"label": str(i), "value": str(i)} for i in range(26)],
                }
            )
        ],
    ],
    ids=["six-rows", "six-buttons", "long-custom-id", "duplicate-id", "26-options"],
)
@pytest.mark.openapi_invalid_requests
async def test_component_limits_are_rejected_with_50035(
    emulator: Emulator, components: list[Any]
) -> None:
    path = f"/channels/{emulator.default_channel.id}/messages"
    status, body = await call(emulator, "POST", path, {"content": "x", "components": components})

    assert (status, body["code"]) == (400, 50035)
    assert [e.code for e in emulator.errors] == [50035] and emulator.errors[0].problems
    assert emulator.default_channel.messages == []


async def test_valid_limits_are_accepted(emulator: Emulator) -> None:
    components = [row(*(button(f"b{r}{i}") for i in range(5))) for r in range(5)]
    path = f"/channels/{emulator.default_channel.id}/messages"
    status, body = await call(emulator, "POST", path, {"content": "x", "components": components})

    assert status == 200 and len(body["components"]) == 5
    assert len(emulator.default_channel.public_messages[0].buttons) == 25 and emulator.errors == []


async def test_interaction_token_rules(emulator: Emulator) -> None:
    alice = emulator.member(name="alice")
    ix = await emulator.dispatch_interaction(
        alice, 2, {"id": "1", "name": "x", "type": 1}, emulator.default_channel
    )
    app = emulator.application_id
    assert not ix.delivered

    assert (await call(emulator, "POST", "/interactions/1/nope/callback", {"type": 5}, auth=False))[
        0
    ] == 404
    status, _ = await call(
        emulator,
        "POST",
        f"/interactions/{ix.id}/{ix.token}/callback?with_response=1",
        {"type": 5},
        auth=False,
    )
    assert status == 200 and ix.response_type == 5 and ix.message is not None and ix.message.loading
    status, body = await call(
        emulator, "POST", f"/interactions/{ix.id}/{ix.token}/callback", {"type": 5}
    )
    assert (status, body["code"]) == (400, 40060)
    status, body = await call(
        emulator, "POST", f"/webhooks/{app}/bad-token", {"content": "x"}, auth=False
    )
    assert (status, body["code"]) == (401, 50027)
    emulator.advance(15 * 60 + 1)
    status, body = await call(
        emulator, "PATCH", f"/webhooks/{app}/{ix.token}/messages/@original", {"content": "x"}
    )
    assert (status, body["code"]) == (401, 50027)
    assert [e.code for e in emulator.errors] == [10062, 40060, 50027, 50027]


async def test_wrong_bot_token_and_unknown_routes_are_refused_and_recorded(
    emulator: Emulator,
) -> None:
    assert (await call(emulator, "GET", "/users/@me", auth=False))[0] == 401
    status, body = await call(emulator, "GET", "/no/such/route")

    assert (status, body["code"]) == (404, 0)
    assert emulator.unknown_routes == ["GET /api/v10/no/such/route"]
    assert [e.status for e in emulator.errors] == [401, 404]



async def test_a_heartbeat_ack_comes_after_a_round_trip(emulator: Emulator) -> None:
    """Issue 37 §6: the sandbox's bot logged "Can't keep up, shard ID None websocket is
    41.3s behind." about its heartbeats. discord.py's keep-alive thread notes when a
    heartbeat went out only once the loop has sent it; an ACK written back at once was
    read before that, so the latency ran from the previous heartbeat: one interval
    (41.25 s). The loopback now answers after ``ACK_DELAY``, as a network would."""
    import asyncio
    import json

    loop = asyncio.get_running_loop()
    async with aiohttp.ClientSession() as http, http.ws_connect(emulator.gateway_url) as ws:
        hello = json.loads((await ws.receive()).data)
        assert hello["op"] == 10
        sent = loop.time()
        await ws.send_str(json.dumps({"op": 1, "d": None}))
        ack = json.loads((await ws.receive(timeout=5)).data)
        assert ack["op"] == 11
        assert loop.time() - sent >= 0.05  # the ACK_DELAY (0.1 s), not at once
