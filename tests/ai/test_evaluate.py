"""Hand decomposition: fewest plays, with kickers attached (bot.ai.evaluate)."""

from __future__ import annotations

from bot.ai.evaluate import MEMO_SIZE, counts_of, evaluate, memo_info, memo_size
from bot.rules import ComboKind, parse_cards


def _turns(text: str) -> int:
    return evaluate(counts_of(parse_cards(text)))[1]


def test_straight_is_one_play() -> None:
    assert _turns("34567") == 1


def test_trios_take_low_singles_as_kickers() -> None:
    assert _turns("33345") == 2
    assert _turns("3334445") == 2


def test_straight_plus_pair_chain_split() -> None:
    value, turns, groups = evaluate(counts_of(parse_cards("33344455566678")))
    assert turns == 2
    assert {g[0] for g in groups} == {ComboKind.STRAIGHT, ComboKind.PAIR_CHAIN}


def test_bomb_is_not_a_turn_and_airplane_found() -> None:
    _, turns, groups = evaluate(counts_of(parse_cards("3334445556667777")))
    assert turns == 1
    assert (ComboKind.BOMB, 4, 1) in groups


def test_rocket_is_kept_together() -> None:
    _, turns, groups = evaluate(counts_of(parse_cards("3XD")))
    assert turns == 1
    assert (ComboKind.ROCKET, 14, 1) in groups


def test_low_single_lowers_hand_value() -> None:
    assert evaluate(counts_of(parse_cards("2")))[0] > evaluate(counts_of(parse_cards("3")))[0]


def test_the_memo_keeps_only_its_size_of_the_most_recently_used_hands() -> None:
    """Issue 25's soak: the memo was a dict emptied at 300,000 entries (≈ 190 MiB in the
    bot process); it is an LRU of ``MEMO_SIZE`` entries now."""
    assert memo_info().maxsize == MEMO_SIZE == 20_000
    memo_size(3)
    try:
        three, four, five, six = (counts_of(parse_cards(text)) for text in "3456")
        for counts in (three, four, five):
            evaluate(counts)
        evaluate(three)  # used again: now the most recent
        evaluate(six)  # a fourth hand: the least recently used (four) goes
        assert memo_info()[:4] == (1, 4, 3, 3)  # hits, misses, maxsize, entries
        evaluate(three), evaluate(five), evaluate(six)
        assert memo_info().hits == 4
        assert evaluate(four) == evaluate(four)  # four was dropped: worked out again
        assert memo_info()[:2] == (5, 5)
    finally:
        memo_size(MEMO_SIZE)
    assert memo_info().maxsize == MEMO_SIZE and memo_info().currsize == 0


def test_planned_plays_are_shared_between_memo_entries() -> None:
    """A memo entry holds its groups by reference (one tuple per kind, top and length)."""
    _, _, first = evaluate(counts_of(parse_cards("34567KK")))
    _, _, second = evaluate(counts_of(parse_cards("34567QQ")))
    straight = (ComboKind.STRAIGHT, 4, 5)  # 3 to 7
    assert straight in first and straight in second
    assert next(g for g in first if g == straight) is next(g for g in second if g == straight)
