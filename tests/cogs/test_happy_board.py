"""The public board of a Happy table while calling and grabbing (docs/RULES.md §Happy
rules): its buttons say Call / Don't call, then Grab ×2 / Don't grab, in the server's
language, as the hand view does; and its text gives the multiplier, not classic bids.

Found playing in the sandbox: the board of a Happy table offered Pass / Bid 1 / Bid 2 /
Bid 3 (Bid 2 and 3 greyed out; Pass and Bid 1 were Don't call and Call) and said
"Bids: none yet"."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.game.happy import HappyHand
from bot.game.table import Table
from bot.rules import RuleSet
from cogs.public_view import public_view
from cogs.texts import public_text, table_alt, table_view
from rendering import TableView, render_table
from rendering.table import HEIGHT, SHOWN_H, WIDTH, table_height

HAPPY = RuleSet(variant="happy")
HANDS = ["45TTJQQKKKAA222XD", "3333444555666789J", "6777888999TTJJQQK"]
KITTY = "AA2"
WORDS = {"en": (["Call", "Don't call"], ["Grab (points ×2)", "Don't grab"], "Multiplier: ×1",
                "Bids"),
         "es": (["Cantar", "No cantar"], ["Robar (puntos ×2)", "No robar"], "Multiplicador: ×1",
                "Apuestas"),
         "zh_CN": (["叫地主", "不叫"], ["抢地主（2倍）", "不抢"], "倍数：×1", "叫分"),
         "zh_TW": (["叫地主", "不叫"], ["搶地主（2倍）", "不搶"], "倍數：×1", "叫分")}


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


CALLING = {  # the board's title, Ana's turn line, the image's status line, its seat slot
    "en": ("· calling the landlord", "<@10>, your turn to call the landlord, or not.",
           "Ana to call the landlord", "to call",
           "Bot 2 (computer, normal) may grab the landlord next.", "Bot 2 may grab the landlord"),
    "es": ("· cantar y robar", "<@10>, te toca cantar el terrateniente, o no.",
           "Le toca cantar el terrateniente a Ana", "le toca cantar",
           "Ahora puede robar el terrateniente Bot 2 (ordenador, normal).",
           "Bot 2 puede robar el terrateniente"),
    "zh_CN": ("· 叫地主", "<@10>，轮到你叫地主了。", "Ana 叫地主", "叫地主中",
              "接下来 Bot 2（电脑，普通） 抢地主。", "Bot 2 抢地主"),
}
"""Issue 52: a Happy table's board said "bidding", "your turn to bid" and "Ana to bid"
(叫分 in Chinese) while its seats called and grabbed the landlord."""


@pytest.mark.parametrize("lang", sorted(CALLING))
def test_a_happy_board_says_call_and_grab_not_bid(lang: str) -> None:
    title, turn, status, slot, other, grab_status = CALLING[lang]
    table = happy_table()
    text, _ = public_text(table, lang)
    assert text.splitlines()[0].endswith(title) and turn in text, text
    view = table_view(table, lang)
    assert view.status == status and view.seats[0].asking == slot
    assert table_alt(table, view, lang).startswith(status)
    table.decide(10, "call", 1, 1.0)
    text, _ = public_text(table, lang)
    assert other in text, text
    view = table_view(table, lang)
    assert view.status == grab_status
    assert view.seats[0].said == WORDS[lang][0][0] and view.seats[0].said_yes
    assert view.seats[1].asking is not None and view.seats[0].asking is None


SHOWN = {"en": ("Shown hand",
                "Ana's hand, shown: 4 5 10 10 J Q Q K K K A A 2 2 2 small joker big joker"),
         "es": ("Mano mostrada", "Mano mostrada de Ana: 4 5 10 10 J Q Q K K K A A 2 2 2 "
                "comodín pequeño comodín grande"),
         "zh_CN": ("明牌", "Ana 的明牌：4 5 10 10 J Q Q K K K A A 2 2 2 小王 大王")}
"""The alt text writes the cards one by one, for a screen reader (docs/RULES.md §Notation)."""


@pytest.mark.parametrize("lang", sorted(SHOWN))
def test_a_shown_hand_is_face_up_on_the_board_image_and_named_in_its_alt_text(lang: str) -> None:
    label, words = SHOWN[lang]
    table = happy_table()
    table.decide(10, "show", 4, 0.5)  # Ana starts with her hand face up (明牌开始)
    view = table_view(table, lang)
    assert view.seats[0].shown is not None and "".join(
        card.rank.symbol for card in view.seats[0].shown) == HANDS[0]
    assert view.seats[0].shown_label == label
    assert [seat.shown for seat in view.seats[1:]] == [None, None]
    assert words in table_alt(table, view, lang)
    shown = Image.open(io.BytesIO(render_table(view, locale=lang)))
    assert shown.size == (WIDTH, table_height(view)) and shown.height == HEIGHT + SHOWN_H
    hidden = Image.open(io.BytesIO(render_table(happy_view(lang), locale=lang)))
    assert hidden.size == (WIDTH, HEIGHT)  # no hand shown: the classic size


def happy_view(lang: str) -> TableView:
    return table_view(happy_table(), lang)


def test_the_landlords_show_turn_starts_when_its_bid_timer_does() -> None:
    """The landlord's Show hand / Keep hidden after the kitty runs on the bid timer
    (``Table._arm``); its turn ping counted from the play timer instead, so a 60 s play
    timer against a 30 s bid timer put the turn's start 30 s before it began."""
    from bot.service.pings import turn_start

    table = happy_table()
    table.turn_seconds_bid, table.turn_seconds_play = 30.0, 60.0
    table.decide(10, "call", 1, 1.0)
    hand = table.hand
    assert isinstance(hand, HappyHand)
    hand.decide("grab", 1, 0)
    hand.decide("grab", 2, 0)
    table.deadline = 10.0 + table.turn_seconds_bid  # armed at 10 s for the show
    assert hand.phase == "showing" and hand.asked(0) == "show"
    assert turn_start(table) == 10.0
    text, ping = public_text(table, "en")
    assert "<@10>, you are the landlord: show your hand (×2) or keep it hidden" in text, text
