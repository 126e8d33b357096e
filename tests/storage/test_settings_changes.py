"""GuildSettings.with_changes: the /ddz config merge, validated."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.rules import RuleSet
from bot.values import GuildSettings


def test_changes_merge_into_the_rules_and_keep_the_other_values() -> None:
    before = GuildSettings(turn_seconds_bid=20, rules=RuleSet(bidding="until_two_passes"),
                           language="es")
    after = before.with_changes(target_points=50, kickers="distinct", turn_seconds_play=90)
    assert after.rules == RuleSet(bidding="until_two_passes", kickers="distinct",
                                  target_points=50)
    assert (after.turn_seconds_play, after.turn_seconds_bid, after.language) == (90, 20, "es")


def test_none_changes_nothing_and_server_clears_the_language() -> None:
    before = GuildSettings(language="es")
    assert before.with_changes(target_points=None, language=None) == before
    assert before.with_changes(language="server").language is None


@pytest.mark.parametrize("change", [{"turn_seconds_play": 1}, {"target_points": 0},
                                    {"kickers": "any"}, {"turn_seconds_bid": 601}])
def test_a_forged_value_is_refused(change: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        GuildSettings().with_changes(**change)  # type: ignore[arg-type]
