"""The web page beside the real bot process (``python -m bot`` on the emulator): Share
gives an "Open in browser" link, the link opens the replay of that hand, ``/healthz``
says the bot is healthy and ``/metrics`` counts the interactions just made."""

from __future__ import annotations

import asyncio
import re
import socket
from collections.abc import AsyncIterator

import aiohttp
import pytest
import pytest_asyncio
from prometheus_client.parser import text_string_to_metric_families

from tests.support.ddz_driver import finished, reply_text
from tests.support.solo import SoloSession, solo_session

pytestmark = pytest.mark.asyncio(loop_scope="module")
SECRET = "e2e-web-secret-0123456789"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


PORT = _free_port()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def played(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[SoloSession]:
    env = {"DDZ_WEB_PORT": str(PORT), "DDZ_WEB_SECRET": SECRET}
    async with solo_session(tmp_path_factory.mktemp("web"), env) as session:
        yield session


async def _get(path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{PORT}{path}") as r:
        return r.status, await r.text()


async def test_share_gives_a_browser_link_to_that_hand(played: SoloSession) -> None:
    alice = played.alice
    ix = await finished(await alice.slash("ddz replay"), timeout=15)
    page = ix.message
    assert page is not None
    share_id = next(b["custom_id"] for b in page.buttons if b.get("label") == "Share")
    share = await finished(await alice.click(page, share_id), timeout=15)
    (shared,) = share.followups
    (link,) = [b for b in shared.buttons if b.get("style") == 5]
    assert link["label"] == "Open in browser"
    match = re.fullmatch(rf"http://127\.0\.0\.1:{PORT}/r/([A-Za-z0-9_-]{{32}})#1", link["url"])
    assert match is not None, link
    status, html = await _get(f"/r/{match[1]}")
    assert status == 200 and "Dou Dizhu · hand #1" in html and "Alice" in html
    assert html.count('<section class="step') >= 4
    status, _ = await _get(f"/r/{match[1][:-1]}{'A' if match[1][-1] != 'A' else 'B'}")
    assert status == 404


async def test_healthz_and_metrics_of_the_running_bot(played: SoloSession) -> None:
    status, text = await _get("/healthz")
    assert (status, text) == (200, "ok\n")
    status, text = await _get("/metrics")
    assert status == 200
    samples = [s for f in text_string_to_metric_families(text) for s in f.samples]
    answered = sum(s.value for s in samples if s.name == "ddz_interactions_total"
                   and s.labels["outcome"] in ("answered", "deferred"))
    assert answered >= 5  # /ddz start, Add computer ×2, Start, the plays…
    assert any(s.name == "ddz_answer_seconds_count" and s.value > 0 for s in samples)
    assert any(s.name == "ddz_database_seconds_count" and s.labels["operation"] == "settle_hand"
               and s.value >= 1 for s in samples)
    assert any(s.name == "ddz_open_tables" for s in samples)
    # Interaction routes metered at the wire (docs/SCALING.md §Exempt traffic): at least
    # the answers counted above, each a callback.
    sent = sum(s.value for s in samples if s.name == "ddz_interaction_requests_total")
    assert sent >= answered
    assert any(s.name == "ddz_interaction_requests_per_second" for s in samples)


async def _forget(played: SoloSession) -> None:
    """Alice leaves the table (a seated member cannot forget) and uses /ddz forget."""
    emu, alice, result = played.emu, played.alice, played.result
    leave = next(b["custom_id"] for b in result.buttons if b.get("label") == "Leave")
    ix = await alice.click(result, leave)
    await emu.wait_until(lambda: ix.response_type is not None, timeout=15, what="Leave")
    for _ in range(30):
        confirm = await finished(await alice.slash("ddz forget"), timeout=15)
        assert confirm.message is not None
        yes = [b["custom_id"] for b in confirm.message.buttons
               if b.get("custom_id", "").endswith(":yes")]
        if yes:
            await finished(await alice.click(confirm.message, yes[0]), timeout=15)
            return
        await asyncio.sleep(0.5)  # the Leave is still on its way
    raise AssertionError(reply_text(confirm))


async def test_config_web_on_shows_the_standings_link_forget_and_off_empty_it(
        played: SoloSession) -> None:
    emu = played.emu
    admin = emu.member(name="dora", manage_guild=True)
    shown = reply_text(await finished(await admin.slash("ddz config")))
    assert "Web page: off" in shown, shown
    saved = reply_text(await finished(await admin.slash("ddz config", web="on")))
    match = re.search(rf"Web page: (http://127\.0\.0\.1:{PORT}(/s/[A-Za-z0-9_-]{{27}}))", saved)
    assert match is not None, saved
    status, html = await _get(match[2])
    assert status == 200 and ">Alice</a>" in html
    await _forget(played)
    status, html = await _get(match[2])
    assert status == 200 and "Alice" not in html  # at once: the page cache was dropped
    saved = reply_text(await finished(await admin.slash("ddz config", web="off")))
    assert "Web page: off" in saved
    assert (await _get(match[2]))[0] == 404
