"""A ``zh-CN`` member and a ``zh-TW`` member each play a hand through the hand view
(cards picked in the card menu, Play, Pass, Hint) against two computers on a server whose
locale is ``zh-CN`` (issue 51; docs/ARCHITECTURE.md §Languages): every reply, view and
image alt text they read is in their own script, the public board in the server's
(Simplified), and no English catalog text appears anywhere they look.

It leaves the hand and table images at phone width (400 px) in ``$DDZ_SHOTS`` (else the
temporary folder): ``docs/images/zh_{CN,TW}_{hand,table}_phone.png`` came from here.
"""

from __future__ import annotations

import io
import os
import re
import tempfile
from pathlib import Path

import pytest
from PIL import Image

from bot.i18n import available_locales, catalog, t
from bot.rules import Card, Combo, classify, parse_cards
from sandbox.loopback.emulator import Emulator, SimMember, SimMessage
from tests.support import timing
from tests.support.botproc import BotFactory
from tests.support.ddz_driver import (
    FAST_ENV,
    SHOWN,
    choose,
    finished,
    hand_alt,
    hand_component,
    hand_verbs,
    open_view,
    pick_play,
    press,
    public_actions,
    public_seq,
    reply_text,
    wait_public,
    watch_table,
)
from tests.support.solo import is_turn_of

pytestmark = pytest.mark.skipif(
    not {"zh_CN", "zh_TW"} <= set(available_locales()),
    reason="the Chinese catalogs have not landed")

SERVER = "zh-CN"


def name(key: str, lang: str) -> str:
    return catalog(lang)[key]


def prefix(key: str, lang: str, field: str) -> str:
    """A catalog text up to its ``{field}`` (or ``{field:the}``, docs/RULES.md §Notation):
    what every text made from it starts with."""
    return re.split(r"\{" + field + r"(?::the)?\}", catalog(lang)[key])[0]


def literal(key: str, lang: str) -> list[str]:
    """The pieces of a catalog text between its placeholders (2 characters or more)."""
    return [p for p in re.split(r"\{[^}]*\}", catalog(lang)[key]) if len(p.strip()) >= 2]


def english_fragments() -> set[str]:
    """Literal pieces (placeholders cut out) of English catalog texts, each a phrase of
    two words or more that no Chinese catalog also uses: none may show to these members."""
    chinese = "\n".join(v for lang in ("zh_CN", "zh_TW") for v in catalog(lang).values())
    found = set()
    for key, text in catalog("en").items():
        if key.startswith(("cmd.", "param.", "choice.")):
            continue  # command names: the members type the Chinese ones
        for piece in re.split(r"\{[^}]*\}|[*`_]", text):
            piece = piece.strip(" .,:;!?()·—–-\n")
            if len(piece) >= 10 and " " in piece and re.search("[a-z]{3}", piece) \
                    and piece not in chinese:
                found.add(piece)
    return found


def script_fragments(lang: str, other: str) -> set[str]:
    """Pieces (4 characters or more) of ``lang``'s catalog texts found nowhere in
    ``other``'s: Simplified-only or Traditional-only wording."""
    theirs = "\n".join(catalog(other).values())
    return {p.strip() for text in catalog(lang).values() for p in re.split(r"\{[^}]*\}|[*`]", text)
            if len(p.strip()) >= 4 and p.strip() not in theirs}


def seen_text(msg: SimMessage) -> list[str]:
    """Everything a member reads of a message: text, labels, menus, alt texts."""
    out = [msg.text]
    for comp in msg.all_components():
        out += [str(comp.get(k)) for k in ("label", "placeholder") if comp.get(k)]
        out += [str(o.get("label", "")) + " " + str(o.get("description", ""))
                for o in comp.get("options") or []]
    out += [a.description or "" for a in msg.attachments]
    return out


def cards_of(view: SimMessage, lang: str) -> list[Card]:
    """The hand the alt text lists ("你的手牌：3 4 4 …")."""
    alt = hand_alt(view)
    head = prefix("alt.hand", lang, "cards")
    assert alt.startswith(head), (alt, head)
    cards = alt[len(head):].split(t("sep.sentence", lang))[0]
    return parse_cards(cards)


def phone_png(data: bytes, path: Path) -> Path:
    """``data`` (an 800 px PNG) as a member's phone shows it: 400 px wide."""
    img = Image.open(io.BytesIO(data)).convert("RGB")
    img.resize((400, round(img.height * 400 / img.width)), Image.LANCZOS).save(path)
    return path


def to_beat_in(view: SimMessage, lang: str) -> Combo:
    """What the view says must be beaten, read with the catalog's own sentence
    (``hand.your_turn_beat``: "**轮到你了：**管上 {name} 的 {cards:the}（{kind}），或者不出。")."""
    pattern = re.escape(catalog(lang)["hand.your_turn_beat"])
    for place in ("{cards}", "{cards:the}"):  # the rocket's place (docs/RULES.md §Notation)
        pattern = pattern.replace(re.escape(place), "(?P<cards>" + SHOWN + ")")
    pattern = re.sub(r"\\\{[a-z_]+\\\}", ".*?", pattern)
    found = re.search(pattern, view.text)
    assert found is not None, (pattern, view.text)
    return classify(parse_cards(found.group("cards")))[0]


def png_of(msg: SimMessage) -> bytes:
    (png,) = [a for a in msg.attachments if a.is_png]
    return png.data


async def play_hand(emu: Emulator, member: SimMember, lang: str, seen: list[str],
                    public: list[str], shots: dict[str, bytes]
                    ) -> tuple[SimMessage, dict[str, int]]:
    """The member's turns until the result: bid 3; a lead picked in the card menu and
    played; the first follow passed; later follows as Hint suggests (Play or Pass).
    ``shots`` gets the table image of the first follow and the hand view with the
    first cards picked."""
    done = {"bid": 0, "menu": 0, "play": 0, "pass": 0, "hint": 0}
    seq = -1
    for turn in range(60):
        msg = await wait_public(emu, is_turn_of(member, seq), timeout=30,
                                what=f"{member.name}'s turn {turn}")
        public += seen_text(msg)
        if "again" in public_actions(msg):
            return msg, done
        seq = public_seq(msg)
        view = await open_view(member, via_button=msg)
        seen += seen_text(view)
        verbs = hand_verbs(view)
        if "b3" in verbs:
            assert hand_component(view, "b3")["label"] == t("btn.bid", lang, n=3)
            await press(member, view, "b3")
            assert t("hand.bid_done", lang, amount=3) in view.text, view.text
            done["bid"] += 1
            seen += seen_text(view)
            continue
        hand = cards_of(view, lang)
        if not hand_component(view, "pass").get("disabled"):
            shots.setdefault("table", png_of(msg))
        assert hand_component(view, "play")["label"] == t("btn.play", lang)
        assert hand_component(view, "hint")["label"] == t("btn.hint", lang)
        lead = bool(hand_component(view, "pass").get("disabled"))
        to_beat = None if lead else to_beat_in(view, lang)
        combo = choose(hand, to_beat) if lead or done["pass"] else None
        if combo is not None and (lead or not done["menu"]):
            if await pick_play(member, view, combo):
                done["menu"] += 1
                shots.setdefault("hand", png_of(view))
                assert prefix("alt.selected", lang, "selected") in hand_alt(view)
        elif done["pass"] == 0:
            assert hand_component(view, "pass")["label"] == t("btn.pass", lang)
            await press(member, view, "pass")
            assert t("hand.passed", lang) in view.text, view.text
            done["pass"] += 1
            seen += seen_text(view)
            continue
        else:
            await press(member, view, "hint")
            done["hint"] += 1
            seen += seen_text(view)
            assert prefix("hand.hint", lang, "reason") in view.text, view.text
        if not lead and prefix("alt.selected", lang, "selected") not in hand_alt(view):
            await press(member, view, "pass")  # the hint says pass
            assert t("hand.passed", lang) in view.text, view.text
            done["pass"] += 1
            seen += seen_text(view)
            continue
        if prefix("alt.selected", lang, "selected") not in hand_alt(view):  # a lead, no menu
            await press(member, view, "hint")
            done["hint"] += 1
        await press(member, view, "play")
        if "rd0" in hand_verbs(view):  # several readings of the cards: the first
            seen += seen_text(view)
            await press(member, view, "rd0")
        assert prefix("hand.played", lang, "cards") in view.text, view.text
        done["play"] += 1
        seen += seen_text(view)
    raise AssertionError(f"no result: {done}")


@pytest.mark.parametrize(("locale", "lang", "other"), [
    ("zh-CN", "zh_CN", "zh_TW"), ("zh-TW", "zh_TW", "zh_CN")])
async def test_a_chinese_member_plays_a_hand_in_their_script_on_a_chinese_server(
        emulator: Emulator, bot_factory: BotFactory, locale: str, lang: str,
        other: str) -> None:
    emu = emulator
    emu.default_guild.locale = SERVER
    watch_table(emu)
    await bot_factory(extra_env=FAST_ENV).start(timeout=30)
    member = emu.member(name="xiaoming" if lang == "zh_CN" else "xiaomei", locale=locale)
    seen: list[str] = []
    public: list[str] = []

    ddz, start = name("cmd.ddz.name", lang), name("cmd.start.name", lang)
    opened = await finished(await member.slash(
        f"{ddz} {start}", **{name("param.computers.name", lang): 2}))
    assert opened.ephemeral and reply_text(opened).startswith(prefix("ack.opened", lang, "table")), \
        reply_text(opened)
    seen.append(reply_text(opened))
    lobby = await wait_public(emu, lambda m: "start" in public_actions(m), what="the lobby")
    assert public_actions(lobby)["start"]["label"] == t("btn.start", "zh_CN")  # the server's
    public += seen_text(lobby)
    await member.click(lobby, public_actions(lobby)["start"]["custom_id"])
    deal = await wait_public(emu, lambda m: "hand" in public_actions(m), what="the deal")
    assert public_actions(deal)["hand"]["label"] == t("btn.my_hand", "zh_CN")
    (table_png,) = [a for a in deal.attachments if a.is_png]
    assert any(all(piece in (table_png.description or "") for piece in literal(key, "zh_CN"))
               for key in ("alt.table", "alt.table_no_bid")), table_png.description
    public += seen_text(deal)

    typed = await finished(await member.slash(f"{ddz} {name('cmd.play.name', lang)}",
                                              **{name("param.cards.name", lang): "三"}))
    assert reply_text(typed) in (t("error.bad_cards", lang, token="三"),
                                 t("error.wrong_phase", lang)), reply_text(typed)
    seen.append(reply_text(typed))

    images: dict[str, bytes] = {}
    result, done = await play_hand(emu, member, lang, seen, public, images)
    assert done["bid"] <= 1 and done["play"] >= 1 and done["pass"] >= 1 and done["menu"] >= 1, done
    assert done["hint"] >= 1 or done["play"] >= 2, done
    assert t("btn.play_again", "zh_CN") in [b.get("label") for b in result.buttons]
    score = await finished(await member.slash(f"{ddz} {name('cmd.score.name', lang)}"))
    public.append(reply_text(score))  # /ddz score answers in the server's language

    private, board = "\n".join(seen), "\n".join(public)
    english = sorted(f for f in english_fragments() if f in private + board)
    assert english == [], english
    # the member's own script in private, the server's (Simplified) on the public board
    assert t("hand.passed", lang) in private and t("btn.hint", lang) in private
    simplified = sorted(f for f in script_fragments(other, lang) if f in private)
    assert simplified == [], [(f, [s for s in seen if f in s]) for f in simplified]
    assert sorted(f for f in script_fragments("zh_TW", "zh_CN") if f in board) == []
    assert t("btn.my_hand", "zh_CN") in board
    assert all(piece in board for piece in literal("result.points", "zh_CN")), board[-400:]

    shots = Path(os.environ.get("DDZ_SHOTS") or tempfile.gettempdir())
    shots.mkdir(parents=True, exist_ok=True)
    for kind in ("hand", "table"):
        phone_png(images[kind], shots / f"{lang}_{kind}_phone.png")
    assert emu.errors == [] and emu.late_interactions() == []
    timing.record(emu)


def test_the_cards_in_a_chinese_alt_text_are_read_back() -> None:
    # the helper above: "你的手牌：3 3 4 10 X。已选：3 3"
    lang = "zh_CN"
    alt = t("alt.hand", lang, cards="3 3 4 10 X") + "。" + t("alt.selected", lang, selected="3 3")

    class View:
        attachments = [type("A", (), {"filename": "hand.png", "is_png": True,
                                      "description": alt})()]
    assert [c.rank.symbol for c in cards_of(View(), lang)] == list("334TX")  # type: ignore[arg-type]
    assert classify(parse_cards("33"))[0].notation == "33"
