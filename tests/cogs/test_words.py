"""Words (issue 27 §7), each with the input that showed it: "tú apostar 3", names
joined with "&", "Best hand: 0" after a single −6 hand, the turn timer missing from
the private view, and /ddz rules promising illustrations it does not send."""

from __future__ import annotations

import time

from bot.i18n import t
from bot.values import PlayerStats
from cogs import texts
from cogs.hand_view import build_screen
from cogs.info import stats_embed
from cogs.items import ViewState
from tests.support.fake_game import bidding_table


def test_a_review_line_in_spanish_reads_as_spanish() -> None:
    line = t("review.line_other", "es", where="Apuestas", mine="apostar 3", best="pasar la apuesta")
    assert line == "Apuestas: tu decisión: apostar 3 · ordenador difícil: pasar la apuesta"
    assert "tú apostar" not in line


def test_names_are_joined_with_and_or_y() -> None:
    assert texts.join_names(["Ana", "Bo"], "en") == "Ana and Bo"
    assert texts.join_names(["Ana", "Bo", "Cy"], "es") == "Ana, Bo y Cy"
    assert texts.join_names(["Ana"], "es") == "Ana" and texts.join_names([], "en") == ""


def test_a_player_whose_only_hand_lost_6_has_no_best_hand() -> None:
    lost = PlayerStats(user_id=1, name="Ana", hands=1, net_points=-6, best_hand=0)
    fields = {f["name"]: f["value"] for f in stats_embed(lost, "Ana", "en").to_dict()["fields"]}
    assert fields["Best hand"] == "none won yet"
    won = PlayerStats(user_id=1, name="Ana", hands=2, wins_peasant=1, net_points=-2, best_hand=4)
    fields = {f["name"]: f["value"] for f in stats_embed(won, "Ana", "es").to_dict()["fields"]}
    assert fields["Mejor mano"] == "+4"


def test_the_private_view_shows_the_turn_timer_as_a_relative_timestamp() -> None:
    table = bidding_table()  # Ana (seat 0) to bid
    table.deadline = time.time() + 30
    mine = build_screen(table, 0, ViewState(), "en").content
    assert f"<t:{int(table.deadline)}:R>" in mine
    assert "<t:" not in build_screen(table, 1, ViewState(), "en").content  # not Bot 2's turn


def test_rules_no_longer_promise_illustrations() -> None:
    assert t("cmd.rules.description", "en") == "The rules, in short"
    assert "ejemplos" not in t("cmd.rules.description", "es")
