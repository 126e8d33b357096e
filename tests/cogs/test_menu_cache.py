"""The legal-play menu is made once per position and language (``_menu_options``)."""

from __future__ import annotations

from bot.rules import DEFAULT_RULES, legal_plays, parse_cards
from cogs import hand_view


def test_the_same_ranking_gives_the_same_menu_and_a_new_ranking_a_new_one() -> None:
    plays = tuple(legal_plays(tuple(parse_cards("334455")), None, DEFAULT_RULES))
    first = hand_view._menu_options(plays, "en")  # noqa: SLF001
    assert [o["label"] for o in first[:3]] == ["3 · single", "4 · single", "5 · single"]
    assert hand_view._menu_options(plays, "en") is first  # noqa: SLF001
    spanish = hand_view._menu_options(plays, "es")  # noqa: SLF001
    assert spanish is not first and spanish[0]["label"] == "3 · carta suelta"
    again = tuple(plays)[:-1]
    assert hand_view._menu_options(again, "en") is not first  # noqa: SLF001


def test_a_list_of_plays_is_never_served_from_the_cache() -> None:
    plays = list(legal_plays(tuple(parse_cards("3344")), None, DEFAULT_RULES))
    first = hand_view._menu_options(plays, "en")  # noqa: SLF001
    plays.reverse()  # the same list, changed: its menu must follow
    assert hand_view._menu_options(plays, "en")[0]["label"] == first[-1]["label"]  # noqa: SLF001
