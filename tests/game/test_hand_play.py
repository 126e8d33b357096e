"""Full hands from fixed deals: docs/RULES.md §Play and §Scoring."""

from bot.game import Hand
from bot.rules import ComboKind, format_cards
from tests.support.deals import make_deal


def run(hand: Hand, *moves: str | None) -> Hand:
    """Each move is a play in docs/RULES.md notation by the seat to act, or None = pass."""
    for move in moves:
        if move is None:
            hand.pass_turn(hand.turn)
        else:
            hand.play(hand.turn, move)
    return hand


def test_bid_2_and_one_bomb_landlord_wins_8_and_peasants_lose_4_each():
    hand = make_deal("3 2222 56789TJQKA KK", "4", kitty="KQQ")
    hand.bid(0, 2), hand.bid(1, 0), hand.bid(2, 0)
    assert format_cards(hand.hand_of(0)) == "356789TJQQQKKKKA2222"
    run(hand, "3", "4", None, "2222", None, None, "56789TJQKA", None, None)
    assert hand.phase == "playing"
    run(hand, "KKKQQ")
    result = hand.result
    assert hand.phase == "finished"
    assert hand.turn is None
    assert result.winner == "landlord"
    assert (result.base, result.bombs, result.rockets, result.doublings) == (2, 1, 0, 1)
    assert not result.spring and not result.anti_spring
    assert result.p == 4
    assert result.points == (8, -4, -4)


def test_bid_1_with_a_bomb_and_the_rocket_makes_p_4_for_the_peasants():
    hand = make_deal("3333 4", "XD 56789TJQKA 22 666")
    hand.bid(0, 1), hand.bid(1, 0), hand.bid(2, 0)
    run(hand, "4", None, None, "3333", "XD", None, None)
    assert hand.doublings == 2 and hand.multiplier == 4
    run(hand, "56789TJQKA", None, None, "22", None, None, "666")
    result = hand.result
    assert result.winner == "peasants"
    assert result.out_seat == 1
    assert (result.bombs, result.rockets, result.anti_spring) == (1, 1, False)
    assert result.p == 4
    assert result.points == (-8, 4, 4)


def test_spring_when_the_landlord_empties_his_hand_with_a_33344456_lead():
    hand = make_deal("3334445 6789TJQKA 2", kitty="622")
    hand.bid(0, 3)
    run(hand, "6789TJQKA", None, None, "222", None, None)
    action = hand.play(0, "33344456")
    assert action.combo.kind is ComboKind.AIRPLANE_SINGLES
    result = hand.result
    assert result.winner == "landlord"
    assert result.spring and not result.anti_spring
    assert result.doublings == 1
    assert result.points == (12, -6, -6)


def test_no_spring_when_a_peasant_played_once():
    hand = make_deal("33344456 789TJQKA 2", "X", kitty="22D")
    hand.bid(0, 3)
    run(hand, "2", "X", None, "D", None, None, "789TJQKA", None, None, "22", None, None)
    assert hand.plays_made(1) == 1
    run(hand, "33344456")
    result = hand.result
    assert result.winner == "landlord"
    assert not result.spring
    assert result.points == (6, -3, -3)


def test_anti_spring_when_the_landlord_made_only_his_opening_play():
    hand = make_deal("3", "2 56789TJQKA 666777")
    hand.bid(0, 1), hand.bid(1, 0), hand.bid(2, 0)
    run(hand, "3", "2", None, None, "56789TJQKA", None, None, "666777")
    result = hand.result
    assert result.winner == "peasants"
    assert result.anti_spring and not result.spring
    assert result.doublings == 1
    assert result.points == (-4, 2, 2)


def test_no_anti_spring_when_the_landlord_played_twice():
    hand = make_deal("3 4", "2 56789TJQKA 666777")
    hand.bid(0, 1), hand.bid(1, 0), hand.bid(2, 0)
    run(hand, "3", None, None, "4", "2", None, None, "56789TJQKA", None, None, "666777")
    result = hand.result
    assert result.winner == "peasants"
    assert not result.anti_spring
    assert result.points == (-2, 1, 1)


def test_two_passes_clear_the_table_and_the_last_player_leads():
    hand = make_deal("3 4", "2")
    hand.bid(0, 1), hand.bid(1, 0), hand.bid(2, 0)
    run(hand, "3", "2", None)
    assert hand.to_beat is not None
    run(hand, None)
    assert hand.last_play is None
    assert hand.turn == 1
    assert [a.kind if a else None for a in hand.round_plays] == ["pass", "play", "pass"]


def test_a_pass_does_not_take_a_seat_out_of_the_round():
    hand = make_deal("3 6", "7", "4")
    hand.bid(0, 1), hand.bid(1, 0), hand.bid(2, 0)
    run(hand, "3", None, "4", "6", "7")
    assert hand.last_play.seat == 1
    assert hand.turn == 2


def test_default_reading_is_the_longest_body_and_an_index_picks_another():
    lead = "333444555666"
    hand = make_deal(lead)
    hand.bid(0, 3)
    hand.play(0, lead)
    assert hand.to_beat.reading[:2] == (ComboKind.AIRPLANE, 4)

    other = make_deal(lead)
    other.bid(0, 3)
    other.play(0, lead, reading=1)
    assert other.to_beat.kind is ComboKind.AIRPLANE_SINGLES
    assert other.to_beat.rank.symbol == "6"


def test_a_combo_argument_gives_cards_and_reading():
    hand = make_deal("3 4 5 6 7 8 9")
    hand.bid(0, 3)
    combo = next(c for c in hand.legal_plays(0) if c.kind is ComboKind.STRAIGHT)
    hand.play(0, combo)
    assert hand.to_beat == combo
    assert hand.cards_left(0) == 20 - len(combo.cards)


def test_observation_of_a_peasant_shows_plays_but_no_other_hand():
    hand = make_deal("3 4", "2")
    hand.bid(0, 1), hand.bid(1, 0), hand.bid(2, 0)
    run(hand, "3", "2", None)
    obs = hand.observation(0)
    assert [(seat, combo.notation if combo else None) for seat, combo in obs.history] == [
        (0, "3"), (1, "2"), (2, None),
    ]
    assert obs.last_play[0] == 1
    assert obs.hand == tuple(hand.holdings[0])
    assert not set(obs.hand) & (set(hand.holdings[1]) | set(hand.holdings[2]))


def test_following_with_several_beating_readings_defaults_to_the_highest_body():
    def follow(reading=None) -> Hand:
        hand = make_deal("333444555678", "TTTJJJQQQKKK")
        hand.bid(0, 3)
        hand.play(0, "333444555678")
        hand.play(1, "TTTJJJQQQKKK", reading=reading)
        return hand

    assert follow().to_beat.rank.symbol == "K"
    assert follow(1).to_beat.rank.symbol == "Q"
    wanted = follow(1).to_beat
    chosen = follow(wanted).to_beat
    assert chosen.reading == (ComboKind.AIRPLANE_SINGLES, 3, wanted.rank)
