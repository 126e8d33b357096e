"""The web client's drawing and components, on the sandbox's web app with no bot behind
it: messages are put into the loopback Discord directly, the page is Debian's chromium
(Playwright), and what the page sends is read back from the loopback's interactions."""

from __future__ import annotations

import asyncio
import io
import json
import socket
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from PIL import Image

from sandbox.loopback.messages import new_message
from sandbox.web import SandboxEmulator, WebClient
from sandbox.world import World, build_world
from tests.support.chromium import BROWSER_ARGS, CHROMIUM, require_chromium

playwright_api = pytest.importorskip("playwright.async_api")
expect = playwright_api.expect

require_chromium()


def png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (120, 60), (30, 120, 60)).save(out, "PNG")
    return out.getvalue()


CARDS = [{"label": label, "value": str(k)} for k, label in enumerate(["3♠", "5♥", "9♦", "K♣"])]
COMPONENTS = [
    {"type": 1, "components": [
        {"type": 3, "custom_id": "pick", "min_values": 1, "max_values": 3,
         "placeholder": "Choose cards", "options": CARDS}]},
    {"type": 1, "components": [
        {"type": 2, "style": 1, "label": "Play", "custom_id": "play"},
        {"type": 2, "style": 2, "label": "Pass", "custom_id": "pass", "disabled": True},
        {"type": 2, "style": 3, "label": "Auto", "custom_id": "auto", "emoji": {"name": "⏩"}},
        {"type": 2, "style": 4, "label": "Leave", "custom_id": "leave"},
        {"type": 2, "style": 5, "label": "Rules", "url": "https://example.invalid/rules"}]},
]


@pytest.fixture
async def client() -> AsyncIterator[tuple[World, str]]:
    emu = SandboxEmulator()
    emu.response_deadline = 0.3  # no bot answers here: "This interaction failed" soon
    world = build_world(emu, members=2)
    app = WebClient(world, emu)
    await emu.start()
    runner = web.AppRunner(app.app, shutdown_timeout=0.5)
    await runner.setup()
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    await web.SockSite(runner, sock).start()
    try:
        yield world, f"http://127.0.0.1:{sock.getsockname()[1]}/"
    finally:
        await runner.cleanup()
        await emu.close()


@pytest.fixture
async def page() -> AsyncIterator[Any]:
    async with playwright_api.async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        yield await browser.new_page(viewport={"width": 1280, "height": 900})
        await browser.close()


async def test_embeds_images_buttons_and_a_multi_select_as_discord_shows_them(
        client: tuple[World, str], page: Any) -> None:
    world, url = client
    emu, alice = world.emu, world.members[0]
    channel = world.channels[0]
    msg = new_message(emu, channel, {
        "content": f"**Dou Dizhu** · your turn, <@{alice.id}>",
        "embeds": [{"title": "Scores", "color": 0x2E8B57, "description": "Alice `+8`",
                    "image": {"url": "attachment://hand.png"}}],
        "attachments": [{"id": 0, "filename": "hand.png", "description": "Your hand: 3 5 9 K"}],
        "components": COMPONENTS}, {0: ("hand.png", png())}, visible_to=None, interaction=None)
    await page.goto(url)
    view = page.locator(f"#m{msg.id}")
    await expect(view.locator(".content strong")).to_have_text("Dou Dizhu")
    await expect(view.locator(".mention.me")).to_have_text("@Alice")
    await expect(view.locator(".embed-title")).to_have_text("Scores")
    assert "rgb(46, 139, 87)" in await view.locator(".embed").evaluate(
        "e => getComputedStyle(e).borderLeftColor")
    image = view.locator(".embed-image img")
    await expect(image).to_have_attribute("alt", "Your hand: 3 5 9 K")
    assert await image.evaluate("i => i.complete && i.naturalWidth") == 120
    await image.hover()
    await expect(view.locator(".alt-text")).to_be_visible()
    await expect(view.locator(".alt-text")).to_have_text("Your hand: 3 5 9 K")
    assert [await b.get_attribute("class") for b in await view.locator(".btn").all()] == [
        "btn s1", "btn s2", "btn s3", "btn s4", "btn s5"]
    await expect(view.get_by_role("button", name="Pass")).to_be_disabled()
    await expect(view.locator(".btn.s3 .emoji")).to_have_text("⏩")
    link = view.get_by_role("link", name="Rules")
    await expect(link).to_have_attribute("href", "https://example.invalid/rules")

    await view.locator(".select-box").click()  # several values: sent when the menu closes
    for label in ("5♥", "K♣"):
        await view.locator(".select-menu li", has_text=label).click()
    await expect(view.locator(".select-menu li.chosen")).to_have_count(2)
    await page.locator("#channel-header").click()
    await expect(view.locator(".failed")).to_have_text("This interaction failed")
    picked = emu.interactions[-1]
    assert (picked.member, picked.data) == (
        alice, {"custom_id": "pick", "component_type": 3, "values": ["1", "3"]})

    await view.get_by_role("button", name="Play").click()
    await expect(page.locator(f"#m{msg.id} .failed")).to_be_visible()
    assert emu.interactions[-1].data == {"custom_id": "play", "component_type": 2}
    await view.get_by_role("button", name="Pass").click(force=True)  # disabled: nothing sent
    assert len(emu.interactions) == 2


async def test_edits_deletions_and_another_members_ephemeral_message_live(
        client: tuple[World, str], page: Any) -> None:
    world, url = client
    emu, (alice, bob) = world.emu, world.members
    channel = world.channels[0]
    await page.goto(url + f"?member={alice.id}")
    await expect(page.locator(".empty")).to_be_visible()
    public = new_message(emu, channel, {"content": "Table open"}, {}, visible_to=None,
                         interaction=None)
    mine = new_message(emu, channel, {"content": "Your hand: 33"}, {}, visible_to=alice,
                       interaction=None)
    bobs = new_message(emu, channel, {"content": "Your hand: KK"}, {}, visible_to=bob,
                       interaction=None)
    await expect(page.locator(f"#m{public.id}")).to_contain_text("Table open")
    await expect(page.locator(f"#m{mine.id}")).to_contain_text("Only you can see this")
    public.content, public.edited_at = "Table open · hand #1", "2026-01-01T00:00:00+00:00"
    public.history.append({})
    emu.notify()
    await expect(page.locator(f"#m{public.id} .content")).to_have_text("Table open · hand #1(edited)")
    mine.deleted = True
    emu.notify()
    await expect(page.locator(f"#m{mine.id}")).to_have_count(0)
    assert await page.locator(f"#m{bobs.id}").count() == 0
    assert "KK" not in await page.content()
    await page.select_option("#member", label="Bob")
    await expect(page.locator(f"#m{bobs.id}")).to_contain_text("Your hand: KK")
    await expect(page.locator(f"#m{public.id}")).to_be_visible()


async def test_a_command_the_client_would_refuse_is_shown_and_sends_nothing(
        client: tuple[World, str], page: Any) -> None:
    world, url = client
    await page.goto(url)
    await expect(page.locator("body[data-ready]")).to_have_count(1)  # keys wired
    await page.locator("#input").fill("/nothing here")
    await page.locator("#input").press("Enter")
    await expect(page.locator("#notice")).to_have_text("/nothing is not a command of this server")
    assert world.emu.interactions == []


async def test_seven_tabs_at_once_all_answer(client: tuple[World, str]) -> None:
    """Issue 37 §3: each tab's event stream held one of the browser's six HTTP/1.1
    connections to the host, so a seventh tab (and every request after) hung. Seven tabs
    of one browser profile: each shows a new message and each one's click arrives."""
    world, url = client
    emu, channel = world.emu, world.channels[0]
    async with playwright_api.async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        context = await browser.new_context(viewport={"width": 800, "height": 600})
        tabs = []
        for _ in range(7):
            tab = await context.new_page()
            await tab.goto(url, wait_until="commit")
            tabs.append(tab)
        for tab in tabs:
            await expect(tab.locator(".empty")).to_be_visible(timeout=10_000)
        msg = new_message(emu, channel, {"content": "Seven tabs", "components": COMPONENTS[1:]},
                          {}, visible_to=None, interaction=None)
        for tab in tabs:
            await expect(tab.locator(f"#m{msg.id}")).to_contain_text("Seven tabs", timeout=10_000)
        for tab in tabs:
            await tab.locator(f"#m{msg.id}").get_by_role("button", name="Play").click()
            await expect(tab.locator(f"#m{msg.id} .failed")).to_be_visible(timeout=10_000)
        assert len(emu.interactions) == 7
        await browser.close()


async def test_an_animated_gif_shows_inline_and_dates_follow_the_discord_language(
        client: tuple[World, str], page: Any) -> None:
    """Issue 37 §6: the GIF was a file link, and dates came in the browser's language."""
    world, url = client
    emu, alice, channel = world.emu, world.members[0], world.channels[0]
    gif = io.BytesIO()
    Image.new("RGB", (40, 20), (200, 30, 30)).save(gif, "GIF")
    msg = new_message(emu, channel, {"content": "<t:1767268800:D>", "attachments": [
        {"id": 0, "filename": "hand.gif", "description": "Every play"}]},
        {0: ("hand.gif", gif.getvalue())}, visible_to=None, interaction=None)
    await page.goto(url)
    image = page.locator(f"#m{msg.id} .attachments img")
    await expect(image).to_have_attribute("alt", "Every play")
    assert await image.evaluate("i => i.complete && i.naturalWidth") == 40
    await expect(page.locator(f"#m{msg.id} .ts")).to_have_text("January 1, 2026")
    await page.select_option("#locale", "es-ES")
    await expect(page.locator(f"#m{msg.id} .ts")).to_have_text("1 de enero de 2026")
    assert alice.locale == "es-ES"


async def test_the_event_stream_carries_no_other_members_ephemeral_message(
        client: tuple[World, str]) -> None:
    world, url = client
    emu, (alice, bob) = world.emu, world.members
    channel = world.channels[0]
    bobs = new_message(emu, channel, {"content": "Your hand: KK"}, {}, visible_to=bob,
                       interaction=None)
    query = f"api/events?member={alice.id}&channel={channel.id}"
    seen: list[dict[str, Any]] = []
    async with aiohttp.ClientSession() as http, http.get(url + query) as stream:
        later = new_message(emu, channel, {"content": "Your hand: 33"}, {}, visible_to=bob,
                            interaction=None)
        last = new_message(emu, channel, {"content": "Table open"}, {}, visible_to=None,
                           interaction=None)
        async with asyncio.timeout(10):
            async for raw in stream.content:
                if raw.startswith(b"data: "):
                    seen.append(json.loads(raw[6:]))
                    if str(last.id) in json.dumps(seen[-1]):
                        break
    ids = [m["id"] for e in seen for m in e.get("reset", [])] + [
        e["upsert"]["id"] for e in seen if "upsert" in e]
    assert ids == [str(last.id)]
    assert str(bobs.id) not in json.dumps(seen) and str(later.id) not in json.dumps(seen)


async def test_a_member_switched_to_spanish_gets_spanish_commands_and_words(
        client: tuple[World, str], page: Any) -> None:
    world, url = client
    alice = world.members[0]
    world.emu.commands.bulk_overwrite(world.emu.default_guild.id, [{
        "name": "ddz", "description": "Dou Dizhu", "options": [{
            "type": 1, "name": "start", "name_localizations": {"es-ES": "empezar"},
            "description": "Open a table",
            "description_localizations": {"es-ES": "Abre una mesa"}}]}])
    await page.goto(url)
    await expect(page.locator("body[data-ready]")).to_have_count(1)  # keys wired
    await page.locator("#input").fill("/ddz")
    await expect(page.locator("#suggestions .item .name")).to_have_text(["/ddz start"])
    await page.select_option("#locale", "es-ES")
    await expect(page.locator("#input")).to_have_attribute("placeholder", "Enviar mensaje a #ddz")
    assert alice.locale == "es-ES"
    await page.locator("#input").fill("/ddz")
    await page.locator("#input").press("End")
    await page.locator("#input").type(" ")
    await page.locator("#input").press("Backspace")
    await expect(page.locator("#suggestions .item .name")).to_have_text(["/ddz empezar"])
    await expect(page.locator("#suggestions .item .desc")).to_have_text(["Abre una mesa"])


@pytest.mark.parametrize(("locale", "label", "placeholder", "channels", "command", "desc"), [
    ("zh-CN", "中文 (简体)", "发消息到 #ddz", "文字频道", "/ddz 开始", "开一张桌子"),
    ("zh-TW", "中文 (繁體)", "傳送訊息到 #ddz", "文字頻道", "/ddz 開始", "開一張桌子"),
])
async def test_a_member_picks_chinese_and_the_page_and_commands_follow(
        client: tuple[World, str], page: Any, locale: str, label: str, placeholder: str,
        channels: str, command: str, desc: str) -> None:
    # Issue 51: 中文 (简体 / 繁體) in the language picker; Discord's own words follow.
    world, url = client
    alice = world.members[0]
    world.emu.commands.bulk_overwrite(world.emu.default_guild.id, [{
        "name": "ddz", "description": "Dou Dizhu", "options": [{
            "type": 1, "name": "start", "description": "Open a table",
            "name_localizations": {"zh-CN": "开始", "zh-TW": "開始"},
            "description_localizations": {"zh-CN": "开一张桌子", "zh-TW": "開一張桌子"}}]}])
    await page.goto(url)
    await expect(page.locator(f"#locale option[value={locale}]")).to_have_text(label)
    await page.select_option("#locale", locale)
    await expect(page.locator("#input")).to_have_attribute("placeholder", placeholder)
    await expect(page.locator(".sidebar-title").first).to_have_text(channels)
    assert alice.locale == locale
    assert await page.evaluate("document.documentElement.lang") == locale
    await page.locator("#input").fill("/ddz")
    await page.locator("#input").press("End")
    await page.locator("#input").type(" ")
    await page.locator("#input").press("Backspace")
    await expect(page.locator("#suggestions .item .name")).to_have_text([command])
    await expect(page.locator("#suggestions .item .desc")).to_have_text([desc])
    font = await page.evaluate("fetch('/fonts/cjk.ttf').then(r => r.status)")
    assert font == 200  # the page's last resort for Chinese on a machine without a font


@pytest.mark.parametrize("lang", ["zh-CN", "zh-TW"])
def test_lang_chinese_makes_a_chinese_server_and_members(lang: str) -> None:
    world = build_world(SandboxEmulator(guild_locale=lang), members=3, lang=lang)
    assert world.emu.default_guild.locale == lang
    assert {m.locale for m in world.members} == {lang}


CJK_FACES = ("Droid Sans Fallback", "Noto Sans CJK", "Microsoft YaHei", "PingFang")


async def test_chinese_in_code_is_drawn_with_a_chinese_font(
        client: tuple[World, str], page: Any) -> None:
    """A Chinese result names its commands in code (`/ddz 回放 1`): the code font's list
    had no Chinese face, so on a machine without a Chinese font they were boxes. Which
    faces chromium really drew the code with is its own report (CSS.getPlatformFontsForNode)."""
    world, url = client
    msg = new_message(world.emu, world.channels[0], {
        "content": "本服务器第1局：`/ddz 回放 1` 重看"}, {}, visible_to=None, interaction=None)
    await page.goto(url)
    code = page.locator(f"#m{msg.id} .content code")
    await expect(code).to_have_text("/ddz 回放 1")
    await page.evaluate("document.fonts.ready")
    cdp = await page.context.new_cdp_session(page)
    await cdp.send("DOM.enable")
    await cdp.send("CSS.enable")
    root = await cdp.send("DOM.getDocument", {"depth": -1})
    node = await cdp.send("DOM.querySelector", {"nodeId": root["root"]["nodeId"],
                                                "selector": f"#m{msg.id} .content code"})
    fonts = (await cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node["nodeId"]}))["fonts"]
    chinese = sum(f["glyphCount"] for f in fonts if f["familyName"].startswith(CJK_FACES))
    assert chinese == 2, fonts  # 回 and 放
