"""Embed footers show no Markdown: Discord draws a footer as plain text, so backticks and
asterisks would show as they are typed (issue 48: the score's footer read
"Latest hand: #2 · `/ddz replay 2` to watch it again", backticks and all)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.i18n import available_locales, catalog

ROOT = Path(__file__).resolve().parents[2]
FOOTER_KEY = re.compile(r"set_footer\(text=tn?\(\s*f?\"([a-z_.{}]+)\"")


def footer_keys() -> set[str]:
    """Every catalog key a footer is drawn from, found in the cogs' and features' sources
    (a key built with ``{…}`` stands for every key it can name)."""
    keys: set[str] = set()
    for path in [*ROOT.glob("cogs/*.py"), *ROOT.glob("bot/features/**/*.py")]:
        for match in FOOTER_KEY.finditer(path.read_text(encoding="utf-8")):
            pattern = re.sub(r"\\\{[a-z_.]+\\\}", "[a-z_]+", re.escape(match.group(1)))
            keys |= {k for k in catalog("en") if re.fullmatch(pattern, k)}
    return keys


def test_the_footers_are_found() -> None:
    assert {"score.last_hand", "score.rating_footer", "review.footer"} <= footer_keys()


@pytest.mark.parametrize("lang", available_locales())
def test_no_footer_text_holds_markdown(lang: str) -> None:
    texts = catalog(lang)
    marked = {k: texts[k] for k in footer_keys() if "`" in texts[k] or "**" in texts[k]}
    assert marked == {}
