"""The web page over HTTP: replays, 404s, safety (traversal, huge ids, a flood), health
and metrics, the cache and ``/ddz forget``."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from types import SimpleNamespace

import aiohttp
import discord
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.game.hand import Hand
from bot.game.replay import replay as replay_steps
from bot.i18n import t
from bot.service.health import database_problem
from bot.service.metrics import METRICS, Metrics, TimedRepository
from bot.storage import open_repository
from bot.web import app as web_app
from bot.web.guard import RateLimit
from cogs import metering
from cogs.items import click_kind
from tests.support.fake_records import Records
from tests.support.locales import throwaway_locales
from tests.support.web_pages import GUILD, running_site, settled


async def get(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    async with aiohttp.ClientSession() as session, session.get(
            url, headers=headers, allow_redirects=False) as response:
        return response.status, dict(response.headers), await response.read()


async def test_a_replay_page_has_every_step_and_a_preview() -> None:
    record = settled(3, 1)
    async with running_site(Records(record)) as (base, _, links):
        token = links.replay_token(GUILD, 1)
        status, headers, body = await get(f"{base}/r/{token}")
        html = body.decode()
        assert status == 200 and headers["Content-Type"].startswith("text/html")
        steps = replay_steps(Hand.model_validate_json(record.hand_json))
        assert html.count('<section class="step') == len(steps)
        tricks = [s for s in steps if s.kind == "trick"]
        assert f"Trick {len(tricks)} of {len(tricks)}" in html
        assert '<meta property="og:title" content="Dou Dizhu · hand #1">' in html
        image = re.search(r'<meta property="og:image" content="([^"]+)"', html)
        assert image is not None and image.group(1) == f"{base}/r/{token}/card.png?lang=en"
        status, headers, png = await get(image.group(1))
        assert status == 200 and headers["Content-Type"] == "image/png"
        assert png.startswith(b"\x89PNG")
        assert "Ana" in html and "Carmen" in html


async def test_spanish_from_accept_language_or_the_query() -> None:
    async with running_site(Records(settled(3, 1))) as (base, _, links):
        url = f"{base}/r/{links.replay_token(GUILD, 1)}"
        _, _, es = await get(url, **{"Accept-Language": "fr;q=0.9, es-ES;q=0.8, en;q=0.1"})
        assert '<html lang="es"' in es.decode() and "El reparto" in es.decode()
        _, _, en = await get(url + "?lang=en", **{"Accept-Language": "es"})
        assert '<html lang="en"' in en.decode() and "The deal" in en.decode()
        # the jokers' cards are labelled as the bot's texts name them (docs/RULES.md §Notation)
        assert 'aria-label="comodín grande"' in es.decode() and 'aria-label="big joker"' in en.decode()



async def test_chinese_pages_in_each_script_link_both() -> None:
    async with running_site(Records(settled(3, 1))) as (base, _, links):
        url = f"{base}/r/{links.replay_token(GUILD, 1)}"
        for lang, header in (("zh_CN", "zh-CN,zh;q=0.9"), ("zh_TW", "zh-Hant-TW")):
            _, _, body = await get(url, **{"Accept-Language": header})
            html = body.decode()
            assert f'<html lang="{lang.replace("_", "-")}"' in html, lang
            assert t("web.step_deal", lang) in html and "The deal" not in html, lang
            assert 'aria-label="大王"' in html and 'aria-label="big joker"' not in html, lang
            assert 'href="?lang=zh_CN"' in html and 'href="?lang=zh_TW"' in html
            image = re.search(r'<meta property="og:image" content="([^"]+)"', html)
            assert image is not None and image.group(1).endswith(f"?lang={lang}")


@pytest.mark.parametrize("header, lang", [("", "en"), ("es", "es"), ("de, es;q=0.5", "es"),
                                          ("en;q=0.2, es;q=0.9", "es"), ("es;q=0, en", "en"),
                                          ("es;q=bad", "en"), ("x" * 5000, "en")])
def test_the_language_follows_accept_language_by_q(header: str, lang: str) -> None:
    request = SimpleNamespace(query={}, headers={"Accept-Language": header})
    assert web_app.choose_language(request) == lang  # type: ignore[arg-type]


@pytest.mark.parametrize("query, header, lang", [
    ("zh_TW", "", "zh_TW"), ("zh-cn", "es", "zh_CN"), ("fr", "zh-Hant-HK, en;q=0.5", "zh_TW"),
    ("", "zh, es;q=0.5", "zh_CN"), ("", "zh-TW;q=0.3, es;q=0.5", "es"), ("", "ja", "en")])
def test_chinese_pages_follow_the_query_or_the_browsers_script(
        query: str, header: str, lang: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    request = SimpleNamespace(query={"lang": query}, headers={"Accept-Language": header})
    with throwaway_locales(tmp_path, monkeypatch, {"zh_CN": {}, "zh_TW": {}}):
        assert web_app.choose_language(request) == lang  # type: ignore[arg-type]


async def test_tampered_unknown_and_foreign_ids_are_the_same_404_page() -> None:
    async with running_site(Records(settled(3, 1), settled(4, 1, guild_id=77))) as (
            base, _, links):
        good = links.replay_token(GUILD, 1)
        tampered = good[:5] + ("B" if good[5] != "B" else "C") + good[6:]
        for token in (tampered, links.replay_token(GUILD, 2), links.replay_token(99, 1),
                      links.server_token(GUILD), "x"):
            status, headers, body = await get(f"{base}/r/{token}")
            assert status == 404 and b"Page not found" in body, token
            assert b"Traceback" not in body and headers["Content-Type"].startswith("text/html")
        status, _, _ = await get(f"{base}/r/{links.replay_token(77, 1)}")
        assert status == 200  # the other server's hand has its own genuine link


async def test_a_hand_without_a_recorded_channel_has_no_page() -> None:
    # Issue 26 §3: only Share (in the hand's channel) makes a link; a hand settled before
    # hands recorded their channel could not be shared, so even a genuine link opens nothing.
    async with running_site(Records(settled(3, 1, channel_id=None))) as (base, _, links):
        status, _, body = await get(f"{base}/r/{links.replay_token(GUILD, 1)}")
        assert status == 404 and b"Page not found" in body


@pytest.mark.parametrize("path", [
    "/static/../site.py", "/static/%2e%2e/site.py", "/static/..%2fsite.py",
    "/static/%2e%2e%2f%2e%2e%2fsettings.py", "/r/../../etc/passwd", "/static/",
    "/static/../../../../etc/passwd", "/templates/base.html", "/r/%00", "/.env",
])
async def test_path_traversal_finds_nothing(path: str) -> None:
    async with running_site(Records()) as (base, _, _):
        status, _, body = await get(base + path)
        assert status in (403, 404), status
        assert b"import" not in body and b"root:" not in body and b"{%" not in body


async def test_a_missing_static_file_is_the_404_page_and_counted_as_404() -> None:
    """aiohttp's static route answered an empty application/octet-stream 404, counted as
    200 in /metrics (the handler's FileResponse learnt of the missing file only later)."""
    metrics = Metrics()
    async with running_site(Records(), metrics=metrics) as (base, _, _):
        for path in ("/static/missing.css", "/static/site.css.map", "/static/replay.js.bak",
                     "/static/sub/site.css", "/static/.site.css"):
            status, headers, body = await get(base + path)
            assert status == 404, path
            assert headers["Content-Type"] == "text/html; charset=utf-8", path
            assert b'<html lang="en"' in body, path
        status, headers, body = await get(f"{base}/static/site.css")
        assert status == 200 and headers["Content-Type"].startswith("text/css")
        assert body == (web_app.STATIC / "site.css").read_bytes()
        status, headers, _ = await get(f"{base}/static/replay.js")
        assert status == 200 and "javascript" in headers["Content-Type"]
        async with aiohttp.ClientSession() as session, session.head(
                f"{base}/static/site.css") as response:
            assert response.status == 200
        _, _, text = await get(f"{base}/metrics")
    samples = {(s.name, tuple(sorted(s.labels.items()))): s.value
               for family in text_string_to_metric_families(text.decode())
               for s in family.samples}
    assert samples[("ddz_web_requests_total", (("page", "static"), ("status", "404")))] == 4
    assert samples[("ddz_web_requests_total", (("page", "other"), ("status", "404")))] == 1
    assert samples[("ddz_web_requests_total", (("page", "static"), ("status", "200")))] == 3


async def test_huge_ids_are_refused_without_a_stack_trace() -> None:
    async with running_site(Records(settled(3, 1))) as (base, _, _):
        for size in (49, 300, 5_000, 7_000):
            status, _, body = await get(f"{base}/r/{'A' * size}")
            assert status in (404, 414, 400) and b"Traceback" not in body, size
        status, _, _ = await get(f"{base}/r/{'A' * 200_000}")
        assert status in (400, 414, 431)  # refused by the HTTP parser itself


async def test_a_flood_from_one_address_is_limited_and_others_are_served() -> None:
    now = [0.0]
    limit = RateLimit(burst=10, per_second=1.0, clock=lambda: now[0])
    async with running_site(Records(settled(3, 1)), limit=limit) as (base, site, links):
        url = f"{base}/r/{links.replay_token(GUILD, 1)}"
        async with aiohttp.ClientSession() as session:
            async def one(address: str) -> int:
                async with session.get(url, headers={"X-Forwarded-For": address}) as r:
                    await r.read()
                    return r.status

            flood = await asyncio.gather(*(one("203.0.113.9") for _ in range(60)))
            assert sorted(flood) == [200] * 10 + [429] * 50
            assert site.built == 2  # the replay page built once, the 429 page once
            assert await one("198.51.100.1") == 200
            now[0] += 3.0  # three tokens back
            assert [await one("203.0.113.9") for _ in range(4)] == [200, 200, 200, 429]
            async with session.get(url, headers={"X-Forwarded-For": "203.0.113.9"}) as r:
                assert r.headers["Retry-After"] == "5" and b"Too many requests" in await r.read()


async def test_many_addresses_together_get_a_quick_503_beyond_the_total_limit() -> None:
    now = [0.0]
    total = RateLimit(burst=5, per_second=2.0, clock=lambda: now[0], size=1)
    async with running_site(Records(settled(3, 1)), total=total) as (base, site, links):
        url = f"{base}/r/{links.replay_token(GUILD, 1)}"
        async with aiohttp.ClientSession() as session:
            async def one(address: str) -> tuple[int, str]:
                async with session.get(url, headers={"X-Forwarded-For": address}) as r:
                    return r.status, r.headers.get("Retry-After", "")

            answers = [await one(f"192.0.2.{i}") for i in range(8)]
            assert answers == [(200, "")] * 5 + [(503, "1")] * 3
            now[0] += 1.0
            assert [await one("192.0.2.99") for _ in range(3)] == [(200, "")] * 2 + [(503, "1")]
        assert site.built == 1


async def test_every_answer_has_the_security_headers_no_cookie_and_only_get() -> None:
    async with running_site(Records(settled(3, 1))) as (base, _, links):
        for path in (f"/r/{links.replay_token(GUILD, 1)}", "/nowhere", "/healthz",
                     "/static/site.css"):
            status, headers, _ = await get(base + path)
            csp = headers["Content-Security-Policy"]
            assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp
            assert "unsafe-inline" not in csp
            assert headers["X-Content-Type-Options"] == "nosniff"
            assert "Set-Cookie" not in headers
        async with aiohttp.ClientSession() as session:
            for method in ("POST", "PUT", "DELETE", "PATCH"):
                async with session.request(method, f"{base}/healthz", data=b"x") as r:
                    assert r.status == 405 and r.headers["Allow"] == "GET, HEAD"


async def test_healthz_is_200_when_healthy_and_503_with_one_line_otherwise(
        monkeypatch: pytest.MonkeyPatch) -> None:
    state: dict[str, str | None] = {"reason": None}

    async def health() -> str | None:
        if state["reason"] == "slow":
            await asyncio.sleep(5)
        return state["reason"]

    monkeypatch.setattr(web_app, "HEALTH_TIMEOUT", 0.2)
    async with running_site(Records(), health=health) as (base, _, _):
        assert (await get(f"{base}/healthz"))[::2] == (200, b"ok\n")
        state["reason"] = "the database does not answer: OperationalError\nsecond line"
        status, headers, body = await get(f"{base}/healthz")
        assert status == 503 and body == b"the database does not answer: OperationalError\n"
        assert headers["Cache-Control"] == "no-store"
        state["reason"] = "slow"
        assert (await get(f"{base}/healthz"))[::2] == (
            503, b"the health check took longer than 0.2 s\n")


async def test_the_database_probe_names_a_closed_database(tmp_path: Path) -> None:
    storage = await open_repository(str(tmp_path / "ddz.sqlite3"))
    assert await database_problem(storage) is None
    await storage.close()
    problem = await database_problem(storage)
    assert problem is not None and problem.startswith("the database does not answer: ")
    assert await database_problem(None) == "the database is closed"


async def test_metrics_parse_and_count_what_happened() -> None:
    metrics = Metrics()
    metrics.watch_open_tables(lambda: 7)
    metrics.watch_queue("render", lambda: 3)
    metrics.answered("hplay", "answered", 0.04)
    metrics.answered("/score", "deferred", 0.3)
    metrics.ended("hplay", "refused")
    metrics.count_global_request(2)
    metrics.budget_lease(True)
    metrics.budget_lease(False)
    metrics.budget_lease(True)

    class Store:
        async def get_settings(self, guild_id: int) -> int:
            return guild_id

    timed = TimedRepository(Store(), metrics)
    assert await timed.get_settings(5) == 5
    async with running_site(Records(), metrics=metrics) as (base, _, _):
        await get(f"{base}/nowhere")
        status, headers, body = await get(f"{base}/metrics")
    assert status == 200 and headers["Content-Type"].startswith("text/plain; version=0.0.4")
    samples = {(s.name, tuple(sorted(s.labels.items()))): s.value
               for family in text_string_to_metric_families(body.decode())
               for s in family.samples}
    assert samples[("ddz_open_tables", ())] == 7
    assert samples[("ddz_worker_queue_length", (("pool", "render"),))] == 3
    assert samples[("ddz_interactions_total", (("kind", "hplay"), ("outcome", "answered")))] == 1
    assert samples[("ddz_interactions_total", (("kind", "hplay"), ("outcome", "refused")))] == 1
    assert samples[("ddz_answer_seconds_bucket", (("kind", "/score"), ("le", "0.2")))] == 0
    assert samples[("ddz_answer_seconds_bucket", (("kind", "/score"), ("le", "0.3")))] == 1
    assert samples[("ddz_global_requests_total", ())] == 2
    assert samples[("ddz_global_budget_leases_total", (("outcome", "ok"),))] == 2
    assert samples[("ddz_global_budget_leases_total", (("outcome", "failed"),))] == 1
    assert samples[("ddz_database_seconds_count", (("operation", "get_settings"),))] == 1
    assert samples[("ddz_web_requests_total", (("page", "other"), ("status", "404")))] == 1


def _interaction(kind: discord.InteractionType, custom_id: str = "",
                 command: str | None = None) -> SimpleNamespace:
    return SimpleNamespace(type=kind, data={"custom_id": custom_id}, extras={},
                           command=SimpleNamespace(name=command) if command else None)


@pytest.mark.parametrize("custom_id, kind", [
    ("ddz:t1a2:5:hplay.12.r0", "hplay"), ("ddz:t1a2:5:join", "join"),
    ("ddz:rp:12:3:pnext", "replay"), ("ddzforget:1:yes", "forget"),
    ("ddznew:1:2:no", "newmatch"), ("weird", "other"), ("ddz:x:1:<script>", "other"),
])
def test_an_interaction_kind_is_a_verb_never_an_id(custom_id: str, kind: str) -> None:
    # The kind is the router's (cogs.items.click_kind, stamped on the click), read back by
    # the metrics; an unrouted component is "other" (issue 34 §1: one parse of the id).
    assert click_kind(custom_id) == kind
    stamped = _interaction(discord.InteractionType.component, custom_id)
    stamped.extras[metering.KIND] = click_kind(custom_id)
    assert metering.kind_of(stamped) == kind  # type: ignore[arg-type]
    assert metering.kind_of(_interaction(discord.InteractionType.component,
                                         custom_id)) == "other"  # type: ignore[arg-type]


def test_the_first_response_counts_once_with_its_time() -> None:
    interaction = _interaction(discord.InteractionType.application_command, command="score")
    interaction.extras[metering.ARRIVED] = __import__("time").perf_counter() - 0.05
    before = METRICS.answer_seconds.labels("/score")._sum.get()
    metering.first_response(interaction, "deferred")  # type: ignore[arg-type]
    metering.first_response(interaction, "answered")  # type: ignore[arg-type]
    assert METRICS.interactions.labels("/score", "answered")._value.get() == 0
    spent = METRICS.answer_seconds.labels("/score")._sum.get() - before
    assert 0.05 <= spent < 1.0
    metering.first_response(SimpleNamespace(), "answered")  # type: ignore[arg-type]


async def test_pages_are_cached_and_forget_drops_them() -> None:
    record = settled(3, 1)
    storage = Records(record)
    async with running_site(storage) as (base, site, links):
        url = f"{base}/r/{links.replay_token(GUILD, 1)}"
        first = (await get(url))[2]
        await get(url)
        assert site.built == 1 and b"Ana" in first
        # /ddz forget: the stored hand keeps its points, the name becomes "?"
        changes = [c.model_copy(update={"name": "?", "user_id": None}) if c.user_id == 101
                   else c for c in record.settlement.changes]
        storage.records[0] = record.model_copy(update={
            "settlement": record.settlement.model_copy(update={"changes": changes}),
            "user_ids": (None, None, 103)})
        assert b"Ana" in (await get(url))[2]  # cached
        site.drop_guild(GUILD)
        after = (await get(url))[2]
        assert b"Ana" not in after and b'<span class="name">?</span>' in after
        assert site.built == 2
