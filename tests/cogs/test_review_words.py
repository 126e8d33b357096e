"""The review says what it knows and nothing more (issue 27 §6). The input that showed
it: a lost hand whose member bid 1 where the hard computer bid 3, reviewed as "No
decision of yours lost win chance… Well played!"."""

from __future__ import annotations

from types import SimpleNamespace

from bot.ai.review import Assessment, verdict
from bot.rules import classify, parse_cards
from bot.service.replays import Review
from cogs.replay import review_summary

THREES = classify(parse_cards("33"))[0]
FOURS = classify(parse_cards("44"))[0]


def hand(winner: str, landlord: int = 0) -> SimpleNamespace:
    return SimpleNamespace(result=SimpleNamespace(winner=winner), landlord=landlord)


def review(*assessments: Assessment, seat: int = 0) -> Review:
    return Review("h1", seat, tuple(enumerate(assessments)))


BID_OTHER = Assessment("bid", 1, 3, "strong_hand")  # bids are never simulated
PLAY_OTHER_UNSAMPLED = Assessment("play", THREES, FOURS, "lowest")
PLAY_SAME = Assessment("play", THREES, THREES, "lowest", played_win=0.4, best_win=0.4, worlds=50)
PLAY_OTHER_NO_LOSS = Assessment("play", THREES, FOURS, "lowest", played_win=0.5, best_win=0.5,
                                worlds=50)
PLAY_COSTLY = Assessment("play", THREES, FOURS, "lowest", played_win=0.2, best_win=0.6, worlds=50)


def test_a_lost_hand_with_an_unmeasured_different_bid_is_not_well_played() -> None:
    summary = review_summary(review(BID_OTHER, PLAY_SAME), hand("peasants"), "en")
    assert summary == ("1 decision of yours differed from the hard computer's, and it did not "
                       "measure what it cost (bids and obvious plays are not simulated).")
    assert "Well played" not in summary
    es = review_summary(review(BID_OTHER, PLAY_OTHER_UNSAMPLED), hand("landlord", 1), "es")
    assert es.startswith("2 decisiones tuyas difirieron") and "Bien jugado" not in es


def test_bids_and_unsimulated_plays_do_not_count_as_no_loss() -> None:
    assert not BID_OTHER.measured and BID_OTHER.loss == 0.0
    assert verdict([BID_OTHER]) == verdict([PLAY_OTHER_UNSAMPLED]) == "unmeasured"
    assert verdict([PLAY_OTHER_NO_LOSS, PLAY_SAME]) == "no_loss"
    assert verdict([PLAY_SAME]) == "agreed" and verdict([]) == "none"
    assert verdict([BID_OTHER, PLAY_COSTLY]) == "costly"


def test_well_played_only_on_a_won_hand_with_nothing_known_or_suspected_lost() -> None:
    assert review_summary(review(PLAY_SAME), hand("landlord"), "en") == (
        "Every decision of yours was the hard computer's choice. Well played!")
    assert review_summary(review(PLAY_SAME), hand("peasants"), "en") == (
        "Every decision of yours was the hard computer's choice.")
    assert review_summary(review(PLAY_OTHER_NO_LOSS, seat=1), hand("peasants"), "en") == (
        "Where you chose otherwise, the hard computer measured no lost win chance. Well played!")
    assert review_summary(review(PLAY_COSTLY), hand("landlord"), "en") is None
    assert review_summary(review(), hand("landlord"), "en").startswith("You made no decision")


def test_the_summary_counts_every_decision_that_differed() -> None:
    # Issue 48: two lines differed (a measured play that lost nothing, and a bid) under
    # "1 decision of yours differed from the hard computer's".
    summary = review_summary(review(BID_OTHER, PLAY_OTHER_NO_LOSS), hand("peasants"), "en")
    assert summary == ("2 decisions of yours differed from the hard computer's: those it "
                       "measured lost no win chance, and it did not measure what 1 of them "
                       "cost (bids and obvious plays are not simulated).")
    es = review_summary(review(BID_OTHER, PLAY_OTHER_UNSAMPLED, PLAY_OTHER_NO_LOSS),
                        hand("landlord", 1), "es")
    assert es is not None and es.startswith("3 decisiones tuyas difirieron")
    assert "no midió lo que costaron 2 de ellas" in es
