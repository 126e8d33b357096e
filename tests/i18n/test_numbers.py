"""Decimals as each language writes them: ``2.7`` in English, ``2,7`` in Spanish (issue 37:
the Spanish texts wrote "2.7"), through Babel (bot/i18n/numbers.py)."""

from __future__ import annotations

from fractions import Fraction

from bot.features.events.rules import shown_score
from bot.game.rating import SkillRating
from bot.i18n import decimal, decimal_mark
from bot.values import RatingRow
from cogs.info import rating_embed


def test_decimals_follow_the_language() -> None:
    assert [decimal(2.66, lang) for lang in ("en-US", "es-ES", "es-419", "fr")] == [
        "2.7", "2,7", "2,7", "2.7"]
    assert decimal(-1.25, "es") == "-1,2" and decimal(-1.25, "es", minus="\u2212") == "\u22121,2" and decimal(-0.01, "en") == "0.0"
    assert decimal(1.5, "es", 2, trim=True) == "1,5" and decimal(2.0, "es", 2, trim=True) == "2"
    assert decimal(3, "en", 0, sign=True) == "+3"
    assert (decimal_mark("es-ES"), decimal_mark("en-GB")) == (",", ".")
    assert shown_score(Fraction(3, 2), decimal_mark("es")) == "+1,5"


def test_a_spanish_rating_board_writes_decimal_commas() -> None:
    row = RatingRow(user_id=1, computer=None, name="Ana",
                    rating=SkillRating(mu=27.66, sigma=8.33, hands=40))
    es = rating_embed([row], "es-ES").fields[0].value
    en = rating_embed([row], "en-US").fields[0].value
    assert "27,7" in es and "8,3" in es and "27.7" not in es, es
    assert "27.7" in en and "8.3" in en, en


def test_chinese_writes_a_decimal_point() -> None:
    # Babel's zh_Hans_CN and zh_Hant_TW both write 2.7 (issue 51)
    assert [decimal(2.66, lang) for lang in ("zh-CN", "zh-TW", "zh")] == ["2.7", "2.7", "2.7"]
    assert decimal_mark("zh-TW") == "." and decimal(-1.25, "zh-CN", minus="\u2212") == "\u22121.2"
