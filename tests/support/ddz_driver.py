"""Drive ddz-bot through the emulator the way members do: read what they see, press what
they can press. Shared by the ``test_game_*`` end-to-end tests.

Everything is found through custom_ids (``ddz:<table>:<seq>:<action>`` on the public
table message, ``ddz:<table>:<seq>:h<verb>.<state>`` in the private hand view; see
``cogs/items.py``), so the helpers work in every language. Cards are docs/RULES.md notation.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.i18n import available_locales, cards_text, joker_words, t
from bot.rules import (
    DEFAULT_RULES,
    Card,
    Combo,
    classify,
    format_cards,
    legal_plays,
    parse_cards,
    show_cards,
    spaced_cards,
)
from sandbox.loopback.emulator import Emulator, SimGuild, SimInteraction, SimMember, SimMessage
from tests.support import timing

RULES = DEFAULT_RULES
COMPUTER_DELAY = "0.02,0.05"  # DDZ_COMPUTER_DELAY for fast computer players
BOARD_INTERVAL = "0.2"
"""DDZ_BOARD_INTERVAL for a quick board: Discord's edit limits still pace it (the loopback
enforces them; docs/DISCORD.md)."""
FAST_ENV = {"DDZ_COMPUTER_DELAY": COMPUTER_DELAY, "DDZ_BOARD_INTERVAL": BOARD_INTERVAL,
            "DDZ_TOURNAMENT_HAND_PAUSE": "0.6"}
"""The bot's pacing for the end-to-end tests (docs/CONTRIBUTING.md §Pacing): quick
computers, board and tournament pause (three board intervals); the tests named
``test_real_pace_…`` keep the real values instead."""
JOKERS = "|".join(sorted({re.escape(word) for lang in available_locales() for word in joker_words(lang)},
                         key=len, reverse=True))
"""The jokers as the texts name them in any language ("small joker", "comodín grande", 小王)."""
ROCKETS = "|".join(sorted({re.escape(t("card.the_rocket", lang)) for lang in available_locales()},
                          key=len, reverse=True))
"""The rocket as a sentence names it ("the rocket", "el cohete", 王炸)."""
SHOWN = (r"(?:(?:" + ROCKETS + r")(?!\w)|(?:(?:the|el) (?=" + JOKERS + r"))?"
         r"(?:[2-9JQKAXDT]|10|" + JOKERS + r")(?:[2-9JQKAXDT]|10| (?=10)|(?<=10) (?=[2-9JQKAXD1])"
         r"| (?=(?:[2-9JQKAXDT]|10)(?![0-9A-Za-z]))| (?=" + JOKERS + r")|" + JOKERS + r")*)")
"""Cards as the texts write them (``bot.i18n.cards_text``: "3447788 10 JQ", ten set apart;
"2 small joker big joker", each joker named in the reader's language; a lone joker in a
sentence with its article, "the small joker", "el comodín grande", which ``parse_cards``
reads too; the two jokers as the rocket, "the rocket", 王炸), or one by one as the alt
texts write them (``spaced_cards``: "3 4 4 7 10 J Q
big joker"). Spanish writes a + el as "al": ``hand_player.Words`` reads that one."""
CARDS_RE = re.compile(r":\s*(" + SHOWN + ")")
PUBLIC_RE = re.compile(r"^ddz:(?P<table>[A-Za-z0-9]+):(?P<seq>\d+):(?P<action>[a-z]+\d?)$")
HAND_RE = re.compile(r"^ddz:(?P<table>[A-Za-z0-9]+):(?P<seq>\d+):h(?P<verb>[a-z]+\d*)\.")
MENTION_RE = re.compile(r"<@(\d+)>")


# ---- reading what members see -------------------------------------------------------


def public_ids(msg: SimMessage) -> list[re.Match[str]]:
    return [m for c in msg.custom_ids if (m := PUBLIC_RE.match(c))]


def public_seq(msg: SimMessage) -> int:
    """The table seq a public table message was drawn at (-1 without buttons)."""
    return max((int(m["seq"]) for m in public_ids(msg)), default=-1)


def public_actions(msg: SimMessage) -> dict[str, dict[str, Any]]:
    """Enabled and disabled public buttons by action (``join``, ``bid2``, ``hand``…)."""
    out = {}
    for comp in msg.buttons:
        if (m := PUBLIC_RE.match(comp.get("custom_id", ""))) is not None:
            out[m["action"]] = comp
    return out


def is_turn_ping(msg: SimMessage) -> bool:
    """A turn ping (docs/RULES.md §Turn pings): created with ``allowed_mentions`` that
    let a member be notified (the boards let nobody through)."""
    return bool((msg.allowed_mentions or {}).get("users"))


def posts(emu: Emulator) -> list[SimMessage]:
    """Every public message but the turn pings (the lobby, boards, announcements, shares),
    oldest first."""
    return [m for m in emu.public_messages() if not is_turn_ping(m)]


def table_message(emu: Emulator, guild: SimGuild | None = None) -> SimMessage | None:
    """The newest public message carrying table buttons (lobby, deal or result), in
    ``guild`` only when given."""
    messages = (
        emu.public_messages()
        if guild is None
        else [m for c in guild.channels for m in c.public_messages]
    )
    for msg in reversed(messages):
        if public_ids(msg):
            return msg
    return None


def hand_component(view: SimMessage, verb: str) -> dict[str, Any]:
    """The hand-view component with this verb (``play``, ``pass``, ``r5``, ``b2``, ``pick``…)."""
    for comp in view.all_components():
        m = HAND_RE.match(comp.get("custom_id", ""))
        if m is not None and m["verb"] == verb:
            return comp
    raise AssertionError(f"no hand-view component {verb!r} in {view!r}: {view.custom_ids}")


def hand_verbs(view: SimMessage) -> set[str]:
    return {m["verb"] for c in view.custom_ids if (m := HAND_RE.match(c))}


def hand_alt(view: SimMessage) -> str:
    (att,) = [a for a in view.attachments if a.filename == "hand.png"]
    assert att.is_png and att.description, f"hand view without PNG/alt text: {view!r}"
    return att.description


def cards_in_alt(view: SimMessage) -> list[Card]:
    """The hand listed in the hand view's alt text ("Your hand: 3 4 4 7 7 8 8 10 J…")."""
    alt = hand_alt(view)
    m = CARDS_RE.search(alt)
    assert m is not None, f"no cards in alt text {alt!r}"
    return parse_cards(m.group(1))


def result_total(value: int) -> str:
    """A total as the result message writes it: ``12``, ``−4`` (the minus sign U+2212,
    docs/RULES.md §Scoring)."""
    return str(value).replace("-", "−")


def changes_in_result(text: str, names: Sequence[str]) -> dict[str, int]:
    """Each seat's score change from the result message ("Alice (landlord): +4 → …",
    "Bob: −2" with the minus sign U+2212)."""
    out: dict[str, int] = {}
    for line in text.splitlines():
        for name in names:
            m = re.match(rf"^{re.escape(name)}(?: \([^)]*\))?: ([+−-]?\d+)(?:\s|$)", line)
            if m is not None:
                out[name] = int(m.group(1).replace("−", "-"))
    return out


# ---- waiting -----------------------------------------------------------------------------


async def finished(ix: SimInteraction, timeout: float = 8.0) -> SimInteraction:
    """Wait until the bot finished answering ``ix``: a deferred reply filled in, or (for a
    deferred component update) the message edited or a follow-up sent."""
    emu = ix._emu
    assert emu is not None

    def done() -> bool:
        if ix.response_type is None:
            return False
        if ix.response_type == 5:
            return ix.message is not None and not ix.message.loading
        if ix.response_type == 6:
            return ix.edits > 0 or bool(ix.followups)
        return True

    await emu.wait_until(done, timeout=timeout, what=f"the answer to {ix._describe()}")
    timing.ANSWER_TIMES_MS.append((time.monotonic() - ix.dispatched_at) * 1000.0)
    return ix


def reply_text(ix: SimInteraction) -> str:
    """Everything the bot said in answer to ``ix`` (response message and follow-ups)."""
    return "\n".join(m.text for m in ix.messages)


async def wait_public(
    emu: Emulator,
    predicate: Callable[[SimMessage], Any],
    *,
    timeout: float = 10.0,
    what: str = "a table message",
    guild: SimGuild | None = None,
) -> SimMessage:
    """The newest table message (of ``guild``, if given) for which ``predicate`` holds
    (waits for redraws)."""
    found: list[SimMessage] = []

    def check() -> bool:
        msg = table_message(emu, guild)
        if msg is not None and predicate(msg):
            found[:] = [msg]
            return True
        return False

    await emu.wait_until(check, timeout=timeout, what=what)
    return found[0]


# ---- the test's own account of the hand (docs/RULES.md), to choose plays and check scores ----


def default_reading(cards: Sequence[Card], to_beat: Combo | None) -> Combo:
    """The reading the bot applies to typed cards: the first that beats (docs/RULES.md)."""
    readings = classify(cards, RULES)
    if to_beat is not None:
        readings = [c for c in readings if c.beats(to_beat)]
    assert readings, f"{format_cards(cards)} cannot be played on {to_beat}"
    return readings[0]


def take(hand: list[Card], cards: Sequence[Card]) -> list[Card]:
    """``hand`` minus one card of each rank in ``cards`` (suits do not matter)."""
    rest = list(hand)
    for card in cards:
        same = next(c for c in rest if c.rank == card.rank)
        rest.remove(same)
    return rest


def choose(hand: list[Card], to_beat: Combo | None) -> Combo | None:
    """A simple legal strategy with ``bot.rules.legal_plays``: lead the longest play
    (lowest rank first); follow with the smallest play that beats, never a bomb;
    None = pass."""
    plays = [c for c in legal_plays(hand, to_beat, RULES) if not c.is_bomb]
    if to_beat is None:
        return min(plays, key=lambda c: (-len(c.cards), c.rank))
    return min(plays, key=lambda c: (c.rank, len(c.cards)), default=None)


@dataclass
class Tracker:
    """Turn order and scoring kept by the test from the cards it saw (docs/RULES.md)."""

    hands: dict[int, list[Card]]
    landlord: int
    bid: int
    turn: int = 0
    last: tuple[int, Combo] | None = None
    passes: int = 0
    plays: list[int] = field(default_factory=lambda: [0, 0, 0])
    doublings: int = 0
    winner: int | None = None

    def __post_init__(self) -> None:
        self.turn = self.landlord

    @property
    def to_beat(self) -> Combo | None:
        return None if self.last is None else self.last[1]

    def play(self, seat: int, combo: Combo) -> None:
        assert seat == self.turn
        self.hands[seat] = take(self.hands[seat], combo.cards)
        self.plays[seat] += 1
        self.last, self.passes = (seat, combo), 0
        self.doublings += combo.is_bomb
        if not self.hands[seat]:
            self.winner = seat
        self.turn = (seat + 1) % 3

    def pass_turn(self, seat: int) -> None:
        assert seat == self.turn and self.last is not None
        self.passes += 1
        if self.passes == 2:
            self.last, self.passes = None, 0
        self.turn = (seat + 1) % 3

    def points(self) -> tuple[int, int, int]:
        """Score changes per seat (docs/RULES.md §Scoring: P = B × 2^N, landlord ±2P)."""
        assert self.winner is not None
        n = self.doublings
        peasants = [s for s in range(3) if s != self.landlord]
        landlord_won = self.winner == self.landlord
        if landlord_won and all(self.plays[s] == 0 for s in peasants):
            n += 1  # spring
        if not landlord_won and self.plays[self.landlord] == 1:
            n += 1  # anti-spring
        p = self.bid * 2**n
        sign = 1 if landlord_won else -1
        return tuple(2 * p * sign if s == self.landlord else -p * sign for s in range(3))  # type: ignore[return-value]


# ---- acting ------------------------------------------------------------------------------


async def open_view(member: SimMember, *, via_button: SimMessage | None = None) -> SimMessage:
    """A fresh hand view: ``/ddz hand``, or the "My hand" button of ``via_button``."""
    if via_button is not None:
        ix = await member.click(via_button, public_actions(via_button)["hand"]["custom_id"])
    else:
        ix = await member.slash("ddz hand")
    await finished(ix)
    assert ix.message is not None and ix.message.visible_to is member, reply_text(ix)
    return ix.message


async def press(member: SimMember, view: SimMessage, verb: str) -> SimInteraction:
    """Click the hand-view component ``verb`` and wait for the bot's edit or reply."""
    return await finished(await member.click(view, hand_component(view, verb)["custom_id"]))


async def select_cards_by_rank(member: SimMember, view: SimMessage, cards: Sequence[Card]) -> None:
    """Rank buttons: each click adds one more card of that rank."""
    for card in cards:
        await press(member, view, f"r{card.rank.index}")
    alt = hand_alt(view)
    shown = spaced_cards(cards)  # the alt text writes the cards one by one
    assert any(alt.endswith(f": {cards_text(shown, lang)}") for lang in available_locales()), \
        f"selection not shown in alt text: {alt!r}"


async def pick_play(member: SimMember, view: SimMessage, combo: Combo) -> bool:
    """Tick ``combo``'s ranks in the card menu (one interaction); False when the menu
    lacks them. The alt text's suits are not the real ones, so cards are matched by
    rank (each option's value is a ``Card.index``)."""
    menu = hand_component(view, "cards")
    wanted = [c.rank for c in combo.cards]
    values = []
    for option in menu.get("options") or []:
        rank = Card.from_index(int(option["value"])).rank
        if rank in wanted:
            wanted.remove(rank)
            values.append(option["value"])
    if wanted:
        return False
    await finished(await member.select(view, menu["custom_id"], values))
    return True


async def play_from_view(
    member: SimMember, view: SimMessage, combo: Combo, to_beat: Combo | None, *, ranks: bool
) -> Combo:
    """Select ``combo``'s cards (rank buttons, or the select menu) and press Play; answer
    the reading question when the bot asks. Returns the combo played."""
    if ranks or not await pick_play(member, view, combo):
        await select_cards_by_rank(member, view, combo.cards)
    ix = await press(member, view, "play")
    verbs = hand_verbs(view)
    if "rd0" in verbs:  # several readings: choose ours
        readings = [c for c in classify(combo.cards, RULES) if to_beat is None or c.beats(to_beat)]
        k = readings.index(combo) if combo in readings[:5] else 0
        ix = await press(member, view, f"rd{k}")
        combo = readings[k]
    assert "You played" in view.text, f"play not acknowledged: {view.text!r} {reply_text(ix)!r}"
    return combo


async def play_by_slash(member: SimMember, combo: Combo, to_beat: Combo | None) -> Combo:
    ix = await finished(await member.slash("ddz play", cards=combo.notation))
    played = default_reading(combo.cards, to_beat)
    assert reply_text(ix) == t("ack.played", "en", cards=show_cards(played.notation)), reply_text(ix)
    return played


async def pass_by_slash(member: SimMember) -> None:
    ix = await finished(await member.slash("ddz pass"))
    assert reply_text(ix) == "You passed.", reply_text(ix)


def watch_table(emu: Emulator) -> None:
    """On a wait timeout, also show the newest table message (text and buttons)."""

    def describe() -> str:
        msg = table_message(emu)
        if msg is None:
            return "--- no table message yet ---"
        return f"--- table message (seq {public_seq(msg)}) ---\n{msg.text}\n{msg.custom_ids}"

    emu.diagnostics.append(describe)
