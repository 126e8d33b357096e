"""``/ddz event`` on the fake Discord: Manage Server for create and close, the private
view of a deal, forged ids naming another member's event table refused politely and
changing nothing, the standings, the results posted once in the event's channel, the
line in ``/ddz stats`` (docs/RULES.md §Events)."""

from __future__ import annotations

import copy
import json
import re

import pytest

from bot.features.events.cog import EventAnnouncer
from bot.features.events.rules import event_label
from bot.features.events.service import EventService
from bot.features.events.values import EventDeal
from tests.support.fake_discord import FakeDiscord, Member, Message

CUSTOM_ID_MAX = 100


async def create(fake: FakeDiscord, deals: int = 2) -> Member:
    admin = Member(fake, 44, "Di", admin=True)
    reply = await admin.slash("event create", name="Winter cup", deals=deals, hours=24,
                              level="easy")
    assert reply.last.ephemeral and "Event **Winter cup** created" in reply.text, reply.text
    return admin


ANNOUNCED = "🏆 New duplicate event: **Winter cup**"
"""How ``create``'s event is announced in the channel (its one public message)."""


def table_posts(fake: FakeDiscord) -> list[Message]:
    """The channel's messages other than the event's creation announcement: an event's
    tables are private and post nothing there."""
    return [m for m in fake.public() if not (m.content or "").startswith(ANNOUNCED)]


async def deal_view(member: Member):
    reply = await member.slash("event play")
    view = reply.last
    assert view.ephemeral and "Event deal" in view.content, view.content
    assert all(len(cid) <= CUSTOM_ID_MAX for cid in view.custom_ids())
    assert view.attachments and view.attachments[0].get("description")  # alt text
    return view


async def finish(fake: FakeDiscord, member: Member) -> None:
    """Auto-play the member's open event deal to its end."""
    table = next(t for t in fake.bot.service.tables()
                 if t.kind == "event" and t.seats[0].user_id == member.id)
    await fake.bot.service.set_autoplay(table.id, member.id, True)
    for _ in range(300):
        await fake.idle()
        if fake.bot.service.get(table.id) is None:
            return
    raise AssertionError("the deal never ended")


async def test_only_manage_server_creates_or_closes(fake: FakeDiscord) -> None:
    ana = Member(fake, 11, "Ana")
    refused = await ana.slash("event create", name="Mine", deals=3, hours=24)
    assert refused.last.ephemeral and "Manage Server" in refused.text
    assert await fake.bot.features.get(EventService).current(fake.guild_id) is None
    await create(fake)
    refused = await ana.slash("event close")
    assert refused.last.ephemeral and "Manage Server" in refused.text
    event = await fake.bot.features.get(EventService).current(fake.guild_id)
    assert event is not None and event.closed_at is None
    again = await Member(fake, 44, "Di", admin=True).slash(
        "event create", name="Second", deals=1, hours=2)
    assert again.last.ephemeral and "already has an event, **Winter cup**" in again.text


async def test_another_members_event_table_refuses_forged_ids_politely(
        fake: FakeDiscord) -> None:
    await create(fake)
    ana, bo = Member(fake, 11, "Ana"), Member(fake, 22, "Bo")
    await deal_view(ana)
    bo_view = await deal_view(bo)
    tables = {t.seats[0].user_id: t for t in fake.bot.service.tables() if t.kind == "event"}
    ana_table, bo_table = tables[ana.id], tables[bo.id]
    assert not table_posts(fake)  # no channel message for either
    answers = set()
    original = copy.deepcopy(bo_view)
    menus = {c["custom_id"] for row in original.components for c in row.get("components", [])
             if c.get("type") == 3}
    forged_components = json.loads(
        json.dumps(original.components).replace(bo_table.id, ana_table.id))
    for custom_id in [cid for cid in original.custom_ids() if cid not in menus]:
        forged_view = copy.deepcopy(original)
        forged_view.components = forged_components
        reply = await bo.click(forged_view, custom_id.replace(bo_table.id, ana_table.id))
        answers.add((reply.text or fake.messages[bo_view.id].content).splitlines()[-1])
        assert all(m.ephemeral for m in reply.messages)
    for row in original.components:
        for menu in [c for c in row.get("components", []) if c.get("type") == 3]:
            forged_view = copy.deepcopy(original)
            forged_view.components = forged_components
            reply = await bo.click(forged_view, menu["custom_id"].replace(bo_table.id,
                                                                          ana_table.id),
                                   [menu["options"][0]["value"]])
            answers.add((reply.text or fake.messages[bo_view.id].content).splitlines()[-1])
    assert answers <= {"You're not seated at this table.",
                       "That button is out of date: the table has moved on."}, answers
    assert fake.bot.service.get(ana_table.id) == ana_table  # nothing changed
    again = await ana.slash("event play")  # Ana's own deal, as she left it
    assert "goes on" in again.last.content and again.last.ephemeral


async def test_standings_results_once_in_the_channel_and_stats(fake: FakeDiscord) -> None:
    admin = await create(fake, deals=1)
    ana, bo = Member(fake, 11, "Ana"), Member(fake, 22, "Bo")
    joined = await ana.slash("event join")
    assert joined.last.ephemeral and "You're in **Winter cup**" in joined.text
    hidden = await bo.slash("event standings")  # Bo has played nothing: nothing shows
    text = hidden.last.embeds[0]["description"]
    assert hidden.last.ephemeral and "Play a deal to see" in text and "Ana" not in text
    await deal_view(ana)
    await finish(fake, ana)
    seen = (await ana.slash("event standings")).last.embeds[0]["description"]
    assert "over the deals you have played (1)" in seen and re.search(r"1\. Ana: \*\*0\*\*", seen)
    assert "Bo" not in seen
    refused = await bo.slash("event replay", member=ana, deal=1)
    assert refused.last.ephemeral and "Not yet" in refused.text
    done = await ana.slash("event play")
    assert "You've played every deal of **Winter cup**" in done.text
    await deal_view(bo)
    await finish(fake, bo)
    closed = await admin.slash("event close")
    assert closed.last.ephemeral and "**Winter cup** is closed" in closed.text
    announcer = fake.bot.get_cog("ddz").ctx.part(EventAnnouncer)
    await announcer.announce_all()
    posts = [m for m in fake.public() if "is over: the final standings" in (m.content or "")]
    assert len(posts) == 1 and posts[0].channel_id == fake.channel_id
    board = posts[0].embeds[0]["description"]
    assert "Final, over every deal (1)" in board and "Ana" in board and "Bo" in board
    assert await announcer.announce_all() == 0  # once
    assert len([m for m in fake.public() if "is over" in (m.content or "")]) == 1
    stats = (await ana.slash("stats")).last.embeds[0]
    (line,) = [f for f in stats["fields"] if f["name"] == "Duplicate events"]
    assert re.match(r"events entered: 1 · won: [01] · deals played: 1 · duplicate score",
                    line["value"]), line["value"]
    assert "Hands" not in [f["name"] for f in stats["fields"]]  # no table hand counted
    replay = await bo.slash("event replay", member=ana, deal=1)
    assert replay.last.ephemeral and replay.last.alt_texts
    assert replay.last.content.startswith("**Ana's deal 1 of Winter cup** · page 1/")


async def test_a_peasant_deals_view_comes_up_to_date_after_the_computer_landlord_leads(
        fake: FakeDiscord) -> None:
    # the input that broke it: deal 2 (the landlord is a computer, it leads at once); the
    # view was drawn before its lead and its refresh found no view yet: "Waiting for Bot 3"
    await create(fake)
    ana = Member(fake, 11, "Ana")
    await deal_view(ana)
    await finish(fake, ana)
    view = (await ana.slash("event play")).last
    await fake.idle()
    table = next(t for t in fake.bot.service.tables() if t.kind == "event")
    assert table.hand is not None and table.hand.landlord == 2 and table.turn_seat == 0
    content = fake.messages[view.id].content
    assert "It's your turn" in content and "Waiting for" not in content, content


async def test_forget_after_a_deal_refuses_a_second_entry_politely(fake: FakeDiscord) -> None:
    await create(fake)
    ana, eva = Member(fake, 11, "Ana"), Member(fake, 33, "Eva", locale="es-ES")
    for member in (ana, eva):
        opened = await member.slash("event play")
        assert opened.last.ephemeral and opened.last.attachments
        await finish(fake, member)
        await fake.bot.service.forget_user(fake.guild_id, member.id)
    for command in ("event play", "event join"):
        refused = await ana.slash(command)
        assert refused.last.ephemeral and "before deleting your data" in refused.text
        assert "**Winter cup**" in refused.text
        spanish = await eva.slash(command)
        assert spanish.last.ephemeral and "antes de borrar tus datos" in spanish.text
    assert not [t for t in fake.bot.service.tables() if t.kind == "event"]  # nothing dealt


def forge(message, old: str, new: str):
    """``message`` with ``old`` replaced by ``new`` in its components' custom_ids (a
    modified client)."""
    forged = copy.deepcopy(message)
    forged.components = json.loads(json.dumps(message.components).replace(old, new))
    return forged


async def test_an_event_deal_replays_as_images_and_reviews_only_ones_own(
        fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> None:
    renderer = fake.bot.get_cog("ddz").ctx.board.renderer
    drawn = []
    page_of = renderer.replay_page

    async def replay_page(model, **kwargs):
        drawn.append(model)
        return await page_of(model, **kwargs)

    monkeypatch.setattr(renderer, "replay_page", replay_page)
    admin = await create(fake)
    ana, bo, cal = Member(fake, 11, "Ana"), Member(fake, 22, "Bo"), Member(fake, 33, "Cal")
    for member, deals in ((ana, 2), (bo, 1)):
        for _ in range(deals):
            await member.slash("event play")
            await finish(fake, member)
    await cal.slash("event join")
    event = await fake.bot.features.get(EventService).current(fake.guild_id)
    assert event is not None
    # before the close: not to Cal (played nothing), not Ana's deal 2 to Bo (he has not
    # played it); Ana's own deal 2 (a peasant deal) is hers to see
    for member, deal in ((cal, 1), (cal, 2), (bo, 2)):
        refused = await member.slash("event replay", member=ana, deal=deal)
        assert refused.last.ephemeral and refused.text.startswith("Not yet"), refused.text
        assert not refused.last.attachments
    page = (await ana.slash("event replay", member=ana, deal=2)).last
    assert page.ephemeral and not table_posts(fake)
    assert page.content.startswith("**Ana's deal 2 of Winter cup** · page 1/"), page.content
    (alt,) = page.alt_texts
    assert alt.startswith("Deal 2 of Winter cup, page 1 of ") and "Ana holds " in alt, alt
    assert "Hand #" not in alt
    assert drawn and all(m.hand_number is None for m in drawn)  # no "Hand #0" drawn
    assert [c["label"] for row in page.components for c in row["components"]] == [
        "◀", "▶", "Animation", "Review my play"]
    ids = page.custom_ids()
    assert ids[1] == f"ddz:ev:{event.event_id}:2:{ana.id}:0:pnext"
    assert all(len(cid) <= CUSTOM_ID_MAX for cid in ids)
    pages = int(re.search(r"page 1/(\d+)", page.content).group(1))  # type: ignore[union-attr]
    await ana.click(page, "▶")
    assert f"page 2/{pages}" in page.content
    gif = (await ana.click(page, "Animation")).last
    assert gif.id != page.id and gif.attachments[0]["filename"].endswith(".gif")
    assert gif.alt_texts[0].startswith("Deal 2 of Winter cup, every bid and play:")
    # forged ids refused politely, changing nothing: a page past the end, an unknown
    # event, a deal the clicker has not played, a deal the event does not have
    before = (page.content, copy.deepcopy(page.components))
    mine = page.custom_ids()[1]  # ddz:ev:<event>:2:<ana>:1:pnext
    for old, new, answer, clicker in (
            (":1:pnext", f":{pages + 5}:pnext", "out of date", ana),
            (f":{event.event_id}:", ":0badcafe:", "out of date", ana),
            (f":2:{ana.id}:", f":2:{bo.id}:", "Not yet", bo),
            (f":2:{ana.id}:", f":9:{ana.id}:", "That member has no finished play", ana)):
        forged = await clicker.click(forge(page, old, new), mine.replace(old, new))
        assert forged.last.ephemeral and answer in forged.text, (new, forged.text)
        assert (page.content, page.components) == before
    # her review of her own deal: the summary and the marked page
    review = (await ana.click(page, "Review my play")).last
    assert review.embeds, review.content
    assert review.embeds[0]["title"] == "Review of your deal 2 of Winter cup: your decisions"
    assert review.content.startswith("**Review of your deal 2 of Winter cup**")
    assert review.attachments and all(":r" in cid for cid in review.custom_ids())
    # after the close everyone sees every deal; Cal may not review Ana's
    await admin.slash("event close")
    seen = (await cal.slash("event replay", member=ana, deal=2)).last
    assert seen.alt_texts and "Review my play" not in seen.buttons()
    not_his = await cal.click(forge(seen, ":pnext", ":rrev"),
                              seen.custom_ids()[1].replace(":pnext", ":rrev"))
    assert not_his.text.startswith("A review covers your own decisions only"), not_his.text
    spanish = Member(fake, 55, "Eva", locale="es-ES")
    es = (await spanish.slash("event replay", member=ana, deal=1)).last
    assert es.content.startswith("**Mano 1 de Ana en Winter cup** · página 1/"), es.content


async def test_next_deal_under_a_deals_result_deals_the_next_one(fake: FakeDiscord) -> None:
    await create(fake)
    ana, bo = Member(fake, 11, "Ana"), Member(fake, 22, "Bo")
    first = await deal_view(ana)
    await finish(fake, ana)
    event = await fake.bot.features.get(EventService).current(fake.guild_id)
    assert event is not None
    assert "Deal 1 done" in first.content and "**Next deal** below" in first.content
    next_id = f"ddz:en:{event.event_id}:{ana.id}"
    assert first.custom_ids() == [next_id] and list(first.buttons()) == ["Next deal"]
    # forged: Bo clicks Ana's button (a copy of her message), or a button of an old event
    for clicker, forged, answer in ((bo, first, "That button is for the member who played"),
                                    (ana, forge(first, event.event_id, "0badcafe"),
                                     "out of date")):
        custom_id = forged.custom_ids()[0]
        refused = await clicker.click(forged, custom_id)
        assert refused.last.ephemeral and answer in refused.text, refused.text
    assert not [t for t in fake.bot.service.tables() if t.kind == "event"]  # nothing dealt
    second = (await ana.click(first, "Next deal")).last
    assert second.id != first.id and second.ephemeral
    assert "**Event deal 2**" in second.content, second.content
    await finish(fake, ana)
    assert "Deal 2 done" in second.content and "No more deals for you" in second.content
    assert second.custom_ids() == []  # the last deal: no Next deal
    spanish = Member(fake, 33, "Eva", locale="es-ES")
    mine = await spanish.slash("event play")
    await finish(fake, spanish)
    assert list(mine.last.buttons()) == ["Siguiente mano"]


async def test_a_forged_review_mode_page_of_another_members_deal_is_refused(
        fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> None:
    # the input that broke it: after the close, Cal turns ":pnext" of Ana's deal into
    # ":rnext" (review mode, paging): the own-review check ran only for "rev"/"open", so
    # Cal got (and the AI worker computed) a review of Ana's decisions
    admin = await create(fake, deals=1)
    ana, cal = Member(fake, 11, "Ana"), Member(fake, 33, "Cal")
    await ana.slash("event play")
    await finish(fake, ana)
    await admin.slash("event close")
    seen = (await cal.slash("event replay", member=ana, deal=1)).last
    reviews = []
    from cogs import replay as replay_module
    run_review = replay_module.run_review

    async def counted(*args, **kwargs):
        reviews.append(args)
        return await run_review(*args, **kwargs)

    monkeypatch.setattr(replay_module, "run_review", counted)
    before = (seen.content, copy.deepcopy(seen.components))
    for verb in ("next", "prev", "gif"):
        forged = forge(seen, ":pnext", f":r{verb}")
        custom_id = seen.custom_ids()[1].replace(":pnext", f":r{verb}")
        refused = await cal.click(forged, custom_id)
        assert refused.last.ephemeral, refused.text
        assert refused.text.startswith("A review covers your own decisions only"), refused.text
        assert (seen.content, seen.components) == before
    assert reviews == []


async def test_a_forged_member_id_beyond_64_bits_is_answered_as_stale(
        fake: FakeDiscord, caplog: pytest.LogCaptureFixture) -> None:
    # the input that broke it: ddz:ev:<event>:1:99999999999999999999:0:pnext after the
    # close: OverflowError from the database, "something went wrong", an error logged
    admin = await create(fake, deals=1)
    ana = Member(fake, 11, "Ana")
    await deal_view(ana)
    await finish(fake, ana)
    await admin.slash("event close")
    page = (await ana.slash("event replay", member=ana, deal=1)).last
    for forged_user in ("9" * 20, str(2 ** 63)):
        custom_id = page.custom_ids()[1].replace(f":{ana.id}:", f":{forged_user}:")
        refused = await ana.click(forge(page, f":{ana.id}:", f":{forged_user}:"), custom_id)
        assert refused.last.ephemeral and "out of date" in refused.text, refused.text
    fine = await ana.click(forge(page, f":{ana.id}:", f":{2 ** 63 - 1}:"),
                           page.custom_ids()[1].replace(f":{ana.id}:", f":{2 ** 63 - 1}:"))
    assert "That member has no finished play" in fine.text, fine.text  # the largest id
    assert not [r for r in caplog.records if r.levelname == "ERROR"]


async def test_forget_during_an_event_deal_says_to_finish_it(fake: FakeDiscord) -> None:
    # the input that broke it: /ddz forget during an event deal answered "Leave your table
    # first", but a private deal has no Leave: it is finished (auto-play at worst)
    await create(fake)
    ana, eva = Member(fake, 11, "Ana"), Member(fake, 33, "Eva", locale="es-ES")
    for member in (ana, eva):
        assert (await member.slash("event play")).last.attachments
    refused = await ana.slash("forget")
    assert refused.last.ephemeral and refused.text.startswith("Finish your deal first"), (
        refused.text)
    # The advice must work at a private table: its hand view's Auto button and /ddz event
    # play (typed /ddz autoplay finds no private table: it said so at first)
    assert "**Auto**" in refused.text and "`/ddz event play`" in refused.text
    assert "autoplay" not in refused.text and not refused.last.custom_ids()
    again = await ana.slash("event play")
    assert again.last.attachments and "Auto: off" in again.last.buttons(), (
        list(again.last.buttons()))
    spanish = await eva.slash("forget")
    assert spanish.text.startswith("Termina primero tu mano"), spanish.text
    assert len([t for t in fake.bot.service.tables() if t.kind == "event"]) == 2


async def test_next_deal_double_clicked_or_play_sent_twice_deals_one_table(
        fake: FakeDiscord) -> None:
    await create(fake, deals=3)
    ana, bo = Member(fake, 11, "Ana"), Member(fake, 22, "Bo")
    first = await deal_view(ana)
    await finish(fake, ana)
    tokens = [fake.dispatch(ana.click_payload(first, first.custom_ids()[0])) for _ in "ab"]
    tokens += [fake.dispatch(bo.slash_payload("event play")) for _ in "ab"]
    await fake.idle()
    replies = [ana._reply(token) for token in tokens[:2]] + [bo._reply(token)
                                                            for token in tokens[2:]]
    assert all(r.messages and all(m.ephemeral for m in r.messages) for r in replies)
    # each member's newest view shows the deal; a second view of the same deal replaced
    # the first, which says so (cogs/open_views.py)
    replaced = "This view is out of date: a newer one is open below."
    assert all("Event deal" in r.text or r.text.startswith(replaced) for r in replies), [
        r.text for r in replies]
    assert ["Event deal" in fake.messages[r.messages[-1].id].content
            for r in replies].count(True) >= 2, [r.text for r in replies]
    assert any("Event deal" in r.text for r in replies[:2])
    assert any("Event deal" in r.text for r in replies[2:])
    tables = [(t.seats[0].user_id, event_label(d.event_id, d.deal))
              for t in fake.bot.service.tables() if (d := EventDeal.of(t)) is not None]
    event = await fake.bot.features.get(EventService).current(fake.guild_id)
    assert event is not None
    assert sorted(tables) == [(ana.id, f"{event.event_id}:2"), (bo.id, f"{event.event_id}:1")]
    plays = await fake.bot.features.get(EventService).store.event_plays(event.event_id)
    assert sorted((p.user_id, p.deal) for p in plays) == [(ana.id, 1), (ana.id, 2), (bo.id, 1)]
    assert not table_posts(fake)


async def test_an_event_deal_finished_on_auto_play_does_not_promise_it_for_the_next(
        fake: FakeDiscord) -> None:
    # the input that broke it: a deal played to its end on auto-play; its result said
    # "Auto-play stays on for the next hand", but Next deal deals a new table, auto-play off
    await create(fake)
    ana = Member(fake, 11, "Ana")
    first = await deal_view(ana)
    await finish(fake, ana)  # on auto-play
    assert "Deal 1 done" in first.content and "Auto-play" not in first.content, first.content
    second = (await ana.click(first, "Next deal")).last
    await fake.idle()
    (table,) = [t for t in fake.bot.service.tables() if t.kind == "event"]
    assert not table.seats[0].autoplay and "Auto-play" not in second.content


async def test_a_deal_begun_before_the_close_can_still_be_brought_back(
        fake: FakeDiscord) -> None:
    # the input that broke it: Ana's deal under way, /ddz event close, then Ana's
    # /ddz event play: "Winter cup is closed", her deal (played to its end and counted)
    # out of her reach but for the old message
    admin = await create(fake, deals=3)
    ana, bo = Member(fake, 11, "Ana"), Member(fake, 22, "Bo")
    await deal_view(ana)
    await admin.slash("event close")
    back = (await ana.slash("event play")).last
    assert back.ephemeral and "Your deal 1 of 3 goes on" in back.content, back.content
    refused = await bo.slash("event play")  # nothing begun: nothing new is dealt
    assert refused.last.ephemeral and "is closed: no more deals" in refused.text
    tables = [t for t in fake.bot.service.tables() if t.kind == "event"]
    assert [t.seats[0].user_id for t in tables] == [ana.id]
    await finish(fake, ana)
    assert "Deal 1 done" in back.content and "No more deals for you" in back.content
    again = await ana.slash("event play")
    assert "is closed: no more deals" in again.text
    assert not [t for t in fake.bot.service.tables() if t.kind == "event"]


@pytest.mark.parametrize(("locale", "provisional", "refusal"), [
    ("en-US", "Provisional: a deal begun before the close is still being played",
     "Not yet: finish your own play of deal 1 first"),
    ("es-ES", "Provisional: aún se está jugando una mano empezada antes del cierre",
     "Todavía no: termina primero tu propia partida de la mano 1"),
])
async def test_a_deal_still_played_after_the_close_is_hidden_and_the_standings_provisional(
        fake: FakeDiscord, locale: str, provisional: str, refusal: str) -> None:
    # the input that showed it: Ana finished deal 1, the admin Di began it and closed the
    # event: his standings said "Final" (all 0) and he replayed Ana's deal 1 before
    # finishing his own
    admin = await create(fake, deals=1)
    ana = Member(fake, 11, "Ana")
    await deal_view(ana)
    await finish(fake, ana)
    await deal_view(admin)
    admin.locale = ana.locale = locale  # what they read from here on
    await admin.slash("event close")
    announcer = fake.bot.get_cog("ddz").ctx.part(EventAnnouncer)
    assert await announcer.announce_all() == 0  # Di's deal goes on: no results yet
    peek = await admin.slash("event replay", member=ana, deal=1)
    assert peek.last.ephemeral and refusal in peek.text and not peek.last.attachments, peek.text
    for member in (admin, ana):
        board = (await member.slash("event standings")).last.embeds[0]["description"]
        assert board.startswith(provisional) and "Final" not in board, board
    await finish(fake, admin)
    assert await announcer.announce_all() == 1
    assert await announcer.announce_all() == 0
    final = (await admin.slash("event standings")).last.embeds[0]["description"]
    assert "Provisional" not in final and "Final" in final, final
    seen = await admin.slash("event replay", member=ana, deal=1)
    assert seen.last.ephemeral and seen.last.alt_texts, seen.text


@pytest.mark.parametrize(("locale", "words", "never"), [
    ("en-US", "the computer plays the rest of this deal for you", "at this table"),
    ("es-ES", "el ordenador juega por ti el resto de esta mano", "de esta mesa"),
])
@pytest.mark.parametrize("kind", ["event", "daily"])
async def test_auto_at_a_daily_or_event_deal_promises_no_next_hands(
        fake: FakeDiscord, kind: str, locale: str, words: str, never: str) -> None:
    # the input that showed it: Auto at an event (or daily) deal answered "the computer
    # plays for you in this hand and the next ones at this table", a table with no next hand
    from tests.support.fake_game import answered, comp

    ana = Member(fake, 11, "Ana")
    if kind == "event":
        await create(fake)
        view = await deal_view(ana)
    else:  # easy computers: the rest of the deal only has to end (hard ones take ~10 s CPU)
        await Member(fake, 44, "Di", admin=True).slash("config", daily_level="easy")
        view = (await ana.slash("daily")).last
    ana.locale = locale
    edits = fake.messages[view.id].edits
    fake.dispatch(ana.click_payload(view, comp(view, "ha1")))
    await answered(fake, view, edits)  # the click's own answer, before the deal ends
    after = fake.messages[view.id].content
    assert words in after and never not in after, after
    for _ in range(60):  # auto-play ends the deal (slowly on a loaded machine)
        if not any(t.seats[0].user_id == ana.id for t in fake.bot.service.tables()):
            break
        try:
            await fake.idle()
        except AssertionError:  # still thinking: wait on
            continue


@pytest.mark.parametrize(("guild_locale", "words"), [
    ("en-US", "🏆 New duplicate event: **Winter cup** (deals: 2) against easy computers"),
    ("es-ES", "🏆 Nuevo evento duplicado: **Winter cup** (manos: 2) contra ordenadores de nivel"),
])
async def test_an_event_created_is_announced_to_the_members_in_the_channel(
        fake: FakeDiscord, guild_locale: str, words: str) -> None:
    # the input that showed it: /ddz event create answered only the admin (ephemeral);
    # the members never learnt an event existed
    admin = Member(fake, 44, "Di", admin=True, guild_locale=guild_locale)
    reply = await admin.slash("event create", name="Winter cup", deals=2, hours=24,
                              level="easy")
    assert reply.last.ephemeral
    (post,) = [m for m in fake.public() if "Winter cup" in (m.content or "")]
    assert post.channel_id == fake.channel_id and words in post.content, post.content
    assert ("/ddz event join" in post.content) == (guild_locale == "en-US"), post.content
