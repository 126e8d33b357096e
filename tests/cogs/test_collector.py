"""The bot tunes the garbage collector once it is up (bot.client, docs/PERFORMANCE.md)."""

from __future__ import annotations

import gc

from bot.client import GC_YOUNG_THRESHOLD
from tests.support.fake_discord import FakeDiscord


async def test_after_setup_what_exists_is_frozen_and_young_collections_are_rarer(
        fake: FakeDiscord) -> None:
    assert fake.bot.service is not None
    assert gc.get_freeze_count() > 0
    assert gc.get_threshold()[0] == GC_YOUNG_THRESHOLD
