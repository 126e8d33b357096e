"""Kept only so that tests written against ``from tests.cogs.conftest import …`` keep
working: the helpers live in ``tests/support/fake_game.py`` and the ``fake`` fixture
in ``tests/support/fixtures.py``; import from there."""

from tests.support.fake_game import (  # noqa: F401  (the old import path)
    CHANNEL_ID,
    GUILD_ID,
    HANDS,
    KITTY,
    autoplayed_solo_hand,
    deal_for,
    members,
)
