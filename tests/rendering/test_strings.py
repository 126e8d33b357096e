"""Image text comes from the shared catalogs (``img.*`` keys of bot/i18n)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.i18n import catalog
from rendering.strings import normalize_locale, text

RENDERING = Path(__file__).resolve().parents[2] / "rendering"
USED = re.compile(r"""text(?:_n)?\(locale, ["']([a-z_]+)["']""")


def test_image_strings_are_the_catalog_messages() -> None:
    assert text("es-ES", "warn_one") == catalog("es")["img.warn_one"] == "¡Última!"
    assert text("en", "cards_left", n=9) == "9 cards"
    assert text("es_MX", "multiplier", n=4) == "Multiplicador ×4"


def test_unsupported_locales_fall_back_to_english() -> None:
    assert normalize_locale("fr") == "en" and normalize_locale("ES") == "es"
    assert text("ja", "kitty") == "Kitty"  # was zh-CN, which has its catalog since issue 51


def test_chinese_images_take_the_chinese_catalog() -> None:
    assert normalize_locale("zh-CN") == "zh_CN"
    assert text("zh-CN", "kitty") == catalog("zh_CN")["img.kitty"] != "Kitty"


def test_an_unknown_image_key_raises_key_error() -> None:
    with pytest.raises(KeyError):
        text("en", "no_such_key")


def test_every_literal_key_drawn_exists_in_both_catalogs() -> None:
    used = {k for path in RENDERING.glob("*.py") for k in USED.findall(path.read_text("utf-8"))}
    assert {"pass", "turn_bid", "kitty", "points", "cards_left"} <= used
    for lang in ("en", "es"):
        assert {k for k in used if f"img.{k}" not in catalog(lang)} == set(), lang


@pytest.mark.processes
def test_importing_rendering_does_not_import_discord() -> None:
    code = "import sys, rendering, tools.preview; print('discord' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=RENDERING.parent)
    assert out.stdout.strip() == "False"
