"""A member who plays their turns from the hand view, in whatever language the bot speaks:
what they read (their turn, their cards, what to beat, the acknowledgements) comes from the
catalogs (``bot/i18n``), what they press from the custom_ids (``tests/support/ddz_driver.py``).
Shared by tests/e2e/test_tournament.py and tests/e2e/test_every_table_kind.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.i18n import available_locales, resolve_locale, t
from bot.rules import Card, Combo, classify, parse_cards, show_cards
from sandbox.loopback.emulator import Emulator, SimMember, SimMessage
from tests.support.ddz_driver import (
    RULES,
    SHOWN,
    choose,
    hand_alt,
    hand_verbs,
    pick_play,
    press,
    select_cards_by_rank,
)

DISCORD_LOCALES = {"en": "en-US", "es": "es-ES"}
"""The Discord locale of a catalog whose name is not one already (``zh_CN`` → ``zh-CN``)."""


def discord_locale(lang: str) -> str:
    """The locale a member's Discord sends for the catalog ``lang`` (``en`` → ``en-US``,
    ``zh_CN`` → ``zh-CN``); the bot resolves it back to ``lang``."""
    locale = DISCORD_LOCALES.get(lang, lang.replace("_", "-"))
    assert resolve_locale(locale) == lang, (lang, locale)
    return locale


def languages() -> list[str]:
    """Every language the bot has a catalog of (a new catalog is picked up by itself)."""
    return list(available_locales())


def _mark(name: str) -> str:
    return f"\x00{name}\x00"


def _pattern(text: str, **groups: str) -> re.Pattern[str]:
    """A catalog text formatted with ``_mark`` placeholders, as a regex with ``groups``."""
    out = re.escape(text)
    for name, group in groups.items():
        out = out.replace(re.escape(_mark(name)), group)
    return re.compile(out)


class Words:
    """What a member reading ``lang`` sees in the hand view (docs/RULES.md §A hand at the
    table): the turn lines, the hand in the image's alt text, the acknowledgements, and the
    apology the bot gives when a click failed (``error.internal``)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.sorry = t("error.internal", lang)
        self.bid = t("hand.your_turn_bid", lang)
        self.lead = t("hand.your_turn_lead", lang)
        self.over = t("hand.over", lang)
        self.beat = _pattern(t("hand.your_turn_beat", lang, cards=_mark("cards"),
                               kind=_mark("kind"), name=_mark("name")),
                             cards=f"({SHOWN})", kind=".+?", name=".+?")
        self.beat_joker = [(_pattern(t("hand.your_turn_beat", lang, cards=show_cards(joker),
                                       kind=_mark("kind"), name=_mark("name")),
                                     kind=".+?", name=".+?"), joker) for joker in ("X", "D", "XD")]
        """A lone joker or the rocket to beat, as the sentence names it ("gana al comodín
        pequeño", "gana al cohete")."""
        self.hand = _pattern(t("alt.hand", lang, cards=_mark("cards")), cards=f"({SHOWN})")
        self.played = t("hand.played", lang, cards=_mark("cards")).split(_mark("cards"))[0]
        self.passed = t("hand.passed", lang)
        self.bid_done = t("hand.bid_done", lang, amount=3)
        self.happy = {kind: t(f"hand.your_turn_{kind}", lang)
                      for kind in ("call", "grab", "show", "double")}
        """The Happy rules' questions (docs/RULES.md §Happy rules)."""

    def turn(self, text: str) -> str | None:
        """``"bid"``, ``"lead"``, ``"beat"`` when the view says it is the member's turn;
        under the Happy rules also ``"call"``, ``"grab"``, ``"show"``, ``"double"``."""
        for kind, line in self.happy.items():
            if line in text:
                return kind
        if self.bid in text:
            return "bid"
        if self.lead in text:
            return "lead"
        beat = self.beat.search(text) or any(p.search(text) for p, _ in self.beat_joker)
        return "beat" if beat else None

    def to_beat(self, text: str) -> Combo | None:
        """The play the view asks to beat (its first reading), None on a lead."""
        for pattern, joker in self.beat_joker:
            if pattern.search(text):
                return classify(parse_cards(joker), RULES)[0]
        found = self.beat.search(text)
        return classify(parse_cards(found.group(1)), RULES)[0] if found else None

    def cards(self, view: SimMessage) -> list[Card]:
        """The member's hand, from the hand image's alt text."""
        alt = hand_alt(view)
        found = self.hand.search(alt)
        assert found is not None, f"no hand in the alt text {alt!r}"
        return parse_cards(found.group(1))


def shown_since(view: SimMessage, edits: int, words: str) -> bool:
    """Whether ``view`` said ``words`` in any state it had after its first ``edits`` edits:
    the answer to a click may already be replaced by the computers' next moves when the
    test looks (under load a member's "You passed." went by unseen, so her Pass counted
    as stale and she passed at every turn after it)."""
    states = view.history[edits + 1:]
    return words in view.text or any(
        words in state["content"] or any(words in str(embed) for embed in state["embeds"])
        for state in states)


async def take_turn(member: SimMember, view: SimMessage, words: Words, *,
                    pass_if_free: bool = False) -> str:
    """One turn from the view as a member plays it: bid 3 while bidding (Pass when 3 is not
    offered), under the Happy rules Call, Don't grab, Keep hidden and Double ×2; else pick
    the cards of ``ddz_driver.choose``'s play in the card menu (the rank buttons when the
    menu lacks them), Play, and answer the reading question; or Pass when nothing beats,
    or when ``pass_if_free`` and there is a play to beat. Returns ``"bid"``, ``"play"``,
    ``"pass"``, the Happy decision's kind, or ``"stale"`` when the view moved on meanwhile
    (the bot showed the latest state instead)."""
    kind = words.turn(view.text)
    edits = len(view.history)  # what the view shows from the press on: shown_since
    happy = {"call": "b1", "grab": "b0", "show": "show0", "double": "dbl2"}
    if kind in happy:  # the Happy rules: call, never grab, keep hidden, double ×2
        await press(member, view, happy[kind])
        return kind if words.happy[kind] not in view.text else "stale"
    if kind == "bid":
        verb = "b3" if "b3" in hand_verbs(view) else "b0"
        await press(member, view, verb)
        return "bid" if verb == "b0" or shown_since(view, edits, words.bid_done) else "stale"
    to_beat = words.to_beat(view.text)
    combo = None if pass_if_free and to_beat is not None else choose(words.cards(view), to_beat)
    if combo is None:
        await press(member, view, "pass")
        return "pass" if shown_since(view, edits, words.passed) else "stale"
    if not await pick_play(member, view, combo):
        await select_cards_by_rank(member, view, combo.cards)
    await press(member, view, "play")
    if "rd0" in hand_verbs(view):  # several readings: the one chosen
        readings = [c for c in classify(combo.cards, RULES) if to_beat is None or c.beats(to_beat)]
        await press(member, view, f"rd{readings.index(combo) if combo in readings[:5] else 0}")
    return "play" if shown_since(view, edits, words.played) else "stale"


async def play_turns(emu: Emulator, member: SimMember, view: SimMessage, words: Words, *,
                     until: Callable[[], bool], pass_once: bool = True, max_turns: int = 60,
                     plays: int | None = None, timeout: float = 40.0) -> list[str]:
    """The member's turns in ``view`` (which the bot keeps current) until ``until()`` (or
    their ``plays``-th play, when given): each
    time the view says it is their turn (right after their own action too: a landlord
    leads after the bid), ``take_turn`` (a Pass at the first play to beat
    when ``pass_once``). Returns the actions, in order. The view never shows the apology."""
    actions: list[str] = []
    emu.diagnostics.append(lambda: f"--- {member.name}'s hand view ---\n{view.text}\n"
                                   f"{view.custom_ids}")
    for turn in range(max_turns):
        await emu.wait_until(
            lambda: until() or words.sorry in view.text or words.turn(view.text) is not None,
            timeout=timeout, what=f"{member.name}'s turn {turn} ({words.lang})")
        assert words.sorry not in view.text, view.text
        if until():
            return actions
        actions.append(await take_turn(member, view, words,
                                       pass_if_free=pass_once and "pass" not in actions))
        assert words.sorry not in view.text, view.text
        if plays is not None and actions.count("play") >= plays:
            return actions
    raise AssertionError(f"{member.name} still playing after {max_turns} turns: {actions}")
