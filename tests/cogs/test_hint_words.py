"""The Hint's answers name a play as the other sentences do: a lone joker with its
article, the two jokers as the rocket (``{cards:the}``, docs/RULES.md §Notation).

Play-test: cycling the Hint read "Lead the bomb small joker big joker: nothing else is left
to do.", "Bomb with small joker big joker: the hand can go out after it." and "Abre con la
carta comodín pequeño para deshacerte de ella.", beside "Play the rocket: it won 80% of
simulated games." and "Beat it with the big joker…"."""

from __future__ import annotations

import pytest

import bot.service.hints as hints
from bot.ai.decision import play
from bot.rules import classify, parse_cards
from cogs.hand_actions import hint_reason
from tests.support.fake_discord import FakeDiscord
from tests.support.fake_game import answered, comp, deal_for, three_members_ana_leads
from tests.support.gated_search import GatedSearch
from tests.support.menu_play import hint_line, play_from_menu, selected

FOLLOW = {
    "en-US": ("💡 Quick look (the full search may change it): Bomb with the rocket: the hand can"
              " go out after it.", "You played the rocket.", "You passed."),
    "es-ES": ("💡 Vistazo rápido (la búsqueda completa puede cambiarlo): Bomba con el cohete:"
              " después la mano puede salir.", "Has jugado el cohete.", "Has pasado."),
    "zh-CN": ("💡 快速判断（完整搜索可能会改变结论）：出 王炸：炸完就能出完。", "你出了 王炸。",
              "你选择了不出。"),
}


@pytest.mark.parametrize("locale", sorted(FOLLOW))
async def test_the_quick_hint_names_the_rocket_it_suggests_and_the_member_plays_it(
        fake: FakeDiscord, locale: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ana leads a 9 from the card menu; Bo, who holds the rocket and an airplane with pair
    wings, presses Hint and reads the quick look (the search still running), picks both
    jokers in the menu and plays them; Cy and Ana pass from their views."""
    quick, played, passed = FOLLOW[locale]
    search = GatedSearch()
    monkeypatch.setattr(hints, "compute", search)
    fake.deal = {"hands": ["3456799TTJJQQKKAA", "333444555667788XD", "678899TTJJQQKKA22"],
                 "kitty": "A22", "first_bidder": 0}
    ana, bo, cy = await three_members_ana_leads(fake, locale)
    await play_from_menu(ana, (await ana.slash("hand")).last, "9")
    view = (await bo.slash("hand")).last
    edits = view.edits
    fake.dispatch(bo.click_payload(view, comp(view, "hhint")))
    await answered(fake, view, edits)  # the quick answer, before the search's
    first = fake.messages[view.id].content
    search.gate.set()
    await fake.idle()
    assert next(line for line in first.splitlines() if line.startswith("💡")) == quick, first
    view = (await bo.slash("hand")).last
    assert played in await play_from_menu(bo, view, "XD")
    for member in (cy, ana):
        mine = (await member.slash("hand")).last
        assert passed in (await member.click(mine, comp(mine, "hpass"))).text
    hand = fake.bot.service.table_in_channel(fake.channel_id).hand
    assert [a.kind for a in hand.history if a.kind != "bid"] == ["play", "play", "pass", "pass"]


LEAD = {
    "en-US": {"8888": "💡 Lead the bomb 8888: nothing else is left to do.",
              "XD": "💡 Lead the rocket: nothing else is left to do.",
              "X": "💡 Lead the single small joker to get rid of it.",
              "played": "You played the rocket.", "passed": "You passed."},
    "es-ES": {"8888": "💡 Abre con la bomba 8888: no queda otra cosa.",
              "XD": "💡 Abre con el cohete: no queda otra cosa.",
              "X": "💡 Abre con el comodín pequeño para deshacerte de esa carta suelta.",
              "played": "Has jugado el cohete.", "passed": "Has pasado."},
    "zh-CN": {"8888": "💡 先出炸弹 8888：已经没有别的可出了。",
              "XD": "💡 先出 王炸：已经没有别的可出了。",
              "X": "💡 先出单张 小王，把它甩掉。",
              "played": "你出了 王炸。", "passed": "你选择了不出。"},
}


@pytest.mark.parametrize("locale", sorted(LEAD))
async def test_cycling_the_hint_on_a_lead_names_the_bomb_the_rocket_and_a_joker(
        fake: FakeDiscord, locale: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ana, to lead, presses Hint again and again and reads each suggestion for the bomb
    8888, the rocket and the small joker; at the rocket she presses Play, and Bo and Cy
    pass from their views."""
    read = LEAD[locale]
    search = GatedSearch()
    search.gate.set()  # the search's list at once: the Hint cycles the normal ranking
    monkeypatch.setattr(hints, "compute", search)
    fake.deal = {"hands": deal_for("3579JQK22AXD88887", "999"), "kitty": "999",
                 "first_bidder": 0}
    ana, bo, cy = await three_members_ana_leads(fake, locale)
    view = (await ana.slash("hand")).last
    lang = {"en-US": "en", "es-ES": "es"}.get(locale, locale)
    seen: dict[str, str] = {}
    for _ in range(60):
        view = (await ana.click(view, comp(view, "hhint"))).last
        seen.setdefault(selected(view, lang), hint_line(view))
        if {"8888", "XD", "X"} <= set(seen):
            break
    assert {key: seen.get(key) for key in ("8888", "XD", "X")} == {
        key: read[key] for key in ("8888", "XD", "X")}, seen
    while selected(view, lang) != "XD":  # round again to the rocket
        view = (await ana.click(view, comp(view, "hhint"))).last
    assert read["played"] in (await ana.click(view, comp(view, "hplay"))).text
    for member in (bo, cy):
        mine = (await member.slash("hand")).last
        assert read["passed"] in (await member.click(mine, comp(mine, "hpass"))).text


LINES = {  # (reason code, cards, n) → what the Hint writes, in en, es, zh-CN
    ("bomb_to_stop", "XD", None): (
        "Bomb with the rocket: the opponent is about to go out.",
        "Bomba con el cohete: el rival está a punto de salir.",
        "出 王炸：对手马上要出完了。"),
    ("bomb_to_win", "7777", None): (
        "Bomb with 7777: the hand can go out after it.",
        "Bomba con 7777: después la mano puede salir.",
        "出 7777：炸完就能出完。"),
    ("lead_highest_single", "D", None): (
        "An opponent has one card left: lead your highest single, the big joker.",
        "A un rival le queda una carta: abre con tu carta más alta, el comodín grande.",
        "对手只剩一张牌：先出最大的单张 大王。"),
    ("lead_low_single_risky", "X", None): (
        "An opponent has one card left: the small joker is lower than your highest single and"
        " may let them go out.",
        "A un rival le queda una carta: el comodín pequeño no es tu carta más alta y puede"
        " dejarle salir.",
        "对手只剩一张牌：小王 比你最大的单张小，可能让对手出完。"),
    ("feed_partner", "X", None): (
        "The partner has few cards left: lead the small joker for them.",
        "A tu compañero le quedan pocas cartas: abre con el comodín pequeño para él.",
        "队友牌不多了：出 小王 给队友接。"),
    ("feed_partner", "33", None): (
        "The partner has few cards left: lead 33 for them.",
        "A tu compañero le quedan pocas cartas: abre con 33 para él.",
        "队友牌不多了：出 33 给队友接。"),
    ("lead_single", "K", None): (
        "Lead the single K to get rid of it.",
        "Abre con K para deshacerte de esa carta suelta.",
        "先出单张 K，把它甩掉。"),
    ("stop_opponent_few_cards", "XD", 2): (
        "An opponent has only 2 cards left: stop it with the rocket.",
        "A un rival solo le quedan 2 cartas: detenlo con el cohete.",
        "对手只剩 2 张牌：用 王炸 顶住。"),
    ("pass_random", None, None): (
        "Pass (a random choice).", "Pasa (elección al azar).", "不出（随机选择）。"),
}
"""Every Hint line this change touched, and one it did not, with a joker, the rocket or
other cards; "Paso (elección al azar)." was the one Spanish pass not in the imperative."""


@pytest.mark.parametrize("key", sorted(LINES, key=str))
def test_each_hint_line_names_its_cards_as_the_sentences_do(key: tuple) -> None:
    code, cards, n = key
    combo = classify(parse_cards(cards))[0] if cards else None
    params = {} if n is None else {"n": n}
    decision = play(combo, code, **params)
    assert [hint_reason(decision, lang) for lang in ("en", "es", "zh_CN")] == list(LINES[key])
