"""The card counter in the private hand view through the real bot (issue 12 item 5):
the alt text lists the cards still out (Spanish "Aún no las has visto", English "Not seen by you yet"),
counted from what the member may know (own hand; the kitty once turned up), the
image grows a strip, and ``/ddz config counter:off`` removes both."""

from __future__ import annotations

import re
from collections import Counter

from bot.rules import RANKS, Card, parse_cards
from sandbox.loopback.emulator import Emulator, SimChannel, SimMember
from tests.support import timing
from tests.support.botproc import BotFactory
from tests.support.ddz_driver import (
    FAST_ENV,
    SHOWN,
    cards_in_alt,
    finished,
    hand_alt,
    hand_verbs,
    open_view,
    press,
    reply_text,
    wait_public,
    watch_table,
)
from tests.support.solo_tables import start_solo_in

PLAYED_RE = re.compile(r"played (" + SHOWN + ")")
OUT_RE = re.compile(r"(?:Not seen by you yet|Aún no las has visto): ([^.]*)")


def still_out(alt: str) -> dict[str, int] | None:
    """{rank symbol: count} from the alt text's counter part ("10" read back as ``T``);
    None without a counter."""
    m = OUT_RE.search(alt)
    if m is None:
        return None
    if m.group(1) in ("none", "ninguna"):
        return {}
    out = {}
    jokers = {"small joker": "X", "big joker": "D", "comodín pequeño": "X",
              "comodín grande": "D"}  # the jokers by name (issue 48)
    for item in m.group(1).split(", "):
        symbol, _, n = item.partition("×")
        symbol = jokers.get(symbol, symbol)
        out["T" if symbol == "10" else symbol] = int(n or 1)
    return out


def expected(seen: list[Card]) -> dict[str, int]:
    """Every rank's cards not in ``seen`` (4 per rank, 1 per joker), zeros left out."""
    counts = Counter(c.rank for c in seen)
    full = {r: (1 if r.index > 12 else 4) for r in RANKS}
    return {r.symbol: full[r] - counts[r] for r in RANKS if full[r] - counts[r]}


def png_height(data: bytes) -> int:
    return int.from_bytes(data[20:24], "big")


async def check_counter(emu: Emulator, member: SimMember, channel: SimChannel) -> int:
    """Deal, check the counter before and after the kitty is turned up; returns the
    hand image's height with the counter."""
    await start_solo_in(emu, member, channel)
    view = await open_view(member)
    own = cards_in_alt(view)
    if "b0" in hand_verbs(view):  # still bidding (a computer may bid 3 and lead at once)
        assert len(own) == 17 and still_out(hand_alt(view)) == expected(own), hand_alt(view)
    word = "Aún no las has visto: " if member.locale.startswith("es") else "Not seen by you yet: "
    assert word in hand_alt(view), hand_alt(view)

    def landlord_known(m):  # noqa: ANN001, ANN202
        return m.channel is channel and ("Landlord:" in m.text or f"<@{member.id}>" in m.content)

    msg = await wait_public(emu, landlord_known, what="the member's bid or the landlord")
    if "Landlord:" not in msg.text:
        view = await open_view(member)
        await press(member, view, "b3")
        msg = await wait_public(emu, lambda m: m.channel is channel and "Landlord:" in m.text,
                                what="the landlord")
    kitty = re.search(r"Kitty[^:]*: (" + SHOWN + ")", msg.text)
    assert kitty is not None, msg.text
    # a computer landlord leads at once: wait until the member is to act (the table
    # stands still), then count what was played since from the table image's alt text
    msg = await wait_public(emu, lambda m: m.channel is channel and "Landlord:" in m.text
                            and f"<@{member.id}>" in m.content, what="the member's turn")
    (table_alt,) = [a.description or "" for a in msg.attachments if a.filename == "table.png"]
    played = [c for cards in PLAYED_RE.findall(table_alt) for c in parse_cards(cards)]
    view = await open_view(member)
    own = cards_in_alt(view)
    shown = still_out(hand_alt(view))
    assert shown is not None, hand_alt(view)
    if len(own) == 20:  # the member is landlord and leads: only their own cards are seen
        assert shown == expected(own), hand_alt(view)
    else:  # seen: own cards, cards played, the kitty (a played kitty card counts once)
        low, high = expected(own + played + parse_cards(kitty.group(1))), expected(own)
        for rank in RANKS:
            s_, lo, hi = (d.get(rank.symbol, 0) for d in (shown, low, high))
            assert lo <= s_ <= hi, (rank, hand_alt(view), table_alt, kitty.group(1))
        if not {c.rank for c in played} & {c.rank for c in parse_cards(kitty.group(1))}:
            assert shown == low, (hand_alt(view), table_alt, kitty.group(1))
    (png,) = [a for a in view.attachments if a.filename == "hand.png"]
    return png_height(png.data)


async def test_the_counter_shows_in_both_languages_and_config_turns_it_off(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    emu = emulator
    watch_table(emu)
    await bot_factory(extra_env=FAST_ENV).start(timeout=30)
    ana = emu.member(name="ana", locale="es-ES")
    bob = emu.member(name="bob")
    first, second = emu.default_guild.channels[:2]
    tall = await check_counter(emu, ana, first)
    assert await check_counter(emu, bob, second) == tall

    admin = emu.member(name="dora", locale="es-ES", manage_guild=True)
    saved = await finished(await admin.slash("ddz config", contador="off"))
    assert "Contador de cartas: desactivado" in reply_text(saved), reply_text(saved)
    for member in (ana, bob):
        view = await open_view(member)
        assert still_out(hand_alt(view)) is None, hand_alt(view)
        (png,) = [a for a in view.attachments if a.filename == "hand.png"]
        assert png_height(png.data) < tall
    boss = emu.member(name="eve", manage_guild=True)
    shown = await finished(await boss.slash("ddz config"))
    assert "Card counter: off" in reply_text(shown), reply_text(shown)
    saved = await finished(await boss.slash("ddz config", counter="on"))
    assert "Card counter: on" in reply_text(saved), reply_text(saved)
    assert still_out(hand_alt(await open_view(bob))) is not None
    assert emu.errors == [] and emu.late_interactions() == []
    timing.record(emu)
