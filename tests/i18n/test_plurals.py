"""Counts read right in both languages: gettext plural entries chosen by ``tn``
("1 hand" / "2 hands", "1 mano" / "2 manos")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.i18n import available_locales, catalog, placeholders, plural_forms, plurals, t, tn
from rendering.strings import text_n

NOUNS = {"en": r"hands|cards|points|matches|tables|rounds|entrants",
         "es": r"manos|cartas|puntos|partidas|mesas|rondas|inscritos"}
"""Nouns a count may not come before in a plain message (issue 48: "1 tables")."""


@pytest.mark.parametrize("lang", ["en", "es"])
def test_both_catalogs_have_two_forms_one_for_exactly_one(lang: str) -> None:
    assert plural_forms(lang) == "nplurals=2; plural=(n != 1);"


CHINESE = [lang for lang in available_locales() if lang.startswith("zh")]


@pytest.mark.parametrize("lang", CHINESE)
def test_chinese_has_one_form_for_every_count(lang: str) -> None:
    # Chinese nouns do not change with the count: "1 局", "2 局" (nplurals=1, one msgstr[0])
    assert plural_forms(lang) == "nplurals=1; plural=0;"
    assert set(plurals(lang)) == set(plurals("en"))
    for key, forms in plurals(lang).items():
        assert len(forms) == 1 and placeholders(forms[0]) == placeholders(plurals("en")[key][1]), key
        assert catalog(lang)[key] == forms[0]


def test_a_language_with_one_form_takes_it_for_every_count(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.support.locales import throwaway_locales

    with throwaway_locales(tmp_path, monkeypatch, {"zh_CN": {
            "count.points": ["{n} 分"], "img.cards_left": ["{n} 张"]}}):
        assert plural_forms("zh_CN") == "nplurals=1; plural=0;"
        assert [tn("count.points", n, "zh-CN", n=n) for n in (0, 1, 2, 11)] == [
            "0 分", "1 分", "2 分", "11 分"]
        assert text_n("zh-CN", "cards_left", 1, n=1) == "1 张"
        assert t("count.points", "zh-CN", n=3) == "3 分"
        assert tn("score.matches_won", 1, "zh-CN", n=1) == "1 match won"  # missing: English


def test_both_languages_have_the_same_plural_entries_with_the_same_placeholders() -> None:
    assert set(plurals("en")) == set(plurals("es"))
    for key, forms in plurals("en").items():
        spanish = plurals("es")[key]
        assert len(forms) == len(spanish) == 2, key
        assert len({placeholders(f) for f in forms + spanish}) == 1, key
        assert catalog("en")[key] == forms[1] and catalog("es")[key] == spanish[1], key


@pytest.mark.parametrize("lang", ["en", "es"])
def test_no_plain_message_puts_a_plural_noun_after_a_count(lang: str) -> None:
    # a count followed by "hands"/"manos" must be a plural entry, else "1 hands" shows
    noun = re.compile(rf"\{{[a-z_]+\}} ({NOUNS[lang]})\b")
    plain = {k: v for k, v in catalog(lang).items() if k not in plurals(lang)}
    assert {k: v for k, v in plain.items() if noun.search(v)} == {}


@pytest.mark.parametrize(("key", "params", "english", "spanish"), [
    ("score.match_row", {"rank": 1, "name": "Ana", "total": "+4"},
     ("1. Ana: **+4** (1 hand)", "1. Ana: **+4** (2 hands)", "1. Ana: **+4** (0 hands)"),
     ("1. Ana: **+4** (1 mano)", "1. Ana: **+4** (2 manos)", "1. Ana: **+4** (0 manos)")),
    ("score.hands_won", {"won": 1},
     ("1/1 hand won", "1/2 hands won", "1/0 hands won"),
     ("1/1 mano ganada", "1/2 manos ganadas", "1/0 manos ganadas")),
    ("score.matches_won", {},
     ("1 match won", "2 matches won", "0 matches won"),
     ("1 partida ganada", "2 partidas ganadas", "0 partidas ganadas")),
    ("count.points", {}, ("1 point", "2 points", "0 points"), ("1 punto", "2 puntos", "0 puntos")),
    ("img.cards_left", {}, ("1 card", "2 cards", "0 cards"), ("1 carta", "2 cartas", "0 cartas")),
])
def test_one_takes_the_singular_and_every_other_count_the_plural(
    key: str, params: dict[str, object], english: tuple[str, ...], spanish: tuple[str, ...]
) -> None:
    for n, en, es in zip((1, 2, 0), english, spanish, strict=True):
        fields = {"hands": n, "n": n, **params}
        assert tn(key, n, "en-US", **fields) == en
        assert tn(key, n, "es-ES", **fields) == es


def test_whole_messages_agree_with_their_count_in_both_languages() -> None:
    assert tn("result.match_no_winner_hands", 1, "en", hands=1).startswith(
        "🏁 After 1 hand the match is over")
    assert tn("result.match_no_winner_hands", 3, "es", hands=3).startswith(
        "🏁 Tras 3 manos la partida ha terminado")
    assert tn("newmatch.confirm", 1, "es", match=2, hands=1).startswith(
        "¿Empezar una partida nueva? Todos los totales de la partida n.º 2 (1 mano jugada)")
    assert tn("score.match_hands", 1, "es", match=1, next=2, hands=2, played=1) == (
        "Partida actual n.º 1 · mano 2 de 2 (1 jugada; gana el total más alto)")
    assert tn("score.match_hands", 1, "en", match=1, next=2, hands=2, played=1) == (
        "Current match #1 · hand 2 of 2 (1 played; the highest total wins)")
    assert tn("select.cards", 1, "es", n=1) == "Elige cartas (1 jugada legal)…"
    assert tn("select.cards", 7, "es", n=7) == "Elige cartas (7 jugadas legales)…"
    assert tn("reason.stop_opponent_few_cards", 1, "en", n=1, cards="2") == (
        "An opponent has only 1 card left: stop it with 2.")


def test_image_strings_take_the_plural_form_too() -> None:
    assert text_n("en", "cards_left", 1, n=1) == "1 card"
    assert text_n("es-ES", "cards_left", 5, n=5) == "5 cartas"
    with pytest.raises(KeyError):
        text_n("en", "no_such_key", 1)


def test_fallbacks_english_then_the_plain_message() -> None:
    assert tn("count.points", 1, "fr", n=1) == "1 point"  # unknown locale: English
    assert tn("error.bid_too_low", 1, "es", amount=1, highest=2) == (
        "La apuesta debe superar 2; 1 no lo hace.")  # not a plural entry: as t()
    assert t("count.points", "en", n=5) == "5 points"  # t() gives the general form


def test_a_tournament_of_one_table_or_one_round_reads_in_the_singular() -> None:
    # Issue 48: "round 1 of 1: 1 tables" (a field of two members sits at one table).
    assert tn("tournament.round_seated", 1, "en", name="Cup", round=1, rounds=1, tables=1) == (
        "🏆 **Cup**, round 1 of 1: 1 table, in its thread under this channel.")
    assert tn("tournament.round_seated", 3, "es", name="Copa", round=1, rounds=2, tables=3) == (
        "🏆 **Copa**, ronda 1 de 2: 3 mesas, cada una en su hilo bajo este canal.")
    assert tn("tournament.state_finished", 1, "en", rounds=1) == "Final standings after 1 round."
    assert tn("tournament.state_finished", 1, "es", rounds=1) == (
        "Clasificación final tras 1 ronda.")
    assert tn("tournament.start_refused", 1, "en", name="Cup", count=1).startswith(
        "**Cup** could not start: 1 entrant, at least 3")
