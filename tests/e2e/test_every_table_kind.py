"""Every kind of hand view the bot has × every language it speaks, end to end through
``python -m bot`` on the loopback Discord (issue 48: the tournament's hand view answered
"Sorry, something went wrong" in every language, and no test opened one).

The kinds come from the bot's own registry, not from a list written here: each ``Table.kind``
the table service holds once the features are installed (``TableService.kinds``: a
channel's table, the daily deal, events, tournaments, and any kind registered later), and
each feature that draws its hand view without a table (an installed feature registered as
no kind: the endgame puzzles). The languages are the catalogs (``bot.i18n``). For each,
a member whose Discord speaks that language opens the hand view the way a person does,
plays a card from it, and never reads the apology (``error.internal``).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

import pytest

from bot.features.contract import install_features
from bot.features.installed import FEATURES
from bot.i18n import t
from bot.rules import Card, legal_plays
from bot.service import TableService
from sandbox.loopback.emulator import Emulator, SimChannel, SimInteraction, SimMember, SimMessage
from tests.support.botproc import BotFactory
from tests.support.ddz_driver import (
    FAST_ENV,
    RULES,
    finished,
    open_view,
    public_actions,
    public_ids,
    public_seq,
    reply_text,
    wait_public,
)
from tests.support.hand_player import Words, discord_locale, languages, play_turns

ENV = {**FAST_ENV, "DDZ_AUTOPLAY_PACE_SCALE": "0"}
PUZZLE_ID = re.compile(r"^ddz:pz:[0-9a-f]{12}:(?P<plies>\d+):(?P<verb>[a-z]+\d*)\.")


def registered_kinds() -> list[str]:
    """Every kind of hand view the bot has, from its registry: the table kinds of a table
    service with the bot's features installed (``FEATURES``, ``TableService.kinds``), then
    each feature registered as no table kind (it draws a hand view of its own: ``puzzles``)."""
    service = TableService(None)  # type: ignore[arg-type]  # the registry only: no storage touched
    features = install_features(service, FEATURES)
    handlers = [*service.private.values(), *service.public.values(), *service.titled.values()]
    tableless = [name for name, installed in features.installed.items()
                 if not any(installed is h for h in handlers)]
    return [*service.kinds, *tableless]


class Run:
    """One bot, one language: the members it made, what they were answered."""

    def __init__(self, emu: Emulator, lang: str) -> None:
        self.emu = emu
        self.lang = lang
        self.words = Words(lang)
        self.boss = emu.member(name="boss", manage_guild=True)
        self.answers: list[SimInteraction] = []
        self.with_pass = False
        """When set, ``play_a_card`` goes on until the member has also pressed Pass."""

    def member(self, name: str) -> SimMember:
        """A member whose Discord speaks the run's language."""
        return self.emu.member(name=name, locale=discord_locale(self.lang))

    async def answer(self, ix: SimInteraction, timeout: float = 15.0) -> SimInteraction:
        self.answers.append(await finished(ix, timeout=timeout))
        return ix

    async def play_a_card(self, member: SimMember, view: SimMessage) -> None:
        """From the hand view: bid when asked, then pick the cards of a play and press
        Play once (``hand_player.play_turns``)."""
        actions = await play_turns(self.emu, member, view, self.words, until=lambda: False,
                                   pass_once=False, plays=1)
        assert actions[-1] == "play", actions
        over = self.words.over
        for _ in range(10):  # with_pass: Pass at the first play to beat, then a play again
            if not self.with_pass or "pass" in actions:
                return
            more = await play_turns(self.emu, member, view, self.words,
                                    until=lambda: over in view.text, pass_once=True, plays=1)
            # the deal is the day's, from the server's random key: on some deals nothing
            # she holds beats a play after her Pass until the peasants are out (the hand
            # over, lost); else she plays again
            assert more[-1:] == ["play"] or ("pass" in more and over in view.text), \
                (more, view.text)
            actions += more
        raise AssertionError(f"{member.name} never passed: {actions}")


Driver = Callable[[Run], Awaitable[None]]


async def channel_table(run: Run) -> None:
    """``/ddz start computers:2``, Start, then My hand on the board."""
    emu, member = run.emu, run.member("tia")
    await run.answer(await member.slash("ddz start", computers=2))
    lobby = await wait_public(emu, lambda m: "start" in public_actions(m), what="the lobby")
    await run.answer(await member.click(lobby, public_actions(lobby)["start"]["custom_id"]))
    board = await wait_public(emu, lambda m: "hand" in public_actions(m)
                              and public_seq(m) > public_seq(lobby), what="the board")
    view = await open_view(member, via_button=board)
    await run.play_a_card(member, view)


async def daily(run: Run) -> None:
    """``/ddz daily``: the day's deal, the member the landlord."""
    member = run.member("dee")
    ix = await run.answer(await member.slash("ddz daily"))
    assert ix.message is not None and ix.message.visible_to is member, reply_text(ix)
    await run.play_a_card(member, ix.message)


async def event(run: Run) -> None:
    """The organiser creates an event; the member plays its first deal."""
    made = await run.answer(await run.boss.slash("ddz event create", name="Cup", deals=2,
                                                 hours=24, level="easy"))
    assert "Cup" in reply_text(made), reply_text(made)
    member = run.member("eve")
    ix = await run.answer(await member.slash("ddz event play"))
    assert ix.message is not None and ix.message.visible_to is member, reply_text(ix)
    await run.play_a_card(member, ix.message)


async def tournament(run: Run) -> None:
    """A one-round tournament: the member and two others on auto-play at one table; My
    hand on the board in the table's thread."""
    emu = run.emu
    await run.answer(await run.boss.slash("ddz tournament create", name="Cup", rounds=1,
                                          hands=1, level="easy"))
    member, others = run.member("tom"), [emu.member(name="uma"), emu.member(name="vic")]
    for someone in (member, *others):
        await run.answer(await someone.slash("ddz tournament join"))
    await run.answer(await run.boss.slash("ddz tournament start"), timeout=20)

    def thread() -> SimChannel | None:
        found = [c for c in emu.default_channel.guild.channels
                 if c.parent is emu.default_channel and any(
                     "hand" in public_actions(m) for m in c.public_messages)]
        return found[0] if found else None

    await emu.wait_until(lambda: thread() is not None, timeout=30, what="the table's thread")
    where = thread()
    assert where is not None
    for someone in others:
        await run.answer(await someone.slash("ddz autoplay", channel=where, mode="on", pace=1))
    board = [m for m in where.public_messages if public_ids(m)][-1]
    view = await open_view(member, via_button=board)
    await run.play_a_card(member, view)


async def puzzles(run: Run) -> None:
    """``/ddz puzzle``: the puzzle of the day; the member ticks the cards of a play in the
    card menu and presses Play until the puzzle takes one (a play that cannot follow is
    refused with its reason, the view unchanged)."""
    member = run.member("pia")
    ix = await run.answer(await member.slash("ddz puzzle"))
    view = ix.message
    assert view is not None and view.visible_to is member, reply_text(ix)

    def ids() -> dict[str, dict[str, object]]:
        return {m["verb"]: c for c in view.all_components()
                if (m := PUZZLE_ID.match(c.get("custom_id", "")))}

    plies = {m["plies"] for c in view.custom_ids if (m := PUZZLE_ID.match(c))}
    menu = ids()["cards"]
    hand = [Card.from_index(int(o["value"])) for o in menu["options"]]  # type: ignore[attr-defined]
    for play in sorted(legal_plays(hand, None, RULES), key=lambda c: (len(c.cards), c.rank)):
        values = [str(c.index) for c in play.cards]
        await run.answer(await member.select(view, str(ids()["cards"]["custom_id"]), values))
        await run.answer(await member.click(view, str(ids()["play"]["custom_id"])))
        now = {m["plies"] for c in view.custom_ids if (m := PUZZLE_ID.match(c))}
        if now != plies:  # taken: the puzzle moved on (or is over: no component left)
            played = t("puzzle.you_played", run.lang, cards="\x00").split("\x00")[0]
            assert played in view.text, view.text
            return
    raise AssertionError(f"no play taken: {view.text}")


DRIVERS: dict[str, Driver] = {"table": channel_table, "daily": daily, "event": event,
                              "tournament": tournament, "puzzles": puzzles}
"""How a member reaches the hand view of each kind. A kind the registry has and this has
not fails ``test_every_registered_kind_has_a_way_to_its_hand_view``: add its way here."""


def test_every_registered_kind_has_a_way_to_its_hand_view() -> None:
    kinds = registered_kinds()
    assert {"table", "daily", "event", "tournament", "puzzles"} <= set(kinds)  # the registry read
    assert sorted(DRIVERS) == sorted(kinds), f"kinds without a driver: {set(kinds) - set(DRIVERS)}"


@pytest.mark.parametrize("lang", languages())
async def test_each_kind_of_hand_view_opens_and_plays_a_card_in_each_language(
        emulator: Emulator, bot_factory: BotFactory, lang: str) -> None:
    emu = emulator
    await bot_factory(extra_env=ENV).start(timeout=30)
    run = Run(emu, lang)
    for kind in registered_kinds():
        before = len(run.answers)
        await DRIVERS[kind](run)
        for ix in run.answers[before:]:
            assert run.words.sorry not in reply_text(ix), (kind, reply_text(ix))
    sorry = {t("error.internal", lang) for lang in languages()}
    said = [m.text for m in emu.public_messages()] + [
        m.text for c in emu.default_channel.guild.channels for m in c.messages]
    assert not [text for text in said if any(s in text for s in sorry)]
    assert emu.errors == []


@pytest.mark.parametrize("lang", ["en", "es"])
async def test_the_daily_deal_and_an_event_deal_are_played_from_the_view_with_play_and_pass(
        emulator: Emulator, bot_factory: BotFactory, lang: str) -> None:
    """The two kinds whose table data moved into their wings (issue 49) played as a person
    does, in English and Spanish: from the hand view she picks the cards of her plays,
    presses Play, and presses Pass at the first play she may pass on, then plays again."""
    await bot_factory(extra_env=ENV).start(timeout=30)
    run = Run(emulator, lang)
    run.with_pass = True
    for kind in ("daily", "event"):
        before = len(run.answers)
        await DRIVERS[kind](run)
        for ix in run.answers[before:]:
            assert run.words.sorry not in reply_text(ix), (kind, reply_text(ix))
    assert emulator.errors == []
