"""Property tests: classify and legal_plays agree with an independent brute force."""

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.rules import DECK, RuleSet, classify, legal_plays, rank_counts
from tests.support.properties import examples
from tests.support.rules_brute import all_readings
from tests.support.rules_checks import key, sub_multisets

RULESETS = st.sampled_from([RuleSet(), RuleSet(kickers="distinct")])
SETTINGS = settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def hands(min_size=1, max_size=20):
    return st.lists(st.sampled_from(DECK), min_size=min_size, max_size=max_size, unique=True)


def brute(cards, rules):
    counts = Counter({r: c for r, c in enumerate(rank_counts(cards)) if c})
    return all_readings(counts, rules.kickers == "distinct")


@SETTINGS
@given(hands(max_size=14), RULESETS)
def test_every_reading_of_a_random_selection_is_confirmed_by_brute_force(cards, rules):
    assert {key(c) for c in classify(cards, rules)} == brute(cards, rules)


@SETTINGS
@given(hands(min_size=5, max_size=20), RULESETS, st.data())
def test_readings_of_generated_plays_match_brute_force(cards, rules, data):
    plays = legal_plays(cards, None, rules)
    play = data.draw(st.sampled_from(plays))
    assert {key(c) for c in classify(play.cards, rules)} == brute(list(play.cards), rules)


@SETTINGS
@given(hands(min_size=1, max_size=20), RULESETS, st.data())
def test_every_legal_play_classifies_with_its_reading_and_beats_the_table(cards, rules, data):
    leads = legal_plays(cards, None, rules)
    other = data.draw(hands(min_size=1, max_size=20))
    to_beat = data.draw(st.sampled_from(legal_plays(other, None, rules)))
    for to_follow, plays in ((None, leads), (to_beat, legal_plays(cards, to_beat, rules))):
        assert len({key(p) for p in plays}) == len(plays), "duplicate plays"
        for play in plays:
            assert set(play.cards) <= set(cards)
            assert play in classify(play.cards, rules)
            if to_follow is not None:
                assert play.beats(to_follow)


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands(min_size=1, max_size=12), RULESETS, st.data())
def test_legal_plays_equal_brute_force_enumeration(cards, rules, data):
    expected_leads = {key(c) for sub in sub_multisets(cards) for c in classify(sub, rules)}
    assert {key(p) for p in legal_plays(cards, None, rules)} == expected_leads
    other = data.draw(hands(min_size=1, max_size=12))
    to_beat = data.draw(st.sampled_from(legal_plays(other, None, rules)))
    expected = {k for sub in sub_multisets(cards) for c in classify(sub, rules)
                if c.beats(to_beat) for k in [key(c)]}
    assert {key(p) for p in legal_plays(cards, to_beat, rules)} == expected
