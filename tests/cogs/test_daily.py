"""``/ddz daily`` on the fake Discord: the private view, refusals that change nothing,
the settings it adds to ``/ddz config``, the line in ``/ddz stats`` (docs/RULES.md §Daily deal)."""

from __future__ import annotations

import copy
import json
import re
import time
from typing import Any

import pytest

from bot.features.daily.cog import post_day
from bot.features.daily.service import DailyService
from bot.features.daily.values import DailySettings
from bot.i18n import t
from bot.service import SystemClock
from tests.support.fake_discord import FakeDiscord, Member

CUSTOM_ID_MAX = 100


async def daily_view(fake: FakeDiscord, member: Member) -> Member:
    reply = await member.slash("daily")
    view = reply.last
    assert view.ephemeral and "Daily deal of" in view.content, view.content
    assert "You're the landlord at bid 3 with the kitty" in view.content
    assert all(len(cid) <= CUSTOM_ID_MAX for cid in view.custom_ids())
    assert view.attachments and view.attachments[0].get("description")  # alt text
    return view  # type: ignore[return-value]


async def test_another_members_daily_table_refuses_forged_ids_politely(fake: FakeDiscord) -> None:
    admin = Member(fake, 44, "Di", admin=True)
    await admin.slash("config", daily_level="normal")
    ana, bo = Member(fake, 11, "Ana"), Member(fake, 22, "Bo")
    await daily_view(fake, ana)
    bo_view = await daily_view(fake, bo)
    tables = {t.seats[0].user_id: t for t in fake.bot.service.tables() if t.kind == "daily"}
    assert set(tables) == {ana.id, bo.id}
    ana_table, bo_table = tables[ana.id], tables[bo.id]
    assert not fake.public()  # no channel message for either
    answers = set()
    original = copy.deepcopy(bo_view)  # each answer replaces Bo's view
    menus = {c["custom_id"] for row in original.components for c in row.get("components", [])
             if c.get("type") == 3}  # select menus need values: a client sends none without
    buttons = [cid for cid in original.custom_ids() if cid not in menus]
    for custom_id in buttons:  # a modified client: Ana's table in Bo's ids
        forged_view = copy.deepcopy(original)
        forged = custom_id.replace(bo_table.id, ana_table.id)
        assert forged != custom_id
        forged_view.components = json.loads(
            json.dumps(original.components).replace(bo_table.id, ana_table.id))
        reply = await bo.click(forged_view, forged)
        answers.add((reply.text or fake.messages[bo_view.id].content).splitlines()[-1])
        assert all(m.ephemeral for m in reply.messages)
    for row in original.components:  # and each select menu, with a value it offers
        for menu in [c for c in row.get("components", []) if c.get("type") == 3]:
            forged_view = copy.deepcopy(original)
            forged_view.components = json.loads(
                json.dumps(original.components).replace(bo_table.id, ana_table.id))
            forged = menu["custom_id"].replace(bo_table.id, ana_table.id)
            reply = await bo.click(forged_view, forged, [menu["options"][0]["value"]])
            answers.add((reply.text or fake.messages[bo_view.id].content).splitlines()[-1])
    assert answers <= {"You're not seated at this table.",
                       "That button is out of date: the table has moved on."}, answers
    assert fake.bot.service.get(ana_table.id) == ana_table  # nothing changed
    again = await ana.slash("daily")  # Ana's own table, as she left it
    assert "goes on" in again.last.content and again.last.ephemeral


async def test_config_sets_the_zone_level_and_channel(fake: FakeDiscord) -> None:
    admin = Member(fake, 44, "Di", admin=True)
    refused = await admin.slash("config", timezone="Mars/Olympus_Mons")
    assert refused.last.ephemeral and "Unknown time zone" in refused.text, refused.text
    assert (await fake.bot.service.settings(fake.guild_id)).timezone is None
    saved = await admin.slash("config", timezone="Asia/Tokyo", daily_level="easy")
    text = saved.last.embeds[0]["description"]
    assert "Daily deal's day: Asia/Tokyo" in text and "Daily deal's computers: easy" in text
    settings = await fake.bot.service.settings(fake.guild_id)
    assert (settings.timezone, DailySettings.of(settings).level) == ("Asia/Tokyo", "easy")
    # playtest: a person types the zone in lower case; it was refused as unknown
    typed = await admin.slash("config", timezone=" asia/shanghai")
    assert "Daily deal's day: Asia/Shanghai" in typed.last.embeds[0]["description"], typed.text
    assert (await fake.bot.service.settings(fake.guild_id)).timezone == "Asia/Shanghai"
    back = await admin.slash("config", timezone="utc")
    assert "Daily deal's day: UTC" in back.last.embeds[0]["description"]
    service = fake.bot.service  # (the fake Discord sends no channel options)
    await service.save_settings(fake.guild_id, DailySettings.changed(
        await service.settings(fake.guild_id), channel=fake.channel_id))
    posts = await admin.slash("config")
    assert f"Daily deal posts: <#{fake.channel_id}>" in posts.last.embeds[0]["description"]
    off = await admin.slash("config", daily_posts="off")
    assert "Daily deal posts: none" in off.last.embeds[0]["description"]
    assert DailySettings.of(await fake.bot.service.settings(fake.guild_id)).channel is None
    forged = await admin.slash("config", daily_level="expert")
    assert forged.last.ephemeral and "nothing was changed" in forged.text


async def test_stats_show_the_daily_record_apart_from_table_play(fake: FakeDiscord) -> None:
    admin = Member(fake, 44, "Di", admin=True)
    await admin.slash("config", daily_level="easy")
    ana = Member(fake, 11, "Ana")
    await daily_view(fake, ana)
    table = next(t for t in fake.bot.service.tables() if t.kind == "daily")
    await fake.bot.service.set_autoplay(table.id, ana.id, True)
    await fake.idle()
    for _ in range(200):
        if fake.bot.service.get(table.id) is None:
            break
        await fake.idle()
    assert fake.bot.service.get(table.id) is None
    embed = (await ana.slash("stats")).last.embeds[0]
    assert embed["description"] == t("stats.none", "en", name="Ana")  # no table hand counted
    (daily,) = [f for f in embed["fields"] if f["name"] == "Daily deal"]
    assert re.match(r"Days played: 1 · won: [01] · points: [+-]\d+ · streak: [01] \(best [01]\)",
                    daily["value"]), daily["value"]
    result = await ana.slash("daily")
    board = result.last.embeds[0]
    assert result.last.ephemeral and re.search(r"You (won|lost) the daily deal", board["description"])
    assert "1. Ana:" in board["description"]


class Shifted(SystemClock):
    """The wall clock moved by ``offset`` seconds (yesterday, for a test)."""

    def __init__(self, offset: float) -> None:
        self.offset = offset

    def now(self) -> float:
        return super().now() + self.offset


class Channel:
    """A stand-in text channel that keeps what is sent to it."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send(self, **kwargs: Any) -> None:
        self.sent.append(kwargs)


async def autoplayed_daily(fake: FakeDiscord, member: Member) -> None:
    await daily_view(fake, member)
    table = next(t for t in fake.bot.service.tables()
                 if t.kind == "daily" and t.seats[0].user_id == member.id)
    await fake.bot.service.set_autoplay(table.id, member.id, True)
    for _ in range(200):
        if fake.bot.service.get(table.id) is None:
            return
        await fake.idle()
    raise AssertionError("the daily hand never ended")


async def test_the_daily_channel_gets_the_opening_and_yesterdays_podium_once(
        fake: FakeDiscord) -> None:
    admin = Member(fake, 44, "Di", admin=True)
    await admin.slash("config", daily_level="easy")
    service = fake.bot.service
    channel = Channel()
    assert not await post_day(channel, fake.bot.features.get(DailyService), fake.guild_id, "en")  # nobody played
    service.clock = Shifted(-24 * 3600.0)  # yesterday
    await autoplayed_daily(fake, Member(fake, 11, "Ana"))
    service.clock = SystemClock()
    assert await post_day(channel, fake.bot.features.get(DailyService), fake.guild_id, "en")
    assert not await post_day(channel, fake.bot.features.get(DailyService), fake.guild_id, "en")  # once a day
    (sent,) = channel.sent
    embed = sent["embed"]
    assert embed.title.startswith("🗓️ The daily deal of ") and "/ddz daily" in embed.description
    (podium,) = embed.fields
    assert podium.name.startswith("Podium of ") and podium.value.startswith("1. Ana: **")
    assert sent["allowed_mentions"].users is False


def forge(message: Any, old: str, new: str) -> Any:
    """``message`` with ``old`` replaced by ``new`` in its components' custom_ids (a
    modified client)."""
    forged = copy.deepcopy(message)
    forged.components = json.loads(json.dumps(message.components).replace(old, new))
    return forged


async def test_a_daily_hand_replays_as_images_and_reviews_only_ones_own(
        fake: FakeDiscord) -> None:
    admin = Member(fake, 44, "Di", admin=True)
    await admin.slash("config", daily_level="easy")
    ana, bo = Member(fake, 11, "Ana"), Member(fake, 22, "Bo")
    await autoplayed_daily(fake, ana)
    today = await fake.bot.features.get(DailyService).today(fake.guild_id)
    result = (await ana.slash("daily")).last
    replay_id, review_id = (f"ddz:dy:{today.replace('-', '')}:{ana.id}:0:{m}open"
                            for m in "pr")
    assert result.custom_ids() == [replay_id, review_id]
    # Bo has not played today: a replay button forged onto his own message is refused
    await autoplayed_daily(fake, bo)
    bo_result = (await bo.slash("daily")).last
    await fake.bot.service.forget_user(fake.guild_id, bo.id)  # now Bo "has not played"
    refused = await bo.click(forge(bo_result, f":{bo.id}:", f":{ana.id}:"), replay_id)
    assert refused.last.ephemeral and refused.text.startswith("Not yet"), refused.text
    assert not refused.last.attachments
    # Ana's replay: the table replays' image pages, alt text, ◀ ▶ Animation Review
    page = (await ana.click(result, replay_id)).last
    assert page.ephemeral and page.id != result.id and not fake.public()
    assert page.content.startswith(f"**Ana's daily deal of {today}** · page 1/"), page.content
    (alt,) = page.alt_texts
    assert alt.startswith(f"Daily deal of {today}, page 1 of ") and "Ana holds " in alt, alt
    assert "Bot 2 holds " in alt and "Hand #" not in alt
    assert [c["label"] for row in page.components for c in row["components"]] == [
        "◀", "▶", "Animation", "Review my play"]
    assert all(len(cid) <= CUSTOM_ID_MAX for cid in page.custom_ids())
    pages = int(re.search(r"page 1/(\d+)", page.content).group(1))  # type: ignore[union-attr]
    nxt = await ana.click(page, "▶")
    assert nxt.last.id == page.id and f"page 2/{pages}" in page.content
    forged = await ana.click(forge(page, ":1:pnext", f":{pages + 5}:pnext"),
                             page.custom_ids()[1].replace(":1:pnext", f":{pages + 5}:pnext"))
    assert "out of date" in forged.text and f"page 2/{pages}" in page.content
    gif = (await ana.click(page, "Animation")).last
    assert gif.id != page.id and gif.attachments[0]["filename"].endswith(".gif")
    assert gif.alt_texts[0].startswith(f"Daily deal of {today}, every bid and play:")
    # her review: the summary and the marked page, the buttons of a marked replay
    review = (await ana.click(result, review_id)).last
    assert review.ephemeral and review.embeds, review.content
    assert review.embeds[0]["title"] == f"Review of your daily deal of {today}: your decisions"
    assert review.content.startswith(f"**Review of your daily deal of {today}**")
    assert review.attachments and all(":r" in cid for cid in review.custom_ids())
    # Bo may not review Ana's hand, even once the day is over
    fake.bot.service.clock = Shifted(24 * 3600.0)
    seen = (await bo.click(forge(bo_result, f":{bo.id}:", f":{ana.id}:"), replay_id)).last
    assert seen.alt_texts and "Review my play" not in seen.buttons()
    not_his = await bo.click(forge(seen, ":pnext", ":rrev"),
                             seen.custom_ids()[1].replace(":pnext", ":rrev"))
    assert not_his.text.startswith("A review covers your own decisions only"), not_his.text


async def test_the_daily_hint_is_the_searchs_pick_even_when_searches_are_full(
        fake: FakeDiscord, monkeypatch: Any) -> None:
    # at a table, a Hint beyond MAX_SEARCHES keeps the normal level's quick answer (so
    # a busy bot changed the daily Hint); a daily table waits for its search's pick
    from bot.game.computer import table_hint_options
    from bot.service import hints
    from cogs.items import cards_to_mask, to_base36

    monkeypatch.setattr(hints, "MAX_SEARCHES", 0)  # every search "already running"
    admin = Member(fake, 44, "Di", admin=True)
    await admin.slash("config", daily_level="easy")
    service = fake.bot.service  # a known deal: the server's key and the day fixed
    await service.storage.server_key(fake.guild_id, "06" * 32)  # with "01"s the two agree
    service.clock = Shifted(1_796_126_400.0 - time.time())  # 2026-12-01 12:00 UTC
    ana = Member(fake, 11, "Ana")
    view = await daily_view(fake, ana)
    table = next(t for t in fake.bot.service.tables() if t.kind == "daily")
    pick = table_hint_options(table, 0)[0].action
    quick = fake.bot.service.choices(table, 0).suggestions[0].action
    assert pick != quick  # this deal's lead: the two differ, so the test can fail
    hint = next(cid for cid in view.custom_ids() if ":hhint." in cid)
    await ana.click(view, hint)
    shown = next(cid for cid in view.custom_ids() if ":hplay." in cid)
    assert f".{to_base36(cards_to_mask(pick.cards))}." in shown, shown


async def test_a_forged_member_id_beyond_64_bits_is_answered_as_stale(
        fake: FakeDiscord, caplog: pytest.LogCaptureFixture) -> None:
    # the input that broke it: ddz:dy:<day>:99999999999999999999:0:popen, a member id the
    # grammar lets through (20 digits) but no database integer holds: OverflowError,
    # "something went wrong" and an error logged
    await Member(fake, 44, "Di", admin=True).slash("config", daily_level="easy")  # only its end counts
    ana = Member(fake, 11, "Ana")
    await autoplayed_daily(fake, ana)
    result = (await ana.slash("daily")).last
    huge = "9" * 20
    for forged_user in (huge, str(2 ** 63)):
        custom_id = result.custom_ids()[0].replace(f":{ana.id}:", f":{forged_user}:")
        refused = await ana.click(forge(result, f":{ana.id}:", f":{forged_user}:"), custom_id)
        assert refused.last.ephemeral and "out of date" in refused.text, refused.text
    assert not [r for r in caplog.records if r.levelname == "ERROR"]


async def test_yesterdays_podium_waits_for_a_deal_still_played_and_daily_brings_it_back(
        fake: FakeDiscord) -> None:
    """Issue 36 §7: Bob still plays yesterday's deal after midnight: ``/ddz daily`` gives
    his table of yesterday back (it dealt today's), and the podium waits for his result
    (it was posted without it)."""
    admin = Member(fake, 44, "Di", admin=True)
    await admin.slash("config", daily_level="easy")
    service = fake.bot.service
    channel = Channel()
    now = time.time()
    after_midnight = now // 86400 * 86400 + 86400 + 10 - now  # to 00:00:10 UTC tomorrow
    service.clock = Shifted(after_midnight - 24 * 3600.0)  # 00:00:10 today
    await autoplayed_daily(fake, Member(fake, 11, "Ana"))
    service.clock = Shifted(after_midnight - 70)  # 23:59:00
    bob = Member(fake, 12, "Bob")
    await daily_view(fake, bob)
    yesterday = await fake.bot.features.get(DailyService).today(fake.guild_id)
    service.clock = Shifted(after_midnight)  # 00:00:10 the next day
    assert await fake.bot.features.get(DailyService).today(fake.guild_id) > yesterday
    assert not await post_day(channel, fake.bot.features.get(DailyService), fake.guild_id, "en")  # waits for Bob
    again = (await bob.slash("daily")).last
    assert again.ephemeral and f"Your daily deal of {yesterday} goes on." in again.content
    await autoplayed_daily_again(fake, bob)
    assert await post_day(channel, fake.bot.features.get(DailyService), fake.guild_id, "en")
    (sent,) = channel.sent
    (podium,) = sent["embed"].fields
    assert yesterday in podium.name and "Ana" in podium.value and "Bob" in podium.value


async def autoplayed_daily_again(fake: FakeDiscord, member: Member) -> None:
    """Auto-play the member's open daily table to its end."""
    table = next(t for t in fake.bot.service.tables()
                 if t.kind == "daily" and t.seats[0].user_id == member.id)
    await fake.bot.service.set_autoplay(table.id, member.id, True)
    for _ in range(200):
        if fake.bot.service.get(table.id) is None:
            return
        await fake.idle()
    raise AssertionError("the daily hand never ended")


async def test_config_says_the_daily_deal_and_a_running_event_keep_their_settings(
        fake: FakeDiscord) -> None:
    """Issue 36 §8: the answer to a change of ``daily_level`` or a rule variant says that
    today's deal and a running event keep theirs (English and Spanish)."""
    admin = Member(fake, 44, "Di", admin=True)
    saved = await admin.slash("config", daily_level="easy")
    assert "keeps its computers and rules until the day is over" in saved.text, saved.text
    kickers = await admin.slash("config", kickers="distinct")
    assert "a running event keeps the rules it was created with" in kickers.text
    timer = await admin.slash("config", turn_seconds=40)
    assert "Settings saved." in timer.text and "keeps its computers" not in timer.text
    spanish = Member(fake, 45, "Eva", locale="es-ES", admin=True)
    es = await spanish.slash("config", daily_level="normal")
    assert "mantiene sus ordenadores y reglas hasta que acabe el día" in es.text, es.text
