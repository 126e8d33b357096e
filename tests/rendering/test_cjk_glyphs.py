"""Every character of the Chinese catalogs has a glyph in the fonts the images draw it
with, regular (Droid Sans Fallback) and bold (the Noto Sans CJK SC Bold subset), read
from the fonts' character maps (issue 51; rendering/text.py).

A catalog that gains a character the bold subset lacks fails here: run
``python -m tools.cjk_bold_subset`` (its docstring says where the full face comes from).
"""

from __future__ import annotations

import unicodedata
from functools import cache

import pytest
from fontTools.ttLib import TTFont

from bot.i18n import available_locales, catalog, plurals
from rendering.text import BOLD, BOLD_FALLBACK, DROID, DROID_BOLD, FALLBACK, REGULAR, _layout, font

CHINESE = ("zh_CN", "zh_TW")


@cache
def cmap(path: str) -> frozenset[int]:
    """The code points ``path``'s best character map maps."""
    return frozenset(TTFont(path, lazy=True).getBestCmap())


def drawn_by_fallback(char: str) -> bool:
    """A character DejaVu lacks that is not a pictograph (Noto Emoji draws those)."""
    code = ord(char)
    if char.isspace() or unicodedata.category(char)[0] == "C":
        return False
    if code in cmap(str(REGULAR)) and code in cmap(str(BOLD)):
        return False
    return not (unicodedata.category(char) == "So" and code >= 0x2600)


def strings(lang: str) -> list[str]:
    texts = list(catalog(lang).values())
    for forms in plurals(lang).values():
        texts += forms
    return texts


@pytest.mark.parametrize("lang", CHINESE)
def test_every_chinese_character_has_a_regular_and_a_bold_glyph(lang: str) -> None:
    if lang not in available_locales():
        pytest.skip(f"the {lang} catalog has not landed")
    chars = sorted({c for text in strings(lang) for c in text if drawn_by_fallback(c)})
    assert len(chars) > 300, lang  # a whole catalog's characters, not a stub
    assert [c for c in chars if ord(c) not in cmap(str(FALLBACK))] == [], "regular"
    assert [c for c in chars if ord(c) not in cmap(str(BOLD_FALLBACK))] == [], "bold"


def test_bold_chinese_takes_the_bold_face_and_a_rare_character_stays_regular() -> None:
    runs, _ = _layout("炸彈 · Ana 龘", font(22, True))
    faces = [(run, str(face.path)) for run, face in runs]
    assert faces[0] == ("炸彈", str(BOLD_FALLBACK))
    assert faces[-1] == ("龘", str(FALLBACK))  # not in the subset: drawn regular
    regular, _ = _layout("炸彈", font(22))
    assert [str(face.path) for _, face in regular] == [str(FALLBACK)]
    assert DROID != DROID_BOLD


def test_the_bold_subset_covers_both_scripts_common_characters() -> None:
    bold = cmap(str(BOLD_FALLBACK))
    for char in "地主农民農民炸弹炸彈王炸顺子順子飞机飛機张伟陳怡君":
        assert ord(char) in bold, char
