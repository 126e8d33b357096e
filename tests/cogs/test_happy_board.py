"""The public board of a Happy table while calling and grabbing (docs/RULES.md §Happy
rules): its buttons say Call / Don't call, then Grab ×2 / Don't grab, in the server's
language, as the hand view does; and its text gives the multiplier, not classic bids.

Found playing in the sandbox: the board of a Happy table offered Pass / Bid 1 / Bid 2 /
Bid 3 (Bid 2 and 3 greyed out; Pass and Bid 1 were Don't call and Call) and said
"Bids: none yet"."""

from __future__ import annotations

import pytest

from bot.game.happy import HappyHand
from bot.game.table import Table
from bot.rules import RuleSet
from cogs.public_view import public_view
from cogs.texts import public_text, table_alt, table_view
from rendering import render_table

HAPPY = RuleSet(variant="happy")
HANDS = ["45TTJQQKKKAA222XD", "3333444555666789J", "6777888999TTJJQQK"]
KITTY = "AA2"
WORDS = {"en": (["Call", "Don't call"], ["Grab ×2", "Don't grab"], "Multiplier: ×1", "Bids"),
         "es": (["Cantar", "No cantar"], ["Robar ×2", "No robar"], "Multiplicador: ×1", "Apuestas"),
         "zh_CN": (["叫地主", "不叫"], ["抢地主 ×2", "不抢"], "倍数：×1", "叫分"),
         "zh_TW": (["叫地主", "不叫"], ["搶地主 ×2", "不搶"], "倍數：×1", "叫分")}


def happy_table() -> Table:
    table = Table.open(1, 2, 10, "Ana", computers=2, rules=HAPPY)
    table.start(10, 0.0, hands=HANDS, kitty=KITTY, first_bidder=0)
    assert isinstance(table.hand, HappyHand) and table.hand.turn == 0
    return table


def labels(table: Table, lang: str) -> list[tuple[str, str, bool]]:
    view = public_view(table, lang)
    assert view is not None
    return [(item["custom_id"].rsplit(":", 1)[1], item["label"], item["disabled"])
            for row in view.rows for item in row]


@pytest.mark.parametrize("lang", sorted(WORDS))
def test_the_board_of_a_happy_table_calls_then_grabs_in_the_servers_language(lang: str) -> None:
    calls, grabs, multiplier, bid_word = WORDS[lang]
    table = happy_table()
    buttons = labels(table, lang)
    assert buttons[:2] == [("bid1", calls[0], False), ("bid0", calls[1], False)]
    assert [action for action, _, _ in buttons] == ["bid1", "bid0", "hand", "leave"]
    text, ping = public_text(table, lang)
    assert multiplier in text and ping == 10
    assert not any(line.startswith(bid_word) for line in text.splitlines()), text
    table.decide(10, "call", 1, 1.0)  # Ana calls; the next seat may grab
    assert labels(table, lang)[:2] == [("bid1", grabs[0], False), ("bid0", grabs[1], False)]


def test_the_boards_call_button_calls_and_its_grab_button_grabs() -> None:
    table = happy_table()
    assert isinstance(table.hand, HappyHand)
    table.bid(10, 1, 1.0)  # what the board's bid1 does (cogs/ddz.py: TableService.bid)
    assert [(a.kind, a.amount) for a in table.hand.history][-1:] == [("call", 1)]


RULES_NAMES = {"en": "Happy, cap ×64", "es": "Happy, tope ×64", "zh_CN": "欢乐，封顶 ×64",
               "zh_TW": "歡樂，封頂 ×64"}
NO_BID = {"en": "No bid yet", "es": "Sin apuestas", "zh_CN": "还没人叫分", "zh_TW": "還沒人叫分"}


@pytest.mark.parametrize("lang", sorted(RULES_NAMES))
def test_the_table_image_of_a_happy_table_names_its_rules_not_a_bid(lang: str) -> None:
    # Found in the sandbox: the image's header read "Bid: —", then "Bid 1" (the Happy
    # rules' base), and its alt text "No bid yet" / "Bid 1"
    table = happy_table()
    table.decide(10, "call", 1, 1.0)
    view = table_view(table, lang)
    assert (view.rules, view.bid) == (RULES_NAMES[lang], None)
    alt = table_alt(table, view, lang)
    assert RULES_NAMES[lang] in alt and NO_BID[lang] not in alt, alt
    assert render_table(view, locale=lang).startswith(b"\x89PNG")
    classic = Table.open(1, 2, 10, "Ana", computers=2)
    classic.start(10, 0.0, hands=HANDS, kitty=KITTY, first_bidder=0)
    classic.bid(10, 2, 1.0)
    assert (table_view(classic, lang).rules, table_view(classic, lang).bid) == (None, 2)
