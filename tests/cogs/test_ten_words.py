"""Ten is written one way everywhere a player reads a card (issue 27 §7): ``10``, as on the
card images, the rank buttons and the card menu. The input that showed it: the chat texts
(Selected:, the turn line, hints, refusals, alt texts, the result's cards left, replay and
review lines, /ddz rules) wrote it ``T``. ``T`` is still read when typing cards, and the
compact notation stays in custom_ids and storage."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from bot.game.replay import replay
from bot.rules import DECK, parse_cards, show_cards
from rendering import replay_pages as rp
from tests.support.fake_discord import FakeDiscord, Message
from tests.support.fake_game import comp, deal_for, members

RANK_T = re.compile(r"(?<![^\W\d_])[2-9JQKAXD×]*T[2-9JQKAXDT×]*(?![^\W\d_])")
"""A ``T`` written as a rank: alone or among rank symbols, not inside a word."""
TYPING_HELP = ("10 (or T)", "10 (o T)")
"""The only T a player may read: where the help says how to type a ten."""


def t_ranks(text: str) -> list[str]:
    for help_text in TYPING_HELP:
        text = text.replace(help_text, "")
    return RANK_T.findall(text)


def test_the_pattern_finds_a_t_rank_and_no_word() -> None:
    assert t_ranks("Selected: 89TJQ (straight)") == ["89TJQ"]
    assert t_ranks("Not seen by you yet: 9×2, T×3, J×4") == ["T×3"]
    assert t_ranks("beat TT or pass. TERRATENIENTE, Table, Trick 2, T") == ["TT", "T"]
    assert t_ranks("Use 3-9, 10 (or T), J") == []


def test_every_rank_is_shown_with_ten_as_10_and_reads_back() -> None:
    every = parse_cards("3456789TJQKA2XD")
    assert show_cards(every) == "3456789 10 JQKA2XD"
    assert show_cards(parse_cards("TT")) == "10 10"
    assert show_cards("333444 5T") == "333444 5 10"
    assert show_cards(parse_cards("33344")) == "33344"  # no ten: the notation unchanged
    rng = random.Random(27)
    for _ in range(300):
        cards = rng.sample(DECK, rng.randint(1, 20))
        shown = show_cards(cards)
        assert not t_ranks(shown), shown
        assert sorted(c.rank for c in parse_cards(shown)) == sorted(c.rank for c in cards)


def _texts(message: Message) -> list[str]:
    """Everything a member reads on a message: content, embeds, alt texts, components."""
    out = [message.content, *message.alt_texts]
    for embed in message.embeds:
        out += [embed.get("title") or "", embed.get("description") or "",
                (embed.get("footer") or {}).get("text") or ""]
        out += [f"{f.get('name')} {f.get('value')}" for f in embed.get("fields", [])]
    for row in message.components:
        for item in row.get("components", []):
            out += [item.get("label") or "", item.get("placeholder") or ""]
            out += [f"{o.get('label')} {o.get('description') or ''}"
                    for o in item.get("options", [])]
    return out


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
async def test_every_text_of_a_hand_with_tens_writes_ten_as_10(fake: FakeDiscord,
                                                               locale: str) -> None:
    # Ana: 333444 55 66 77 88 99 T + 2XD; Bo: 3456789TJJQQKKAA2 …
    fake.deal = {"hands": deal_for("3334445566778899T"), "kitty": "2XD", "first_bidder": 0}
    ana, bo, _ = members(fake, locale)
    seen: list[str] = []
    await ana.slash("start")
    lobby = fake.table_message()
    await bo.click(lobby, _label(lobby, "join"))
    await ana.click(fake.messages[lobby.id], _label(fake.messages[lobby.id], "cpu"))
    await bo.click(fake.messages[lobby.id], _label(fake.messages[lobby.id], "start"))
    deal = fake.table_message()
    view = (await ana.click(deal, _label(deal, "hand"))).last
    await ana.click(fake.messages[deal.id], _label(fake.messages[deal.id], "bid3"))
    view = fake.messages[view.id]
    for verb in ("hr4", "hr5", "hr6", "hr7"):  # 6789, then T
        view = (await ana.click(view, comp(view, verb))).last
    view = (await ana.click(view, comp(view, "hr7"))).last  # a second 7 taken: not a play
    view = (await ana.click(view, comp(view, "hplay"))).last  # refused
    seen += _texts(view)
    view = (await ana.click(view, comp(view, "hclear"))).last
    for verb in ("hr3", "hr4", "hr5", "hr6", "hr7"):  # 6 7 8 9 T
        view = (await ana.click(view, comp(view, verb))).last
    seen += _texts(view)  # "Selected: 6789 10 (straight)", the card menu, the alt text
    view = (await ana.click(view, comp(view, "hplay"))).last
    seen += _texts(view)
    refused = await bo.slash("play", cards="34567")  # too low: "does not beat 6789 10"
    seen.append(refused.text)
    bo_view = (await bo.click(fake.table_message(), _label(fake.table_message(), "hand"))).last
    bo_view = (await bo.click(bo_view, comp(bo_view, "hhint"))).last  # 789TJ, with its reason
    seen += _texts(bo_view)
    for member in (ana, bo):
        seen.append((await member.slash("autoplay", mode="on")).text)
    await fake.idle()
    seen.append((await ana.slash("rules")).text)
    for message in fake.messages.values():
        seen += _texts(message)
    hand = fake.bot.service.table_in_channel(lobby.channel_id).hand
    assert hand is not None and hand.result is not None
    steps = replay(hand)
    players = rp.Players(("Ana", "Bo", "Bot"), (11, 22, None))
    lang = locale[:2]
    seen += [rp.page_alt(hand, steps, i, players, lang, 1) for i in range(len(steps))]
    seen.append(rp.plays_alt(hand, steps, players, lang, 1))
    seen += [rp.action_text(a.combo, "play", lang) for a in hand.history if a.combo]
    everything = "\n".join(seen)
    assert "6789 10" in everything  # the straight with its ten was shown
    assert "10×" in everything or "10," in everything or "10." in everything
    assert not t_ranks(everything), [line for line in seen if t_ranks(line)]


def _label(message: Message, verb: str) -> str:
    """The label of the public button whose custom_id's verb starts with ``verb``."""
    items: dict[str, Any] = message.buttons()
    for label, item in items.items():
        if item.get("custom_id", "").split(":")[-1].split(".")[0].startswith(verb):
            return label
    raise AssertionError(f"{verb} not in {[i.get('custom_id') for i in items.values()]}")
