"""The two Chinese catalogs (issue 51): the players' names for every combination, each
catalog in its own script and punctuation, and the two apart wherever the scripts differ."""

from __future__ import annotations

import unicodedata

import pytest

from bot.i18n import catalog
from rendering.text import face_of

KINDS = {
    "single": ("单张", "單張"), "pair": ("对子", "對子"), "trio": ("三张", "三張"),
    "trio_single": ("三带一", "三帶一"), "trio_pair": ("三带二", "三帶二"),
    "straight": ("顺子", "順子"), "pair_chain": ("连对", "連對"), "airplane": ("飞机", "飛機"),
    "airplane_singles": ("飞机带翅膀", "飛機帶翅膀"), "airplane_pairs": ("飞机带对", "飛機帶對"),
    "four_two_singles": ("四带二", "四帶二"), "four_two_pairs": ("四带两对", "四帶兩對"),
    "bomb": ("炸弹", "炸彈"), "rocket": ("王炸", "王炸"),
}
"""Each combination's name in Simplified and Traditional Chinese (docs/RULES.md §Names in Chinese)."""
SIMPLIFIED = "张对带连飞机弹农记顺两这过开关电脑选择胜负输赢进还没让说从为们时后发剩余"
TRADITIONAL = "張對帶連飛機彈農記順兩這過開關電腦選擇勝負輸贏進還沒讓說從為們時後發剩餘"
"""Frequent characters of the catalogs whose two forms differ (simplified → traditional)."""


def test_the_character_lists_pair_up() -> None:
    assert len(SIMPLIFIED) == len(TRADITIONAL)
    assert not set(SIMPLIFIED) & set(TRADITIONAL) - set("剩")  # 剩 is the same in both


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_combination_has_the_players_name(kind: str) -> None:
    simplified, traditional = KINDS[kind]
    assert catalog("zh_CN")[f"kind.{kind}"] == simplified
    assert catalog("zh_TW")[f"kind.{kind}"] == traditional


@pytest.mark.parametrize(("lang", "foreign", "quotes", "other_quotes"), [
    ("zh_CN", set(TRADITIONAL) - set("剩"), "“”", "「」"),
    ("zh_TW", set(SIMPLIFIED) - set("剩"), "「」", "“”"),
])
def test_each_catalog_is_in_its_own_script_and_quotes(
        lang: str, foreign: set[str], quotes: str, other_quotes: str) -> None:
    texts = catalog(lang)
    wrong = {k: v for k, v in texts.items() if foreign & set(v) or set(other_quotes) & set(v)}
    assert wrong == {}
    assert any(set(quotes) <= set(v) for v in texts.values())
    assert not [k for k, v in texts.items() if lang == "zh_TW" and "托管" in v]  # 託管


def test_the_two_catalogs_differ_wherever_the_scripts_do() -> None:
    simplified, traditional = catalog("zh_CN"), catalog("zh_TW")
    differ = set(SIMPLIFIED) - set("剩")
    same = [k for k, v in simplified.items() if differ & set(v) and traditional[k] == v]
    assert same == []
    # and where the words differ, not only the script: 管上/壓過, 回放/重播, 子区/討論串
    assert "管上" in simplified["error.does_not_beat"] or "管不上" in simplified["error.does_not_beat"]
    assert "壓不過" in traditional["error.does_not_beat"]
    assert (simplified["cmd.replay.name"], traditional["cmd.replay.name"]) == ("回放", "重播")
    assert "子区" in simplified["perm.send_messages_in_threads"]
    assert "討論串" in traditional["perm.send_messages_in_threads"]


@pytest.mark.parametrize("lang", ["zh_CN", "zh_TW"])
def test_every_character_of_every_chinese_message_has_a_glyph_in_the_bundled_fonts(
        lang: str) -> None:
    # the images draw catalog texts with DejaVu Sans, Droid Sans Fallback (CJK) or Noto Emoji
    chars = {c for text in catalog(lang).values() for c in text
             if not c.isspace() and unicodedata.category(c)[0] != "M" and c != "\ufe0f"}
    assert len(chars) > 500
    assert sorted(c for c in chars if face_of(c) < 0) == []
