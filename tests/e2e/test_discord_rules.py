"""The loopback enforces docs/DISCORD.md's rows by default (sandbox/loopback/discord_rules.py):
raw requests, as Discord would answer them (no bot process)."""

from __future__ import annotations

from typing import Any

from sandbox.loopback.emulator import Emulator, SimInteraction, SimMember
from sandbox.loopback.model import PERM_SEND_MESSAGES, PERM_VIEW_CHANNEL
from tests.support.emulator_calls import call


async def answered(emu: Emulator, member: SimMember, rtype: int = 4,
                   flags: int = 0) -> SimInteraction:
    """A slash command of ``member`` answered with ``rtype`` (4 a message, 5 deferred)."""
    ix = await emu.dispatch_interaction(member, 2, {"id": "1", "name": "x", "type": 1},
                                        emu.default_channel)
    data: dict[str, Any] = {"flags": flags} if rtype == 5 else {"content": "hi", "flags": flags}
    status, _ = await call(emu, "POST", f"/interactions/{ix.id}/{ix.token}/callback",
                           {"type": rtype, "data": data}, auth=False)
    assert status == 204
    return ix


def hook(emu: Emulator, ix: SimInteraction, tail: str = "") -> str:
    return f"/webhooks/{emu.application_id}/{ix.token}{tail}"


async def call_headers(emu: Emulator, method: str, path: str,
                       payload: Any = None) -> tuple[int, Any, dict[str, str]]:
    import aiohttp

    async with (
        aiohttp.ClientSession() as session,
        session.request(method, emu.api_base + path, json=payload,
                        headers={"Authorization": f"Bot {emu.token}"}) as resp,
    ):
        return resp.status, await resp.json(), dict(resp.headers)


async def test_five_requests_per_two_seconds_per_token_then_a_real_429(
        emulator: Emulator) -> None:
    emu = emulator
    ix = await answered(emu, emu.member(name="alice"))
    remaining = []
    for n in range(5):
        status, body, headers = await call_headers(emu, "POST", hook(emu, ix, "?wait=true"),
                                                   {"content": f"m{n}"})
        assert status == 200, body
        remaining.append(headers["X-RateLimit-Remaining"])
    assert remaining == ["4", "3", "2", "1", "0"]  # discord.py waits on "0" by itself
    status, body, headers = await call_headers(emu, "PATCH",
                                               hook(emu, ix, "/messages/@original"),
                                               {"content": "edit"})
    assert status == 429 and body["global"] is False and 0 < body["retry_after"] <= 2.0
    assert headers["Via"] and headers["X-RateLimit-Scope"] == "user"
    assert float(headers["Retry-After"]) == body["retry_after"]
    other = await answered(emu, emu.member(name="bob"))  # another token: its own bucket
    status, _, _ = await call_headers(emu, "POST", hook(emu, other, "?wait=true"),
                                      {"content": "x"})
    assert status == 200 and emu.rules.webhook_429 == {"per_token": 1}
    assert emu.rules.invalid == 1


async def test_thirty_webhook_messages_a_minute_per_channel(emulator: Emulator) -> None:
    emu = emulator
    alice = emu.member(name="alice")
    statuses = []
    for _ in range(8):
        ix = await answered(emu, alice)
        await call(emu, "POST", hook(emu, ix, "?wait=true"), {"content": "secret", "flags": 64})
        for _ in range(4):  # 4 public follow-ups on each token: below its own bucket
            status, _, headers = await call_headers(emu, "POST", hook(emu, ix, "?wait=true"),
                                                    {"content": "public"})
            statuses.append(status)
    assert statuses.count(200) == 30 and statuses[30:] == [429, 429]  # ephemerals: not counted
    assert headers["X-RateLimit-Scope"] == "shared" and emu.rules.invalid == 0
    assert emu.rules.webhook_429 == {"per_channel": 2}


async def test_edits_of_a_message_older_than_an_hour_answer_30046(emulator: Emulator) -> None:
    emu = emulator
    emu.token_lifetime = 3 * 3600.0  # keep the token alive past the hour
    ix = await answered(emu, emu.member(name="alice"))
    _, posted = await call(emu, "POST", f"/channels/{emu.default_channel.id}/messages",
                           {"content": "board"})
    _, follow = await call(emu, "POST", hook(emu, ix, "?wait=true"), {"content": "follow"})
    emu.advance(3599)
    assert (await call(emu, "PATCH", f"/channels/{emu.default_channel.id}/messages/"
                       f"{posted['id']}", {"content": "ok"}))[0] == 200
    emu.advance(2)
    status, body, headers = await call_headers(
        emu, "PATCH", f"/channels/{emu.default_channel.id}/messages/{posted['id']}",
        {"content": "too old"})
    assert (status, body["code"]) == (429, 30046) and headers["Via"]
    status, body = await call(emu, "PATCH", hook(emu, ix, f"/messages/{follow['id']}"),
                              {"content": "too old"})
    assert (status, body["code"]) == (429, 30046) and emu.rules.old_edits == 2
    assert emu.messages[int(posted["id"])].content == "ok"


async def test_a_token_edits_only_its_own_messages(emulator: Emulator) -> None:
    emu = emulator
    alice = emu.member(name="alice")
    first, second = await answered(emu, alice), await answered(emu, alice)
    _, follow = await call(emu, "POST", hook(emu, first, "?wait=true"), {"content": "mine"})
    status, body = await call(emu, "PATCH", hook(emu, second, f"/messages/{follow['id']}"),
                              {"content": "not yours"})
    assert (status, body["code"]) == (404, 10008)
    assert (await call(emu, "PATCH", hook(emu, first, f"/messages/{follow['id']}"),
                       {"content": "mine"}))[0] == 200


async def test_follow_ups_and_token_edits_follow_the_bots_permissions(
        emulator: Emulator) -> None:
    emu = emulator
    ix = await answered(emu, emu.member(name="alice"))
    _, public = await call(emu, "POST", hook(emu, ix, "?wait=true"), {"content": "board"})
    emu.default_channel.bot_denied = PERM_SEND_MESSAGES
    status, body = await call(emu, "POST", hook(emu, ix, "?wait=true"), {"content": "board"})
    assert (status, body["code"]) == (403, 50013)
    status, _ = await call(emu, "POST", hook(emu, ix, "?wait=true"),
                           {"content": "private", "flags": 64})
    assert status == 200  # an ephemeral message needs no channel permission
    emu.default_channel.bot_denied = PERM_VIEW_CHANNEL
    status, body = await call(emu, "PATCH", hook(emu, ix, f"/messages/{public['id']}"),
                              {"content": "hidden"})
    assert (status, body["code"]) == (403, 50001)
    assert (await call(emu, "PATCH", hook(emu, ix, "/messages/@original"),
                       {"content": "hi again"}))[0] == 403  # the public answer too
    assert emu.rules.invalid == 3


async def test_a_mention_notifies_only_in_a_created_message_that_allows_it(
        emulator: Emulator) -> None:
    emu = emulator
    alice, bob = emu.member(name="alice"), emu.member(name="bob")
    channel = f"/channels/{emu.default_channel.id}/messages"
    ping = f"<@{alice.id}> <@{bob.id}> your turn"
    _, none = await call(emu, "POST", channel, {"content": ping,
                                                "allowed_mentions": {"parse": []}})
    _, only = await call(emu, "POST", channel, {"content": ping, "allowed_mentions": {
        "parse": [], "users": [str(alice.id)]}})
    await call(emu, "PATCH", f"{channel}/{none['id']}", {"content": ping})  # edits: never
    ix = await answered(emu, bob)
    await call(emu, "POST", hook(emu, ix, "?wait=true"),
               {"content": f"<@{bob.id}>", "flags": 64})  # ephemeral: never
    _, every = await call(emu, "POST", hook(emu, ix, "?wait=true"), {"content": ping})
    assert [(n.member_id, n.message_id) for n in emu.rules.notifications] == [
        (alice.id, int(only["id"])), (alice.id, int(every["id"])), (bob.id, int(every["id"]))]
    assert emu.messages[int(only["id"])].notified == [alice.id]
    assert [n.message_id for n in emu.rules.notified(bob.id)] == [int(every["id"])]


async def test_the_first_follow_up_of_an_ephemeral_defer_fills_it_and_stays_ephemeral(
        emulator: Emulator) -> None:
    emu = emulator
    ix = await answered(emu, emu.member(name="alice"), rtype=5, flags=64)
    _, filled = await call(emu, "POST", hook(emu, ix, "?wait=true"), {"content": "a board"})
    _, second = await call(emu, "POST", hook(emu, ix, "?wait=true"), {"content": "a board"})
    assert ix.message is not None and int(filled["id"]) == ix.message.id
    assert ix.message.ephemeral and not ix.message.loading
    assert not emu.messages[int(second["id"])].ephemeral


async def test_the_rules_can_be_switched_off() -> None:
    async with Emulator(rules=False) as emu:
        ix = await answered(emu, emu.member(name="alice"))
        for _ in range(8):
            assert (await call(emu, "POST", hook(emu, ix, "?wait=true"),
                               {"content": "x"}))[0] == 200
        assert emu.rules.webhook_429 == {}
