"""Sample inputs shared by ``tools.preview``, the tests and the benchmark."""

from __future__ import annotations

from bot.rules.cards import Card, parse_cards
from rendering.models import ResultView, SeatResult, SeatView, TableView
from rendering.replay_models import ReplayLine, ReplayPage, ReplaySeat, ReviewMark
from rendering.stats import ChartHand, StatsView

LONG_NAME = "张伟😀👨‍👩‍👧 Ñandú the Magnificent!!"  # 32 code points: CJK, emoji, a ZWJ family, accents
CJK_NAME = "斗地主大师" * 5 + "김철수 たなか"  # 32 code points: Chinese, Korean, Japanese kana


def landlord_hand() -> list[Card]:
    """A 20-card landlord hand (17 dealt + kitty) with a bomb, trios and both jokers."""
    return parse_cards("3 4 5 5 6 7 7 7 8 9 T J J Q K A 2 2 X D")


def selected_three() -> set[int]:
    """Card indices of the three 7s in ``landlord_hand``."""
    return {card.index for card in landlord_hand() if card.rank.symbol == "7"}


def mid_game_table() -> TableView:
    """Mid-game table: landlord on 2 cards, a peasant on 1, the third to play."""
    return TableView(
        seats=(
            SeatView("Ana", is_landlord=True, cards_left=2, last_action=parse_cards("333444 58"),
                     to_beat=True),
            SeatView(LONG_NAME, cards_left=1, last_action="pass", is_computer=True),
            SeatView("Bob", cards_left=9, last_action=None, is_turn=True),
        ),
        bid=3,
        multiplier=4,
        kitty=parse_cards("5TD"),
        status="Bob to play: beat 333444 58 or pass",
        hand_number=12,
    )


def returning_turn_table() -> TableView:
    """The turn back at a seat that played this round: Ana led 3334, Bob bombed with
    7777 (to beat, ×2), the computer passed; Ana to play."""
    return TableView(
        seats=(
            SeatView("Ana", is_landlord=True, cards_left=11, last_action=parse_cards("3334"),
                     is_turn=True),
            SeatView(LONG_NAME, cards_left=6, last_action="pass", is_computer=True),
            SeatView("Bob", cards_left=9, last_action=parse_cards("7777"), to_beat=True,
                     last_tag="bomb"),
        ),
        bid=2,
        multiplier=4,
        kitty=parse_cards("5TD"),
        status="Ana to play: beat 7777 or pass",
        hand_number=12,
    )


def bidding_table() -> TableView:
    """Bidding: Ana bid 1, the computer passed, Bob is to bid (kitty face down)."""
    return TableView(
        seats=(
            SeatView("Ana", bid=1),
            SeatView(LONG_NAME, bid=0, is_computer=True),
            SeatView("Bob", is_turn=True),
        ),
        bid=1,
        status="Bob to bid",
        hand_number=3,
        bidding=True,
    )


def spring_result() -> ResultView:
    """Landlord spring: bid 2, one bomb and the rocket played, P = 2 × 2³ = 16."""
    return ResultView(
        winner="landlord",
        bid=2,
        points=16,
        doublings=(("bomb", "Ana"), ("rocket", "Ana"), ("spring", None)),
        seats=(
            SeatResult("Ana", is_landlord=True, change=32, total=35, remaining=()),
            SeatResult(LONG_NAME, is_landlord=False, change=-16, total=-9,
                       remaining=parse_cards("3 4 5 6 7 8 9 T J Q K A 2 2 3 4 5")),
            SeatResult("Bob", is_landlord=False, change=-16, total=4,
                       remaining=parse_cards("3 3 4 4 6 6 8 8 9 9 T T J Q K A A")),
        ),
        hand_number=12,
        match_winners=("Ana",),
    )


def stats_chart() -> StatsView:
    """Ana's last 50 hands over two matches (a new match after hand 21): seeded, no I/O."""
    import random

    from bot.game.rating import NEW_RATING, RatedSeat, SkillRating, rate_hand

    rng = random.Random(15)
    me, other, third = "member:1", "member:2", "member:3"
    ratings: dict[str, SkillRating] = {}
    hands, total, match_no = [], 0, 3
    wins = {True: 0, False: 0}
    played = {True: 0, False: 0}
    for n in range(50):
        landlord = rng.random() < 0.36
        won = rng.random() < (0.62 if landlord else 0.55)
        stake = rng.choice((1, 1, 2, 2, 3, 4, 6))
        total += (2 * stake if landlord else stake) * (1 if won else -1)
        seats = [RatedSeat(me, landlord), RatedSeat(other, not landlord), RatedSeat(third, False)]
        ratings.update(rate_hand(seats, won == landlord, ratings))
        r = ratings.get(me, NEW_RATING)
        hands.append(ChartHand(won=won, landlord=landlord, match_no=match_no, total=total,
                               rating=r.ordinal))
        played[landlord] += 1
        wins[landlord] += won
        if n == 20:
            match_no, total = match_no + 1, 0
    r = ratings[me]
    return StatsView(name="Ana", hands=hands, landlord_wins=wins[True] + 9,
                     landlord_hands=played[True] + 15, peasant_wins=wins[False] + 20,
                     peasant_hands=played[False] + 37, rating=r.ordinal, mu=r.mu, sigma=r.sigma)


def _replay_seats(hands: tuple[str, str, str], landlord: bool = True) -> tuple[ReplaySeat, ...]:
    return (ReplaySeat("Ana", is_landlord=landlord, cards=tuple(parse_cards(hands[0]))),
            ReplaySeat(LONG_NAME, is_computer=True, cards=tuple(parse_cards(hands[1]))),
            ReplaySeat(CJK_NAME, cards=tuple(parse_cards(hands[2]))))


def replay_deal_page() -> ReplayPage:
    """The deal page of hand 12: 17 cards each (long and CJK names), the kitty."""
    hands = ("3 4 5 5 6 7 7 7 8 9 T J J Q K A 2", "3 3 4 4 6 6 8 8 9 9 T T J Q K A A",
             "3 4 5 6 7 8 9 T J Q K A 2 2 5 6 8")
    return ReplayPage("deal", _replay_seats(hands, landlord=False), kitty=tuple(parse_cards("2XD")),
                      hand_number=12, page=1, pages=9, first_bidder=1)


def replay_bidding_page() -> ReplayPage:
    """Bidding: the computer passed, the CJK name bid 1, Ana bid 3 and took the kitty."""
    hands = ("3 4 5 5 6 7 7 7 8 9 T J J Q K A 2 2 X D", "3 3 4 4 6 6 8 8 9 9 T T J Q K A A",
             "3 4 5 6 7 8 9 T J Q K A 2 2 5 6 8")
    lines = (ReplayLine(1, "bid", amount=0), ReplayLine(2, "bid", amount=1),
             ReplayLine(0, "bid", amount=3))
    return ReplayPage("bidding", _replay_seats(hands), lines, kitty=tuple(parse_cards("2XD")),
                      hand_number=12, page=2, pages=9, bid=3, multiplier=1)


def replay_trick_page() -> ReplayPage:
    """Trick 3 of 7: Ana leads 333444 58, a bomb follows (auto-played), a reviewed
    pass (the hard player would have bombed: 62 % against 31 %)."""
    hands = ("5 6 7 7 7 8 9 T J J Q K", "3 3 4 4 6 6 8 8 9 9 T T J Q",
             "7 8 9 T J Q K A 2 2")
    mark = ReviewMark(1, tuple(parse_cards("AAAA")), 62, 31)
    lines = (ReplayLine(0, "lead", cards=tuple(parse_cards("333444 58"))),
             ReplayLine(1, "follow", cards=tuple(parse_cards("6666")), doubling="bomb", auto=True),
             ReplayLine(2, "pass", mark=mark))
    return ReplayPage("trick", _replay_seats(hands), lines, hand_number=12, page=5, pages=9,
                      trick=3, tricks=7, bid=3, multiplier=2)
