"""The result image of a Happy hand (docs/RULES.md §Happy rules): each peasant's stake as
its line of factors, in the reader's language, instead of the classic bid and formula.

Found playing in the sandbox: a Happy hand settled at +32 / −96 / +64 drew "Bid 1",
"No doublings" and "P = 1 × 2⁰ = 1" on its result image (and its replay's last page)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.game.hand import Hand
from bot.game.table import Table
from bot.rules import DEFAULT_RULES
from cogs.happy_texts import stake_lines
from cogs.texts import result_view as table_result_view
from rendering import render_result
from rendering.replay_pages import Players, result_view
from rendering.result import WIDTH, _pill_specs, _stake_rows
from rendering.strings import text
from rendering.text import font, text_width
from tests.support.happy import HANDS, played

PLAYERS = Players(names=("Ana", "Bo", "Cy"), user_ids=(1, 2, 3), totals=(-128, 64, 64))
STAKES = {
    "en": "grab ×4 · shown hand ×2 · bombs ×2 · spring ×2 · landlord's double ×2 = 64",
    "es": ("robo ×4 · mano mostrada ×2 · bombas ×2 · primavera ×2 · doble del terrateniente"
           " ×2 = 64"),
    "zh_CN": "抢×4 · 明牌×2 · 炸弹×2 · 春天×2 · 地主加倍×2 = 64",
    "zh_TW": "搶×4 · 明牌×2 · 炸彈×2 · 春天×2 · 地主加倍×2 = 64",
}
COLON = {"en": ": ", "es": ": ", "zh_CN": "：", "zh_TW": "："}


@pytest.mark.parametrize("lang", sorted(STAKES))
def test_a_happy_results_image_gives_each_peasants_factors_not_the_classic_formula(
        lang: str) -> None:
    hand = played()
    view = result_view(hand, PLAYERS, 7, lang)
    assert [s.change for s in view.seats] == [-128, 64, 64]
    assert list(view.stakes) == [f"Bo{COLON[lang]}{STAKES[lang]}", f"Cy{COLON[lang]}{STAKES[lang]}"]
    labels = [label for label, _, _ in _pill_specs(view, lang)]
    assert text(lang, "base_bid", n=1) not in labels
    assert text(lang, "no_doublings") not in labels
    rows = _stake_rows(view.stakes)
    face = font(22, True)
    assert all(text_width(row, face) <= WIDTH - 32 for row in rows), rows
    assert "".join(rows).replace(" ·", "").count("= 64") == 2  # nothing cut off
    image = Image.open(io.BytesIO(render_result(view, locale=lang)))
    classic = Image.open(io.BytesIO(render_result(result_view(hand, PLAYERS, 7, lang).__class__(
        winner=view.winner, bid=view.bid, points=view.points, seats=view.seats,
        doublings=view.doublings, hand_number=7), locale=lang)))
    assert image.width == WIDTH and image.height > classic.height  # the factor lines' room


def test_the_result_message_and_its_image_give_the_same_stakes() -> None:
    table = Table.open(1, 2, 10, "Ana", computers=2, rules={"variant": "happy"})
    table.start(10, 0.0, seed=5)
    table.hand = played()  # settled: Ana the landlord, Bo and Cy at 64 each
    view = table_result_view(table, "es", None)
    assert list(view.stakes) == stake_lines(table, "es") and len(view.stakes) == 2
    assert all(line.endswith(" = 64") for line in view.stakes), view.stakes


def test_a_classic_hand_keeps_its_bid_and_formula() -> None:
    hand = Hand.deal(DEFAULT_RULES, hands=HANDS, kitty="AA2", first_bidder=0)
    hand.bid(0, 3)
    for seat, cards in ((0, "4"), (1, "3333"), (2, None), (0, None), (1, "444555666789"),
                        (2, None), (0, None), (1, "J")):
        hand.play(seat, cards) if cards else hand.pass_turn(seat)
    view = result_view(hand, PLAYERS, 7, "en")
    assert view.stakes == () and _stake_rows(view.stakes) == []
    assert [label for label, _, _ in _pill_specs(view, "en")][0] == "Bid 3"
